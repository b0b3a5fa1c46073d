// Proves the engine harness with a test-only node against a throwaway echo server on 127.0.0.1.
import { DateTime } from 'luxon';
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { testCredential } from './credentialTest';
import { startEchoServer } from './echoServer.mjs';
import type { EchoServer } from './echoServer.mjs';
import { chain, link, node, runAsTool, runWorkflow } from './harness';

const ECHO_TYPE = 'test.echoCall';
const API_KEY = 'ck_test_harness_key';

function describeValue(value: unknown): string {
	if (DateTime.isDateTime(value)) return 'luxon';
	if (value instanceof Date) return 'date';
	return typeof value;
}

/** Posts `{ phone }` to <baseUrl>/call/outbound with the callKaroApi credential and reports what it saw. */
class EchoCall implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Echo Call',
		name: ECHO_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Test node for the engine harness',
		defaults: { name: 'Echo Call' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'callKaroApi', required: true }],
		properties: [
			{ displayName: 'Phone', name: 'phone', type: 'string', default: '', required: true },
			{ displayName: 'When', name: 'when', type: 'dateTime', default: '' },
			{ displayName: 'Refuse Phone', name: 'refusePhone', type: 'string', default: '' },
			{
				displayName: 'Ignore HTTP Status Errors',
				name: 'ignoreStatus',
				type: 'boolean',
				default: true,
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const returnData: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			try {
				const phone = this.getNodeParameter('phone', i) as string;
				const when = this.getNodeParameter('when', i) as unknown;
				if (phone !== '' && phone === this.getNodeParameter('refusePhone', i)) {
					throw new NodeOperationError(this.getNode(), `"Phone" ${phone} is refused [item ${i}]`, {
						itemIndex: i,
					});
				}
				const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('callKaroApi');
				const response = (await this.helpers.httpRequestWithAuthentication.call(
					this,
					'callKaroApi',
					{
						method: 'POST' as IHttpRequestMethods,
						url: `${baseUrl}/call/outbound`,
						body: { phone },
						json: true,
						returnFullResponse: true,
						ignoreHttpStatusErrors: this.getNodeParameter('ignoreStatus', i) as boolean,
					},
				)) as { statusCode: number; body: IDataObject };
				returnData.push({
					json: {
						statusCode: response.statusCode,
						body: response.body,
						timezone: this.getTimezone(),
						isToolExecution: this.isToolExecution(),
						rewireOutputLogTo: this.getNode().rewireOutputLogTo ?? null,
						whenType: describeValue(when),
						whenIso: DateTime.isDateTime(when) ? when.toISO() : String(when),
						input: items[i].json,
					},
					pairedItem: { item: i },
				});
			} catch (error) {
				if (this.continueOnFail()) {
					returnData.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
					continue;
				}
				const failure =
					error instanceof NodeApiError || error instanceof NodeOperationError
						? error
						: new NodeOperationError(this.getNode(), error as Error, { itemIndex: i });
				throw failure;
			}
		}
		return [returnData];
	}
}

const nodeTypes = { [ECHO_TYPE]: new EchoCall() };

