// A repeated call in one run (same agent, number and time) is sent once. The repeat links to the
// item that was sent (duplicateOf), says what became of it, and is not placed even when that item
// failed: a failure can still have placed the call, so calling again is left to the builder.
import { OUTBOUND_CALL } from '../engine/callKaroNodes';
import { NODE_NAME, apiRequests, freshNumber, runNode, useSandbox } from './fixtures';

describe('a repeated Outbound Call item', () => {
	const sandbox = useSandbox();

	it('links to the first item, says why it was not placed, and is not placed either', async () => {
		const phone = freshNumber();
		const result = await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: { agentId: 'agent_nobody', phoneNumber: '={{ $json.phone }}' },
			items: [{ phone }, { phone }],
			settings: { continueOnFail: true },
		});

		const [first, repeat] = (result.runData[NODE_NAME][0].data?.main[0] ?? []).map(
			(item) => item.json,
		);
		expect(first).toMatchObject({ details: { kind: 'not-found', httpStatus: 404 } });
		expect(repeat).toMatchObject({
			placed: false,
			status: 'duplicate',
			duplicateOf: 0,
			message: `Not placed: a repeat of item 0 (+91******${phone.slice(-4)}, same agent and time); item 0 was not placed (Not found (HTTP 404): Agent does not exist)`,
		});
		expect(apiRequests(sandbox(), '/call/outbound')).toHaveLength(1);
	});

	it('says when the first one may have placed the call: its answer was lost', async () => {
		const phone = freshNumber();
		sandbox().setFaults({ endpoint: 'outbound', sequence: ['drop-after'] });
		const result = await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: { agentId: 'agent_sales_01', phoneNumber: '={{ $json.phone }}' },
			items: [{ phone }, { phone }],
			settings: { continueOnFail: true },
		});

		const [first, repeat] = (result.runData[NODE_NAME][0].data?.main[0] ?? []).map(
			(item) => item.json,
		);
		expect(first).toMatchObject({ details: { kind: 'network', outcomeUnknown: true } });
		expect(repeat.message).toBe(
			`Not placed: a repeat of item 0 (+91******${phone.slice(-4)}, same agent and time); item 0 may have placed the call (${String(first.error)})`,
		);
		// it had: CallKaro placed it and the answer was lost
		expect(sandbox().state.calls).toHaveLength(1);
	});

	it('shows in a preview that a real run would not send it, and sums up', async () => {
		const phone = freshNumber();
		const result = await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: {
				agentId: 'agent_sales_01',
				phoneNumber: '={{ $json.phone }}',
				options: { previewOnly: true },
			},
			items: [{ phone }, { phone }],
		});

		expect(result.json(NODE_NAME)[1]).toMatchObject({
			preview: true,
			placed: false,
			status: 'duplicate',
			duplicateOf: 0,
		});
		expect(result.task(NODE_NAME).hints).toEqual([
			{
				type: 'info',
				location: 'outputPane',
				message: '2 items: 1 previewed, 1 skipped as duplicate; nothing was sent (Preview Only)',
			},
		]);
		expect(apiRequests(sandbox())).toEqual([]);
	});
});
