import { pause as sleep } from '../support/pause.mjs';

import { call, freshNumber } from './helpers';
import { DataError, demoData, startSandbox } from './sandbox.mjs';
import { externalIPv4, writeTempJson } from './testUtils.mjs';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const EXAMPLE_KEY = 'ck_example_key_000001';

describe('Inspection and control under /__sandbox/ (and the JS API)', () => {
	let sb: Sandbox;
	const admin = (path: string, body?: unknown, method: 'GET' | 'POST' | 'DELETE' = 'POST') =>
		call(sb.url, `/__sandbox${path}`, body, { method, key: null });
	const assign = (body: unknown) => call(sb.url, '/workflow/assign', body);

	beforeAll(async () => {
		sb = await startSandbox({ runDurationMs: 0 });
	});
	afterAll(async () => {
		await sb.close();
	});
	beforeEach(() => sb.reset());

	test('GET /__sandbox/state shows contacts, runs, calls, scheduled calls, campaigns and the request log', async () => {
		await assign({ to_number: freshNumber(), workflow_id: 'wf_welcome' });
		const res = await admin('/state', undefined, 'GET');
		expect(res.status).toBe(200);
		expect(Object.keys(res.body).sort()).toEqual(
			[
				'accounts',
				'calls',
				'campaigns',
				'config',
				'contacts',
				'dialect',
				'faults',
				'maxConcurrentRequests',
				'requestCount',
				'requests',
				'runs',
				'scheduledCalls',
				'startedAt',
				'webhookDeliveries',
				'webhooks',
			].sort(),
		);
		expect(res.body.contacts).toEqual(
			expect.arrayContaining([
				expect.objectContaining({
					number: '919876543210',
					values: { 'First Name': 'Asha', City: 'Pune' },
				}),
			]),
		);
		expect(res.body.runs).toHaveLength(1);
	});

	test('the request log records method, path, query, headers (key masked), body, status and time', async () => {
		await call(sb.url, '/call/delete-schedule-call?agent_id=agent_sales_01', {
			to_number: '919811111111',
		});
		const entry = sb.state.requests[0];
		expect(entry).toMatchObject({
			id: 1,
			method: 'POST',
			path: '/call/delete-schedule-call',
			query: { agent_id: 'agent_sales_01' },
			body: { to_number: '919811111111' },
			status: 200,
			fault: null,
		});
		expect(entry.headers['x-api-key']).toBe('ck_d…89');
		expect(JSON.stringify(sb.state)).not.toContain('ck_demo_key_0123456789');
		expect(Date.parse(entry.time)).not.toBeNaN();
	});

	test('the request log keeps the raw text of a body that did not parse', async () => {
		await call(sb.url, '/call/outbound', undefined, {
			raw: '{oops',
			contentType: 'application/json',
		});
		expect(sb.state.requests[0]).toMatchObject({ body: '{oops', status: 400 });
	});

	test('admin requests are not logged', async () => {
		await admin('/state', undefined, 'GET');
		expect(sb.state.requests).toHaveLength(0);
	});

	test('maxConcurrentRequests: the most API requests answered at one time since the last reset', async () => {
		// Each answer waits 100 ms, so three requests sent together are answered together.
		sb.setFaults({ latencyMs: 100 });
		for (let index = 0; index < 3; index++) {
			await assign({ to_number: freshNumber(), workflow_id: 'wf_welcome' });
		}
		expect(sb.state.maxConcurrentRequests).toBe(1);
		await Promise.all(
			[1, 2, 3].map(() => assign({ to_number: freshNumber(), workflow_id: 'wf_welcome' })),
		);
		expect(sb.state.maxConcurrentRequests).toBe(3);
		expect(sb.state.requestCount).toBe(6);
		sb.reset();
		expect(sb.state.maxConcurrentRequests).toBe(0);
	});

	test('the request log is bounded (requestLogLimit), while requestCount keeps counting', async () => {
		const small = await startSandbox({ requestLogLimit: 5 });
		try {
			for (let i = 0; i < 8; i++) await call(small.url, '/v2/call/campaign', { name: `c${i}` });
			expect(small.state.requests.map((r) => r.id)).toEqual([4, 5, 6, 7, 8]);
			expect(small.state.requestCount).toBe(8);
		} finally {
			await small.close();
		}
	});

	test('GET /__sandbox/state?requests=N returns only the last N log entries', async () => {
		for (let i = 0; i < 3; i++) await call(sb.url, '/v2/call/campaign', { name: `c${i}` });
		const res = await admin('/state?requests=2', undefined, 'GET');
		expect((res.body.requests as Array<{ id: number }>).map((r) => r.id)).toEqual([2, 3]);
		const none = await admin('/state?requests=0', undefined, 'GET');
		expect(none.body.requests).toEqual([]);
		expect((await admin('/state?requests=-1', undefined, 'GET')).status).toBe(400);
	});

	test('POST /__sandbox/runs/finish {runId} finishes that run', async () => {
		const a = await assign({ to_number: freshNumber(), workflow_id: 'wf_welcome' });
		const res = await admin('/runs/finish', { runId: a.body.run_id });
		expect(res.body).toEqual({ status: 'success', finished: [a.body.run_id] });
		expect(sb.state.runs[0]).toMatchObject({ status: 'finished', finishedBy: 'admin' });
		expect((await admin('/runs/finish', { runId: a.body.run_id })).body.finished).toEqual([]);
	});

	test('POST /__sandbox/runs/finish {number, workflowId} matches with or without +', async () => {
		const number = freshNumber();
		await assign({ to_number: number, workflow_id: 'wf_welcome' });
		await assign({ to_number: number, workflow_id: 'wf_followup' });
		const res = await admin('/runs/finish', { number: number.slice(1), workflowId: 'wf_welcome' });
		expect(res.body.finished).toHaveLength(1);
		expect(sb.state.runs.map((r) => [r.workflowId, r.status])).toEqual([
			['wf_welcome', 'finished'],
			['wf_followup', 'running'],
		]);
	});

	test('POST /__sandbox/runs/finish {all: true} finishes every active run, scheduled ones too', async () => {
		await assign({ to_number: freshNumber(), workflow_id: 'wf_welcome' });
		await assign({
			to_number: freshNumber(),
			workflow_id: 'wf_welcome',
			schedule_at: '2099-01-01T00:00:00',
		});
		expect(sb.pendingTimers()).toBe(1);
		const res = await admin('/runs/finish', { all: true });
		expect(res.body.finished).toHaveLength(2);
		expect(sb.state.runs.every((r) => r.status === 'finished')).toBe(true);
		expect(sb.pendingTimers()).toBe(0);
	});

	test.each([
		[{}, 400],
		[{ runId: 'no_such_run' }, 404],
		[{ number: '919811111111' }, 400],
		[{ all: 'yes' }, 400],
	])('POST /__sandbox/runs/finish with a bad selector %p gives %i', async (selector, status) => {
		const res = await admin('/runs/finish', selector);
		expect(res.status).toBe(status);
		expect(res.body.status).toBe('error');
		expect(() => sb.finishRuns(selector as { all: true })).toThrow();
	});

	test('POST /__sandbox/reset goes back to the data set, clears records, the log and faults', async () => {
		const { state } = sb;
		await assign({
			to_number: '919876543210',
			workflow_id: 'wf_welcome',
			attributes: [{ key: 'First Name', value: 'Bina', replace: true }],
		});
		await call(sb.url, '/v2/call/campaign', { name: 'A' });
		sb.setDialect('docs');
		sb.setFaults({ latencyMs: 1 });
		const res = await admin('/reset');
		expect(res.status).toBe(200);
		expect(sb.state).toBe(state);
		expect(state.contacts).toHaveLength(1);
		expect(state.contacts[0].values['First Name']).toBe('Asha');
		expect([state.runs, state.calls, state.campaigns, state.requests]).toEqual([[], [], [], []]);
		expect(state.faults).toEqual({});
		expect(state.dialect).toBe('spec');
		expect(state.requestCount).toBe(0);
	});

	test('POST /__sandbox/load replaces the data set and resets', async () => {
		const data = {
			accounts: [
				{
					apiKey: EXAMPLE_KEY,
					attributes: [{ name: 'Tier', type: 'enum', options: ['A', 'B'] }],
					workflows: [{ id: 'wf_new', steps: 1, available: true }],
					agents: [{ id: 'agent_new' }],
					contacts: [{ number: '+14155550123', values: { tier: 'A' }, manual: ['TIER'] }],
				},
			],
		};
		const res = await admin('/load', data);
		expect(res.body).toEqual({ status: 'success', message: 'Data set loaded', accounts: 1 });
		expect(sb.state.contacts).toEqual([
			expect.objectContaining({ number: '14155550123', values: { Tier: 'A' }, manual: ['Tier'] }),
		]);
		const old = await assign({ to_number: freshNumber(), workflow_id: 'wf_welcome' });
		expect(old.body).toEqual({ status: 'error', message: 'Invalid API key' });
		const fresh = await call(
			sb.url,
			'/workflow/assign',
			{
				to_number: '14155550123',
				workflow_id: 'wf_new',
				attributes: [{ key: 'tier', value: 'B', replace: true }],
			},
			{ key: EXAMPLE_KEY },
		);
		expect(fresh.status).toBe(200);
		expect(fresh.body.attributes?.kept_existing).toEqual(['tier']);
		sb.load(demoData());
		expect(sb.state.accounts).toHaveLength(2);
	});

	test.each([
		[{}, /accounts must be an array/],
		[{ accounts: [{}] }, /accounts\[0\]\.apiKey must be a non-empty string/],
		[
			{ accounts: [{ apiKey: 'k', workflows: [{ id: 'w', steps: -1 }] }] },
			/steps must be an integer >= 0/,
		],
		[
			{ accounts: [{ apiKey: 'k', attributes: [{ name: 'A', type: 'color' }] }] },
			/type must be one of/,
		],
		[
			{ accounts: [{ apiKey: 'k', contacts: [{ number: '12' }] }] },
			/number must be a phone number/,
		],
		[{ accounts: [{ apiKey: 'k', agent: [] }] }, /unknown field "agent"/],
	])(
		'POST /__sandbox/load with invalid data %p gives 400 and keeps the old data',
		async (data, message) => {
			const res = await admin('/load', data);
			expect(res.status).toBe(400);
			expect(res.body.message).toMatch(message);
			expect(sb.state.accounts).toHaveLength(2);
			expect(() => sb.load(data as never)).toThrow(DataError);
		},
	);

	test('POST /__sandbox/dialect switches the outbound answer; a bad dialect gives 400', async () => {
		expect((await admin('/dialect', { dialect: 'docs' })).body).toEqual({
			status: 'success',
			dialect: 'docs',
		});
		const res = await call(sb.url, '/call/outbound', {
			to_number: freshNumber(),
			agent_id: 'agent_sales_01',
		});
		expect(res.body).toHaveProperty('call_sid');
		expect((await admin('/dialect', { dialect: 'live' })).status).toBe(400);
		expect(() => sb.setDialect('live' as 'spec')).toThrow();
	});

	test('unknown admin paths give 404 and wrong methods 405', async () => {
		expect((await admin('/nothing', undefined, 'GET')).status).toBe(404);
		const wrong = await admin('/state', {}, 'POST');
		expect(wrong.status).toBe(405);
		expect(wrong.headers.allow).toBe('GET');
	});

	test('the admin API needs no key', async () => {
		const res = await call(sb.url, '/__sandbox/health', undefined, { method: 'GET', key: null });
		expect(res.body).toEqual({ status: 'ok' });
	});

	const ip = externalIPv4();
	(ip ? test : test.skip)(
		'the admin API answers only to loopback clients (403 otherwise)',
		async () => {
			const open = await startSandbox({ host: '0.0.0.0' });
			try {
				const viaLan = `http://${ip}:${open.port}`;
				const denied = await call(viaLan, '/__sandbox/state', undefined, { method: 'GET' });
				expect(denied.status).toBe(403);
				expect(denied.body).toEqual({
					status: 'error',
					message: 'The sandbox admin API answers only to loopback clients',
				});
				const api = await call(viaLan, '/v2/call/campaign', { name: 'A' });
				expect(api.status).toBe(200);
				const local = await call(`http://127.0.0.1:${open.port}`, '/__sandbox/health', undefined, {
					method: 'GET',
				});
				expect(local.status).toBe(200);
			} finally {
				await open.close();
			}
		},
	);

	test('startSandbox({ dataFile }) reads a data file', async () => {
		const data = demoData();
		data.accounts[0].workflows = [{ id: 'wf_from_file', steps: 1, available: true }];
		const other = await startSandbox({ dataFile: writeTempJson(data) });
		try {
			const res = await call(other.url, '/workflow/assign', {
				to_number: freshNumber(),
				workflow_id: 'wf_from_file',
			});
			expect(res.status).toBe(200);
		} finally {
			await other.close();
		}
	});

	test('startSandbox binds 127.0.0.1 by default', async () => {
		const other = await startSandbox();
		try {
			expect(other.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		} finally {
			await other.close();
		}
	});

	// Without timing close(): keep-alive and latency of ten minutes, so waiting on them would
	// outlast the test's timeout.
	test('close() does not wait for open keep-alive connections and clears pending timers', async () => {
		const other = await startSandbox({ runDurationMs: 60_000, keepAliveTimeoutMs: 600_000 });
		await call(other.url, '/workflow/assign', {
			to_number: freshNumber(),
			workflow_id: 'wf_welcome',
		});
		await call(other.url, '/call/outbound', {
			to_number: freshNumber(),
			agent_id: 'agent_sales_01',
			schedule_at: '2099-01-01T00:00:00',
		});
		expect(other.pendingTimers()).toBe(2);
		await other.close();
		expect(other.pendingTimers()).toBe(0);
		await expect(
			call(other.url, '/__sandbox/health', undefined, { method: 'GET' }),
		).rejects.toThrow();
	});

	test('close() also cancels requests waiting on fault latency', async () => {
		const other = await startSandbox({ latencyMs: 600_000 });
		const pending = call(other.url, '/v2/call/campaign', { name: 'A' }).catch(
			(error: Error) => error,
		);
		// the request has arrived and waits on its latency
		while (other.state.requestCount === 0) await sleep(10);
		await other.close();
		expect(await pending).toBeInstanceOf(Error);
	});
});