describe('engine harness (WorkflowExecute + test node + echo server)', () => {
	let server: EchoServer;
	const credentials = () => ({ callKaroApi: { apiKey: API_KEY, baseUrl: server.url } });

	beforeAll(async () => {
		server = await startEchoServer();
	});
	afterAll(async () => {
		await server.close();
	});
	beforeEach(() => server.reset());

	it('turns items into items with pairedItem, resolving {{ $json.phone }} per item', async () => {
		const result = await runWorkflow({
			nodes: [node('Call', ECHO_TYPE, { phone: '={{ $json.phone }}' })],
			items: [{ phone: '+911111111111' }, { phone: '+912222222222' }, { phone: '+913333333333' }],
			credentials: credentials(),
			nodeTypes,
		});

		expect(result.status).toBe('success');
		const [output] = result.outputOf('Call');
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(result.json('Call').map((json) => json.statusCode)).toEqual([200, 200, 200]);
		expect(server.requests.map((request) => [request.method, request.path, request.body])).toEqual([
			['POST', '/call/outbound', { phone: '+911111111111' }],
			['POST', '/call/outbound', { phone: '+912222222222' }],
			['POST', '/call/outbound', { phone: '+913333333333' }],
		]);
	});

	it("sends X-API-KEY from the credential type's own generic authenticate", async () => {
		const result = await runWorkflow({
			nodes: [node('Call', ECHO_TYPE, { phone: '+911111111111' })],
			credentials: credentials(),
			nodeTypes,
		});

		expect(result.status).toBe('success');
		expect(server.requests[0].headers['x-api-key']).toBe(API_KEY);
		expect(result.authenticated[0].requestOptions.headers).toMatchObject({ 'X-API-KEY': API_KEY });
	});

	it('gives getTimezone() the workflow timezone setting', async () => {
		const result = await runWorkflow({
			nodes: [node('Call', ECHO_TYPE, { phone: '+911111111111' })],
			credentials: credentials(),
			nodeTypes,
			timezone: 'America/Los_Angeles',
		});
		expect(result.json('Call')[0].timezone).toBe('America/Los_Angeles');
	});

	it('delivers a dateTime expression as a luxon DateTime and a typed value as a string', async () => {
		const result = await runWorkflow({
			nodes: [
				node('Expression', ECHO_TYPE, {
					phone: '+911111111111',
					when: '={{ $now.plus({ hours: 2 }) }}',
				}),
				node('Typed', ECHO_TYPE, { phone: '+911111111111', when: '2030-01-02T10:00:00' }),
			],
			credentials: credentials(),
			nodeTypes,
			timezone: 'Europe/Berlin',
		});

		const [expression] = result.json('Expression');
		expect(expression.whenType).toBe('luxon');
		const hoursAhead = DateTime.fromISO(expression.whenIso as string).diffNow('hours').hours;
		expect(hoursAhead).toBeGreaterThan(1.9);
		expect(hoursAhead).toBeLessThan(2.1);
		// $now is in the workflow timezone
		expect(DateTime.fromISO(expression.whenIso as string, { setZone: true }).zoneName).toBe(
			'UTC+1',
		);
		expect(result.json('Typed')[0]).toMatchObject({
			whenType: 'string',
			whenIso: '2030-01-02T10:00:00',
		});
	});

	it('continueOnFail: a failed item becomes { error } in place, the others go on', async () => {
		const result = await runWorkflow({
			nodes: [
				node(
					'Call',
					ECHO_TYPE,
					{ phone: '={{ $json.phone }}', refusePhone: '+912222222222' },
					{ continueOnFail: true },
				),
			],
			items: [{ phone: '+911111111111' }, { phone: '+912222222222' }, { phone: '+913333333333' }],
			credentials: credentials(),
			nodeTypes,
		});

		expect(result.status).toBe('success');
		const [output] = result.outputOf('Call');
		expect(output).toHaveLength(3);
		expect(output[1]).toEqual({
			json: { error: '"Phone" +912222222222 is refused [item 1]' },
			pairedItem: { item: 1 },
		});
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(server.requests).toHaveLength(2);
	});

	it("onError 'continueErrorOutput' adds an error output after the node's own outputs", async () => {
		const connections = chain('Start', 'Call', 'Succeeded');
		link(connections, 'Call', 'Failed', { output: 1 });
		const result = await runWorkflow({
			nodes: [
				node(
					'Call',
					ECHO_TYPE,
					{ phone: '={{ $json.phone }}', refusePhone: '+912222222222' },
					{ onError: 'continueErrorOutput' },
				),
				node('Succeeded', 'test.noop'),
				node('Failed', 'test.noop'),
			],
			connections,
			items: [{ phone: '+911111111111' }, { phone: '+912222222222' }, { phone: '+913333333333' }],
			credentials: credentials(),
			nodeTypes: { ...nodeTypes, 'test.noop': noOp },
		});

		expect(result.status).toBe('success');
		const [success, failure] = result.outputOf('Call');
		expect(success.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 2 }]);
		expect(failure).toHaveLength(1);
		expect(failure[0].pairedItem).toEqual({ item: 1 });
		// n8n puts the failing input item's fields next to the error
		expect(failure[0].json).toMatchObject({
			phone: '+912222222222',
			error: '"Phone" +912222222222 is refused [item 1]',
		});
		expect(result.json('Failed')).toHaveLength(1);
		expect(result.json('Succeeded')).toHaveLength(2);
	});

	it('stops the workflow with the NodeOperationError (assert on name, not instanceof)', async () => {
		const result = await runWorkflow({
			nodes: [
				node('Call', ECHO_TYPE, { phone: '={{ $json.phone }}', refusePhone: '+912222222222' }),
			],
			items: [{ phone: '+911111111111' }, { phone: '+912222222222' }],
			credentials: credentials(),
			nodeTypes,
		});

		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe('"Phone" +912222222222 is refused [item 1]');
		expect(result.task('Call').error?.name).toBe('NodeOperationError');
	});

	it.each(['continueRegularOutput', 'continueErrorOutput'] as const)(
		'a node that throws under %s passes its input items through on output 0',
		async (onError) => {
			const result = await runWorkflow({
				nodes: [node('Throws', 'test.throws', {}, { onError }), node('After', 'test.noop')],
				items: [{ a: 1 }, { a: 2 }],
				nodeTypes: { 'test.throws': throwsAlways, 'test.noop': noOp },
			});
			expect(result.status).toBe('success');
			expect(result.task('Throws').error?.message).toBe('always fails');
			// even with an error output, a thrown error does not reach it: only items the node
			// itself returns as { error } (continueOnFail) are moved there
			expect(result.outputOf('Throws')).toEqual([
				[
					{ json: { a: 1 }, pairedItem: { item: 0 } },
					{ json: { a: 2 }, pairedItem: { item: 1 } },
				],
			]);
			expect(result.json('After')).toEqual([{ a: 1 }, { a: 2 }]);
		},
	);

	it('quirk: when that continued node is the last one to run, the execution status is still error', async () => {
		const result = await runWorkflow({
			nodes: [node('Throws', 'test.throws', {}, { onError: 'continueRegularOutput' })],
			items: [{ a: 1 }],
			nodeTypes: { 'test.throws': throwsAlways },
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('always fails');
		expect(result.json('Throws')).toEqual([{ a: 1 }]);
	});

	it('n8n-core re-sends a request once when the answer is 401 and status errors are not ignored', async () => {
		server.setResponder(() => ({
			status: 401,
			json: { status: 'error', message: 'Invalid API key' },
		}));
		const result = await runWorkflow({
			nodes: [node('Call', ECHO_TYPE, { phone: '+911111111111', ignoreStatus: false })],
			credentials: credentials(),
			nodeTypes,
		});
		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeApiError');
		expect((result.error as { httpCode?: string }).httpCode).toBe('401');
		expect(server.requests).toHaveLength(2);
	});

	it('refuses to start when a required parameter is empty (WorkflowHasIssuesError, nothing runs)', async () => {
		const result = await runWorkflow({
			nodes: [node('Call', ECHO_TYPE, {})],
			credentials: credentials(),
			nodeTypes,
		});
		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('WorkflowHasIssuesError');
		expect(result.error?.message).toContain('Parameter "Phone" is required');
		expect(result.runData).toEqual({});
		expect(server.requests).toHaveLength(0);
	});

	describe('tool mode', () => {
		const toolParameters = { phone: "={{ $fromAI('phone', 'Phone number to call') }}" };

		it('supplyData path: isToolExecution() is true and the agent gets output 0 as JSON', async () => {
			const tool = await runAsTool({
				nodeType: ECHO_TYPE,
				nodeTypes,
				parameters: toolParameters,
				credentials: credentials(),
				toolArgs: { phone: '+914444444444' },
			});

			expect(tool.error).toBeUndefined();
			expect(tool.schemaKeys).toEqual(['phone']);
			expect(tool.toolName).toBe('Tool');
			expect(tool.response).toEqual([
				expect.objectContaining({
					rewireOutputLogTo: null,
					isToolExecution: true,
					statusCode: 200,
					input: { phone: '+914444444444' },
				}),
			]);
			expect(server.requests[0]).toMatchObject({
				body: { phone: '+914444444444' },
				headers: { 'x-api-key': API_KEY },
			});
			// the invocation is logged on the tool node under ai_tool
			expect(tool.run.task('Tool').data?.[NodeConnectionTypes.AiTool]).toBeDefined();
		});

		it('supplyData path: a failing invocation throws NodeOperationError to the agent', async () => {
			const tool = await runAsTool({
				nodeType: ECHO_TYPE,
				nodeTypes,
				parameters: { ...toolParameters, refusePhone: '+915555555555' },
				credentials: credentials(),
				toolArgs: { phone: '+915555555555' },
			});
			expect(tool.result).toBeUndefined();
			expect(tool.error).toEqual({
				name: 'NodeOperationError',
				message: '"Phone" +915555555555 is refused [item 0]',
			});
		});

		it('engineRequest path (AI Agent v3): the node runs as a plain node, isToolExecution() is false', async () => {
			const tool = await runAsTool({
				via: 'engineRequest',
				nodeType: ECHO_TYPE,
				nodeTypes,
				parameters: toolParameters,
				credentials: credentials(),
				toolArgs: { phone: '+916666666666' },
				agentInput: { chatInput: 'call them' },
			});

			expect(tool.response).toEqual([
				expect.objectContaining({ isToolExecution: false, statusCode: 200 }),
			]);
			// what a node can check to know it runs for an agent on this path
			expect((tool.response as IDataObject[])[0].rewireOutputLogTo).toBe('ai_tool');
			// the tool's input item = the agent's item + the tool arguments + toolCallId
			expect((tool.response as IDataObject[])[0].input).toEqual({
				chatInput: 'call them',
				phone: '+916666666666',
				toolCallId: 'call_test_1',
			});
			expect(server.requests[0].body).toEqual({ phone: '+916666666666' });
		});

		it('engineRequest path: a thrown error reaches the model as [{ error }] and the workflow goes on', async () => {
			const tool = await runAsTool({
				via: 'engineRequest',
				nodeType: ECHO_TYPE,
				nodeTypes,
				parameters: { ...toolParameters, refusePhone: '+917777777777' },
				credentials: credentials(),
				toolArgs: { phone: '+917777777777' },
			});
			expect(tool.run.status).toBe('success');
			expect(tool.response).toEqual([{ error: '"Phone" +917777777777 is refused [item 0]' }]);
		});
	});

	describe('credential test (declarative test of CallKaroApi through RoutingNode)', () => {
		it('is OK when the service answers 400 "Missing agent_id" (key accepted)', async () => {
			server.setResponder(() => ({
				status: 400,
				json: { status: 'error', message: 'Missing agent_id in request query' },
			}));
			await expect(testCredential({ apiKey: API_KEY, baseUrl: `${server.url}/` })).resolves.toEqual(
				{
					status: 'OK',
					message: 'Connection successful!',
				},
			);
			expect(server.requests[0]).toMatchObject({
				method: 'POST',
				path: '/call/delete-schedule-call',
				headers: { 'x-api-key': API_KEY },
			});
		});

		it('is an Error when the service answers 403 "Missing X-API-KEY in headers"', async () => {
			server.setResponder(() => ({
				status: 403,
				json: { status: 'error', message: 'Missing X-API-KEY in headers' },
			}));
			await expect(testCredential({ apiKey: '', baseUrl: server.url })).resolves.toEqual({
				status: 'Error',
				message: 'CallKaro did not accept this API key',
			});
		});

		it('is an Error when no CallKaro API answers at the base URL', async () => {
			server.setResponder(() => ({ status: 404, text: 'Not Found' }));
			await expect(testCredential({ apiKey: API_KEY, baseUrl: server.url })).resolves.toEqual({
				status: 'Error',
				message:
					'No CallKaro API answered at this Base URL: it answered HTTP 404, where CallKaro answers 400 or, for a refused key, 401 or 403',
			});
		});
	});
});

const noOp: INodeType = {
	description: {
		displayName: 'Test No-Op',
		name: 'test.noop',
		group: ['transform'],
		version: 1,
		description: 'Passes items through',
		defaults: { name: 'No-Op' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: IExecuteFunctions) {
		return [this.getInputData()];
	},
};

const throwsAlways: INodeType = {
	description: { ...noOp.description, displayName: 'Test Throws', name: 'test.throws' },
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		throw new NodeOperationError(this.getNode(), 'always fails');
	},
};
