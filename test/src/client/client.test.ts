import { createCallKaroClient } from '../../../src/client/client';
import type { CallKaroClient, ClientOptions } from '../../../src/client/client';
import { CallKaroApiError } from '../../../src/client/errors';
import { deleteRequestSchema } from '../../../src/input/requests';
import { TransportError } from '../../../src/client/transport';
import { cancelled, hangUp, refused, reply, ScriptedTransport } from './scriptedTransport';
import type { ScriptStep } from './scriptedTransport';

const NOW = new Date('2026-11-22T04:00:00Z');
const ASSIGN = { to_number: '+919876543210', workflow_id: 'wf_1' };
const OUTBOUND = { to_number: '+919876543210', agent_id: 'agent_1' };
const CAMPAIGN = { path: '/v2/call/campaign', request: { name: 'Diwali' } };
const DELETE = { agentId: 'agent_1', toNumber: '+919876543210', bodyFormat: 'json' as const };
const SERVER_ERROR = reply(500, { status: 'error', message: 'Internal server error' });
const REPORT = {
	updated: ['city'],
	kept_existing: [],
	ignored: ['x'],
	invalid: [{ key: 'age', reason: 'not a number' }],
};
const SUMMARY = {
	updated: ['city'],
	keptExisting: [],
	ignored: ['x'],
	invalid: [{ key: 'age', reason: 'not a number' }],
	counts: { updated: 1, keptExisting: 0, ignored: 1, invalid: 1 },
	hasProblems: true,
};

function setup(steps: ScriptStep[], options: Partial<ClientOptions> = {}) {
	const transport = new ScriptedTransport(steps);
	const sleeps: number[] = [];
	const client = createCallKaroClient({
		transport,
		sleep: async (ms) => {
			sleeps.push(ms);
		},
		random: () => 0.5,
		now: () => NOW,
		...options,
	});
	return { client, transport, sleeps };
}

async function apiErrorOf(promise: Promise<unknown>): Promise<CallKaroApiError> {
	const error = await promise.then(
		() => undefined,
		(reason: unknown) => reason,
	);
	expect(error).toBeInstanceOf(CallKaroApiError);
	return error as CallKaroApiError;
}

describe('assignWorkflow', () => {
	test('success: one POST /workflow/assign with the request as JSON', async () => {
		const body = {
			status: 'done',
			message: 'Workflow started',
			run_id: 'run_1',
			enrollment_id: 'enr_1',
			attributes: REPORT,
		};
		const { client, transport, sleeps } = setup([reply(200, body)]);
		await expect(client.assignWorkflow(ASSIGN)).resolves.toEqual({
			outcome: 'started',
			httpStatus: 200,
			startedByEarlierAttempt: false,
			status: 'done',
			message: 'Workflow started',
			runId: 'run_1',
			enrollmentId: 'enr_1',
			attributes: SUMMARY,
			attempts: 1,
			body,
		});
		expect(transport.requests).toEqual([
			{ method: 'POST', path: '/workflow/assign', body: ASSIGN },
		]);
		expect(sleeps).toEqual([]);
	});

	test.each<[string, ScriptStep[], boolean, number[]]>([
		['409 at once', [], false, []],
		['500, then 409: the first attempt started the run', [SERVER_ERROR], true, [250]],
		['lost answer, then 409', [hangUp()], true, [250]],
		['refused, then 409: nothing had reached CallKaro', [refused()], false, [250]],
		['429, then 409', [reply(429, {})], false, [250]],
	])('%s -> already-running', async (_case, before, startedByEarlierAttempt, sleepsExpected) => {
		const conflict = {
			status: 'error',
			message: 'This number is already running in this workflow',
			attributes: REPORT,
		};
		const { client, sleeps } = setup([...before, reply(409, conflict)]);
		await expect(client.assignWorkflow(ASSIGN)).resolves.toEqual({
			outcome: 'already-running',
			httpStatus: 409,
			startedByEarlierAttempt,
			status: 'error',
			message: 'This number is already running in this workflow',
			attributes: SUMMARY,
			attempts: before.length + 1,
			body: conflict,
		});
		expect(sleeps).toEqual(sleepsExpected);
	});

	test('409 with a body of another shape still resolves', async () => {
		const { client } = setup([reply(409, 'Conflict')]);
		await expect(client.assignWorkflow(ASSIGN)).resolves.toMatchObject({
			outcome: 'already-running',
			message: '',
			attributes: { counts: { updated: 0, keptExisting: 0, ignored: 0, invalid: 0 } },
		});
	});

	test('a lost answer, then success', async () => {
		const { client, sleeps } = setup([
			hangUp(),
			reply(200, { status: 'done', message: 'ok', run_id: 'run_2' }),
		]);
		await expect(client.assignWorkflow(ASSIGN)).resolves.toMatchObject({
			outcome: 'started',
			runId: 'run_2',
			attempts: 2,
		});
		expect(sleeps).toEqual([250]);
	});

	test('500 four times -> service-failure after 4 attempts, with growing backoff', async () => {
		const { client, transport, sleeps } = setup([
			SERVER_ERROR,
			SERVER_ERROR,
			SERVER_ERROR,
			SERVER_ERROR,
		]);
		const error = await apiErrorOf(client.assignWorkflow(ASSIGN));
		expect(error).toMatchObject({
			kind: 'service-failure',
			httpStatus: 500,
			attempts: 4,
			outcomeUnknown: true,
			serviceMessage: 'Internal server error',
			message:
				'CallKaro failed (HTTP 500) after 4 attempts and the workflow run may or may not have started: Internal server error',
		});
		expect(transport.requests).toHaveLength(4);
		expect(sleeps).toEqual([250, 500, 1000]);
	});
});

