import { call, freshNumber } from './helpers';
import { OTHER_API_KEY, startSandbox } from './sandbox.mjs';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

describe('Campaigns: POST /call/campaign (v1) and POST /v2/call/campaign (spec §4.4, §9; public docs §3)', () => {
	let sb: Sandbox;
	const v1 = (body: unknown, options?: Parameters<typeof call>[3]) =>
		call(sb.url, '/call/campaign', body, options);
	const v2 = (body: unknown, options?: Parameters<typeof call>[3]) =>
		call(sb.url, '/v2/call/campaign', body, options);
	const outbound = (body: unknown, options?: Parameters<typeof call>[3]) =>
		call(sb.url, '/call/outbound', body, options);

	beforeAll(async () => {
		sb = await startSandbox();
	});
	afterAll(async () => {
		await sb.close();
	});
	beforeEach(() => sb.reset());

	test('§4.4/docs §3 v1 takes name and agent_id: 200 Campaign created successfully with batch_id', async () => {
		const res = await v1({ name: 'Spring sale', agent_id: 'agent_sales_01' });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			status: 'success',
			message: 'Campaign created successfully',
			batch_id: expect.stringMatching(/^[0-9a-f]{24}$/),
		});
		expect(sb.state.campaigns).toEqual([
			expect.objectContaining({
				batchId: res.body.batch_id,
				version: 'v1',
				name: 'Spring sale',
				agentId: 'agent_sales_01',
				callIds: [],
			}),
		]);
	});

	test('§4.4/docs §3 v2 takes only name: 200 with batch_id', async () => {
		const res = await v2({ name: 'Renewals' });
		expect(res.status).toBe(200);
		expect(res.body.message).toBe('Campaign created successfully');
		expect(sb.state.campaigns[0]).toMatchObject({ version: 'v2', agentId: null, name: 'Renewals' });
	});

	test.each([
		['v1 without name', '/call/campaign', { agent_id: 'agent_sales_01' }, 'name'],
		['v1 without agent_id', '/call/campaign', { name: 'A' }, 'agent_id'],
		['v1 with empty name', '/call/campaign', { name: '', agent_id: 'agent_sales_01' }, 'name'],
		['v2 without name', '/v2/call/campaign', {}, 'name'],
	])(
		'§7.3 campaign required fields (%s) -> 400 Missing required field',
		async (_label, path, body, field) => {
			const res = await call(sb.url, path, body);
			expect(res.status).toBe(400);
			expect(res.body).toEqual({ status: 'error', message: `Missing required field: ${field}` });
		},
	);

	test('§7.3 v1 with an unknown agent -> 404 Agent does not exist', async () => {
		const res = await v1({ name: 'A', agent_id: 'agent_nobody' });
		expect(res.status).toBe(404);
		expect(res.body).toEqual({ status: 'error', message: 'Agent does not exist' });
	});

	test.each([['/call/campaign'], ['/v2/call/campaign']])(
		'§7.3 %s without a key -> 403, with a wrong key -> 403',
		async (path) => {
			const body = { name: 'A', agent_id: 'agent_sales_01' };
			const missing = await call(sb.url, path, body, { key: null });
			expect(missing.status).toBe(403);
			expect(missing.body).toEqual({ status: 'error', message: 'Missing X-API-KEY in headers' });
			const wrong = await call(sb.url, path, body, { key: 'ck_wrong' });
			expect(wrong.status).toBe(403);
			expect(wrong.body).toEqual({ status: 'error', message: 'Missing X-API-KEY in headers' });
		},
	);

	test('docs §3 an outbound call with a batch_id joins the campaign', async () => {
		const campaign = await v1({ name: 'A', agent_id: 'agent_sales_01' });
		const res = await outbound({
			to_number: freshNumber(),
			agent_id: 'agent_sales_01',
			batch_id: campaign.body.batch_id,
		});
		expect(res.status).toBe(200);
		expect(sb.state.campaigns[0].callIds).toEqual([res.body.call_id]);
		expect(sb.state.calls[0].batchId).toBe(campaign.body.batch_id);
	});

	test('docs §3 a v1 campaign rejects a call from another agent -> 400 Agent does not match the campaign', async () => {
		const campaign = await v1({ name: 'A', agent_id: 'agent_sales_01' });
		const res = await outbound({
			to_number: freshNumber(),
			agent_id: 'agent_support_02',
			batch_id: campaign.body.batch_id,
		});
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ status: 'error', message: 'Agent does not match the campaign' });
		expect(sb.state.calls).toHaveLength(0);
	});

	test('docs §3 a v2 campaign takes calls of any agent of the account', async () => {
		const campaign = await v2({ name: 'B' });
		for (const agent of ['agent_sales_01', 'agent_support_02']) {
			const res = await outbound({
				to_number: freshNumber(),
				agent_id: agent,
				batch_id: campaign.body.batch_id,
			});
			expect(res.status).toBe(200);
		}
		expect(sb.state.campaigns[0].callIds).toHaveLength(2);
	});

	test('docs §3 an unknown batch_id -> 404 Campaign not found', async () => {
		const res = await outbound({
			to_number: freshNumber(),
			agent_id: 'agent_sales_01',
			batch_id: 'no_such_batch',
		});
		expect(res.status).toBe(404);
		expect(res.body).toEqual({ status: 'error', message: 'Campaign not found' });
	});

	test('docs §3 a campaign of another account is not found -> 404', async () => {
		const campaign = await v2({ name: 'Other' }, { key: OTHER_API_KEY });
		expect(campaign.status).toBe(200);
		const res = await outbound({
			to_number: freshNumber(),
			agent_id: 'agent_sales_01',
			batch_id: campaign.body.batch_id,
		});
		expect(res.status).toBe(404);
		expect(res.body.message).toBe('Campaign not found');
	});
});
