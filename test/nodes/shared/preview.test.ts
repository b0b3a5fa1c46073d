// Options → Preview Only (Send Nothing) on every action node: each item is checked and converted
// exactly as it would be sent, and its request is the output. The sandbox sees no request; the
// same parameters run for real send exactly the previewed request.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	ASSIGN_WORKFLOW,
	CREATE_CAMPAIGN,
	DELETE_SCHEDULED_CALL,
	OUTBOUND_CALL,
} from '../../engine/callKaroNodes';
import { NODE_NAME, apiRequests, runNode, useSandbox, workflowError } from '../fixtures';
import type { LoggedRequest, Sandbox } from '../fixtures';

interface PreviewCase {
	title: string;
	type: string;
	parameters: INodeParameters;
	items: IDataObject[];
	/** The request each item previews. */
	requests: IDataObject[];
}

/** The request as the sandbox received it, in the preview's terms. */
function asPreviewed(request: LoggedRequest): IDataObject {
	const query = new URLSearchParams(request.query).toString();
	return {
		method: request.method,
		path: `${request.path}${query ? `?${query}` : ''}`,
		body: request.body as IDataObject,
	};
}

// The example the README shows.
const national = '9876543210';
const e164 = `+91${national}`;

const cases: PreviewCase[] = [
	{
		title: 'Outbound Call: the normalised number and the IST schedule_at',
		type: OUTBOUND_CALL,
		parameters: {
			agentId: 'agent_sales_01',
			phoneNumber: '={{ $json.phone }}',
			additionalFields: { scheduleAt: '2030-12-01T09:30:00Z', language: 'hi' },
			options: { defaultCountryCode: '91' },
		},
		items: [{ phone: `0${national.slice(0, 5)} ${national.slice(5)}` }],
		requests: [
			{
				method: 'POST',
				path: '/call/outbound',
				body: {
					to_number: e164,
					agent_id: 'agent_sales_01',
					schedule_at: '2030-12-01T15:00:00',
					language: 'hi',
				},
			},
		],
	},
	{
		title: 'Assign Workflow: attributes as CallKaro takes them',
		type: ASSIGN_WORKFLOW,
		parameters: {
			phoneNumber: '={{ $json.phone }}',
			workflowId: 'wf_welcome',
			attributeSource: 'json',
			attributesJson: '={{ { city: $json.city } }}',
			schedule: 'now',
		},
		items: [{ phone: e164, city: 'Pune' }],
		requests: [
			{
				method: 'POST',
				path: '/workflow/assign',
				body: {
					to_number: e164,
					workflow_id: 'wf_welcome',
					attributes: [{ key: 'city', value: 'Pune', replace: false }],
				},
			},
		],
	},
	{
		title: 'Delete Scheduled Call: the agent in the query',
		type: DELETE_SCHEDULED_CALL,
		parameters: { agentId: 'agent_sales_01', phoneNumber: '={{ $json.phone }}' },
		items: [{ phone: e164 }],
		requests: [
			{
				method: 'POST',
				path: '/call/delete-schedule-call?agent_id=agent_sales_01',
				body: { to_number: e164 },
			},
		],
	},
	{
		title: 'Create Campaign: the endpoint of the campaign type',
		type: CREATE_CAMPAIGN,
		parameters: { name: '={{ $json.name }}', campaignType: 'v2' },
		items: [{ name: 'Diwali offers' }],
		requests: [{ method: 'POST', path: '/v2/call/campaign', body: { name: 'Diwali offers' } }],
	},
];

function run(sandbox: Sandbox, testCase: PreviewCase, previewOnly: boolean) {
	const { parameters } = testCase;
	const options = { ...(parameters.options as IDataObject | undefined), previewOnly };
	return runNode(sandbox, {
		type: testCase.type,
		parameters: { ...parameters, options },
		items: testCase.items,
	});
}

describe('Preview Only (Send Nothing)', () => {
	const sandbox = useSandbox();

	describe.each(cases)('$title', (testCase) => {
		it('outputs each request, sending nothing', async () => {
			const result = await run(sandbox(), testCase, true);

			expect(result.outputOf(NODE_NAME)[0]).toEqual(
				testCase.requests.map((request, item) => ({
					json: { preview: true, request },
					pairedItem: { item },
				})),
			);
			expect(apiRequests(sandbox())).toEqual([]);
		});

		it('previews exactly what a real run sends', async () => {
			const preview = await run(sandbox(), testCase, true);
			await run(sandbox(), testCase, false);

			expect(apiRequests(sandbox()).map(asPreviewed)).toEqual(
				preview.json(NODE_NAME).map((item) => item.request),
			);
		});
	});

	it('fails a bad item as a real run would, naming the field and the item', async () => {
		const result = await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: {
				agentId: 'agent_sales_01',
				phoneNumber: '={{ $json.phone }}',
				options: { previewOnly: true },
			},
			items: [{ phone: e164 }, { phone: '12' }],
		});

		expect(workflowError(result)).toMatchObject({ context: { itemIndex: 1 } });
		expect(workflowError(result).message).toMatch(/^"Phone Number" .* \[item 1\]$/);
		expect(apiRequests(sandbox())).toEqual([]);
	});

	it('shows which items a real run would not send, and sums up', async () => {
		const result = await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: {
				agentId: 'agent_sales_01',
				phoneNumber: '={{ $json.phone }}',
				options: { previewOnly: true },
			},
			items: [{ phone: e164 }, { phone: e164 }],
		});

		expect(result.json(NODE_NAME)[1]).toMatchObject({
			preview: true,
			placed: false,
			status: 'duplicate',
			duplicateOf: 0,
		});
		expect(result.task(NODE_NAME).hints).toEqual([
			{
				type: 'info',
				location: 'outputPane',
				message: '2 items: 1 previewed, 1 skipped as duplicate; nothing was sent (Preview Only)',
			},
		]);
		expect(apiRequests(sandbox())).toEqual([]);
	});
});
