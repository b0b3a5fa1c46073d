// The workflow's lock (src/guard/guardLock.ts) over n8n's store modelled statement by statement, on
// virtual time: what one holder does, and what a waiter does with a row left behind. The
// seeded simulation (test/nodes/shared/guard.simulation.test.ts) drives it through faults.
import { SharedLockRowError, createWorkflowLock, timeValue } from '../../../src/guard/guardLock';
import type { Clock } from '../../../src/schedule/clock';
import { ProcessedDataTable } from '../../support/guardSimulation/processedDataTable';
import type { SimulatedProcess } from '../../support/guardSimulation/processedDataTable';
import { VirtualTime } from '../../support/guardSimulation/virtualTime';
import { seededRandom } from '../schedule/scheduleOracle';

const TIMING = { pollMs: 20, staleAfterMs: 1000, settleMs: 400 };
const LOCK_ROW = 'wf|';

function setUp() {
	const time = new VirtualTime();
	const table = new ProcessedDataTable(time, () => ({ landAfter: 0.5, answerAfter: 0.5 }), true);
	const process: SimulatedProcess = { name: 'p', alive: true, failedAt: [] };
	const helpers = table.helpersFor(process, 'wf', 'node-1');
	const lockRow = { mode: 'latestIncrementalKey' as const };
	const clock: Clock = { now: () => time.now, sleep: async (ms) => await time.sleep(ms) };
	const lock = createWorkflowLock(
		{
			record: async (values) => {
				const seen = await helpers.checkProcessedAndRecord(values, 'workflow', lockRow);
				return { new: seen.new.map(Number), processed: seen.processed.map(Number) };
			},
			remove: async () => await helpers.clearAllProcessedItems('workflow'),
		},
		TIMING,
		clock,
		seededRandom(1),
	);
	/** Runs `hold` to its end on virtual time; returns what it gave and when it ended. */
	const run = async <T>(task: () => Promise<T>) => {
		let ended: { at: number; value?: T; error?: unknown } | undefined;
		lock.hold(task).then(
			({ value }) => (ended = { at: time.now, value }),
			(error: unknown) => (ended = { at: time.now, error }),
		);
		await time.run(60_000);
		return ended!;
	};
	return { time, table, lock, run };
}

describe("the workflow's lock", () => {
	it('with nobody else: creates the row, runs the task, deletes the row, waiting for nothing', async () => {
		const { table, run } = setUp();
		let rowDuringTask: unknown;

		const ended = await run(async () => (rowDuringTask = table.rows.get(LOCK_ROW)?.data));

		expect(typeof rowDuringTask).toBe('number');
		expect(ended.at).toBeLessThan(5);
		expect(table.rows.has(LOCK_ROW)).toBe(false);
		expect(table.trace.map((line) => line.split(' ').slice(2, 4).join(' '))).toEqual([
			'read workflow',
			'insert workflow',
			'delete workflow',
		]);
	});

	it("takes over a dead holder's row once it has looked unchanged for staleAfterMs, after two waits of settleMs", async () => {
		const { table, run } = setUp();
		table.rows.set(LOCK_ROW, { mode: 'latestIncrementalKey', data: timeValue(-5000) });

		const ended = await run(async () => 'ran');

		expect(ended.value).toBe('ran');
		// 1 s unchanged, then 2 × 400 ms, and a few polls
		expect(ended.at).toBeGreaterThanOrEqual(1800);
		expect(ended.at).toBeLessThan(1900);
		expect(table.rows.has(LOCK_ROW)).toBe(false);
	});

	it("never deletes another node's history of numbers in that row: says so once no takeover explains it", async () => {
		const { table, run } = setUp();
		table.rows.set(LOCK_ROW, { mode: 'latestIncrementalKey', data: 1234 });

		const ended = await run(async () => 'ran');

		expect(ended.error).toBeInstanceOf(SharedLockRowError);
		expect(table.rows.get(LOCK_ROW)).toEqual({ mode: 'latestIncrementalKey', data: 1234 });
	});

	it("says so at once when the row was saved in another mode (Remove Duplicates' default)", async () => {
		const { table, run } = setUp();
		table.rows.set(LOCK_ROW, { mode: 'entries', data: ['their hash'] });

		const ended = await run(async () => 'ran');

		expect(ended.error).toBeInstanceOf(SharedLockRowError);
		expect(ended.at).toBeLessThan(5);
	});
});
