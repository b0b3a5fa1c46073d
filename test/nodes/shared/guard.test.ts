// The duplicate-call guard ("Skip Numbers Called Before" / "Skip Numbers Enrolled Before") in n8n's
// real engine, over n8n-core's processed-data service (an in-memory store like n8n's database),
// against the sandbox. Every execution of a test shares the workflow and node, as in n8n.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ASSIGN_WORKFLOW, OUTBOUND_CALL } from '../../engine/callKaroNodes';
import { useDeduplicationStore } from '../../engine/deduplication';
import type { RunResult } from '../../engine/harness';
import {
	NODE_NAME,
	apiRequests,
	freshNumber,
	freshNumbers,
	runNode,
	useSandbox,
} from '../fixtures';
import type { RunNodeOptions, Sandbox } from '../fixtures';

const AGENT = 'agent_sales_01';
const OUTBOUND_PATH = '/call/outbound';
const GUARD_ON = { skipBefore: true };

function outbound(
	sandbox: Sandbox,
	parameters: INodeParameters,
	more: Partial<RunNodeOptions> = {},
): Promise<RunResult> {
	return runNode(sandbox, {
		type: OUTBOUND_CALL,
		parameters: {
			agentId: '={{ $json.agentId }}',
			phoneNumber: '={{ $json.phone }}',
			...parameters,
		},
		// A production execution (an active workflow's trigger), unless a test says otherwise.
		mode: 'webhook',
		...more,
	});
}

const leads = (phones: string[], agentId = AGENT) => phones.map((phone) => ({ phone, agentId }));

function calledNumbers(sandbox: Sandbox): unknown[] {
	return apiRequests(sandbox, OUTBOUND_PATH).map(
		(request) => (request.body as IDataObject).to_number,
	);
}

