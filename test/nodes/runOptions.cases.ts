// Concurrency and Max Requests per Second are checked by the node, not only by the editor: an
// expression such as {{ 500 }} is refused for every item, and nothing is sent.
import { OUTBOUND_CALL } from '../engine/callKaroNodes';
import {
	NODE_NAME,
	apiRequests,
	failedItemJson,
	freshNumbers,
	pairedItems,
	runNode,
	useSandbox,
	workflowError,
} from './fixtures';

describe('run options set by an expression', () => {
	const sandbox = useSandbox();

	it.each([
		[
			'Concurrency',
			{ concurrency: '={{ 500 }}' },
			'"Concurrency" must be a whole number from 1 to 50, but is 500. Change it in the node options.',
		],
		[
			'Max Requests per Second',
			{ maxRequestsPerSecond: '={{ -2 }}' },
			'"Max Requests per Second" must be a number from 0 (no limit) upwards, but is -2. Change it in the node options.',
		],
	])('out of range (%s) fails every item and sends nothing', async (_, options, message) => {
		const numbers = freshNumbers(3);
		const result = await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: { agentId: 'agent_sales_01', phoneNumber: '={{ $json.phone }}', options },
			items: numbers.map((phone) => ({ phone })),
			settings: { continueOnFail: true },
		});

		const items = result.runData[NODE_NAME][0].data?.main[0] ?? [];
		expect(pairedItems(items)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items.map((item) => failedItemJson(item).error)).toEqual([
			`${message} [item 0]`,
			`${message} [item 1]`,
			`${message} [item 2]`,
		]);
		expect(apiRequests(sandbox())).toEqual([]);
	});

	it('stops the execution without Continue On Fail', async () => {
		const result = await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: {
				agentId: 'agent_sales_01',
				phoneNumber: freshNumbers(1)[0],
				options: { concurrency: '={{ 51 }}' },
			},
		});

		expect(workflowError(result).message).toBe(
			'"Concurrency" must be a whole number from 1 to 50, but is 51. Change it in the node options. [item 0]',
		);
		expect(apiRequests(sandbox())).toEqual([]);
	});
});
