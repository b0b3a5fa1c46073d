import { call } from './helpers';
import { DEMO_API_KEY, startSandbox } from './sandbox.mjs';
import { rawHttp } from './testUtils.mjs';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const API_PATHS = [
	'/workflow/assign',
	'/call/delete-schedule-call?agent_id=agent_sales_01',
	'/call/outbound',
	'/call/campaign',
	'/v2/call/campaign',
];

describe('Errors and keys on every endpoint (spec §2.4, §5, §7)', () => {
	let sb: Sandbox;

	beforeAll(async () => {
		sb = await startSandbox({ runDurationMs: 0 });
	});
	afterAll(async () => {
		await sb.close();
	});
	beforeEach(() => sb.reset());

	test.each([
		['/workflow/assign', 401, 'Missing API key'],
		['/call/delete-schedule-call?agent_id=agent_sales_01', 403, 'Missing X-API-KEY in headers'],
		['/call/outbound', 403, 'Missing X-API-KEY in headers'],
		['/call/campaign', 403, 'Missing X-API-KEY in headers'],
		['/v2/call/campaign', 403, 'Missing X-API-KEY in headers'],
	])('§5.5/§7 a missing X-API-KEY on %s gives %i %s', async (path, status, message) => {
		const res = await call(sb.url, path, { to_number: '919811111111' }, { key: null });
		expect(res.status).toBe(status);
		expect(res.body).toEqual({ status: 'error', message });
	});

	test.each(API_PATHS)('§5.5 an empty X-API-KEY on %s counts as missing', async (path) => {
		const res = await call(sb.url, path, {}, { key: '' });
		expect([401, 403]).toContain(res.status);
		expect(res.body.message).toMatch(/^Missing/);
	});

	test.each([
		['/workflow/assign', 401, 'Invalid API key'],
		['/call/delete-schedule-call?agent_id=agent_sales_01', 403, 'Missing X-API-KEY in headers'],
		['/call/outbound', 403, 'Missing X-API-KEY in headers'],
		['/call/campaign', 403, 'Missing X-API-KEY in headers'],
		['/v2/call/campaign', 403, 'Missing X-API-KEY in headers'],
	])(
		'§7 a present key that matches no account on %s gives %i %s',
		async (path, status, message) => {
			const res = await call(sb.url, path, {}, { key: 'ck_unknown_key' });
			expect(res.status).toBe(status);
			expect(res.body).toEqual({ status: 'error', message });
		},
	);

	test('§5.1 the header name is case-insensitive (X-API-KEY, x-api-key)', async () => {
		const res = await call(
			sb.url,
			'/v2/call/campaign',
			{ name: 'A' },
			{
				key: null,
				headers: { 'X-API-KEY': DEMO_API_KEY },
			},
		);
		expect(res.status).toBe(200);
	});

	test.each(API_PATHS)('§7 malformed JSON on %s gives 400, never a crash', async (path) => {
		const res = await call(sb.url, path, undefined, {
			raw: '{"to_number": "9198',
			contentType: 'application/json',
		});
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ status: 'error', message: 'Malformed JSON in request body' });
		const health = await call(sb.url, '/__sandbox/health', undefined, { method: 'GET' });
		expect(health.status).toBe(200);
	});

	test.each([
		['an array', '[]'],
		['a string', '"to_number"'],
		['a number', '42'],
		['null', 'null'],
	])('§7 a JSON body that is %s (not an object) gives 400', async (_label, raw) => {
		const res = await call(sb.url, '/call/outbound', undefined, {
			raw,
			contentType: 'application/json',
		});
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ status: 'error', message: 'Request body must be a JSON object' });
	});

	test('§7 a malformed multipart body gives 400', async () => {
		const res = await call(
			sb.url,
			'/call/delete-schedule-call?agent_id=agent_sales_01',
			undefined,
			{
				raw: 'not multipart at all',
				contentType: 'multipart/form-data; boundary=XYZ',
			},
		);
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ status: 'error', message: 'Malformed multipart/form-data body' });
	});

	test.each([
		['/'],
		['/workflow'],
		['/workflow/assign/extra'],
		['/call/outbound/v2'],
		['/v1/call/outbound'],
		['/call/delete-scheduled-call'],
	])('§7 an unknown path (%s) gives 404 with an error body', async (path) => {
		const res = await call(sb.url, path, {});
		expect(res.status).toBe(404);
		expect(res.body.status).toBe('error');
		expect(Object.keys(res.body).sort()).toEqual(['message', 'status']);
	});

	test.each([
		['GET', '/workflow/assign'],
		['PUT', '/call/outbound'],
		['DELETE', '/call/delete-schedule-call'],
		['PATCH', '/call/campaign'],
		['GET', '/v2/call/campaign'],
	] as const)('§7 a wrong method (%s %s) gives 405 with Allow: POST', async (method, path) => {
		const res = await call(sb.url, path, undefined, { method });
		expect(res.status).toBe(405);
		expect(res.headers.allow).toBe('POST');
		expect(res.body.status).toBe('error');
	});

	test('a trailing slash on a path is accepted', async () => {
		const res = await call(sb.url, '/v2/call/campaign/', { name: 'A' });
		expect(res.status).toBe(200);
	});

	test('a body over 1 MiB gives 413', async () => {
		const res = await call(sb.url, '/call/outbound', {
			to_number: '919811111111',
			agent_id: 'x'.repeat(1_100_000),
		});
		expect(res.status).toBe(413);
		expect(res.body).toEqual({ status: 'error', message: 'Request body too large' });
	});

	test('a request that is not HTTP gets 400 and the sandbox keeps running', async () => {
		const answer = await rawHttp(sb.url, 'HELLO THERE\r\n\r\n');
		expect(answer).toMatch(/^HTTP\/1\.1 400/);
		expect((await call(sb.url, '/__sandbox/health', undefined, { method: 'GET' })).status).toBe(
			200,
		);
	});

	test.each([
		['assign 400', '/workflow/assign', {}],
		['assign 404', '/workflow/assign', { to_number: '919811111111', workflow_id: 'nope' }],
		['outbound 400', '/call/outbound', { to_number: '919811111111' }],
		['outbound 404', '/call/outbound', { to_number: '919811111111', agent_id: 'nope' }],
		['delete 400', '/call/delete-schedule-call', {}],
		['campaign 400', '/call/campaign', {}],
	])(
		'§2.4 every error body is exactly { status: "error", message } (%s)',
		async (_label, path, body) => {
			const res = await call(sb.url, path, body);
			expect(res.status).toBeGreaterThanOrEqual(400);
			expect(Object.keys(res.body).sort()).toEqual(['message', 'status']);
			expect(res.body.status).toBe('error');
			expect(typeof res.body.message).toBe('string');
			expect(res.headers['content-type']).toMatch(/^application\/json/);
		},
	);
});
