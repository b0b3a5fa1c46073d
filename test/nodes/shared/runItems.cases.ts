// What a bulk run reports when it stops (no Continue On Fail) or is cancelled, and the hints it
// leaves under its output. Through n8n's engine, against the sandbox over real HTTP.
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	ASSIGN_WORKFLOW,
	DELETE_SCHEDULED_CALL,
	OUTBOUND_CALL,
	callKaroNodeTypes,
} from '../../engine/callKaroNodes';
import { useDeduplicationStore } from '../../engine/deduplication';
import { node, runWorkflow } from '../../engine/harness';
import { DEMO_API_KEY, startSandbox } from '../../sandbox/sandbox.mjs';
import { scheduleCall } from '../CallKaroDeleteScheduledCall.contract';
import { HINTS, NODE_NAME, freshNumbers, runNode, useSandbox, workflowError } from '../fixtures';
import type { RunNodeOptions, Sandbox } from '../fixtures';

const AGENT = 'agent_sales_01';
const UNKNOWN_AGENT = 'agent_unknown';
const RERUN_CALLS =
	'running this node again calls them again unless Skip Numbers Called Before is on.';

function outbound(sandbox: Sandbox, parameters: INodeParameters, more: Partial<RunNodeOptions>) {
	return runNode(sandbox, {
		type: OUTBOUND_CALL,
		parameters: {
			agentId: '={{ $json.agentId }}',
			phoneNumber: '={{ $json.phone }}',
			...parameters,
		},
		...more,
	});
}

/** Leads for the given numbers; the agent of the items listed in `refused` does not exist (404). */
function leads(phones: string[], refused: number[] = []): IDataObject[] {
	return phones.map((phone, index) => ({
		phone,
		agentId: refused.includes(index) ? UNKNOWN_AGENT : AGENT,
	}));
}

/** The items whose number the sandbox holds a call for, in order. */
function placedItems(sandbox: Sandbox, phones: string[]): number[] {
	const called = new Set(sandbox.state.calls.map((call) => call.toNumber));
	return phones.flatMap((phone, index) => (called.has(phone) ? [index] : []));
}

describe('a bulk run that stops on an error', () => {
	const sandbox = useSandbox();
	useDeduplicationStore();

	it('says how many calls were placed and which, and what running it again does', async () => {
		const phones = freshNumbers(4);
		const result = await outbound(
			sandbox(),
			{ options: { concurrency: 1 } },
			{ items: leads(phones, [2]) },
		);

		expect(workflowError(result)).toMatchObject({
			message: 'Not found (HTTP 404): Agent does not exist',
			description: `2 of 4 calls were placed (items 0–1); ${RERUN_CALLS} ${HINTS.notFound}`,
			context: { itemIndex: 2 },
		});
		expect(placedItems(sandbox(), phones)).toEqual([0, 1]);
	});

	it('lets the items in flight finish, and counts them', async () => {
		// At Concurrency 10 all 10 requests are in flight when item 5 is refused.
		const phones = freshNumbers(10);
		const result = await outbound(
			sandbox(),
			{ options: { concurrency: 10 } },
			{ items: leads(phones, [5]) },
		);

		expect(workflowError(result).description).toBe(
			`9 of 10 calls were placed (items 0–4, 6–9); ${RERUN_CALLS} ${HINTS.notFound}`,
		);
		expect(placedItems(sandbox(), phones)).toEqual([0, 1, 2, 3, 4, 6, 7, 8, 9]);
	});

	it('names the item whose answer was lost: it may have been placed', async () => {
		sandbox().setFaults({ endpoint: 'outbound', sequence: ['ok', 'drop-after', 'ok'] });
		const phones = freshNumbers(4);
		const result = await outbound(
			sandbox(),
			{ options: { concurrency: 1 } },
			{ items: leads(phones, [2]) },
		);

		expect(workflowError(result).description).toBe(
			`1 of 4 calls was placed (item 0); item 1 may have been placed as well; ${RERUN_CALLS} ${HINTS.outcomeUnknown}`,
		);
		// it was: CallKaro placed it and the answer was lost
		expect(placedItems(sandbox(), phones)).toEqual([0, 1]);
	});

	it('with Skip Numbers Called Before, says that running again skips them', async () => {
		const phones = freshNumbers(3);
		const result = await outbound(
			sandbox(),
			{ skipBefore: true, options: { concurrency: 1 } },
			{ items: leads(phones, [1]), mode: 'webhook' },
		);

		expect(workflowError(result).description).toBe(
			`1 of 3 calls was placed (item 0); running this node again skips them (Skip Numbers Called Before is on). ${HINTS.notFound}`,
		);
	});

	it('Assign Workflow says how many runs were started', async () => {
		const phones = freshNumbers(3);
		const result = await runNode(sandbox(), {
			type: ASSIGN_WORKFLOW,
			parameters: {
				phoneNumber: '={{ $json.phone }}',
				workflowId: '={{ $json.workflowId }}',
				attributeSource: 'none',
				schedule: 'now',
				options: { concurrency: 1 },
			},
			items: phones.map((phone, index) => ({
				phone,
				workflowId: index === 1 ? 'wf_missing' : 'wf_welcome',
			})),
		});

		expect(workflowError(result).description).toBe(
			`1 of 3 workflow runs was started (item 0); running this node again starts them again once they have finished, unless Skip Numbers Enrolled Before is on. ${HINTS.notFound}`,
		);
	});

	it('Delete Scheduled Call says how many were deleted', async () => {
		const phones = freshNumbers(3);
		for (const phone of phones.slice(0, 2)) await scheduleCall(sandbox(), phone);
		const result = await runNode(sandbox(), {
			type: DELETE_SCHEDULED_CALL,
			parameters: {
				agentId: '={{ $json.agentId }}',
				phoneNumber: '={{ $json.phone }}',
				options: { concurrency: 1 },
			},
			items: leads(phones, [2]),
		});

		expect(workflowError(result).description).toBe(
			`2 of 3 scheduled calls were deleted (items 0–1); running this node again does no harm. ${HINTS.deleteNotFound}`,
		);
	});
});

