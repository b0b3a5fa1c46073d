import { call, freshNumber } from './helpers';
import type { Answer } from './helpers';
import { parseArgs } from './cliArgs.mjs';
import { DataError, buildAccounts, demoData, formatIst, startSandbox } from './sandbox.mjs';
import { runCli } from './testUtils.mjs';
import { startReceiver, unusedUrl } from './webhookReceiver.mjs';
import { HANGUP_REASONS, HANGUP_REASON_GROUPS } from './webhooks.mjs';
import { DOCUMENTED_FIELDS, callEndedData } from '../support/callEnded';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const AGENT = 'agent_sales_01';
const OTHER_AGENT = 'agent_support_02';
const SECRET_HEADER = { 'X-CallKaro-Secret': 'dummy-sandbox-secret-123' };
const DAY_MS = 24 * 60 * 60 * 1000;

interface Delivery {
	id: number;
	event: string;
	callId: string | null;
	url: string;
	attempt: number;
	headers: Record<string, string>;
	payload: { event: string; data: Record<string, unknown> };
	status: number | null;
	error: string | null;
	response: string;
	durationMs: number;
}

interface EndAnswer extends Answer {
	body: Answer['body'] & {
		call: Record<string, unknown>;
		payload: { event: string; data: Record<string, unknown> };
		webhook: { url: string; headers: Record<string, string>; duplicate: boolean } | null;
		deliveries: Delivery[];
	};
}

/** IST 'YYYY-MM-DD HH:mm:ss' as epoch milliseconds. */
function istMs(time: string): number {
	return Date.parse(`${time.replace(' ', 'T')}+05:30`);
}

