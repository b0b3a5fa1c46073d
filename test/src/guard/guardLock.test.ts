// The workflow's lock (src/guard/guardLock.ts) over n8n's store modelled statement by statement, on
// virtual time: what one holder does, and what a waiter does with a row left behind. The
// seeded simulation (test/nodes/shared/guard.simulation.test.ts) drives it through faults.
import { DEFAULT_GUARD_TIMING } from '../../../src/guard/guard';
import {
	LockHeldError,
	LockTimeError,
	SharedLockRowError,
	createWorkflowLock,
	electionDigits,
	lockDurations,
	lockElements,
	LOCK_ROW_KINDS,
	LOCK_STATES,
	lockRowKind,
	plainRowElements,
} from '../../../src/guard/guardLock';
import type { LockMemory, LockRow, LockTiming } from '../../../src/guard/guardLock';
import type { Clock } from '../../../src/schedule/clock';
import { lockRowOver, storedHash } from '../../../nodes/shared/guardLockRow';
import { ProcessedDataTable } from '../../support/guardSimulation/processedDataTable';
import type {
	SimulatedProcess,
	Statement,
	StatementPlan,
} from '../../support/guardSimulation/processedDataTable';
import { VirtualTime } from '../../support/guardSimulation/virtualTime';
import { seededRandom } from '../schedule/scheduleOracle';

const TIMING: LockTiming = { pollMs: 20, settleMs: 400, callLimitMs: 1000 };
const D = lockDurations(TIMING);
/** What every clock reads at the start: a slot's start, of the 1970s (a slot is never negative). */
const CLOCK_BASE = 1_000_000;
const LOCK_ROW = 'wf|';
/** An execution id whose election digits are 0, 0, 0, 1, 1, 1: 16² + 16 + 1. */
const EXECUTION = '273';
/** The base of an election's digits, and its rounds: ids are told apart modulo 16^6. */
const DIGIT_BASE = 16;
const ROUNDS = electionDigits('0').length;
/** How many elements a plain row of the first creation slot holds: elections shrink a row below. */
const plainBase = (timing: LockTiming = TIMING) => plainRowElements(0, timing).length;
/** An election's value for the digit of `round`, as guardLock.ts lays them below a plain row. */
const electionValue = (round: number, digit: number, timing = TIMING) =>
	plainBase(timing) - (round + 1) * DIGIT_BASE + digit;
/** The first rescue instant after `at` (virtual time), on the lock's clock. */
const nextInstant = (at: number) =>
	Math.ceil((CLOCK_BASE + at) / D.rescuePeriod) * D.rescuePeriod - CLOCK_BASE;

type StatementPlanner = (process: SimulatedProcess, statement: Statement) => StatementPlan;

/** One call of the lock's row, on virtual time. */
interface LockCall {
	kind: keyof LockRow;
	sentAt: number;
	answeredAt?: number;
	/** create: 'created' or 'present'; count: the count; a failure: 'failed'. */
	outcome?: string | number;
	/** shrink: the size the row is shrunk to (the first element removed). */
	to?: number;
}

interface SetUpOptions {
	plan?: StatementPlanner;
	timing?: LockTiming;
	executionId?: string;
	/** How far the lock's clock runs ahead of the table's (negative: behind). */
	clockAhead?: number;
	/** Every lock call answers at the bound of the timing assumption, a lock call after it is sent. */
	answersAtBound?: boolean;
	/** What the process saw of the row before. */
	memory?: LockMemory;
}

