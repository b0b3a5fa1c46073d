import { call, freshNumber } from './helpers';
import { OTHER_API_KEY, formatIst, startSandbox } from './sandbox.mjs';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

describe('POST /call/outbound (spec §2.6, §4.3, §7.3; public docs §§1-2)', () => {
	let sb: Sandbox;
	const outbound = (body: unknown, options?: Parameters<typeof call>[3]) =>
		call(sb.url, '/call/outbound', body, options);
	const base = () => ({ to_number: freshNumber(), agent_id: 'agent_sales_01' });

	beforeAll(async () => {
		sb = await startSandbox({ runDurationMs: 0 });
	});
	afterAll(async () => {
		await sb.close();
	});
	beforeEach(() => sb.reset());

	test.each([
		['to_number missing', { agent_id: 'agent_sales_01' }, 'to_number'],
		['to_number empty', { to_number: '', agent_id: 'agent_sales_01' }, 'to_number'],
		['agent_id missing', { to_number: '+919811111111' }, 'agent_id'],
		['agent_id null', { to_number: '+919811111111', agent_id: null }, 'agent_id'],
		['both missing', {}, 'to_number'],
	])(
		'§2.6/§7.3 required fields (%s) -> 400 Missing required field: <field>',
		async (_label, body, field) => {
			const res = await outbound(body);
			expect(res.status).toBe(400);
			expect(res.body).toEqual({ status: 'error', message: `Missing required field: ${field}` });
			expect(sb.state.calls).toHaveLength(0);
		},
	);

	test.each([
		['+12345'],
		['1234567'],
		['0919876543210'],
		['+91 98765 43210'],
		['91-9876543210'],
		['+1234567890123456'],
		['tel:+919876543210'],
	])('§2.6/docs §1 to_number must match ^\\+?[1-9]\\d{7,14}$ (%s) -> 400', async (number) => {
		const res = await outbound({ to_number: number, agent_id: 'agent_sales_01' });
		expect(res.status).toBe(400);
		expect(res.body.status).toBe('error');
		expect(res.body.message).toMatch(/^Invalid to_number/);
	});

	test.each([['+12345678'], ['919876543210'], ['+123456789012345']])(
		'§2.6 to_number with country code, + optional, 8 to 15 digits (%s) is accepted',
		async (number) => {
			const res = await outbound({ to_number: number, agent_id: 'agent_sales_01' });
			expect(res.status).toBe(200);
		},
	);

	test('§2.6/§4.3 success (dialect spec): status success, message, call_id', async () => {
		const res = await outbound(base());
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			status: 'success',
			message: 'Call initiated successfully',
			call_id: expect.stringMatching(/^[0-9a-f]{24}$/),
		});
		expect(sb.state.calls).toEqual([
			expect.objectContaining({ id: res.body.call_id, status: 'queued', type: 'outbound-api' }),
		]);
	});

	test('docs §1 dialect docs: status done, Call queued successfully, call_sid', async () => {
		sb.setDialect('docs');
		const res = await outbound(base());
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			status: 'done',
			message: 'Call queued successfully',
			call_sid: expect.stringMatching(/^[0-9a-f]{24}$/),
		});
	});

	test('§7.3 an unknown agent gives 404 Agent does not exist', async () => {
		const res = await outbound({ ...base(), agent_id: 'agent_nobody' });
		expect(res.status).toBe(404);
		expect(res.body).toEqual({ status: 'error', message: 'Agent does not exist' });
	});

	test('§7.3 an agent of another account gives 404 Agent does not exist', async () => {
		const res = await outbound({ ...base(), agent_id: 'agent_other_01' });
		expect(res.status).toBe(404);
		const own = await outbound({ ...base(), agent_id: 'agent_other_01' }, { key: OTHER_API_KEY });
		expect(own.status).toBe(200);
	});

	test('§7.3/docs §1 a missing key gives 403 Missing X-API-KEY in headers', async () => {
		const res = await outbound(base(), { key: null });
		expect(res.status).toBe(403);
		expect(res.body).toEqual({ status: 'error', message: 'Missing X-API-KEY in headers' });
	});

	test('§7.3 an invalid key gives 403 Missing X-API-KEY in headers', async () => {
		const res = await outbound(base(), { key: 'ck_wrong' });
		expect(res.status).toBe(403);
		expect(res.body).toEqual({ status: 'error', message: 'Missing X-API-KEY in headers' });
	});

	test('docs §2 every optional field is kept on the call record', async () => {
		const campaign = await call(sb.url, '/v2/call/campaign', { name: 'Diwali' });
		const options = {
			batch_id: campaign.body.batch_id,
			metadata: { name: 'Asha', order: 1042 },
			schedule_at: '2099-05-01T09:30:00',
			min_trigger_time: '09:00',
			max_trigger_time: '18:30',
			carry_over: true,
			number_of_retries: 2,
			gap_between_retries: [30, 60],
			priority: -5,
			language: 'hi',
		};
		const res = await outbound({ ...base(), ...options, unknown_field: 'ignored' });
		expect(res.status).toBe(200);
		expect(sb.state.calls[0]).toMatchObject({
			id: res.body.call_id,
			agentId: 'agent_sales_01',
			batchId: campaign.body.batch_id,
			status: 'scheduled',
			type: 'outbound-scheduled',
			scheduledFor: '2099-05-01T04:00:00.000Z',
			options,
		});
		expect(sb.state.calls[0].options).not.toHaveProperty('unknown_field');
	});

	test.each([
		['batch_id', ''],
		['batch_id', 5],
		['metadata', []],
		['metadata', 'name=Asha'],
		['metadata', { nested: { a: 1 } }],
		['metadata', { flag: true }],
		['metadata', { nothing: null }],
		['schedule_at', '2099-05-01 09:30:00'],
		['schedule_at', '2099-05-01T09:30'],
		['min_trigger_time', '9:00'],
		['min_trigger_time', '24:00'],
		['min_trigger_time', '12:60'],
		['min_trigger_time', 900],
		['max_trigger_time', '18:30:00'],
		['carry_over', 'true'],
		['carry_over', 1],
		['number_of_retries', -1],
		['number_of_retries', 11],
		['number_of_retries', 1.5],
		['number_of_retries', '3'],
		['gap_between_retries', -5],
		['gap_between_retries', 1.5],
		['gap_between_retries', []],
		['gap_between_retries', [30, '60']],
		['gap_between_retries', [30, -1]],
		['gap_between_retries', '30'],
		['priority', -101],
		['priority', 101],
		['priority', 2.5],
		['priority', '5'],
		['language', 'fr'],
		['language', 'EN'],
		['language', 1],
	])(
		'docs §2 optional field %s = %p outside its limits -> 400 naming the field',
		async (field, value) => {
			const res = await outbound({ ...base(), [field]: value });
			expect(res.status).toBe(400);
			expect(res.body.status).toBe('error');
			expect(res.body.message).toContain(field);
			expect(sb.state.calls).toHaveLength(0);
		},
	);

	test.each([
		['number_of_retries', 0],
		['number_of_retries', 10],
		['priority', -100],
		['priority', 100],
		['gap_between_retries', 0],
		['gap_between_retries', 45],
		['gap_between_retries', [10, 20, 40]],
		['min_trigger_time', '00:00'],
		['max_trigger_time', '23:59'],
		['carry_over', false],
		['metadata', {}],
		['metadata', { a: 'x', b: 2.5 }],
		...['hi', 'en', 'kn', 'mr', 'ta', 'te', 'bn', 'gu', 'ml'].map((l) => ['language', l]),
	] as Array<[string, unknown]>)(
		'docs §2 optional field %s = %p within its limits is accepted',
		async (field, value) => {
			const res = await outbound({ ...base(), [field]: value });
			expect(res.status).toBe(200);
			expect(sb.state.calls[0].options).toEqual({ [field]: value });
		},
	);

	test('docs §2 optional fields sent as null count as omitted', async () => {
		const res = await outbound({ ...base(), priority: null, language: null, schedule_at: null });
		expect(res.status).toBe(200);
		expect(sb.state.calls[0].options).toEqual({});
	});

	test('docs §2 a future schedule_at (IST) makes a scheduled call; a past one is placed now', async () => {
		const later = await outbound({ ...base(), schedule_at: formatIst(Date.now() + 3_600_000) });
		const past = await outbound({ ...base(), schedule_at: '2021-06-01T12:00:00' });
		expect(later.status).toBe(200);
		expect(past.status).toBe(200);
		expect(sb.state.calls.map((c) => c.status)).toEqual(['scheduled', 'queued']);
		expect(sb.state.scheduledCalls.map((c) => c.id)).toEqual([later.body.call_id]);
		expect(sb.state.calls[1].scheduledFor).toBe('2021-06-01T06:30:00.000Z');
	});

	test('docs §2 no idempotency key: the same request twice places two calls', async () => {
		const body = base();
		const a = await outbound(body);
		const b = await outbound(body);
		expect(a.body.call_id).not.toBe(b.body.call_id);
		expect(sb.state.calls).toHaveLength(2);
	});
});
