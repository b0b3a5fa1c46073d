// CallKaro Create Campaign in n8n's engine against the sandbox: a campaign, then calls that join it.
// Bad input, refusals, retries and tool use: the action-node contract (shared/contract.ts).
import { CREATE_CAMPAIGN, OUTBOUND_CALL } from '../engine/callKaroNodes';
import { apiRequests, NODE_NAME, runNode, useSandbox } from './fixtures';

const AGENT = 'agent_sales_01';
const OTHER_AGENT = 'agent_support_02';

describe('CallKaro Create Campaign', () => {
	const sandbox = useSandbox();

	test('a single-agent (v1) campaign is created with its agent, and its batch ID is output', async () => {
		const result = await runNode(sandbox(), {
			type: CREATE_CAMPAIGN,
			parameters: { name: 'November renewals', campaignType: 'v1', agentId: AGENT },
		});

		const [campaign] = result.json(NODE_NAME);
		expect(campaign).toMatchObject({
			batchId: expect.any(String),
			status: 'success',
			message: 'Campaign created successfully',
			name: 'November renewals',
			campaignType: 'v1',
		});
		expect(apiRequests(sandbox())).toEqual([
			expect.objectContaining({
				path: '/call/campaign',
				body: { name: 'November renewals', agent_id: AGENT },
			}),
		]);
	});

	test('a multi-agent (v2) campaign sends no agent', async () => {
		await runNode(sandbox(), {
			type: CREATE_CAMPAIGN,
			parameters: { name: 'Mixed', campaignType: 'v2', agentId: AGENT },
		});

		expect(apiRequests(sandbox())).toEqual([
			expect.objectContaining({ path: '/v2/call/campaign', body: { name: 'Mixed' } }),
		]);
	});

	test('calls join the campaign through Outbound Call, and a v1 campaign refuses another agent', async () => {
		const created = await runNode(sandbox(), {
			type: CREATE_CAMPAIGN,
			parameters: { name: 'Renewals', campaignType: 'v1', agentId: AGENT },
		});
		const batchId = created.json(NODE_NAME)[0].batchId as string;

		const calls = await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: {
				agentId: '={{ $json.agent }}',
				phoneNumber: '={{ $json.phone }}',
				additionalFields: { batchId },
			},
			items: [
				{ agent: AGENT, phone: '+919811100001' },
				{ agent: OTHER_AGENT, phone: '+919811100002' },
			],
			settings: { continueOnFail: true },
		});

		const [joined, refused] = calls.json(NODE_NAME);
		expect(joined).toMatchObject({ placed: true, callId: expect.any(String) });
		expect(refused).toMatchObject({
			error: expect.stringContaining('Agent does not match the campaign'),
			details: { kind: 'bad-request', httpStatus: 400 },
		});
		expect(sandbox().state.calls).toEqual([
			expect.objectContaining({ batchId, toNumber: '+919811100001' }),
		]);
	});
});
