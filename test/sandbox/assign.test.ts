import { pause as sleep } from '../support/pause.mjs';

import { call, freshNumber, type AttributeResult } from './helpers';
import { OTHER_API_KEY, formatIst, startSandbox } from './sandbox.mjs';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const ASHA = '919876543210';

describe('POST /workflow/assign (spec §§2.1-2.3, 3, 4.1, 5, 7.1, 8)', () => {
	let sb: Sandbox;
	const assign = (body: unknown, options?: Parameters<typeof call>[3]) =>
		call(sb.url, '/workflow/assign', body, options);
	const contact = (number: string) =>
		sb.state.contacts.find((c) => c.account === 0 && c.number === number.replace(/^\+/, ''));
	const attr = (key: string, value: unknown, replace?: boolean) =>
		replace === undefined ? { key, value } : { key, value, replace };

	beforeAll(async () => {
		sb = await startSandbox({ runDurationMs: 0 });
	});
	afterAll(async () => {
		await sb.close();
	});
	beforeEach(() => sb.reset());

	// ---- §2.1 request fields ----------------------------------------------------------

	test.each([
		['missing', { workflow_id: 'wf_welcome' }],
		['null', { to_number: null, workflow_id: 'wf_welcome' }],
		['empty', { to_number: '', workflow_id: 'wf_welcome' }],
	])(
		'§2.1 to_number is required (%s) -> 400 Missing required field: to_number',
		async (_label, body) => {
			const res = await assign(body);
			expect(res.status).toBe(400);
			expect(res.body).toEqual({ status: 'error', message: 'Missing required field: to_number' });
		},
	);

	test.each([
		['missing', { to_number: '+919811111111' }],
		['null', { to_number: '+919811111111', workflow_id: null }],
		['empty', { to_number: '+919811111111', workflow_id: '' }],
	])(
		'§2.1 workflow_id is required (%s) -> 400 Missing required field: workflow_id',
		async (_label, body) => {
			const res = await assign(body);
			expect(res.status).toBe(400);
			expect(res.body).toEqual({ status: 'error', message: 'Missing required field: workflow_id' });
		},
	);

	test.each([['12345'], ['abc'], ['+0919876543210'], ['+91 98765 43210'], ['+1234567890123456']])(
		'§2.1 to_number must be a phone number with country code (%s) -> 400',
		async (number) => {
			const res = await assign({ to_number: number, workflow_id: 'wf_welcome' });
			expect(res.status).toBe(400);
			expect(res.body.message).toMatch(/to_number/);
		},
	);

	test('§2.1 to_number given as a JSON number (not a string) -> 400', async () => {
		const res = await assign({ to_number: 919811111111, workflow_id: 'wf_welcome' });
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ status: 'error', message: 'to_number must be a string' });
	});

	test('§2.1 a leading + is optional: +91… and 91… are the same contact', async () => {
		const first = await assign({
			to_number: '+919822222222',
			workflow_id: 'wf_welcome',
			attributes: [attr('First Name', 'Ravi')],
		});
		expect(first.status).toBe(200);
		sb.finishRuns({ all: true });
		const second = await assign({
			to_number: '919822222222',
			workflow_id: 'wf_welcome',
			attributes: [attr('First Name', 'Other')],
		});
		expect(second.status).toBe(200);
		expect(second.body.attributes?.kept_existing).toEqual(['First Name']);
		expect(sb.state.contacts.filter((c) => c.number === '919822222222')).toHaveLength(1);
		expect(contact('919822222222')?.values).toEqual({ 'First Name': 'Ravi' });
	});

	test.each([
		['one-digit month', '2030-1-05T10:00:00'],
		['space instead of T', '2030-01-05 10:00:00'],
		['no seconds', '2030-01-05T10:00'],
		['trailing Z', '2030-01-05T10:00:00Z'],
		['offset', '2030-01-05T10:00:00+05:30'],
		['milliseconds', '2030-01-05T10:00:00.000'],
		['one-digit hour', '2030-01-05T1:00:00'],
		['30 February', '2030-02-30T10:00:00'],
		['29 February of a common year', '2029-02-29T10:00:00'],
		['month 13', '2030-13-01T10:00:00'],
		['hour 24', '2030-01-05T24:00:00'],
		['minute 60', '2030-01-05T10:60:00'],
		['second 60', '2030-01-05T10:00:60'],
		['day 00', '2030-01-00T10:00:00'],
		['date only', '2030-01-05'],
		['empty string', ''],
		['a number', 1893456000],
	])(
		'§2.1 schedule_at must be YYYY-MM-DDTHH:mm:ss, a real date and time (%s) -> 400',
		async (_label, scheduleAt) => {
			const res = await assign({
				to_number: freshNumber(),
				workflow_id: 'wf_welcome',
				schedule_at: scheduleAt,
			});
			expect(res.status).toBe(400);
			expect(res.body).toEqual({
				status: 'error',
				message: 'schedule_at must be YYYY-MM-DDTHH:mm:ss (IST)',
			});
		},
	);

	test('§2.1 schedule_at accepts 29 February of a leap year', async () => {
		const res = await assign({
			to_number: freshNumber(),
			workflow_id: 'wf_welcome',
			schedule_at: '2096-02-29T23:59:59',
		});
		expect(res.status).toBe(200);
	});

	test('§2.1 schedule_at omitted: the run starts now', async () => {
		const res = await assign({ to_number: freshNumber(), workflow_id: 'wf_welcome' });
		expect(res.status).toBe(200);
		const run = sb.state.runs.find((r) => r.id === res.body.run_id);
		expect(run).toMatchObject({ status: 'running', scheduledFor: null, scheduleAt: null });
		expect(run?.startedAt).not.toBeNull();
	});

	test('§2.1 schedule_at already passed: the run starts now, and the time is recorded', async () => {
		const res = await assign({
			to_number: freshNumber(),
			workflow_id: 'wf_welcome',
			schedule_at: '2020-01-01T09:00:00',
		});
		expect(res.status).toBe(200);
		const run = sb.state.runs.find((r) => r.id === res.body.run_id);
		expect(run).toMatchObject({ status: 'running', scheduledFor: '2020-01-01T03:30:00.000Z' });
	});

	test('§2.1 schedule_at in the future is IST (UTC+05:30): the run waits as scheduled', async () => {
		const res = await assign({
			to_number: freshNumber(),
			workflow_id: 'wf_welcome',
			schedule_at: '2099-12-31T23:30:00',
		});
		expect(res.status).toBe(200);
		expect(res.body.status).toBe('done');
		const run = sb.state.runs.find((r) => r.id === res.body.run_id);
		expect(run).toMatchObject({
			status: 'scheduled',
			scheduleAt: '2099-12-31T23:30:00',
			scheduledFor: '2099-12-31T18:00:00.000Z',
			startedAt: null,
		});
	});

	test('§3 a scheduled run starts at its schedule_at', async () => {
		const res = await assign({
			to_number: freshNumber(),
			workflow_id: 'wf_welcome',
			schedule_at: formatIst(Date.now() + 1200),
		});
		const run = sb.state.runs.find((r) => r.id === res.body.run_id);
		// waits for the sandbox's timer, however late a busy machine fires it (jest's timeout
		// bounds it); a run started early is caught below
		while (run?.status === 'scheduled') await sleep(50);
		expect(run?.status).toBe('running');
		expect(Date.parse(run?.startedAt ?? '')).toBeGreaterThanOrEqual(
			Date.parse(run?.scheduledFor ?? '') - 5,
		);
	});

	// ---- §2.2 attribute rows, §8 limits -------------------------------------------------

	test('§2.1/§8 attributes: 50 items are accepted', async () => {
		const rows = Array.from({ length: 50 }, (_, i) => attr(`Unknown ${i}`, i));
		const res = await assign({
			to_number: freshNumber(),
			workflow_id: 'wf_welcome',
			attributes: rows,
		});
		expect(res.status).toBe(200);
		expect(res.body.attributes?.ignored).toHaveLength(50);
	});

	test('§2.1/§8 attributes: more than 50 items -> 400, nothing saved', async () => {
		const number = freshNumber();
		const rows = Array.from({ length: 51 }, () => attr('First Name', 'X'));
		const res = await assign({ to_number: number, workflow_id: 'wf_welcome', attributes: rows });
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ status: 'error', message: 'attributes must have at most 50 items' });
		expect(contact(number)).toBeUndefined();
	});

	test.each([
		['an object', { 'First Name': 'X' }],
		['a string', 'First Name=X'],
		['a number', 5],
	])('§2.2 attributes must be an array (%s) -> 400', async (_label, attributes) => {
		const res = await assign({ to_number: freshNumber(), workflow_id: 'wf_welcome', attributes });
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ status: 'error', message: 'attributes must be an array' });
	});

	test.each([
		['no key', [{ value: 'X' }], 'Missing required field: attributes[0].key'],
		['empty key', [{ key: '', value: 'X' }], 'Missing required field: attributes[0].key'],
		[
			'null key',
			[attr('City', 'X'), { key: null, value: 'X' }],
			'Missing required field: attributes[1].key',
		],
		['key not a string', [{ key: 7, value: 'X' }], 'attributes[0].key must be a string'],
		['no value', [{ key: 'City' }], 'Missing required field: attributes[0].value'],
		[
			'value an object',
			[{ key: 'City', value: { a: 1 } }],
			'attributes[0].value must be a string, number or boolean',
		],
		[
			'value an array',
			[{ key: 'City', value: ['a'] }],
			'attributes[0].value must be a string, number or boolean',
		],
		['row not an object', ['City'], 'attributes[0] must be an object with key and value'],
		[
			'replace not a boolean',
			[{ key: 'City', value: 'X', replace: 'yes' }],
			'attributes[0].replace must be a boolean',
		],
	])('§2.2 attribute row shape (%s) -> 400', async (_label, attributes, message) => {
		const number = freshNumber();
		const res = await assign({ to_number: number, workflow_id: 'wf_welcome', attributes });
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ status: 'error', message });
		expect(contact(number)).toBeUndefined();
	});

	test('§2.2/§8 a value of 1000 characters is accepted, 1001 -> 400', async () => {
		const ok = await assign({
			to_number: freshNumber(),
			workflow_id: 'wf_welcome',
			attributes: [attr('First Name', 'x'.repeat(1000))],
		});
		expect(ok.status).toBe(200);
		expect(ok.body.attributes?.updated).toEqual(['First Name']);
		const tooLong = await assign({
			to_number: freshNumber(),
			workflow_id: 'wf_welcome',
			attributes: [attr('First Name', 'x'.repeat(1001))],
		});
		expect(tooLong.status).toBe(400);
		expect(tooLong.body).toEqual({
			status: 'error',
			message: 'attributes[0].value must be at most 1000 characters',
		});
	});

	test.each([
		['first name'],
		['FIRST_NAME'],
		['first-name'],
		['  First   Name '],
		['firstname'],
		['First_-_Name'],
	])(
		'§2.2/§4.1 rule 1 key matching ignores case, spaces, underscores and hyphens (%p)',
		async (key) => {
			const number = freshNumber();
			const res = await assign({
				to_number: number,
				workflow_id: 'wf_welcome',
				attributes: [attr(key, 'Meera')],
			});
			expect(res.status).toBe(200);
			expect(res.body.attributes).toEqual({
				updated: [key],
				kept_existing: [],
				ignored: [],
				invalid: [],
			});
			expect(contact(number)?.values).toEqual({ 'First Name': 'Meera' });
		},
	);

	test.each([
		['Lead Score', 42, 42],
		['Lead Score', '42', 42],
		['Lead Score', '-3.5', -3.5],
		['Visit Date', '2026-03-12', '2026-03-12'],
		['Visit Date', '2026-03-12T10:15:00Z', '2026-03-12T10:15:00Z'],
		['Visit Date', '12 March 2026', '12 March 2026'],
		['Opted In', true, true],
		['Opted In', 'false', false],
		['Plan', 'Enterprise', 'Enterprise'],
		['City', 411001, '411001'],
	])('§2.2 a value that fits the type is saved (%s = %p)', async (key, value, stored) => {
		const number = freshNumber();
		const res = await assign({
			to_number: number,
			workflow_id: 'wf_welcome',
			attributes: [attr(key, value)],
		});
		expect(res.body.attributes?.updated).toEqual([key]);
		expect(contact(number)?.values[key]).toEqual(stored);
	});

	test.each([
		['Lead Score', 'abc', 'needs a number'],
		['Lead Score', '', 'needs a number'],
		['Lead Score', '12abc', 'needs a number'],
		['Lead Score', true, 'needs a number'],
		['Visit Date', 'not a date', 'needs a date'],
		['Visit Date', '2026-02-30', 'needs a date'],
		['Visit Date', '1', 'needs a date'],
		['Visit Date', 20260312, 'needs a date'],
		['Visit Date', false, 'needs a date'],
		['Opted In', 'yes', 'needs true or false'],
		['Opted In', 1, 'needs true or false'],
		['Opted In', 'TRUE', 'needs true or false'],
		['Plan', 'pro', 'must be one of: Basic, Pro, Enterprise'],
		['Plan', 'Gold', 'must be one of: Basic, Pro, Enterprise'],
		['Plan', 1, 'must be one of: Basic, Pro, Enterprise'],
	])(
		'§2.2 a value that does not fit the type or options is invalid with a reason (%s = %p)',
		async (key, value, reason) => {
			const number = freshNumber();
			const res = await assign({
				to_number: number,
				workflow_id: 'wf_welcome',
				attributes: [attr(key, value)],
			});
			expect(res.status).toBe(200);
			expect(res.body.attributes).toEqual({
				updated: [],
				kept_existing: [],
				ignored: [],
				invalid: [{ key, reason: `${key} ${reason}` }],
			});
			expect(contact(number)?.values).toEqual({});
		},
	);

	// ---- §4.1 attribute rules 2-5 -------------------------------------------------------

	test('§4.1 rule 2 replace defaults to false: an existing value is kept (kept_existing)', async () => {
		const res = await assign({
			to_number: ASHA,
			workflow_id: 'wf_welcome',
			attributes: [attr('First Name', 'Bina')],
		});
		expect(res.body.attributes?.kept_existing).toEqual(['First Name']);
		expect(contact(ASHA)?.values['First Name']).toBe('Asha');
	});

	test('§4.1 rule 2 replace false fills an attribute that is empty', async () => {
		const res = await assign({
			to_number: ASHA,
			workflow_id: 'wf_welcome',
			attributes: [attr('Lead Score', 7, false)],
		});
		expect(res.body.attributes?.updated).toEqual(['Lead Score']);
		expect(contact(ASHA)?.values['Lead Score']).toBe(7);
	});

	test('§4.1 rule 2 replace true overwrites an existing value', async () => {
		const res = await assign({
			to_number: ASHA,
			workflow_id: 'wf_welcome',
			attributes: [attr('First Name', 'Bina', true)],
		});
		expect(res.body.attributes?.updated).toEqual(['First Name']);
		expect(contact(ASHA)?.values['First Name']).toBe('Bina');
	});

	test('§4.1 rule 3 a value typed by hand is never overwritten, even with replace true', async () => {
		const res = await assign({
			to_number: ASHA,
			workflow_id: 'wf_welcome',
			attributes: [attr('city', 'Mumbai', true)],
		});
		expect(res.body.attributes).toEqual({
			updated: [],
			kept_existing: ['city'],
			ignored: [],
			invalid: [],
		});
		expect(contact(ASHA)?.values.City).toBe('Pune');
	});

	test('§4.1 rule 4 an unknown key is not created and is listed in ignored', async () => {
		const number = freshNumber();
		const res = await assign({
			to_number: number,
			workflow_id: 'wf_welcome',
			attributes: [attr('Shoe Size', 9)],
		});
		expect(res.body.attributes).toEqual({
			updated: [],
			kept_existing: [],
			ignored: ['Shoe Size'],
			invalid: [],
		});
		expect(contact(number)?.values).toEqual({});
		expect(sb.state.accounts[0].attributes.map((a) => a.name)).not.toContain('Shoe Size');
	});

	test('§4.1 rule 5 every submitted row is reported in exactly one list', async () => {
		const rows = [
			attr('First Name', 'Bina'),
			attr('City', 'Delhi', true),
			attr('Lead Score', '9'),
			attr('Lead Score', '10'),
			attr('Plan', 'Gold'),
			attr('Nickname', 'B'),
			attr('Opted In', 'true', true),
		];
		const res = await assign({ to_number: ASHA, workflow_id: 'wf_welcome', attributes: rows });
		const lists = res.body.attributes as AttributeResult;
		expect(lists).toEqual({
			updated: ['Lead Score', 'Opted In'],
			kept_existing: ['First Name', 'City', 'Lead Score'],
			ignored: ['Nickname'],
			invalid: [{ key: 'Plan', reason: 'Plan must be one of: Basic, Pro, Enterprise' }],
		});
		const total =
			lists.updated.length +
			lists.kept_existing.length +
			lists.ignored.length +
			lists.invalid.length;
		expect(total).toBe(rows.length);
	});

	// ---- §4.1 order of processing and workflows -------------------------------------------

	test('§4.1 the number becomes a contact if it is not one yet', async () => {
		const number = freshNumber();
		expect(contact(number)).toBeUndefined();
		const res = await assign({ to_number: number, workflow_id: 'wf_welcome' });
		expect(res.status).toBe(200);
		expect(contact(number)).toMatchObject({ source: 'api', values: {}, manual: [] });
	});

	test.each([
		['wf_missing', 404, 'Workflow not found'],
		['wf_empty', 400, 'This workflow has no steps yet'],
		['wf_legacy', 400, 'This workflow is no longer available'],
	])(
		'§4.1 step 1: the workflow is checked first (%s -> %i %s), no contact is saved',
		async (workflowId, status, message) => {
			const number = freshNumber();
			const res = await assign({
				to_number: number,
				workflow_id: workflowId,
				attributes: [attr('First Name', 'X')],
			});
			expect(res.status).toBe(status);
			expect(res.body).toEqual({ status: 'error', message });
			expect(contact(number)).toBeUndefined();
			expect(sb.state.runs).toHaveLength(0);
		},
	);

	test('§2.3 success: status done, message, run_id, enrollment_id and the attributes object', async () => {
		const res = await assign({
			to_number: freshNumber(),
			workflow_id: 'wf_followup',
			attributes: [],
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			status: 'done',
			message: expect.any(String),
			run_id: expect.stringMatching(/^[0-9a-f]{24}$/),
			enrollment_id: expect.stringMatching(/^[0-9a-f]{24}$/),
			attributes: { updated: [], kept_existing: [], ignored: [], invalid: [] },
		});
	});

	test('§2.3 enrollment_id is shared by the runs of one request, and differs between requests', async () => {
		const a = await assign({ to_number: freshNumber(), workflow_id: 'wf_welcome' });
		const b = await assign({ to_number: freshNumber(), workflow_id: 'wf_welcome' });
		const runsOfA = sb.state.runs.filter((r) => r.enrollmentId === a.body.enrollment_id);
		expect(runsOfA.map((r) => r.id)).toEqual([a.body.run_id]);
		expect(a.body.enrollment_id).not.toBe(b.body.enrollment_id);
		expect(a.body.run_id).not.toBe(b.body.run_id);
	});

	// ---- §3 states ----------------------------------------------------------------------

	test('§3 in progress: a second assign gives 409, and its attributes are still saved and reported', async () => {
		const number = freshNumber();
		expect((await assign({ to_number: number, workflow_id: 'wf_welcome' })).status).toBe(200);
		const res = await assign({
			to_number: number.slice(1),
			workflow_id: 'wf_welcome',
			attributes: [attr('Plan', 'Pro'), attr('Hair', 'long')],
		});
		expect(res.status).toBe(409);
		expect(res.body).toEqual({
			status: 'error',
			message: 'This number is already running in this workflow',
			attributes: { updated: ['Plan'], kept_existing: [], ignored: ['Hair'], invalid: [] },
		});
		expect(contact(number)?.values.Plan).toBe('Pro');
		expect(sb.state.runs).toHaveLength(1);
	});

	test('§3 a scheduled run counts as in progress: assigning again gives 409', async () => {
		const number = freshNumber();
		await assign({
			to_number: number,
			workflow_id: 'wf_welcome',
			schedule_at: '2099-01-01T10:00:00',
		});
		const res = await assign({ to_number: number, workflow_id: 'wf_welcome' });
		expect(res.status).toBe(409);
	});

	test('§3 one active run per number and workflow: another workflow is independent', async () => {
		const number = freshNumber();
		expect((await assign({ to_number: number, workflow_id: 'wf_welcome' })).status).toBe(200);
		expect((await assign({ to_number: number, workflow_id: 'wf_followup' })).status).toBe(200);
	});

	test('§3 finished (admin finish): the number can be assigned again', async () => {
		const number = freshNumber();
		const first = await assign({ to_number: number, workflow_id: 'wf_welcome' });
		expect((await assign({ to_number: number, workflow_id: 'wf_welcome' })).status).toBe(409);
		expect(sb.finishRuns({ runId: first.body.run_id as string })).toEqual([first.body.run_id]);
		const again = await assign({ to_number: number, workflow_id: 'wf_welcome' });
		expect(again.status).toBe(200);
		expect(sb.state.runs.map((r) => r.status)).toEqual(['finished', 'running']);
	});

	test('§3 finished on its own after runDurationMs: the number can be assigned again', async () => {
		const quick = await startSandbox({ runDurationMs: 120 });
		try {
			const body = { to_number: '+919833333333', workflow_id: 'wf_welcome' };
			expect((await call(quick.url, '/workflow/assign', body)).status).toBe(200);
			const run = quick.state.runs[0];
			// however late a busy machine fires the timer (jest's timeout bounds the wait)
			while (run.status !== 'finished') await sleep(25);
			expect(run).toMatchObject({ status: 'finished', finishedBy: 'timer' });
			expect((await call(quick.url, '/workflow/assign', body)).status).toBe(200);
		} finally {
			await quick.close();
		}
	});

	// ---- §5 and §7.1 keys ----------------------------------------------------------------

	test('§5.5/§7.1 a missing X-API-KEY on assign gives 401 Missing API key', async () => {
		const res = await assign(
			{ to_number: freshNumber(), workflow_id: 'wf_welcome' },
			{ key: null },
		);
		expect(res.status).toBe(401);
		expect(res.body).toEqual({ status: 'error', message: 'Missing API key' });
	});

	test('§7.1 (spec silent) an unknown key on assign gives 401 Invalid API key', async () => {
		const res = await assign(
			{ to_number: freshNumber(), workflow_id: 'wf_welcome' },
			{ key: 'ck_not_a_key' },
		);
		expect(res.status).toBe(401);
		expect(res.body).toEqual({ status: 'error', message: 'Invalid API key' });
	});

	test('§5.3 a key of another account gets 404 Workflow not found, like a missing workflow', async () => {
		const number = freshNumber();
		const res = await assign(
			{ to_number: number, workflow_id: 'wf_welcome' },
			{ key: OTHER_API_KEY },
		);
		expect(res.status).toBe(404);
		expect(res.body).toEqual({ status: 'error', message: 'Workflow not found' });
		expect(sb.state.contacts.some((c) => c.number === number.slice(1))).toBe(false);
		const own = await assign(
			{ to_number: number, workflow_id: 'wf_other' },
			{ key: OTHER_API_KEY },
		);
		expect(own.status).toBe(200);
		expect(sb.state.contacts.find((c) => c.number === number.slice(1))?.account).toBe(1);
	});

	test('§7.1 a 500 after the contact is saved reports the attributes; a retry starts the run', async () => {
		const number = freshNumber();
		sb.setFaults({ endpoint: 'assign', sequence: ['500-after'] });
		const body = {
			to_number: number,
			workflow_id: 'wf_welcome',
			attributes: [attr('Plan', 'Basic')],
		};
		const failed = await assign(body);
		expect(failed.status).toBe(500);
		expect(failed.body).toEqual({
			status: 'error',
			message: 'Internal server error',
			attributes: { updated: ['Plan'], kept_existing: [], ignored: [], invalid: [] },
		});
		expect(contact(number)?.values.Plan).toBe('Basic');
		expect(sb.state.runs).toHaveLength(0);
		const retry = await assign(body);
		expect(retry.status).toBe(200);
		expect(retry.body.attributes?.kept_existing).toEqual(['Plan']);
		expect(sb.state.runs).toHaveLength(1);
	});
});
