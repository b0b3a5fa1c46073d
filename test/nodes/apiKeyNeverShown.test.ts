// The API key never reaches an output, even when the service's answer quotes it: every action
// node, on success (message, body) and on failure (error, details.serviceMessage, body).
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	ASSIGN_WORKFLOW,
	CREATE_CAMPAIGN,
	DELETE_SCHEDULED_CALL,
	OUTBOUND_CALL,
} from '../engine/callKaroNodes';
import { startEchoServer } from '../engine/echoServer.mjs';
import { REDACTED_KEY } from '../../src/redact';
import { NODE_NAME, expectNoSecrets, failedItemJson, runNode, useSandbox } from './fixtures';

const API_KEY = 'ck_dummy_key_echoed_4242424242';

const NODES: Array<[string, string, INodeParameters]> = [
	[
		'Assign Workflow',
		ASSIGN_WORKFLOW,
		{
			phoneNumber: '+919876543210',
			workflowId: 'wf_welcome',
			attributeSource: 'none',
			schedule: 'now',
		},
	],
	['Outbound Call', OUTBOUND_CALL, { agentId: 'agent_sales_01', phoneNumber: '+919876543210' }],
	[
		'Delete Scheduled Call',
		DELETE_SCHEDULED_CALL,
		{ agentId: 'agent_sales_01', phoneNumber: '+919876543210' },
	],
	['Create Campaign', CREATE_CAMPAIGN, { name: 'Leads', campaignType: 'v2' }],
];

/** An answer that quotes the key the request carried, in its message and deeper in its body. */
function echoingKey(status: number) {
	return (request: { headers: Record<string, unknown> }) => {
		const key = String(request.headers['x-api-key']);
		return {
			status,
			json: {
				status: status === 200 ? 'success' : 'error',
				message: `Key ${key} seen`,
				run_id: 'run_1',
				enrollment_id: 'enr_1',
				call_sid: 'CA1',
				batch_id: 'batch_1',
				attributes: { updated: [], kept_existing: [], ignored: [], invalid: [] },
				echo: { headers: { 'x-api-key': key }, [key]: [key] },
			},
		};
	};
}

describe('the API key in an answer of the service', () => {
	const sandbox = useSandbox();
	const server = (() => {
		let echo: Awaited<ReturnType<typeof startEchoServer>> | undefined;
		beforeAll(async () => {
			echo = await startEchoServer();
		});
		afterAll(async () => await echo?.close());
		return () => echo as Awaited<ReturnType<typeof startEchoServer>>;
	})();

	describe.each(NODES)('%s', (_, type, parameters) => {
		it('is removed from the message and the body of a success', async () => {
			server().setResponder(echoingKey(200));
			const result = await runNode(sandbox(), {
				type,
				parameters,
				apiKey: API_KEY,
				baseUrl: server().url,
			});

			expect(server().requests[0].headers['x-api-key']).toBe(API_KEY);
			expectNoSecrets(result, { apiKeys: [API_KEY] });
			const [item] = result.runData[NODE_NAME][0].data?.main[0] ?? [];
			const body = item.json.body as IDataObject;
			expect(body.message).toBe(`Key ${REDACTED_KEY} seen`);
			expect(body.echo).toEqual({
				headers: { 'x-api-key': REDACTED_KEY },
				[REDACTED_KEY]: [REDACTED_KEY],
			});
		});

		it('is removed from error, details.serviceMessage and body of a failure', async () => {
			server().setResponder(echoingKey(400));
			const result = await runNode(sandbox(), {
				type,
				parameters,
				apiKey: API_KEY,
				baseUrl: server().url,
				settings: { continueOnFail: true },
			});

			expectNoSecrets(result, { apiKeys: [API_KEY] });
			const [item] = result.runData[NODE_NAME][0].data?.main[0] ?? [];
			const json = failedItemJson(item);
			expect(json.error).toContain(`Key ${REDACTED_KEY} seen`);
			expect((json.details as IDataObject).serviceMessage).toBe(`Key ${REDACTED_KEY} seen`);
		});
	});
});