describe('outboundCall', () => {
	test.each<[string, Record<string, string>, string | undefined]>([
		[
			'docs dialect',
			{ status: 'done', message: 'Call queued successfully', call_sid: 'CA123' },
			'CA123',
		],
		['spec dialect', { status: 'success', message: 'Call created', call_id: 'call_9' }, 'call_9'],
		['both: call_sid wins', { call_sid: 'CA123', call_id: 'call_9' }, 'CA123'],
		['neither', {}, undefined],
	])('%s -> callId %p', async (_case, body, callId) => {
		const { client, transport } = setup([reply(200, body)]);
		await expect(client.outboundCall(OUTBOUND)).resolves.toEqual({
			callId,
			status: body.status,
			message: body.message,
			attempts: 1,
			body,
		});
		expect(transport.requests).toEqual([
			{ method: 'POST', path: '/call/outbound', body: OUTBOUND },
		]);
	});

	test('any 2xx is success', async () => {
		const { client } = setup([reply(201, { call_sid: 'CA1' })]);
		await expect(client.outboundCall(OUTBOUND)).resolves.toMatchObject({ callId: 'CA1' });
	});

	test.each<[string, ScriptStep[], number[]]>([
		['429 with Retry-After 2', [reply(429, {}, { 'retry-after': '2' })], [2000]],
		[
			'429 with an HTTP-date Retry-After',
			[reply(429, {}, { 'retry-after': 'Sun, 22 Nov 2026 04:00:05 GMT' })],
			[5000],
		],
		['429 without Retry-After', [reply(429, {})], [250]],
		['refused twice', [refused(), refused()], [250, 500]],
	])('%s, then success', async (_case, before, sleepsExpected) => {
		const { client, transport, sleeps } = setup([...before, reply(200, { call_sid: 'CA1' })]);
		await expect(client.outboundCall(OUTBOUND)).resolves.toMatchObject({
			callId: 'CA1',
			attempts: before.length + 1,
		});
		expect(sleeps).toEqual(sleepsExpected);
		expect(transport.requests.every((request) => request.body === OUTBOUND)).toBe(true);
	});
});

describe('deleteScheduledCall', () => {
	test.each([
		['json', { body: { to_number: '+919876543210' } }],
		['form', { form: { to_number: '+919876543210' } }],
	] as const)('%s body', async (bodyFormat, sent) => {
		const body = { status: 'success', message: 'Scheduled call deleted successfully' };
		const { client, transport } = setup([reply(200, body)]);
		await expect(client.deleteScheduledCall({ ...DELETE, bodyFormat })).resolves.toEqual({
			outcome: 'deleted',
			deletedByEarlierAttempt: false,
			httpStatus: 200,
			message: 'Scheduled call deleted successfully',
			attempts: 1,
			body,
		});
		expect(transport.requests).toEqual([
			{
				method: 'POST',
				path: '/call/delete-schedule-call',
				query: { agent_id: 'agent_1' },
				...sent,
			},
		]);
		const [request] = transport.requests;
		expect(
			deleteRequestSchema().safeParse({ ...request.query, ...request.body, ...request.form })
				.success,
		).toBe(true);
	});

	test.each<[string, ScriptStep[]]>([
		['503', [reply(503, 'Service Unavailable')]],
		['a lost answer', [hangUp()]],
		['refused, then 500', [refused(), SERVER_ERROR]],
	])('%s, then success', async (_case, before) => {
		const { client, transport } = setup([
			...before,
			reply(200, { status: 'success', message: 'deleted' }),
		]);
		await expect(client.deleteScheduledCall(DELETE)).resolves.toMatchObject({
			outcome: 'deleted',
			attempts: before.length + 1,
		});
		expect(transport.requests).toHaveLength(before.length + 1);
	});

	const NOTHING = { status: 'error', message: 'No scheduled call found' };
	test.each([
		['200', reply(200, { ...NOTHING, status: 'success' })],
		['404', reply(404, NOTHING)],
	])("nothing scheduled, said in a %s: CallKaro's answer, not an error", async (status, answer) => {
		const { client } = setup([answer]);
		await expect(client.deleteScheduledCall(DELETE)).resolves.toMatchObject({
			outcome: 'not-scheduled',
			deletedByEarlierAttempt: false,
			httpStatus: Number(status),
			message: 'No scheduled call found',
		});
	});

	test('a 404 for an unknown agent is an error, whatever is scheduled', async () => {
		const { client } = setup([reply(404, { status: 'error', message: 'Agent does not exist' })]);
		await expect(client.deleteScheduledCall(DELETE)).rejects.toMatchObject({
			kind: 'not-found',
			httpStatus: 404,
			serviceMessage: 'Agent does not exist',
		});
	});

	test('a lost answer, then nothing scheduled: the lost attempt deleted it', async () => {
		const { client } = setup([hangUp(), reply(404, NOTHING)]);
		await expect(client.deleteScheduledCall(DELETE)).resolves.toMatchObject({
			outcome: 'deleted',
			deletedByEarlierAttempt: true,
			attempts: 2,
		});
	});
});

