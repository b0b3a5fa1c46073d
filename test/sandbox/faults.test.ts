import { call, freshNumber } from './helpers';
import { FaultController, parseFaults } from './faults.mjs';
import { startSandbox } from './sandbox.mjs';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

describe('Fault injection (POST/GET/DELETE /__sandbox/faults and setFaults)', () => {
	let sb: Sandbox;
	const admin = (path: string, body?: unknown, method: 'GET' | 'POST' | 'DELETE' = 'POST') =>
		call(sb.url, `/__sandbox${path}`, body, { method, key: null });
	const outbound = () =>
		call(sb.url, '/call/outbound', { to_number: freshNumber(), agent_id: 'agent_sales_01' });
	const campaign = () => call(sb.url, '/v2/call/campaign', { name: 'A' });
	/** Status of a request, or "dropped" when the connection closed without an answer. */
	const statusOf = (request: Promise<{ status: number }>) =>
		request.then(
			(res) => res.status,
			() => 'dropped' as const,
		);

	beforeAll(async () => {
		sb = await startSandbox({ runDurationMs: 0 });
	});
	afterAll(async () => {
		await sb.close();
	});
	beforeEach(() => sb.reset());

	test('a scripted sequence is consumed one per request: 500, drop-after, ok, then normal', async () => {
		const set = await admin('/faults', {
			endpoint: 'outbound',
			sequence: ['500', 'drop-after', 'ok'],
		});
		expect(set.status).toBe(200);
		const results = [];
		for (let i = 0; i < 4; i++) results.push(await statusOf(outbound()));
		expect(results).toEqual([500, 'dropped', 200, 200]);
		// The 500 fired before processing; the drop-after call was placed although no answer came.
		expect(sb.state.calls).toHaveLength(3);
		expect(sb.state.requests.map((r) => [r.status, r.fault])).toEqual([
			[500, '500'],
			[null, 'drop-after'],
			[200, null],
			[200, null],
		]);
	});

	test('500, 502 and 503 answer JSON error bodies and change nothing', async () => {
		sb.setFaults({ endpoint: 'outbound', sequence: ['500', '502', '503'] });
		const bodies = [];
		for (let i = 0; i < 3; i++) {
			const res = await outbound();
			bodies.push([res.status, res.body]);
		}
		expect(bodies).toEqual([
			[500, { status: 'error', message: 'Internal server error' }],
			[502, { status: 'error', message: 'Bad gateway' }],
			[503, { status: 'error', message: 'Service unavailable' }],
		]);
		expect(sb.state.calls).toHaveLength(0);
	});

	test('429 carries Retry-After in seconds', async () => {
		sb.setFaults({ endpoint: 'all', sequence: ['429'], retryAfterSeconds: 7 });
		const res = await campaign();
		expect(res.status).toBe(429);
		expect(res.headers['retry-after']).toBe('7');
		expect(res.body).toEqual({ status: 'error', message: 'Too many requests' });
		expect(sb.state.campaigns).toHaveLength(0);
	});

	test('429 carries Retry-After: 0 unless set, so that no test waits unless it asks to', async () => {
		sb.setFaults({ endpoint: 'all', sequence: ['429'] });
		const res = await campaign();
		expect(res.status).toBe(429);
		expect(res.headers['retry-after']).toBe('0');
	});

	test('429 with retryAfterSeconds: null has no Retry-After header', async () => {
		sb.setFaults({ endpoint: 'all', sequence: ['429'], retryAfterSeconds: null });
		const res = await campaign();
		expect(res.status).toBe(429);
		expect(res.headers).not.toHaveProperty('retry-after');
	});

	test('drop-before: the connection closes with no answer and nothing changes', async () => {
		sb.setFaults({ endpoint: 'assign', sequence: ['drop-before'] });
		const number = freshNumber();
		await expect(
			call(sb.url, '/workflow/assign', { to_number: number, workflow_id: 'wf_welcome' }),
		).rejects.toThrow();
		expect(sb.state.runs).toHaveLength(0);
		expect(sb.state.contacts.some((c) => c.number === number.slice(1))).toBe(false);
	});

	test('drop-after on assign: the run started though no answer came, so a blind retry gets 409', async () => {
		sb.setFaults({ endpoint: 'assign', sequence: ['drop-after'] });
		const body = { to_number: freshNumber(), workflow_id: 'wf_welcome' };
		await expect(call(sb.url, '/workflow/assign', body)).rejects.toThrow();
		expect(sb.state.runs).toHaveLength(1);
		const retry = await call(sb.url, '/workflow/assign', body);
		expect(retry.status).toBe(409);
	});

	test('500-after on outbound: the call is placed, yet the answer is 500', async () => {
		sb.setFaults({ endpoint: 'outbound', sequence: ['500-after'] });
		const res = await outbound();
		expect(res.status).toBe(500);
		expect(sb.state.calls).toHaveLength(1);
	});

	test('faults set for one endpoint leave the others alone', async () => {
		sb.setFaults({ endpoint: 'outbound', rates: { '503': 1 } });
		expect((await outbound()).status).toBe(503);
		expect((await campaign()).status).toBe(200);
		expect(
			(
				await call(sb.url, '/workflow/assign', {
					to_number: freshNumber(),
					workflow_id: 'wf_welcome',
				})
			).status,
		).toBe(200);
	});

	test('endpoint "all" applies to every endpoint; a specific endpoint overrides it', async () => {
		sb.setFaults({ endpoint: 'all', rates: { '502': 1 } });
		sb.setFaults({ endpoint: 'campaign', rates: {} });
		expect((await outbound()).status).toBe(502);
		expect((await call(sb.url, '/workflow/assign', {})).status).toBe(502);
		expect((await call(sb.url, '/call/delete-schedule-call?agent_id=a', {})).status).toBe(502);
		expect((await campaign()).status).toBe(200);
		expect(
			(await call(sb.url, '/call/campaign', { name: 'A', agent_id: 'agent_sales_01' })).status,
		).toBe(200);
	});

	test('seeded rates repeat: the same seed gives the same outcomes', async () => {
		const run = async () => {
			sb.setFaults({
				endpoint: 'campaign',
				seed: 42,
				rates: { '500': 0.25, '503': 0.25, '429': 0.2 },
			});
			const statuses = [];
			for (let i = 0; i < 24; i++) statuses.push((await campaign()).status);
			return statuses;
		};
		const first = await run();
		const second = await run();
		expect(second).toEqual(first);
		expect(new Set(first)).toEqual(new Set([200, 429, 500, 503]));
		sb.setFaults({
			endpoint: 'campaign',
			seed: 43,
			rates: { '500': 0.25, '503': 0.25, '429': 0.2 },
		});
		const other = [];
		for (let i = 0; i < 24; i++) other.push((await campaign()).status);
		expect(other).not.toEqual(first);
	});

	test('a seed is chosen and reported when none is given', async () => {
		const res = await admin('/faults', { rates: { '500': 0.5 } });
		expect(res.body.faults).toMatchObject({
			endpoint: 'all',
			seed: expect.any(Number),
			rates: { '500': 0.5 },
		});
	});

	test('latencyMs delays every answer', async () => {
		sb.setFaults({ endpoint: 'campaign', latencyMs: 150 });
		const started = Date.now();
		expect((await campaign()).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
	});

	// The delays decided, not the times measured: a busy machine only adds to the latter.
	test('jitterMs adds a random 0..jitterMs delay', () => {
		const parsed = parseFaults({ endpoint: 'campaign', jitterMs: 80, seed: 7 });
		if (!parsed.ok) throw new Error(parsed.message);
		const controller = new FaultController({});
		controller.set(parsed.config);
		const delays = Array.from({ length: 6 }, () => controller.decide('campaign').delayMs);
		expect(delays.filter((delay) => delay < 0 || delay >= 80)).toEqual([]);
		expect(new Set(delays).size).toBeGreaterThan(1);
	});

	test('baseline latency and jitter (CLI --latency-ms/--jitter-ms) apply to every API request', async () => {
		const slow = await startSandbox({ latencyMs: 100, jitterMs: 20 });
		try {
			const started = Date.now();
			await call(slow.url, '/v2/call/campaign', { name: 'A' });
			expect(Date.now() - started).toBeGreaterThanOrEqual(95);
		} finally {
			await slow.close();
		}
	});

	test('the admin API is never delayed: it answers while API requests wait ten minutes', async () => {
		const stalled = await startSandbox({ latencyMs: 600_000 });
		try {
			const res = await call(stalled.url, '/__sandbox/health', undefined, { method: 'GET' });
			expect(res.status).toBe(200);
		} finally {
			await stalled.close();
		}
	});

	test('GET /__sandbox/faults shows the faults with what is left of a sequence', async () => {
		sb.setFaults({ endpoint: 'outbound', sequence: ['500', '503', 'ok'] });
		await outbound();
		const res = await admin('/faults', undefined, 'GET');
		expect(res.body.faults).toMatchObject({ outbound: { sequence: ['503', 'ok'], requests: 1 } });
	});

	test('DELETE /__sandbox/faults clears them (all, or one endpoint with ?endpoint=)', async () => {
		sb.setFaults({ endpoint: 'outbound', rates: { '500': 1 } });
		sb.setFaults({ endpoint: 'campaign', rates: { '500': 1 } });
		expect((await admin('/faults?endpoint=outbound', undefined, 'DELETE')).status).toBe(200);
		expect((await outbound()).status).toBe(200);
		expect((await campaign()).status).toBe(500);
		await admin('/faults', undefined, 'DELETE');
		expect((await campaign()).status).toBe(200);
		expect(sb.state.faults).toEqual({});
	});

	test.each([
		[{ endpoint: 'webhooks' }, /endpoint must be one of/],
		[{ rates: { '500': 1.5 } }, /rates\.500 must be a probability/],
		[{ rates: { '500': 0.6, '503': 0.6 } }, /add up to more than 1/],
		[{ rates: { '404': 0.1 } }, /unknown rate/],
		[{ sequence: ['500', 'explode'] }, /sequence items must be one of/],
		[{ sequence: '500' }, /sequence must be an array/],
		[{ latencyMs: -1 }, /latencyMs must be a number >= 0/],
		[{ seed: 1.5 }, /seed must be an integer/],
		[{ probability500: 0.1 }, /unknown fault option/],
	])('bad fault options %p give 400 (and throw from setFaults)', async (faults, message) => {
		const res = await admin('/faults', faults);
		expect(res.status).toBe(400);
		expect(res.body.message).toMatch(message);
		expect(() => sb.setFaults(faults as never)).toThrow(message);
	});

	test('sequence items may be given as numbers, e.g. [503, "ok"]', async () => {
		sb.setFaults({ endpoint: 'campaign', sequence: [503, 'ok'] as never });
		expect((await campaign()).status).toBe(503);
		expect((await campaign()).status).toBe(200);
	});
});