describe('Skip Numbers Called Before (Outbound Call)', () => {
	const sandbox = useSandbox();
	const store = useDeduplicationStore();

	it('skips in a second execution exactly the numbers the first one called', async () => {
		const [a, b, c, d] = freshNumbers(4);
		const first = await outbound(sandbox(), GUARD_ON, { items: leads([a, b, c]) });
		expect(first.json(NODE_NAME).map((item) => [item.placed, item.guard])).toEqual([
			[true, 'recorded'],
			[true, 'recorded'],
			[true, 'recorded'],
		]);

		const second = await outbound(sandbox(), GUARD_ON, { items: leads([b, c, d]) });

		expect(calledNumbers(sandbox())).toEqual([a, b, c, d]);
		const [skippedB, skippedC, placedD] = second.json(NODE_NAME);
		expect(skippedB).toEqual({
			placed: false,
			status: 'calledBefore',
			message: `Not placed: this node has already called +91******${b.slice(-4)} with this agent ("Skip Numbers Called Before" is on)`,
			agentId: AGENT,
			toNumber: b,
			scheduleAt: null,
			scheduledForUtc: null,
			scheduleInPast: false,
			scheduleTimeZone: null,
			guard: 'skipped',
		});
		expect(skippedC).toMatchObject({ placed: false, status: 'calledBefore', toNumber: c });
		expect(placedD).toMatchObject({ placed: true, toNumber: d, guard: 'recorded' });
		expect(second.outputOf(NODE_NAME)[0].map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});

	it('pairs the number with the agent: another agent may call it', async () => {
		const phone = freshNumber();
		await outbound(sandbox(), GUARD_ON, { items: leads([phone], 'agent_sales_01') });
		const other = await outbound(sandbox(), GUARD_ON, {
			items: leads([phone], 'agent_support_02'),
		});

		expect(other.json(NODE_NAME)[0]).toMatchObject({ placed: true });
		expect(calledNumbers(sandbox())).toEqual([phone, phone]);
	});

	it('calls a number once per run as well, whatever its schedule time', async () => {
		const phone = freshNumber();
		const result = await outbound(
			sandbox(),
			{ ...GUARD_ON, additionalFields: { scheduleAt: '={{ $json.at }}' } },
			{
				items: [
					{ phone, agentId: AGENT, at: '2030-01-01T10:00:00+05:30' },
					{ phone, agentId: AGENT, at: '2030-01-02T10:00:00+05:30' },
				],
			},
		);

		expect(result.json(NODE_NAME).map((item) => item.status)).toEqual(['success', 'calledBefore']);
		expect(calledNumbers(sandbox())).toEqual([phone]);
	});

	it('gives the number back after a 4xx, but not after a lost answer', async () => {
		const [refused, lost] = freshNumbers(2);
		const items = [
			{ phone: refused, agentId: 'agent_unknown' }, // 404: certainly not placed
			{ phone: lost, agentId: AGENT },
		];
		const settings = { continueOnFail: true };
		const options = { concurrency: 1 };
		sandbox().setFaults({ endpoint: 'outbound', sequence: ['ok', 'drop-after'] });
		const first = await outbound(sandbox(), { ...GUARD_ON, options }, { items, settings });
		expect(first.json(NODE_NAME).map((item) => (item.details as { kind: string }).kind)).toEqual([
			'not-found',
			'network',
		]);

		const second = await outbound(sandbox(), { ...GUARD_ON, options }, { items, settings });

		// the refused number is sent again; the one that may have been called is not
		expect(calledNumbers(sandbox())).toEqual([refused, lost, refused]);
		expect(second.json(NODE_NAME)[1]).toMatchObject({ placed: false, status: 'calledBefore' });
		expect(sandbox().state.calls.map((call) => call.toNumber)).toEqual([lost]);
	});

	it('gives back the numbers a stopped run never sent', async () => {
		const phones = freshNumbers(4);
		const items = [
			...leads(phones.slice(0, 2)),
			{ phone: phones[2], agentId: 'agent_unknown' },
			...leads(phones.slice(3)),
		];
		const first = await outbound(
			sandbox(),
			{ ...GUARD_ON, options: { concurrency: 1 } },
			{ items },
		);
		expect(first.status).toBe('error');

		const second = await outbound(
			sandbox(),
			{ ...GUARD_ON, options: { concurrency: 1 } },
			{
				items: leads(phones),
			},
		);

		expect(second.json(NODE_NAME).map((item) => item.status)).toEqual([
			'calledBefore',
			'calledBefore',
			'success',
			'success',
		]);
	});

	it('with Once per Calendar Day, calls a number again on another day only', async () => {
		const phone = freshNumber();
		const daily = { ...GUARD_ON, guardWindow: 'day', guardTimeZone: 'Asia/Kolkata' };
		const scheduled = (at: string) => ({
			...daily,
			additionalFields: { scheduleAt: at },
		});
		await outbound(sandbox(), scheduled('2030-01-01T09:00:00+05:30'), { items: leads([phone]) });
		const sameDay = await outbound(sandbox(), scheduled('2030-01-01T23:30:00+05:30'), {
			items: leads([phone]),
		});
		// 2030-01-01T20:00Z is already 2 January in India
		const nextDay = await outbound(sandbox(), scheduled('2030-01-01T20:00:00Z'), {
			items: leads([phone]),
		});

		expect(sameDay.json(NODE_NAME)[0]).toMatchObject({ status: 'calledBefore' });
		expect(nextDay.json(NODE_NAME)[0]).toMatchObject({ placed: true });
		expect(calledNumbers(sandbox())).toEqual([phone, phone]);
	});

	it('neither checks nor records in editor runs, and says so', async () => {
		const phone = freshNumber();
		const manual = { items: leads([phone]), mode: 'manual' as const };
		await outbound(sandbox(), GUARD_ON, manual);
		const again = await outbound(sandbox(), GUARD_ON, manual);

		expect(calledNumbers(sandbox())).toEqual([phone, phone]);
		expect(again.json(NODE_NAME)[0]).toMatchObject({
			placed: true,
			guard: 'notAppliedInEditorRun',
		});
		expect(again.task(NODE_NAME).hints).toContainEqual({
			type: 'info',
			location: 'outputPane',
			message:
				'"Skip Numbers Called Before" neither checked nor recorded these numbers: this is a manual run from the editor. Turn on "Apply in Editor Runs" to use it here too.',
		});
		expect(store().rows.size).toBe(0);
	});

	it('checks and records in editor runs when Apply in Editor Runs is on', async () => {
		const phone = freshNumber();
		const manual = { items: leads([phone]), mode: 'manual' as const };
		await outbound(sandbox(), { ...GUARD_ON, guardInEditorRuns: true }, manual);
		const again = await outbound(sandbox(), { ...GUARD_ON, guardInEditorRuns: true }, manual);

		expect(again.json(NODE_NAME)[0]).toMatchObject({ status: 'calledBefore', guard: 'skipped' });
		expect(calledNumbers(sandbox())).toEqual([phone]);
	});

	it('starts a fresh history under a new History Name', async () => {
		const phone = freshNumber();
		await outbound(sandbox(), GUARD_ON, { items: leads([phone]) });
		const spring = { ...GUARD_ON, guardHistoryName: 'spring' };
		const fresh = await outbound(sandbox(), spring, { items: leads([phone]) });
		const again = await outbound(sandbox(), spring, { items: leads([phone]) });

		expect(fresh.json(NODE_NAME)[0]).toMatchObject({ placed: true });
		expect(again.json(NODE_NAME)[0]).toMatchObject({ status: 'calledBefore' });
		expect(calledNumbers(sandbox())).toEqual([phone, phone]);
	});

	it('calls a number once when executions run at the same moment (one process)', async () => {
		const phone = freshNumber();
		const runs = await Promise.all(
			Array.from({ length: 8 }, () => outbound(sandbox(), GUARD_ON, { items: leads([phone]) })),
		);

		expect(calledNumbers(sandbox())).toEqual([phone]);
		expect(runs.map((run) => run.json(NODE_NAME)[0].status).sort()).toEqual([
			...Array<string>(7).fill('calledBefore'),
			'success',
		]);
	});

	it('warns when the history is nearly full', async () => {
		const phones = freshNumbers(9);
		const result = await outbound(
			sandbox(),
			{ ...GUARD_ON, guardHistorySize: 10 },
			{
				items: leads(phones),
			},
		);

		expect(result.task(NODE_NAME).hints).toContainEqual({
			type: 'warning',
			message:
				'"Skip Numbers Called Before" remembers the last 10 numbers and now holds 9. Beyond that the oldest are forgotten and no longer skipped: raise History Size.',
		});
	});

	it('sends nothing and records nothing in a preview', async () => {
		const phone = freshNumber();
		await outbound(
			sandbox(),
			{ ...GUARD_ON, options: { previewOnly: true } },
			{ items: leads([phone]) },
		);

		expect(apiRequests(sandbox())).toEqual([]);
		expect(store().rows.size).toBe(0);
	});
});

describe('Skip Numbers Enrolled Before (Assign Workflow)', () => {
	const sandbox = useSandbox({ runDurationMs: 0 });
	useDeduplicationStore();

	it('skips a number already enrolled in the workflow, even after its run finished', async () => {
		const phone = freshNumber();
		const enrol = () =>
			runNode(sandbox(), {
				type: ASSIGN_WORKFLOW,
				parameters: {
					phoneNumber: phone,
					workflowId: 'wf_welcome',
					attributeSource: 'none',
					schedule: 'now',
					...GUARD_ON,
				},
				mode: 'webhook',
			});
		await enrol();
		sandbox().finishRuns({ all: true });
		const again = await enrol();

		expect(apiRequests(sandbox(), '/workflow/assign')).toHaveLength(1);
		// not started by this run: it goes with Already Running
		expect(again.json(NODE_NAME, 1)).toEqual([
			{
				status: 'enrolledBefore',
				message: `Not enrolled: this node has already enrolled +91******${phone.slice(-4)} in this workflow ("Skip Numbers Enrolled Before" is on)`,
				toNumber: phone,
				workflowId: 'wf_welcome',
				runId: null,
				enrollmentId: null,
				scheduleAt: null,
				scheduledForUtc: null,
				scheduleInPast: false,
				scheduleTimeZone: null,
				guard: 'skipped',
			},
		]);
	});
});