describe('createCampaign', () => {
	test.each([
		['v1', { path: '/call/campaign', request: { name: 'Diwali', agent_id: 'agent_1' } }],
		['v2', CAMPAIGN],
	])('%s', async (_case, prepared) => {
		const body = {
			status: 'success',
			message: 'Campaign created successfully',
			batch_id: 'batch_1',
		};
		const { client, transport } = setup([reply(200, body)]);
		await expect(client.createCampaign(prepared)).resolves.toEqual({
			batchId: 'batch_1',
			status: 'success',
			message: 'Campaign created successfully',
			attempts: 1,
			body,
		});
		expect(transport.requests).toEqual([
			{ method: 'POST', path: prepared.path, body: prepared.request },
		]);
	});
});

type Call = (client: CallKaroClient) => Promise<unknown>;
const assign: Call = (client) => client.assignWorkflow(ASSIGN);
const outbound: Call = (client) => client.outboundCall(OUTBOUND);
const campaign: Call = (client) => client.createCampaign(CAMPAIGN);
const deleteCall: Call = (client) => client.deleteScheduledCall(DELETE);

describe('failures', () => {
	test.each<[string, Call, ScriptStep[], Partial<CallKaroApiError>]>([
		[
			'outbound 500 is not retried',
			outbound,
			[SERVER_ERROR],
			{
				kind: 'service-failure',
				attempts: 1,
				outcomeUnknown: true,
				message:
					'CallKaro failed (HTTP 500) and the call may or may not have been placed; it was not retried, to avoid calling twice: Internal server error',
			},
		],
		[
			'outbound lost answer is not retried',
			outbound,
			[hangUp()],
			{
				kind: 'network',
				httpStatus: undefined,
				attempts: 1,
				outcomeUnknown: true,
				message:
					'No answer from CallKaro and the call may or may not have been placed; it was not retried, to avoid calling twice: socket hang up',
			},
		],
		[
			'outbound 429, then 502',
			outbound,
			[reply(429, {}), reply(502, '<html>Bad gateway</html>')],
			{
				kind: 'service-failure',
				attempts: 2,
				outcomeUnknown: true,
				serviceMessage: '<html>Bad gateway</html>',
				message:
					'CallKaro failed (HTTP 502) after 2 attempts and the call may or may not have been placed; it was not retried, to avoid calling twice: <html>Bad gateway</html>',
			},
		],
		[
			'campaign 500 is not retried',
			campaign,
			[reply(500, {})],
			{
				kind: 'service-failure',
				attempts: 1,
				outcomeUnknown: true,
				message:
					'CallKaro failed (HTTP 500) and the campaign may or may not have been created; it was not retried, to avoid creating it twice',
			},
		],
		[
			'Retry-After beyond the cap gives up at once',
			outbound,
			[reply(429, { status: 'error', message: 'Too many requests' }, { 'retry-after': '120' })],
			{
				kind: 'rate-limited',
				httpStatus: 429,
				retryAfterMs: 120_000,
				attempts: 1,
				outcomeUnknown: false,
				message:
					'Rate limited by CallKaro (HTTP 429); it asked to wait 120 s, longer than the 30 s this node waits: Too many requests',
			},
		],
		[
			'429 four times',
			assign,
			[reply(429, {}), reply(429, {}), reply(429, {}), reply(429, {})],
			{
				kind: 'rate-limited',
				attempts: 4,
				outcomeUnknown: false,
				message: 'Rate limited by CallKaro (HTTP 429) after 4 attempts',
			},
		],
		[
			'401 on assign',
			assign,
			[reply(401, { status: 'error', message: 'Missing API key' })],
			{
				kind: 'auth',
				httpStatus: 401,
				message: 'The API key was missing or not accepted (HTTP 401): Missing API key',
			},
		],
		[
			'403 on delete',
			deleteCall,
			[reply(403, { status: 'error', message: 'Missing X-API-KEY in headers' })],
			{
				kind: 'auth',
				httpStatus: 403,
				attempts: 1,
				message: 'The API key was missing or not accepted (HTTP 403): Missing X-API-KEY in headers',
			},
		],
		[
			'404 on assign',
			assign,
			[reply(404, { status: 'error', message: 'Workflow not found' })],
			{
				kind: 'not-found',
				attempts: 1,
				outcomeUnknown: false,
				message: 'Not found (HTTP 404): Workflow not found',
			},
		],
		[
			'400 with a phone number in the message',
			outbound,
			[reply(400, { status: 'error', message: 'Number +919876543210 is on the DND list' })],
			{
				kind: 'bad-request',
				serviceMessage: 'Number +91******3210 is on the DND list',
				message:
					'CallKaro rejected the request (HTTP 400): Number +91******3210 is on the DND list',
				body: { status: 'error', message: 'Number +919876543210 is on the DND list' },
			},
		],
		[
			'409 on outbound',
			outbound,
			[reply(409, { message: 'Busy' })],
			{
				kind: 'already-running',
				attempts: 1,
				message: 'CallKaro reported a conflict (HTTP 409): Busy',
			},
		],
		[
			'418 is not retried',
			assign,
			[reply(418, "I'm a teapot")],
			{
				kind: 'unexpected-response',
				attempts: 1,
				message: "Unexpected response from CallKaro (HTTP 418): I'm a teapot",
			},
		],
		[
			'refused four times',
			deleteCall,
			[refused(), refused(), refused(), refused()],
			{
				kind: 'network',
				attempts: 4,
				outcomeUnknown: false,
				message: 'Could not reach CallKaro after 4 attempts: connect ECONNREFUSED',
			},
		],
		[
			'assign 500, then refused three times',
			assign,
			[SERVER_ERROR, refused(), refused(), refused()],
			{
				kind: 'network',
				attempts: 4,
				outcomeUnknown: true,
				message:
					'Could not reach CallKaro after 4 attempts and the workflow run may or may not have started: connect ECONNREFUSED',
			},
		],
		[
			'cancelled',
			deleteCall,
			[cancelled()],
			{
				kind: 'network',
				attempts: 1,
				outcomeUnknown: true,
				message:
					'The request to CallKaro was cancelled and the scheduled call may or may not have been deleted: This operation was aborted',
			},
		],
		[
			'a network message with a phone number',
			outbound,
			[new TransportError('no-answer', 'reset while calling +919876543210')],
			{ message: expect.stringMatching(/: reset while calling \+91\*{6}3210$/) as string },
		],
		[
			'a 2xx body of another shape',
			campaign,
			[reply(200, { status: 'success' })],
			{
				kind: 'unexpected-response',
				httpStatus: 200,
				outcomeUnknown: true,
				message: expect.stringMatching(
					/^Unexpected response from CallKaro \(HTTP 200\) and the campaign may or may not have been created; .*: the body does not have the documented shape \(batch_id: /,
				) as string,
			},
		],
		[
			'a 2xx text body on assign',
			assign,
			[reply(200, '<html>Login</html>')],
			{ kind: 'unexpected-response', outcomeUnknown: true, body: '<html>Login</html>' },
		],
	])('%s', async (_case, call, steps, expected) => {
		const { client, transport } = setup(steps);
		const error = await apiErrorOf(call(client));
		expect(error).toMatchObject(expected);
		expect(transport.requests).toHaveLength(steps.length);
		expect(error.message).not.toContain('9876543210');
	});

	test('a long plain-text error body is cut short', async () => {
		const { client } = setup([reply(400, 'x'.repeat(500))]);
		const error = await apiErrorOf(client.outboundCall(OUTBOUND));
		expect(error.serviceMessage).toHaveLength(200);
	});

	test('an error from the transport that is not a TransportError is a bug, and propagates as is', async () => {
		const bug = new TypeError('transport bug');
		const client = createCallKaroClient({
			transport: { send: async () => Promise.reject(bug) },
			sleep: async () => undefined,
		});
		await expect(client.outboundCall(OUTBOUND)).rejects.toBe(bug);
	});

	test('uses the retry policy it is given', async () => {
		const { client, sleeps } = setup([SERVER_ERROR, SERVER_ERROR], {
			retryPolicy: { maxAttempts: 2, baseDelayMs: 100, maxDelayMs: 1000 },
		});
		await expect(apiErrorOf(client.assignWorkflow(ASSIGN))).resolves.toMatchObject({ attempts: 2 });
		expect(sleeps).toEqual([50]);
	});
});