describe('cancelling a bulk run', () => {
	it('stops new requests promptly and keeps what the node can tell: which calls were placed before the cancel', async () => {
		let cancel: () => void = () => undefined;
		let seen = 0;
		const sandbox = await startSandbox({
			port: 0,
			latencyMs: 100,
			onRequest: () => {
				seen += 1;
				if (seen === 5) cancel();
			},
		});
		try {
			const phones = freshNumbers(40);
			const result = await runWorkflow({
				nodes: [
					node(NODE_NAME, OUTBOUND_CALL, {
						agentId: AGENT,
						phoneNumber: '={{ $json.phone }}',
						options: { concurrency: 1 },
					}),
				],
				items: phones.map((phone) => ({ phone })),
				credentials: { callKaroApi: { apiKey: DEMO_API_KEY, baseUrl: sandbox.url } },
				nodeTypes: callKaroNodeTypes(),
				onStarted: (cancelExecution) => {
					cancel = cancelExecution;
				},
			});
			await sleep(300);

			expect(result.status).toBe('canceled');
			// the node's error is saved with the execution's data of the node
			const error = result.task(NODE_NAME).error!;
			expect(error.message).toBe('The execution was canceled before every item was sent');
			// the requests in flight were cut off: CallKaro may or may not have placed those calls
			expect(error.description).toBe(
				'4 of 40 calls were placed (items 0–3); item 4 may have been placed as well; running this node again calls them again unless Skip Numbers Called Before is on.',
			);
			expect(placedItems(sandbox, phones).slice(0, 4)).toEqual([0, 1, 2, 3]);
			expect(sandbox.state.calls.length).toBeLessThanOrEqual(5);
			// through the execution's cancel signal: no request after the one cut off
			expect(sandbox.state.requestCount).toBeLessThanOrEqual(5);
		} finally {
			await sandbox.close();
		}
	});
});

describe('hints under the output', () => {
	const sandbox = useSandbox({ runDurationMs: 0 });

	it('sum up a bulk run', async () => {
		const [a, b, c] = freshNumbers(3);
		const result = await outbound(
			sandbox(),
			{},
			{
				items: [...leads([a, b]), ...leads([a]), ...leads([c], [0])],
				settings: { continueOnFail: true },
			},
		);

		expect(result.task(NODE_NAME).hints).toEqual([
			{
				type: 'info',
				location: 'outputPane',
				message: '4 items: 2 placed, 1 skipped as duplicate, 1 failed',
			},
		]);
	});

	it('count runs started, already running and scheduled in the past', async () => {
		const [a, b] = freshNumbers(2);
		const parameters = {
			phoneNumber: '={{ $json.phone }}',
			workflowId: 'wf_welcome',
			attributeSource: 'none',
			schedule: 'at',
			scheduleAt: '2020-01-01T10:00:00+05:30',
			options: { concurrency: 1, longPastSchedule: 'startNow' },
		};
		const result = await runNode(sandbox(), {
			type: ASSIGN_WORKFLOW,
			parameters,
			items: [{ phone: a }, { phone: b }, { phone: a }],
		});

		expect(result.task(NODE_NAME).hints).toEqual([
			{
				type: 'info',
				location: 'outputPane',
				message: '3 items: 2 started, 1 already running; 3 scheduled in the past',
			},
		]);
	});

	it('warn that Retry On Fail on Outbound Call would call people again', async () => {
		const result = await outbound(
			sandbox(),
			{},
			{ items: leads(freshNumbers(1)), settings: { retryOnFail: true } },
		);

		expect(result.task(NODE_NAME).hints).toEqual([
			{
				type: 'warning',
				location: 'outputPane',
				message:
					'Retry On Fail is on: when this node fails, n8n runs it again for every item and calls again everyone it already called. Turn it off: the node itself retries only what cannot place a second call.',
			},
		]);
	});

	it('leave a one-item run without a summary', async () => {
		const result = await outbound(sandbox(), {}, { items: leads(freshNumbers(1)) });

		expect(result.task(NODE_NAME).hints).toEqual([]);
	});
});