describe('Webhooks: the sandbox posts call_ended (public docs §5)', () => {
	let sb: Sandbox;
	let receiver: Receiver;
	const admin = (path: string, body?: unknown, method: 'GET' | 'POST' | 'DELETE' = 'POST') =>
		call(sb.url, `/__sandbox/${path}`, body, { key: null, method });
	const endCall = async (body: unknown) => (await admin('calls/end', body)) as EndAnswer;
	const placeCall = async (extra: Record<string, unknown> = {}, agentId = AGENT) => {
		const number = freshNumber();
		const res = await call(sb.url, '/call/outbound', {
			to_number: number,
			agent_id: agentId,
			...extra,
		});
		expect(res.status).toBe(200);
		return { id: res.body.call_id as string, number };
	};
	const deliveries = () => sb.state.webhookDeliveries as unknown as Delivery[];

	beforeAll(async () => {
		sb = await startSandbox({ webhookTimeoutMs: 400 });
	});
	afterAll(async () => {
		await sb.close();
	});
	beforeEach(async () => {
		sb.reset();
		receiver = await startReceiver();
	});
	afterEach(async () => {
		await receiver.close();
	});

	describe('configuration: POST/GET/DELETE /__sandbox/webhooks', () => {
		test('sets a sandbox-wide webhook; the state shows it with header values masked', async () => {
			const res = await admin('webhooks', {
				url: `${receiver.url}/hook`,
				headers: SECRET_HEADER,
				duplicate: true,
			});
			expect(res.status).toBe(200);
			const expected = {
				url: `${receiver.url}/hook`,
				headers: { 'X-CallKaro-Secret': 'du…23' },
				duplicate: true,
			};
			expect(res.body.webhooks).toEqual({ sandbox: expected, agents: {} });
			expect((await admin('webhooks', undefined, 'GET')).body.webhooks).toEqual({
				sandbox: expected,
				agents: {},
			});
			expect(JSON.stringify(sb.state)).not.toContain('dummy-sandbox-secret-123');
		});

		test('sets one for an agent; url null removes it; DELETE removes all set through the admin API', async () => {
			await admin('webhooks', { url: `${receiver.url}/all` });
			await admin('webhooks', { url: `${receiver.url}/sales`, agentId: AGENT });
			expect(sb.state.webhooks).toEqual({
				sandbox: { url: `${receiver.url}/all`, headers: {}, duplicate: false },
				agents: { [AGENT]: { url: `${receiver.url}/sales`, headers: {}, duplicate: false } },
			});
			await admin('webhooks', { url: null, agentId: AGENT });
			expect(sb.state.webhooks.agents).toEqual({});
			const cleared = await admin('webhooks', undefined, 'DELETE');
			expect(cleared.status).toBe(200);
			expect(sb.state.webhooks).toEqual({ sandbox: null, agents: {} });
		});

		test.each([
			['no url', {}, 'webhook.url must be an http(s) URL'],
			['an ftp url', { url: 'ftp://example.com/x' }, 'webhook.url must be an http(s) URL'],
			['not a url', { url: 'hook' }, 'webhook.url must be an http(s) URL'],
			[
				'headers not an object',
				{ url: 'http://x.test/', headers: ['a'] },
				'webhook.headers must be an object',
			],
			[
				'a bad header name',
				{ url: 'http://x.test/', headers: { 'X Bad': 'v' } },
				'"X Bad" is not a valid header name',
			],
			[
				'a header value on two lines',
				{ url: 'http://x.test/', headers: { 'X-A': 'a\nb' } },
				'must be a string on one line',
			],
			[
				'a non-string header value',
				{ url: 'http://x.test/', headers: { 'X-A': 1 } },
				'must be a string on one line',
			],
			[
				'duplicate not a boolean',
				{ url: 'http://x.test/', duplicate: 'yes' },
				'webhook.duplicate must be a boolean',
			],
			['an unknown field', { url: 'http://x.test/', retries: 3 }, 'unknown field "retries"'],
			[
				'an empty agentId',
				{ url: 'http://x.test/', agentId: '' },
				'agentId must be a non-empty string',
			],
		])('400 for %s', async (_case, body, message) => {
			const res = await admin('webhooks', body);
			expect(res.status).toBe(400);
			expect(res.body.message).toContain(message);
			expect(sb.state.webhooks).toEqual({ sandbox: null, agents: {} });
		});
	});

	describe('POST /__sandbox/calls/end', () => {
		test('ends a placed call and posts call_ended with every documented field, the custom headers and the call metadata', async () => {
			const campaign = await call(sb.url, '/v2/call/campaign', { name: 'Renewals' });
			const batchId = campaign.body.batch_id as string;
			const placed = await placeCall({
				batch_id: batchId,
				metadata: { orderId: 'A-17', amount: 499 },
			});
			await admin('webhooks', { url: `${receiver.url}/hook?src=sandbox`, headers: SECRET_HEADER });

			const before = Date.now();
			const res = await endCall({
				callId: placed.id,
				hangupReason: 'CLIENT_INITIATED',
				durationSeconds: 73,
				transcript: 'Agent: Hi\nUser: Bye',
			});
			expect(res.status).toBe(200);
			expect(res.body.message).toBe('Call ended; call_ended posted');

			expect(receiver.requests).toHaveLength(1);
			const [received] = receiver.requests;
			expect(received.method).toBe('POST');
			expect(received.path).toBe('/hook?src=sandbox');
			expect(received.headers['content-type']).toBe('application/json');
			expect(received.headers['x-callkaro-secret']).toBe('dummy-sandbox-secret-123');
			const payload = received.body as { event: string; data: Record<string, unknown> };
			expect(payload.event).toBe('call_ended');
			expect(Object.keys(payload.data).sort()).toEqual([...DOCUMENTED_FIELDS].sort());
			// the sample event of the tests, with this call's values
			expect(payload.data).toEqual(
				callEndedData({
					callSid: placed.id,
					agent: AGENT,
					versionId: expect.stringMatching(/^[0-9a-f]{24}$/),
					to: placed.number,
					batchId,
					recordingUrl: `https://recordings.sandbox.callkaro.invalid/${placed.id}.mp3`,
					call_duration: 73,
					time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
					transcription: 'Agent: Hi\nUser: Bye',
					call_link: `https://app.sandbox.callkaro.invalid/dashboard/calls/${placed.id}`,
				}),
			);
			// time is IST wall-clock time of the end (second precision).
			const ended = istMs(payload.data.time as string);
			expect(ended).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
			expect(ended).toBeLessThanOrEqual(Date.now());
			expect(payload.data.time).toBe(formatIst(ended).replace('T', ' '));

			// The answer and the state record the delivery and the ended call.
			expect(res.body.payload).toEqual(payload);
			expect(res.body.webhook).toEqual({
				url: `${receiver.url}/hook?src=sandbox`,
				headers: { 'X-CallKaro-Secret': 'du…23' },
				duplicate: false,
			});
			expect(res.body.deliveries).toEqual([
				expect.objectContaining({
					attempt: 1,
					status: 200,
					error: null,
					callId: placed.id,
					event: 'call_ended',
				}),
			]);
			expect(deliveries()).toEqual(res.body.deliveries);
			expect(deliveries()[0].headers).toEqual({ 'X-CallKaro-Secret': 'du…23' });
			expect(sb.state.calls.find((c) => c.id === placed.id)).toMatchObject({
				status: 'ended',
				hangupReason: 'CLIENT_INITIATED',
				durationSeconds: 73,
				endedAt: expect.any(String),
			});
		});

		test.each(
			Object.entries(HANGUP_REASON_GROUPS).flatMap(([group, reasons]) =>
				reasons.map((reason) => [reason, group]),
			),
		)('%s (%s): defaults for duration, recording and transcript', async (reason, group) => {
			const placed = await placeCall();
			await admin('webhooks', { url: receiver.url });
			const res = await endCall({ callId: placed.id, hangupReason: reason });
			const data = res.body.payload.data;
			expect(data.hangup_reason).toBe(reason);
			if (group === 'connected') {
				expect(data.call_duration).toBe(42);
				expect(data.recordingUrl).not.toBe('');
				expect(data.transcription).not.toBe('');
			} else {
				expect(data).toMatchObject({ call_duration: 0, recordingUrl: '', transcription: '' });
			}
		});

		test('covers the 13 documented hangup reasons', () => {
			expect(HANGUP_REASONS).toHaveLength(13);
		});

		test('hangupReason defaults to CLIENT_INITIATED; batchId is null without a campaign; from, tryCount and data overrides apply', async () => {
			const placed = await placeCall();
			await admin('webhooks', { url: receiver.url });
			const res = await endCall({
				number: placed.number,
				from: '+918000000001',
				tryCount: 2,
				data: { time: null, disposition_reason: 'busy', extra_field: 1 },
			});
			expect(res.body.payload.data).toMatchObject({
				callSid: placed.id,
				hangup_reason: 'CLIENT_INITIATED',
				batchId: null,
				call_metadata: {},
				from: '+918000000001',
				try_count: 2,
				time: null,
				disposition_reason: 'busy',
				extra_field: 1,
			});
		});

		test('a scheduled call ended by number is outbound-scheduled and can no longer be deleted', async () => {
			const number = freshNumber();
			const scheduled = await call(sb.url, '/call/outbound', {
				to_number: number,
				agent_id: AGENT,
				schedule_at: formatIst(Date.now() + DAY_MS),
			});
			await admin('webhooks', { url: receiver.url });
			const res = await endCall({ number, hangupReason: 'USER_UNAVAILABLE' });
			expect(res.status).toBe(200);
			expect(res.body.payload.data).toMatchObject({
				callSid: scheduled.body.call_id,
				name: 'outbound-scheduled',
			});
			expect(sb.pendingTimers()).toBe(0);
			const deleted = await call(sb.url, `/call/delete-schedule-call?agent_id=${AGENT}`, {
				to_number: number,
			});
			expect(deleted.body.message).toBe('No scheduled call found');
		});

		test('by number, the latest placed call is ended', async () => {
			const number = freshNumber();
			const first = await call(sb.url, '/call/outbound', { to_number: number, agent_id: AGENT });
			const second = await call(sb.url, '/call/outbound', { to_number: number, agent_id: AGENT });
			const res = await endCall({ number });
			expect(res.body.call.id).toBe(second.body.call_id);
			expect((await endCall({ number })).body.call.id).toBe(first.body.call_id);
			expect((await endCall({ number })).status).toBe(404);
		});

		test('duplicate: the event is posted twice, one after the other, and both answers are recorded', async () => {
			const placed = await placeCall();
			await admin('webhooks', { url: receiver.url, headers: SECRET_HEADER, duplicate: true });
			const res = await endCall({ callId: placed.id });
			expect(receiver.requests).toHaveLength(2);
			expect(receiver.requests[1].raw).toBe(receiver.requests[0].raw);
			expect(receiver.requests[1].headers['x-callkaro-secret']).toBe('dummy-sandbox-secret-123');
			expect(res.body.deliveries.map((d) => [d.attempt, d.status])).toEqual([
				[1, 200],
				[2, 200],
			]);
			expect(deliveries()).toHaveLength(2);
		});

		test.each([[401], [404], [500]])(
			'records the status %p the receiver answers',
			async (status) => {
				receiver.setStatus(status);
				const placed = await placeCall();
				await admin('webhooks', { url: receiver.url });
				const res = await endCall({ callId: placed.id });
				expect(res.status).toBe(200);
				expect(res.body.deliveries).toEqual([expect.objectContaining({ status, error: null })]);
				expect(res.body.deliveries[0].response).toContain('"received":true');
			},
		);

		test('records no status and the error when nothing listens, or no answer comes in time', async () => {
			const placed = await placeCall();
			await admin('webhooks', { url: await unusedUrl() });
			const refused = await endCall({ callId: placed.id });
			expect(refused.body.deliveries).toEqual([
				expect.objectContaining({ status: null, error: expect.stringMatching(/ECONNREFUSED/) }),
			]);

			// an answer far later than the timeout, so that the bound below holds on a busy machine
			receiver.setDelay(20_000);
			const slow = await placeCall();
			await admin('webhooks', { url: receiver.url });
			const timedOut = await endCall({ callId: slow.id });
			expect(timedOut.body.deliveries).toEqual([
				expect.objectContaining({ status: null, error: 'timeout: no answer within 400 ms' }),
			]);
			expect(timedOut.body.deliveries[0].durationMs).toBeLessThan(10_000);
		});

		test('without a webhook the call still ends, and nothing is posted', async () => {
			const placed = await placeCall();
			const res = await endCall({ callId: placed.id });
			expect(res.status).toBe(200);
			expect(res.body).toMatchObject({
				message: 'Call ended; no webhook is set, nothing was posted',
				webhook: null,
				deliveries: [],
			});
			expect(sb.state.calls[0].status).toBe('ended');
		});

		test('wait: false answers 202 at once; the delivery follows', async () => {
			receiver.setDelay(100);
			const placed = await placeCall();
			await admin('webhooks', { url: receiver.url });
			const res = await endCall({ callId: placed.id, wait: false });
			expect(res.status).toBe(202);
			expect(res.body.call.id).toBe(placed.id);
			expect(deliveries()).toHaveLength(0);
			await sb.webhooksIdle();
			expect(deliveries()).toEqual([expect.objectContaining({ status: 200 })]);
		});

		test.each([
			['no selector', {}, 400, 'Give { callId } or { number }'],
			['a bad number', { number: '12' }, 400, 'Give { callId } or { number }'],
			['an unknown callId', { callId: 'nope' }, 404, 'Call not found: nope'],
			[
				'an unknown number',
				{ number: '+919999999999' },
				404,
				'No placed or scheduled call to +919999999999',
			],
			[
				'an empty hangupReason',
				{ callId: 'x', hangupReason: ' ' },
				400,
				'hangupReason must be a non-empty string',
			],
			[
				'a negative duration',
				{ callId: 'x', durationSeconds: -1 },
				400,
				'durationSeconds must be a number >= 0',
			],
			['a text transcript', { callId: 'x', transcript: 5 }, 400, 'transcript must be a string'],
			['a bad from', { callId: 'x', from: 'me' }, 400, 'from must be a phone number'],
			['a bad tryCount', { callId: 'x', tryCount: -2 }, 400, 'tryCount must be an integer >= -1'],
			['data not an object', { callId: 'x', data: [] }, 400, 'data must be an object'],
			['wait not a boolean', { callId: 'x', wait: 'no' }, 400, 'wait must be a boolean'],
			['an unknown field', { callId: 'x', reason: 'UNKNOWN' }, 400, 'unknown field "reason"'],
		])('%s: %p', async (_case, body, status, message) => {
			const res = await endCall(body);
			expect(res.status).toBe(status);
			expect(res.body.message).toContain(message);
		});

		test('409 for a call already ended or deleted', async () => {
			const placed = await placeCall();
			expect((await endCall({ callId: placed.id })).status).toBe(200);
			const again = await endCall({ callId: placed.id });
			expect(again.status).toBe(409);
			expect(again.body.message).toBe(`Call ${placed.id} is already ended`);

			const number = freshNumber();
			const scheduled = await call(sb.url, '/call/outbound', {
				to_number: number,
				agent_id: AGENT,
				schedule_at: formatIst(Date.now() + DAY_MS),
			});
			await call(sb.url, `/call/delete-schedule-call?agent_id=${AGENT}`, { to_number: number });
			const deleted = await endCall({ callId: scheduled.body.call_id });
			expect(deleted.status).toBe(409);
			expect(deleted.body.message).toContain('is already deleted');
		});
	});

	describe('other deliveries and levels', () => {
		test('deleting a scheduled call posts call_ended with DELETED_SCH_CALL_ONE and no duration', async () => {
			const number = freshNumber();
			const scheduled = await call(sb.url, '/call/outbound', {
				to_number: number,
				agent_id: AGENT,
				schedule_at: formatIst(Date.now() + DAY_MS),
				metadata: { lead: 'L1' },
			});
			await admin('webhooks', { url: receiver.url });
			await call(sb.url, `/call/delete-schedule-call?agent_id=${AGENT}`, { to_number: number });
			await sb.webhooksIdle();
			expect(deliveries()).toEqual([
				expect.objectContaining({ status: 200, callId: scheduled.body.call_id }),
			]);
			expect(deliveries()[0].payload.data).toMatchObject({
				name: 'outbound-scheduled',
				hangup_reason: 'DELETED_SCH_CALL_ONE',
				call_duration: 0,
				call_metadata: { lead: 'L1' },
			});
		});

		test('an agent webhook (admin) wins over the sandbox-wide one, for that agent only', async () => {
			await admin('webhooks', { url: `${receiver.url}/all` });
			await admin('webhooks', { url: `${receiver.url}/sales`, agentId: AGENT });
			await endCall({ callId: (await placeCall()).id });
			await endCall({ callId: (await placeCall({}, OTHER_AGENT)).id });
			expect(receiver.requests.map((r) => r.path)).toEqual(['/sales', '/all']);
		});

		test('webhooks from the data file: the agent’s wins over the account’s, which wins over the sandbox-wide one', async () => {
			const data = demoData();
			data.accounts[0].webhook = { url: `${receiver.url}/account` };
			data.accounts[0].agents = [
				{
					id: AGENT,
					webhook: { url: `${receiver.url}/agent`, headers: SECRET_HEADER, duplicate: true },
				},
				{ id: OTHER_AGENT },
			];
			sb.load(data);
			try {
				await admin('webhooks', { url: `${receiver.url}/all` });
				await endCall({ callId: (await placeCall()).id });
				await endCall({ callId: (await placeCall({}, OTHER_AGENT)).id });
				expect(receiver.requests.map((r) => r.path)).toEqual(['/agent', '/agent', '/account']);
				expect(receiver.requests[0].headers['x-callkaro-secret']).toBe('dummy-sandbox-secret-123');
			} finally {
				sb.load(demoData());
			}
		});

		test.each([
			[
				'an account webhook without url',
				(d: ReturnType<typeof demoData>) => (d.accounts[0].webhook = {} as never),
				'accounts[0].webhook.url must be an http(s) URL',
			],
			[
				'an agent webhook with a bad header',
				(d: ReturnType<typeof demoData>) =>
					(d.accounts[0].agents = [
						{ id: 'a', webhook: { url: 'http://x.test/', headers: { 'a b': 'c' } } },
					]),
				'accounts[0].agents[0].webhook.headers: "a b" is not a valid header name',
			],
		])('the data file is checked: %s', (_case, change, message) => {
			const data = demoData();
			change(data);
			expect(() => buildAccounts(data)).toThrow(DataError);
			expect(() => buildAccounts(data)).toThrow(message);
		});

		test('reset removes the webhooks set through the admin API and the delivery log, but keeps the one given at start', async () => {
			const started = await startSandbox({
				webhook: { url: `${receiver.url}/start`, headers: SECRET_HEADER },
			});
			try {
				started.setWebhook({ url: `${receiver.url}/admin` });
				const placed = await call(started.url, '/call/outbound', {
					to_number: freshNumber(),
					agent_id: AGENT,
				});
				await started.endCall({ callId: placed.body.call_id as string });
				expect(started.state.webhookDeliveries).toHaveLength(1);
				started.reset();
				expect(started.state.webhookDeliveries).toHaveLength(0);
				expect(started.state.webhooks.sandbox).toEqual({
					url: `${receiver.url}/start`,
					headers: { 'X-CallKaro-Secret': 'du…23' },
					duplicate: false,
				});
				const again = await call(started.url, '/call/outbound', {
					to_number: freshNumber(),
					agent_id: AGENT,
				});
				const result = await started.endCall({
					callId: again.body.call_id as string,
					hangupReason: 'USER_REJECTED',
				});
				expect(result.deliveries.map((d) => d.status)).toEqual([200]);
				expect(receiver.requests.map((r) => r.path)).toEqual(['/admin', '/start']);
			} finally {
				await started.close();
			}
		});

		test('startSandbox refuses a bad webhook option; the JS API throws on bad input', async () => {
			await expect(startSandbox({ webhook: { url: 'nope' } })).rejects.toThrow(
				'webhook.url must be an http(s) URL',
			);
			expect(() => sb.setWebhook({ url: 'nope' })).toThrow('webhook.url must be an http(s) URL');
			await expect(sb.endCall({ callId: 'nope' })).rejects.toThrow('Call not found: nope');
		});
	});

	describe('CLI', () => {
		test('parses --webhook-url, --webhook-header (repeatable), --webhook-duplicate and --webhook-timeout-ms', () => {
			expect(
				parseArgs([
					'--webhook-url',
					'http://127.0.0.1:5678/webhook/abc/webhook',
					'--webhook-header',
					'X-CallKaro-Secret: s3cret:with:colons',
					'--webhook-header=X-Other:1',
					'--webhook-duplicate',
					'--webhook-timeout-ms',
					'2000',
				]),
			).toMatchObject({
				webhook: {
					url: 'http://127.0.0.1:5678/webhook/abc/webhook',
					headers: { 'X-CallKaro-Secret': 's3cret:with:colons', 'X-Other': '1' },
					duplicate: true,
				},
				webhookTimeoutMs: 2000,
			});
		});

		test.each([
			[['--webhook-url', 'ftp://x'], 'webhook.url must be an http(s) URL'],
			[
				['--webhook-url', 'http://x.test/', '--webhook-header', 'novalue'],
				'--webhook-header needs NAME:VALUE',
			],
			[['--webhook-duplicate'], '--webhook-header and --webhook-duplicate need --webhook-url'],
		])('refuses %p', (argv, message) => {
			expect(() => parseArgs(argv)).toThrow(message);
		});

		test('npm run sandbox -- --webhook-url posts call_ended when a call is ended through the admin API', async () => {
			const cli = await runCli([
				'--port',
				'0',
				'--webhook-url',
				`${receiver.url}/cli`,
				'--webhook-header',
				'X-CallKaro-Secret:from-cli',
			]);
			try {
				const base = cli.url as string;
				const placed = await call(base, '/call/outbound', {
					to_number: freshNumber(),
					agent_id: AGENT,
				});
				const res = await call(
					base,
					'/__sandbox/calls/end',
					{ callId: placed.body.call_id },
					{ key: null },
				);
				expect(res.status).toBe(200);
				expect(receiver.requests).toHaveLength(1);
				expect(receiver.requests[0]).toMatchObject({
					path: '/cli',
					headers: { 'x-callkaro-secret': 'from-cli' },
				});
				// Printed at start, after the first line (read once the requests went through).
				expect(cli.output()).toContain(`webhook: ${receiver.url}/cli (headers: X-CallKaro-Secret)`);
			} finally {
				expect(await cli.stop()).toEqual({ code: 0, signal: null });
			}
		});
	});
});