function setUp({
	plan = () => ({ landAfter: 0.5, answerAfter: 0.5 }),
	timing = TIMING,
	executionId = EXECUTION,
	clockAhead = 0,
	answersAtBound = false,
	memory = {},
}: SetUpOptions = {}) {
	const time = new VirtualTime();
	const table = new ProcessedDataTable(time, plan, true);
	const process: SimulatedProcess = { name: 'p', alive: true, failedAt: [] };
	const helpers = table.helpersFor(process, 'wf', 'node-1');
	const row = lockRowOver(helpers);
	const { lockCall } = lockDurations(timing);
	const calls: LockCall[] = [];
	const recorded = <T extends unknown[], R>(
		kind: keyof LockRow,
		call: (...args: T) => Promise<R>,
		describe: (...args: T) => Partial<LockCall> = () => ({}),
	) => {
		return async (...args: T): Promise<R> => {
			const entry: LockCall = { kind, sentAt: time.now, ...describe(...args) };
			calls.push(entry);
			const answer = call(...args);
			await answer.then(
				(value) => {
					entry.outcome = typeof value === 'string' || typeof value === 'number' ? value : 'done';
				},
				() => {
					entry.outcome = 'failed';
				},
			);
			if (answersAtBound) await time.sleep(entry.sentAt + lockCall - time.now);
			entry.answeredAt = time.now;
			return await answer;
		};
	};
	const shrinkTarget = (elements: string[]) => ({
		to: elements.length > 0 ? Number(elements[0].split(':').pop()) : undefined,
	});
	const lockRow: LockRow = {
		create: recorded('create', row.create),
		count: recorded('count', row.count),
		shrink: recorded('shrink', row.shrink, shrinkTarget),
		remove: recorded('remove', row.remove),
	};
	const clock: Clock = {
		now: () => CLOCK_BASE + clockAhead + time.now,
		sleep: async (ms) => await time.sleep(ms),
		expire: async (ms, signal) => await time.sleep(ms, signal),
	};
	const lock = createWorkflowLock(lockRow, timing, clock, executionId, seededRandom(1), memory);
	/** Runs `hold` (from `startAt`) to its end on virtual time; returns what it gave, and when. */
	const run = async <T>(task: () => Promise<T>, startAt = 0) => {
		let ended: { at: number; value?: T; error?: unknown; heldAt?: number } | undefined;
		let heldAt: number | undefined;
		time.after(startAt, () => {
			lock
				.hold(async () => {
					heldAt = time.now;
					return await task();
				})
				.then(
					({ value }) => (ended = { at: time.now, value, heldAt }),
					(error: unknown) => (ended = { at: time.now, error, heldAt }),
				);
		});
		await time.run(120_000);
		return ended!;
	};
	/** Puts the row a holder left that created it when its clock read `createdAt`: its create's elements. */
	const plant = (createdAt: number, elements = plainRowElements(createdAt, timing)) =>
		table.rows.set(LOCK_ROW, { mode: 'latestIncrementalKey', data: elements.map(storedHash) });
	/** The statements that landed: kind and scope. */
	const statements = () => table.trace.map((line) => line.split(' ').slice(2, 4).join(' '));
	return { time, table, helpers, lock, run, calls, plant, statements };
}

/** The calls of one kind. */
const of = (calls: LockCall[], kind: keyof LockRow) => calls.filter((call) => call.kind === kind);

