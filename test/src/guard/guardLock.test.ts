// The workflow's lock (src/guard/guardLock.ts) over n8n's store modelled statement by statement, on
// virtual time: what one holder does, and what a waiter does with a row left behind. The
// seeded simulation (test/nodes/shared/guard.simulation.test.ts) drives it through faults.
import { DEFAULT_GUARD_TIMING } from '../../../src/guard/guard';
import {
	LockTimeError,
	SharedLockRowError,
	createWorkflowLock,
	lockDurations,
	timeValue,
} from '../../../src/guard/guardLock';
import type { LockTiming } from '../../../src/guard/guardLock';
import type { Clock } from '../../../src/schedule/clock';
import { ProcessedDataTable } from '../../support/guardSimulation/processedDataTable';
import type {
	SimulatedProcess,
	Statement,
	StatementPlan,
} from '../../support/guardSimulation/processedDataTable';
import { VirtualTime } from '../../support/guardSimulation/virtualTime';
import { seededRandom } from '../schedule/scheduleOracle';

const TIMING = { pollMs: 20, staleAfterMs: 1000, settleMs: 400, callLimitMs: 1000 };
const LOCK_ROW = 'wf|';
type StatementPlanner = (process: SimulatedProcess, statement: Statement) => StatementPlan;

function setUp(
	plan: StatementPlanner = () => ({ landAfter: 0.5, answerAfter: 0.5 }),
	timing: LockTiming = TIMING,
) {
	const time = new VirtualTime();
	const table = new ProcessedDataTable(time, plan, true);
	const process: SimulatedProcess = { name: 'p', alive: true, failedAt: [] };
	const helpers = table.helpersFor(process, 'wf', 'node-1');
	const lockRow = { mode: 'latestIncrementalKey' as const };
	const clock: Clock = {
		now: () => time.now,
		sleep: async (ms) => await time.sleep(ms),
		expire: async (ms) => await time.sleep(ms),
	};
	const lock = createWorkflowLock(
		{
			record: async (values) => {
				const seen = await helpers.checkProcessedAndRecord(values, 'workflow', lockRow);
				return { new: seen.new.map(Number), processed: seen.processed.map(Number) };
			},
			remove: async () => await helpers.clearAllProcessedItems('workflow'),
		},
		timing,
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

	it("takes over a dead holder's row once it has looked unchanged for staleAfterMs, after two waits of a plain holder's life", async () => {
		const { table, run } = setUp();
		table.rows.set(LOCK_ROW, { mode: 'latestIncrementalKey', data: timeValue(-5000) });

		const ended = await run(async () => 'ran');

		expect(ended.value).toBe('ran');
		// 1 s unchanged, then twice a plain holder's life (4 lock calls of 200 ms and a history call
		// of 800 ms), and a few polls
		const { plainLife, recovery } = lockDurations(TIMING);
		expect(plainLife).toBe(1600);
		expect(ended.at).toBeGreaterThanOrEqual(1000 + 2 * plainLife);
		expect(ended.at).toBeLessThan(recovery);
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

	it('a history call that fails keeps the lock until its write could have landed, then gives it back', async () => {
		const { table, run, time } = setUp();
		let failedAt = 0;

		const ended = await run(async () => {
			failedAt = time.now;
			throw new Error('The database connection failed (update)');
		});

		expect(ended.error).toEqual(new Error('The database connection failed (update)'));
		expect(ended.at - failedAt).toBeGreaterThanOrEqual(lockDurations(TIMING).historyCall);
		expect(table.rows.has(LOCK_ROW)).toBe(false);
	});

	it('a holder whose history call outlasts its window fails, and leaves the row to be taken over', async () => {
		const { table, run, time } = setUp();
		const { plainWindow } = lockDurations(TIMING);

		const ended = await run(async () => await time.sleep(plainWindow + 1000));

		expect(ended.error).toBeInstanceOf(LockTimeError);
		expect(String(ended.error)).toContain("n8n's store of processed items did not answer within");
		expect(ended.at).toBeLessThanOrEqual(plainWindow + 2);
		expect(table.rows.has(LOCK_ROW)).toBe(true);
	});

	it('a lock call that never answers fails after callLimitMs, three times in a row, instead of waiting for good', async () => {
		const never: StatementPlanner = (_, statement) =>
			statement.scope === 'workflow'
				? { landAfter: Number.POSITIVE_INFINITY, answerAfter: 0 }
				: { landAfter: 0.5, answerAfter: 0.5 };
		const { run } = setUp(never);

		const ended = await run(async () => 'ran');

		expect(ended.error).toBeInstanceOf(LockTimeError);
		expect(ended.at).toBeGreaterThanOrEqual(3 * TIMING.callLimitMs);
		expect(ended.at).toBeLessThan(3 * TIMING.callLimitMs + 10 * TIMING.pollMs);
	});
});

describe("the lock's timing: every wait an inequality the defaults satisfy (docs/running-at-scale.md)", () => {
	const timing = DEFAULT_GUARD_TIMING;
	const d = lockDurations(timing);

	it('a plain holder found by a raise has let go before the taker checks: plainLife ≥ 3 lock calls + the history call + a lock call', () => {
		expect(d.plainLife).toBeGreaterThanOrEqual(3 * d.lockCall + d.historyCall + d.lockCall);
	});

	it("a plain holder's delete lands before any taker trusts the row: plainWindow + lockCall ≤ staleAfterMs − lockCall + 2 × plainLife", () => {
		expect(d.plainWindow + d.lockCall).toBeLessThanOrEqual(
			timing.staleAfterMs - d.lockCall + 2 * d.plainLife,
		);
	});

	it('a holder within the assumption never fails its window: lockCall + historyCall + lockCall ≤ plainWindow', () => {
		expect(d.lockCall + d.historyCall + d.lockCall).toBeLessThanOrEqual(d.plainWindow);
	});

	it('a takeover ends before its stamp can be taken over: 2 × plainLife + 6 lock calls ≤ takeoverSpan', () => {
		expect(2 * d.plainLife + 6 * d.lockCall).toBeLessThanOrEqual(d.takeoverSpan);
	});

	it("a taker's history call and delete fit before others take its stamp over, clocks lockCall apart: takerWindow + lockCall ≤ 2 × takeoverSpan − lockCall", () => {
		expect(d.takerWindow + d.lockCall).toBeLessThanOrEqual(2 * d.takeoverSpan - d.lockCall);
	});

	it('a live plain holder is not taken for dead (no needless takeover): staleAfterMs ≥ 2 lock calls + the history call', () => {
		expect(timing.staleAfterMs).toBeGreaterThanOrEqual(2 * d.lockCall + d.historyCall);
	});

	it('a call within the assumption is never cut short: callLimitMs ≥ lockCall', () => {
		expect(timing.callLimitMs).toBeGreaterThanOrEqual(d.lockCall);
	});
});
