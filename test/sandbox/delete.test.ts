import { FormData, call, freshNumber } from './helpers';
import { startSandbox } from './sandbox.mjs';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const FUTURE = '2099-03-01T11:00:00';

describe('POST /call/delete-schedule-call (spec §2.5, §4.2, §7.2; public docs §4)', () => {
	let sb: Sandbox;
	const del = (agentId: string | null, body: unknown, options?: Parameters<typeof call>[3]) =>
		call(
			sb.url,
			agentId === null
				? '/call/delete-schedule-call'
				: `/call/delete-schedule-call?agent_id=${encodeURIComponent(agentId)}`,
			body,
			options,
		);
	const schedule = async (toNumber: string, agentId = 'agent_sales_01', scheduleAt = FUTURE) => {
		const res = await call(sb.url, '/call/outbound', {
			to_number: toNumber,
			agent_id: agentId,
			schedule_at: scheduleAt,
		});
		expect(res.status).toBe(200);
		return res.body.call_id as string;
	};
	const callById = (id: string) => sb.state.calls.find((c) => c.id === id);

	beforeAll(async () => {
		sb = await startSandbox({ runDurationMs: 0 });
	});
	afterAll(async () => {
		await sb.close();
	});
	beforeEach(() => sb.reset());

	test.each([
		['no query', null],
		['empty agent_id', ''],
	])(
		'§2.5/§7.2 agent_id missing from the query (%s) -> 400 Missing agent_id in request query',
		async (_label, agentId) => {
			const res = await del(agentId, { to_number: '919811111111' });
			expect(res.status).toBe(400);
			expect(res.body).toEqual({ status: 'error', message: 'Missing agent_id in request query' });
		},
	);

	test('§2.5/§7.2 agent_id in the body does not count: it must be in the query', async () => {
		const res = await del(null, { to_number: '919811111111', agent_id: 'agent_sales_01' });
		expect(res.status).toBe(400);
		expect(res.body.message).toBe('Missing agent_id in request query');
	});

	test.each([
		['JSON without to_number', () => ({ json: {} })],
		['JSON with empty to_number', () => ({ json: { to_number: '' } })],
		['no body', () => ({ json: undefined })],
		[
			'multipart without to_number',
			() => {
				const form = new FormData();
				form.append('other', 'x');
				return { raw: form };
			},
		],
	])(
		'§2.5/§7.2 to_number missing (%s) -> 400 Missing to_number in request',
		async (_label, make) => {
			const { json, raw } = make() as { json?: unknown; raw?: FormData };
			const res = await del('agent_sales_01', json, raw ? { raw } : {});
			expect(res.status).toBe(400);
			expect(res.body).toEqual({ status: 'error', message: 'Missing to_number in request' });
		},
	);

	test('§5.5/§7.2 a missing key gives 403 Missing X-API-KEY in headers', async () => {
		const res = await del('agent_sales_01', { to_number: '919811111111' }, { key: null });
		expect(res.status).toBe(403);
		expect(res.body).toEqual({ status: 'error', message: 'Missing X-API-KEY in headers' });
	});

	test('§7.2 an invalid key gives 403 Missing X-API-KEY in headers, as a missing one does', async () => {
		const res = await del('agent_sales_01', { to_number: '919811111111' }, { key: 'ck_wrong' });
		expect(res.status).toBe(403);
		expect(res.body).toEqual({ status: 'error', message: 'Missing X-API-KEY in headers' });
	});

	test('§4.2 a JSON body deletes the scheduled call: 200 Scheduled call deleted successfully', async () => {
		const number = freshNumber();
		const id = await schedule(number);
		const res = await del('agent_sales_01', { to_number: number });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ status: 'success', message: 'Scheduled call deleted successfully' });
		expect(callById(id)).toMatchObject({ status: 'deleted', hangupReason: 'DELETED_SCH_CALL_ONE' });
		expect(callById(id)?.deletedAt).not.toBeNull();
	});

	test('§4.2 a multipart/form-data body with to_number is accepted', async () => {
		const number = freshNumber();
		const id = await schedule(number);
		const form = new FormData();
		form.append('to_number', number);
		const res = await del('agent_sales_01', undefined, { raw: form });
		expect(res.status).toBe(200);
		expect(res.body.message).toBe('Scheduled call deleted successfully');
		expect(callById(id)?.status).toBe('deleted');
	});

	test('§4.2 an application/x-www-form-urlencoded body is accepted too', async () => {
		const number = freshNumber();
		const id = await schedule(number);
		const res = await del('agent_sales_01', undefined, {
			raw: `to_number=${encodeURIComponent(number)}`,
			contentType: 'application/x-www-form-urlencoded',
		});
		expect(res.status).toBe(200);
		expect(callById(id)?.status).toBe('deleted');
	});

	test.each([
		['scheduled with +, deleted without +', true, false],
		['scheduled without +, deleted with +', false, true],
		['both without + (docs example form)', false, false],
	])(
		'§2.5 to_number with or without + names the same call (%s)',
		async (_label, plusAtSchedule, plusAtDelete) => {
			const digits = freshNumber().slice(1);
			const id = await schedule(plusAtSchedule ? `+${digits}` : digits);
			const res = await del('agent_sales_01', { to_number: plusAtDelete ? `+${digits}` : digits });
			expect(res.body.message).toBe('Scheduled call deleted successfully');
			expect(callById(id)?.status).toBe('deleted');
		},
	);

	test('§4.2 a deleted call will not be executed: its timer is cancelled', async () => {
		const number = freshNumber();
		const id = await schedule(number);
		expect(sb.pendingTimers()).toBe(1);
		await del('agent_sales_01', { to_number: number });
		expect(sb.pendingTimers()).toBe(0);
		expect(callById(id)?.queuedAt).toBeNull();
	});

	test('docs §4 several scheduled calls of the pair are all removed (DELETED_SCH_CALL_ALL)', async () => {
		const number = freshNumber();
		const a = await schedule(number);
		const b = await schedule(number, 'agent_sales_01', '2099-03-02T11:00:00');
		const res = await del('agent_sales_01', { to_number: number });
		expect(res.status).toBe(200);
		expect([callById(a), callById(b)].map((c) => c?.hangupReason)).toEqual([
			'DELETED_SCH_CALL_ALL',
			'DELETED_SCH_CALL_ALL',
		]);
	});

	test('§4.2 only the calls of that agent and that number are removed', async () => {
		const number = freshNumber();
		const mine = await schedule(number);
		const otherAgent = await schedule(number, 'agent_support_02');
		const otherNumber = await schedule(freshNumber());
		await del('agent_sales_01', { to_number: number });
		expect(callById(mine)?.status).toBe('deleted');
		expect(callById(otherAgent)?.status).toBe('scheduled');
		expect(callById(otherNumber)?.status).toBe('scheduled');
	});

	test('§4.2 (spec silent) no scheduled call for the pair -> 200 success, No scheduled call found', async () => {
		const res = await del('agent_sales_01', { to_number: freshNumber() });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ status: 'success', message: 'No scheduled call found' });
	});

	test('§4.2 deleting twice: the second request finds nothing', async () => {
		const number = freshNumber();
		await schedule(number);
		expect((await del('agent_sales_01', { to_number: number })).body.message).toBe(
			'Scheduled call deleted successfully',
		);
		expect((await del('agent_sales_01', { to_number: number })).body.message).toBe(
			'No scheduled call found',
		);
	});

	test('§4.2 a call already placed (schedule_at passed) cannot be deleted', async () => {
		const number = freshNumber();
		const id = await schedule(number, 'agent_sales_01', '2020-01-01T10:00:00');
		const res = await del('agent_sales_01', { to_number: number });
		expect(res.body.message).toBe('No scheduled call found');
		expect(callById(id)?.status).toBe('queued');
	});

	test('§4.2 option deleteNotFoundStatus 404 answers 404 No scheduled call found instead', async () => {
		const strict = await startSandbox({ deleteNotFoundStatus: 404 });
		try {
			const res = await call(strict.url, '/call/delete-schedule-call?agent_id=agent_sales_01', {
				to_number: '919811111111',
			});
			expect(res.status).toBe(404);
			expect(res.body).toEqual({ status: 'error', message: 'No scheduled call found' });
		} finally {
			await strict.close();
		}
	});

	test('§7.3 (spec silent) an unknown agent gives 404 Agent does not exist', async () => {
		const res = await del('agent_nobody', { to_number: '919811111111' });
		expect(res.status).toBe(404);
		expect(res.body).toEqual({ status: 'error', message: 'Agent does not exist' });
	});

	test('§2.5 to_number must be in international format -> 400', async () => {
		const res = await del('agent_sales_01', { to_number: '98765' });
		expect(res.status).toBe(400);
		expect(res.body.message).toMatch(/^Invalid to_number/);
	});
});