describe("the workflow's lock", () => {
	it('with nobody else: one create, the task, one delete, waiting for nothing', async () => {
		const { table, run, calls, statements } = setUp();
		let rowDuringTask: unknown;

		const ended = await run(async () => {
			rowDuringTask = table.rows.get(LOCK_ROW);
			return await Promise.resolve('ran');
		});

		expect(ended.value).toBe('ran');
		// the plain row of its creation slot, stored as n8n stores a list
		expect(rowDuringTask).toEqual({
			mode: 'latestIncrementalKey',
			data: plainRowElements(CLOCK_BASE, TIMING).map(storedHash),
		});
		expect(statements()).toEqual(['read workflow', 'insert workflow', 'delete workflow']);
		expect(calls.map(({ kind, outcome }) => `${kind} ${outcome}`)).toEqual([
			'create created',
			'remove done',
		]);
		// three statements of 1 ms each, and no wait between them
		expect(ended.at).toBe(3);
		expect(table.rows.has(LOCK_ROW)).toBe(false);
	});

	it("a row left by a dead holder long ago: an election removes it, and the lock is taken within recovery's election", async () => {
		const { table, run, calls, plant, statements } = setUp();
		plant(CLOCK_BASE - D.deadAge - 5 * D.lockCall);

		const ended = await run(async () => await Promise.resolve(table.rows.get(LOCK_ROW)?.data));

		const plainCount = plainRowElements(CLOCK_BASE - D.deadAge - 5 * D.lockCall, TIMING).length;
		const digits = electionDigits(EXECUTION);
		const rounds = digits.map((digit, round) => electionValue(round, digit));
		expect(calls.map(({ kind, outcome }) => `${kind} ${outcome}`)).toEqual([
			// its first create finds the row, a look finds it left, a create finds it the lock's
			'create present',
			`count ${plainCount}`,
			'create present',
			`count ${plainCount}`,
			// one round per digit of the execution id: a shrink to its value, a check that finds it
			...rounds.flatMap((value) => ['shrink done', `count ${value}`]),
			// the last taker left deletes the row; then the lock is taken as by anyone
			'remove done',
			'count 0',
			'create created',
			'remove done',
		]);
		expect(of(calls, 'shrink').map(({ to }) => to)).toEqual(rounds);
		// the row the task saw is the waiter's own
		expect(ended.value).toEqual(
			plainRowElements(CLOCK_BASE + ended.heldAt!, TIMING).map(storedHash),
		);
		expect(statements().filter((statement) => statement === 'delete workflow')).toHaveLength(2);
		expect(ended.heldAt).toBeLessThanOrEqual(D.recovery - D.deadAge);
		expect(table.rows.has(LOCK_ROW)).toBe(false);
	});

	it('a holder that died at once: its row is elected over only once deadAge old, and the next execution holds the lock within recovery (every call at its bound, clocks a lock call apart)', async () => {
		// the waiter's clock a lock call behind the dead holder's: it finds the row left the latest
		const { run, calls, plant } = setUp({ clockAhead: -D.lockCall, answersAtBound: true });
		// created at the start of its slot, the moment the waiter arrives
		plant(CLOCK_BASE);

		const ended = await run(async () => await Promise.resolve('ran'));

		expect(ended.value).toBe('ran');
		const [firstShrink] = of(calls, 'shrink');
		expect(firstShrink.sentAt).toBeGreaterThanOrEqual(D.deadAge);
		expect(ended.heldAt).toBeLessThanOrEqual(D.recovery + D.longestLookPause);
	});

	it("a live holder's row is only looked at, however late within the assumption its delete lands: the waiter takes the lock after it", async () => {
		// the waiter's clock a lock call ahead: it finds the row old the earliest
		const { time, table, run, calls, plant } = setUp({ clockAhead: D.lockCall });
		// the holder creates its row at the end of its slot, answers at the end of its window, and its
		// delete lands a lock call later
		const createdAt = D.slot - 1;
		time.after(createdAt, () => plant(CLOCK_BASE + createdAt));
		const deletedAt = createdAt + D.holderWindow + D.lockCall;
		time.after(deletedAt, () => table.rows.delete(LOCK_ROW));

		const ended = await run(async () => await Promise.resolve('ran'), createdAt);

		expect(ended.value).toBe('ran');
		expect(of(calls, 'shrink')).toEqual([]);
		expect(
			of(calls, 'count').every(({ outcome }) => outcome === 0 || Number(outcome) >= plainBase()),
		).toBe(true);
		expect(ended.heldAt).toBeGreaterThan(deletedAt);
		expect(ended.heldAt).toBeLessThan(deletedAt + 1.5 * TIMING.pollMs + 5);
	});

	it("a winner's delete that fails and lands late, up to twice the lock call's bound, is not sent again: the look that would send it again comes after it has landed", async () => {
		let deletes = 0;
		const lateDelete: StatementPlanner = (_, statement) => {
			if (statement.kind === 'delete' && ++deletes === 1) {
				return { landAfter: 2 * D.lockCall - 1, answerAfter: 0.5, fails: 'late' };
			}
			return { landAfter: 0.5, answerAfter: 0.5 };
		};
		const { table, run, calls, plant } = setUp({ plan: lateDelete });
		plant(CLOCK_BASE - D.deadAge - 5 * D.lockCall);

		const ended = await run(async () => await Promise.resolve('ran'));

		expect(ended.value).toBe('ran');
		// the election's delete (failed, landed late), then the holder's own: none sent again
		expect(of(calls, 'remove').map(({ outcome }) => outcome)).toEqual(['failed', 'done']);
		const [electionDelete, release] = of(calls, 'remove');
		expect(release.sentAt - electionDelete.sentAt).toBeGreaterThanOrEqual(2 * D.lockCall);
		expect(table.rows.has(LOCK_ROW)).toBe(false);
	});

	it('an election left by a dead taker: unchanged for electionStall, it is rescued at the next instant, and no create is sent among the deletes', async () => {
		const { table, run, calls, plant, statements } = setUp();
		// a taker of round 1 died after its shrink
		const left = electionValue(1, 5);
		plant(CLOCK_BASE, lockElements(0, left));

		const ended = await run(async () => await Promise.resolve('ran'));

		expect(ended.value).toBe('ran');
		expect(of(calls, 'shrink')).toEqual([]);
		const instant = nextInstant(D.electionStall);
		const [rescue] = of(calls, 'remove');
		expect(rescue.sentAt).toBeGreaterThanOrEqual(instant);
		expect(rescue.sentAt).toBeLessThan(instant + D.rescueWindow);
		// it never saw the row gone before the instant: it creates once the zone is over
		const creates = of(calls, 'create');
		expect(creates.at(-1)!.outcome).toBe('created');
		expect(creates.at(-1)!.sentAt).toBeGreaterThanOrEqual(instant + D.zoneAfter);
		expect(ended.heldAt).toBeLessThanOrEqual(instant + D.zoneAfter + 1.5 * TIMING.pollMs + 5);
		expect(statements().filter((statement) => statement === 'delete workflow')).toHaveLength(2);
		expect(table.rows.has(LOCK_ROW)).toBe(false);
	});

	it.each([
		['every look at the row takes the whole lock call', 'count'],
		["every statement takes half a lock call (1 s at n8n's timing)", 'every'],
	] as const)(
		'a rescue at every bound of the assumption: %s, and the row is still rescued at the first instant',
		async (_, slow) => {
			const plan: StatementPlanner = (__, statement) => {
				const ms =
					slow === 'every'
						? D.lockCall / 2
						: statement.whole && statement.kind === 'read'
							? D.lockCall
							: 1;
				return { landAfter: ms / 2, answerAfter: ms / 2 };
			};
			const { table, run, calls, plant } = setUp({ plan });
			plant(CLOCK_BASE, lockElements(0, electionValue(1, 5)));

			const ended = await run(async () => await Promise.resolve('ran'));

			expect(ended.value).toBe('ran');
			const instant = nextInstant(D.electionStall);
			const [rescue] = of(calls, 'remove');
			expect(rescue.sentAt).toBeGreaterThanOrEqual(instant);
			expect(rescue.sentAt).toBeLessThanOrEqual(instant + D.rescueWindow + D.lockCall);
			expect(ended.heldAt).toBeLessThan(nextInstant(instant + 1));
			expect(table.rows.has(LOCK_ROW)).toBe(false);
		},
	);

	it("an earlier version's list row (769 elements and its slot) is rescued the same way", async () => {
		const { table, run, calls, plant } = setUp();
		plant(CLOCK_BASE, lockElements(0, 769 + 12));

		const ended = await run(async () => await Promise.resolve('ran'));

		expect(ended.value).toBe('ran');
		expect(of(calls, 'shrink')).toEqual([]);
		expect(of(calls, 'remove')[0].sentAt).toBeGreaterThanOrEqual(nextInstant(D.electionStall));
		expect(table.rows.has(LOCK_ROW)).toBe(false);
	});

	it('deletes refused for good: the row is rescued at every instant in vain, and the execution fails after giveUpAfter, saying how long it waited', async () => {
		const refused: StatementPlanner = (_, statement) =>
			statement.kind === 'delete'
				? { landAfter: 0.5, answerAfter: 0.5, fails: 'before' }
				: { landAfter: 0.5, answerAfter: 0.5 };
		const { table, run, calls, plant } = setUp({ plan: refused });
		plant(CLOCK_BASE, lockElements(0, electionValue(2, 3)));

		const ended = await run(async () => await Promise.resolve('ran'));

		expect(ended.error).toBeInstanceOf(LockHeldError);
		const { waitedMs, clearsWithinMs } = ended.error as LockHeldError;
		// at giveUpAfter, not after a sleep to the next instant: at most a look and its pause later
		expect(waitedMs).toBeGreaterThanOrEqual(D.giveUpAfter);
		expect(waitedMs).toBeLessThanOrEqual(D.giveUpAfter + D.lockCall);
		expect(clearsWithinMs).toBe(D.recoveryAfterStall);
		const rescues = of(calls, 'remove').map(({ sentAt }) => nextInstant(sentAt - 1));
		expect(rescues.length).toBeGreaterThanOrEqual(1);
		expect(new Set(rescues).size).toBe(rescues.length);
		expect(table.rows.has(LOCK_ROW)).toBe(true);
	});

	it('a queue that moves is waited out however long it is: giveUpAfter counts from the last time the waiter saw the lock change hands', async () => {
		const { time, table, run, plant } = setUp();
		// other holders, one after another, each for 5 lock calls, for 1.5 × giveUpAfter
		const hold = 5 * D.lockCall;
		const until = 1.5 * D.giveUpAfter;
		for (let at = 0; at < until; at += hold) {
			time.after(at, () => plant(CLOCK_BASE + at));
		}
		time.after(until, () => table.rows.delete(LOCK_ROW));

		const ended = await run(async () => await Promise.resolve('ran'));

		expect(ended.value).toBe('ran');
		expect(ended.heldAt).toBeGreaterThanOrEqual(until);
	});

	it("a wait for a row left behind is no turn of the queue: the process's usual wait stays as it was; a long wait behind holders counts as 4 lock calls at most", async () => {
		const memory: LockMemory = { usualWait: 100 };
		const left = setUp({ memory });
		left.plant(CLOCK_BASE - D.deadAge - 5 * D.lockCall);
		expect((await left.run(async () => await Promise.resolve('ran'))).value).toBe('ran');
		expect(memory.usualWait).toBe(100);

		// a live holder's row, deleted 10 lock calls later
		const behind: LockMemory = { usualWait: 100 };
		const { time, table, run, plant } = setUp({ memory: behind });
		plant(CLOCK_BASE);
		time.after(10 * D.lockCall, () => table.rows.delete(LOCK_ROW));
		expect((await run(async () => await Promise.resolve('ran'))).value).toBe('ran');
		expect(behind.usualWait).toBeCloseTo(0.7 * 100 + 0.3 * 4 * D.lockCall);
	});

	it('after a burst: a process whose turn sleeps found the lock free three times in a row forgets its usual wait, and the next execution creates at once', async () => {
		const memory: LockMemory = { usualWait: 1000 };
		const heldAfter: number[] = [];
		for (let execution = 0; execution < 4; execution++) {
			const { time, run } = setUp({ memory });
			// a history call of 150 ms: ten holds take longer than the turn sleep
			const ended = await run(async () => await time.sleep(150));
			heldAfter.push(ended.heldAt!);
		}
		// 0.9 of the usual wait, less a look
		expect(heldAfter[0]).toBeGreaterThanOrEqual(0.9 * 1000 - TIMING.pollMs);
		expect(heldAfter[2]).toBeGreaterThan(TIMING.pollMs);
		// forgotten; the fourth found nobody waiting
		expect(heldAfter[3]).toBeLessThan(5);
		expect(memory.usualWait).toBe(0);
	});

	it.each([
		[200, 950 - TIMING.pollMs],
		[90, 900],
		[10, 800],
	])(
		"a turn sleep is 0.95 of the usual wait less a look, at most ten of the process's holds, or 0.8 of its usual wait when that is longer: a usual wait of 1 s, holds of %i ms, a sleep of %i ms",
		async (holdMs, slept) => {
			const memory: LockMemory = { usualWait: 1000, holdMs };
			const ended = await setUp({ memory }).run(async () => await Promise.resolve('ran'));
			expect(ended.heldAt).toBeGreaterThanOrEqual(slept);
			expect(ended.heldAt).toBeLessThan(slept + 5);
		},
	);

	it('in its turn, the longer a waiter has waited the more often it looks, with a create: from 20 looks of waiting, with almost no pause', async () => {
		const { time, table, run, plant, calls } = setUp();
		plant(CLOCK_BASE);
		// a live holder that gives the lock back after 700 ms (within four lock calls: a turn)
		const givenBack = 700;
		time.after(givenBack, () => table.rows.delete(LOCK_ROW));
		const ended = await run(async () => await Promise.resolve('ran'));
		// the create in flight when it went finds it gone
		expect(ended.heldAt).toBeLessThan(givenBack + 5);
		const pauses = calls.slice(1).map((call, index) => call.sentAt - calls[index].answeredAt!);
		const young = pauses.filter((_, index) => calls[index + 1].sentAt < 10 * TIMING.pollMs);
		const elder = pauses.filter((_, index) => calls[index + 1].sentAt > 21 * TIMING.pollMs);
		// a look takes pollMs at the shortest: a young waiter pauses up to two of them
		expect(Math.max(...young)).toBeGreaterThan(TIMING.pollMs / 2);
		expect(elder.length).toBeGreaterThan(100);
		// (a few hundredths of pollMs, so that a store that answers at once cannot spin it)
		expect(Math.max(...elder)).toBeLessThanOrEqual(0.075 * TIMING.pollMs);
		// among the creates, a count every half lock call tells a row left behind
		const counts = of(calls, 'count').length;
		expect(counts).toBeGreaterThanOrEqual(Math.floor(givenBack / (D.lockCall / 2)));
		expect(counts).toBeLessThanOrEqual(Math.ceil(givenBack / (D.lockCall / 2)) + 1);
	});

	it('near an instant, a process that saw the row gone shortly before it creates at once; one that did not, or saw it too long before, waits for the zone to end', async () => {
		const instant = nextInstant(0);
		const arrival = instant - D.lockCall;
		// what sawGone keeps of a call sent at `at` that answered 2 ms later
		const goneAt = (at: number): LockMemory => {
			const answeredAt = CLOCK_BASE + at + 2;
			const next =
				(Math.floor((answeredAt + 2 * D.lockCall) / D.rescuePeriod) + 1) * D.rescuePeriod;
			return { goneBefore: new Map([[next, CLOCK_BASE + at]]) };
		};
		const heldAfter = async (memory?: LockMemory) => {
			const ended = await setUp({ memory }).run(async () => await Promise.resolve('ran'), arrival);
			expect(ended.value).toBe('ran');
			return ended.heldAt! - arrival;
		};

		expect(await heldAfter()).toBeGreaterThanOrEqual(D.lockCall + D.zoneAfter);
		expect(await heldAfter(goneAt(instant - 10 * D.lockCall))).toBeLessThan(5);
		expect(await heldAfter(goneAt(instant - D.electionStall))).toBeGreaterThanOrEqual(
			D.lockCall + D.zoneAfter,
		);
		// seen gone inside the zone: a rescue may have removed it
		expect(await heldAfter(goneAt(instant - D.lockCall / 2))).toBeGreaterThanOrEqual(
			D.lockCall + D.zoneAfter,
		);
	});

	it('a history call that fails keeps the lock until its write could have landed, then gives it back', async () => {
		const { table, run, time } = setUp();
		let failedAt = 0;

		const ended = await run(async () => {
			failedAt = time.now;
			return await Promise.reject(new Error('The database connection failed (update)'));
		});

		expect(ended.error).toEqual(new Error('The database connection failed (update)'));
		const deletedAt = Number(
			table.trace.find((line) => line.includes('delete workflow'))!.split(' ')[0],
		);
		expect(deletedAt).toBeGreaterThanOrEqual(failedAt + D.historyCall);
		expect(ended.at - failedAt).toBeLessThan(D.historyCall + 2);
		expect(table.rows.has(LOCK_ROW)).toBe(false);
	});

	it('a holder whose history call outlasts its window fails, and leaves the row to an election', async () => {
		const { table, run, time, statements } = setUp();

		const ended = await run(async () => await time.sleep(D.holderWindow + 1000));

		expect(ended.error).toBeInstanceOf(LockTimeError);
		expect(String(ended.error)).toContain("n8n's store of processed items did not answer within");
		// its window runs from sending its create
		expect(ended.at).toBe(D.holderWindow);
		expect(statements()).toEqual(['read workflow', 'insert workflow']);
		expect(table.rows.has(LOCK_ROW)).toBe(true);
	});

	it('a lock call that never answers fails after callLimitMs: three looks in a row (after the first create) fail the items, instead of waiting for good', async () => {
		const never: StatementPlanner = (_, statement) =>
			statement.scope === 'workflow'
				? { landAfter: Number.POSITIVE_INFINITY, answerAfter: 0 }
				: { landAfter: 0.5, answerAfter: 0.5 };
		const { run, calls } = setUp({ plan: never });

		const ended = await run(async () => await Promise.resolve('ran'));

		expect(ended.error).toEqual(new LockTimeError("n8n's store did not answer within 1 s"));
		expect(calls.map(({ kind }) => kind)).toEqual(['create', 'count', 'count', 'count']);
		expect(ended.at).toBeGreaterThanOrEqual(4 * TIMING.callLimitMs);
		expect(ended.at).toBeLessThan(4 * TIMING.callLimitMs + 3 * D.longestLookPause);
	});

	it("says so at once when the row was saved in another mode (Remove Duplicates' default), and leaves it", async () => {
		const { table, run, statements } = setUp();
		table.rows.set(LOCK_ROW, { mode: 'entries', data: ['their hash'] });

		const ended = await run(async () => await Promise.resolve('ran'));

		expect(ended.error).toBeInstanceOf(SharedLockRowError);
		expect(ended.at).toBe(1);
		expect(statements()).toEqual(['read workflow']);
		expect(table.rows.get(LOCK_ROW)).toEqual({ mode: 'entries', data: ['their hash'] });
	});

	it("the kinds of row a count tells: none, an election below a plain row, a plain row (97 + its slot), an earlier version's from 129", () => {
		expect([0, 1, 96, 97, 128, 129, 781].map(lockRowKind)).toEqual([
			'none',
			'election',
			'election',
			'plain',
			'plain',
			'earlierVersion',
			'earlierVersion',
		]);
	});

	it('the states a look tells: each once, with a move, every kind of row told as one, the last of each kind whatever else the look shows', () => {
		const states = LOCK_STATES.map(({ state }) => state);
		expect(new Set(states).size).toBe(states.length);
		expect(LOCK_STATES.every(({ move }) => typeof move === 'function')).toBe(true);
		for (const { kind } of LOCK_ROW_KINDS) {
			const telling = LOCK_STATES.filter(({ kinds }) => kinds.includes(kind));
			expect(telling.length).toBeGreaterThan(0);
			expect(telling.at(-1)!.when).toBeUndefined();
		}
	});

	it("the row's elements, and an execution id's election digits", () => {
		expect(lockElements(3, 6)).toEqual(['callkaro-lock:3', 'callkaro-lock:4', 'callkaro-lock:5']);
		expect(lockElements(5, 5)).toEqual([]);
		expect(lockElements(6, 3)).toEqual([]);
		// a plain row is a prefix of them, one longer per creation slot, round a cycle of slots
		const plain = plainRowElements(0, TIMING);
		expect(plain).toEqual(lockElements(0, plain.length));
		expect(plainRowElements(D.slot - 1, TIMING)).toEqual(plain);
		expect(plainRowElements(D.slot, TIMING)).toEqual(lockElements(0, plain.length + 1));
		// one digit per round, most significant first
		expect(electionDigits('0')).toEqual([0, 0, 0, 0, 0, 0]);
		expect(electionDigits(EXECUTION)).toEqual([0, 0, 0, 1, 1, 1]);
		expect(electionDigits(String(DIGIT_BASE))).toEqual([0, 0, 0, 0, 1, 0]);
		expect(electionDigits(String(DIGIT_BASE ** ROUNDS - 1))).toEqual([15, 15, 15, 15, 15, 15]);
		// ids are told apart modulo 16^6
		expect(electionDigits(String(DIGIT_BASE ** ROUNDS + 5))).toEqual(electionDigits('5'));
		// an id that is not a number: digits of a hash of it, the same each time
		const named = electionDigits('exec-abc');
		expect(named).toEqual(electionDigits('exec-abc'));
		expect(
			named.every((digit) => Number.isInteger(digit) && digit >= 0 && digit < DIGIT_BASE),
		).toBe(true);
		expect(named).not.toEqual(electionDigits('exec-abd'));
		// the election's values lie below a plain row, above an empty row
		expect(electionValue(ROUNDS - 1, 0)).toBe(1);
		expect(electionValue(0, DIGIT_BASE - 1)).toBe(plainBase() - 1);
	});
});

describe("the lock's timing: every wait an inequality the defaults satisfy (docs/running-at-scale.md)", () => {
	const timing = DEFAULT_GUARD_TIMING;
	const d = lockDurations(timing);
	/** The creation slots a plain row's size tells apart: its size comes round after them. */
	const slots = (() => {
		const first = plainRowElements(0, timing).length;
		let slot = 1;
		while (plainRowElements(slot * d.slot, timing).length !== first) slot++;
		return slot;
	})();
	it("a holder within the assumption has its history answer in its window: 2 lock calls (its create's answer, a pause) + historyCall ≤ holderWindow", () => {
		expect(2 * d.lockCall + d.historyCall).toBeLessThanOrEqual(d.holderWindow);
	});

	it('and so does a holder twice as slow: 2 × (2 lockCall + historyCall) ≤ holderWindow', () => {
		expect(2 * (2 * d.lockCall + d.historyCall)).toBeLessThanOrEqual(d.holderWindow);
	});

	it('a row deadAge old is left by a holder whose delete has landed, read by a clock a lock call behind: deadAge ≥ slot + holderWindow + lockCall (its delete) + lockCall (the clocks)', () => {
		expect(d.deadAge).toBeGreaterThanOrEqual(d.slot + d.holderWindow + 2 * d.lockCall);
	});

	it("a row's age is read from its size without doubt while it may be young: deadAge + 2 lockCall + slot < the slots a size tells apart × slot", () => {
		expect(slots).toBe(32);
		expect(d.deadAge + 2 * d.lockCall + d.slot).toBeLessThan(slots * d.slot);
	});

	it('an election checks only once every shrink of its round has landed: check − its shrink’s answer ≥ lockCall (a rival shrinks within a lock call of its look) + lockCall (its shrink lands)', async () => {
		const { run, calls, plant } = setUp({ timing });
		plant(
			CLOCK_BASE - d.deadAge - 5 * d.lockCall,
			plainRowElements(CLOCK_BASE - d.deadAge - 5 * d.lockCall, timing),
		);

		const ended = await run(async () => await Promise.resolve('ran'));

		expect(ended.value).toBe('ran');
		const shrinks = calls.flatMap((call, index) => (call.kind === 'shrink' ? [index] : []));
		expect(shrinks).toHaveLength(ROUNDS);
		for (const index of shrinks) {
			const [look, shrink, check] = [calls[index - 1], calls[index], calls[index + 1]];
			expect(check.kind).toBe('count');
			// a taker shrinks within a lock call of the look that read the round's start
			expect(shrink.sentAt - look.sentAt).toBeLessThanOrEqual(d.lockCall);
			expect(check.sentAt - shrink.answeredAt!).toBeGreaterThanOrEqual(d.lockCall + d.lockCall);
		}
	});

	it("a winner whose delete failed sends it again: removeRetry ≥ 3 lockCall (the failed delete, and the look two lock calls after it that finds the election's value: a delete landing up to twice as late has landed by then)", () => {
		expect(d.removeRetry).toBeGreaterThanOrEqual(3 * d.lockCall);
	});

	it("the winner's last delete lands before a new row can reach its election's value: removeRetry + lockCall < holderWindow + (ROUNDS − 1) × 2 lockCall (a new holder's window, then an election's climb)", () => {
		expect(d.removeRetry + d.lockCall).toBeLessThan(d.holderWindow + (ROUNDS - 1) * 2 * d.lockCall);
	});

	it("a live election's row changes before it is taken for stalled: electionStall > 6 lockCall (a survivor's next shrink lands) + lockCall (a look sent before the value landed)", () => {
		expect(d.electionStall).toBeGreaterThan(6 * d.lockCall + d.lockCall);
	});

	it("an election is taken for stalled only once its winner's last delete has landed: electionStall ≥ removeRetry + 4 lockCall (from its election's value) + lockCall (a look sent before the value landed)", () => {
		expect(d.electionStall).toBeGreaterThanOrEqual(d.removeRetry + 4 * d.lockCall + d.lockCall);
	});

	it('a lock call within the assumption is never cut short: callLimitMs ≥ lockCall', () => {
		expect(timing.callLimitMs).toBeGreaterThanOrEqual(d.lockCall);
	});

	it('a rescue deletes nothing a live voter still writes: electionStall (above) > the last write of an election; and a look sent in its window has its delete sent in it: rescueWindow ≥ 0 (a look that answers later sends none)', () => {
		expect(d.rescueWindow).toBeGreaterThan(0);
	});

	it("no create lands among a rescue's deletes: they land within [instant − lockCall, instant + rescueWindow + 3 lockCall] by a creator's clock (its look sent in the window by a clock a lock call off and answered within a lock call, its delete a lock call in flight); a create lands within [sent, sent + 2 lockCall] by its own: zoneBefore ≥ 3 lockCall, zoneAfter ≥ rescueWindow + 3 lockCall", () => {
		expect(d.zoneBefore).toBeGreaterThanOrEqual(3 * d.lockCall);
		expect(d.zoneAfter).toBeGreaterThanOrEqual(d.rescueWindow + 3 * d.lockCall);
	});

	it('a process can see the row gone before an instant and still be clear of its rescue: the row rescued at an instant was there, unchanged, from electionStall before the look that judged it, so a call that found no row, sent after instant + rescueWindow + 4 lockCall − electionStall and answered before instant − 2 lockCall (twice what the assumption needs), rules it out; that span is long: electionStall − rescueWindow − 6 lockCall ≥ 6 lockCall', () => {
		expect(d.electionStall - d.rescueWindow - 6 * d.lockCall).toBeGreaterThanOrEqual(
			6 * d.lockCall,
		);
	});

	it('instants are far apart next to their zones: rescuePeriod ≥ 20 × (zoneBefore + zoneAfter), so a process that comes fresh meets a zone at most 1 time in 20', () => {
		expect(d.rescuePeriod).toBeGreaterThanOrEqual(20 * (d.zoneBefore + d.zoneAfter));
	});

	it("the bounds the docs and the node's warning quote: recovery 94 s, recoveryAfterStall 445 s (each met by the worst-case runs above), a rescue every 300 s, its zone 15 s", () => {
		expect({
			recovery: d.recovery,
			recoveryAfterStall: d.recoveryAfterStall,
			rescuePeriod: d.rescuePeriod,
			zone: d.zoneBefore + d.zoneAfter,
		}).toEqual({
			recovery: 94_000,
			recoveryAfterStall: 445_000,
			rescuePeriod: 300_000,
			zone: 15_000,
		});
	});
});
