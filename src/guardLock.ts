import type { Clock } from './clock';

/**
 * The workflow's lock across n8n processes, over the one row of n8n's processed-data store that a
 * node can share with every process: the workflow-wide row, in mode 'latestIncrementalKey'. The
 * protocol, its states and the timing it rests on are in docs/running-at-scale.md ("The lock").
 *
 * What that store offers, read from n8n's DeduplicationHelper: a call reads the row, then either
 * inserts it (one number, the largest given; a second insert fails on the primary key) or writes
 * back the larger of the number read and the numbers given, whatever was written in between. A
 * call answers, per number, whether it is above the number read ("new"). Deleting is
 * unconditional. So every look that can tell something can also change the row: the protocol is
 * built so that every change a look makes is one the others expect.
 */

/** The lock row's two calls: checkProcessedAndRecord and clearAllProcessedItems on it. */
export interface LockRow {
	record(values: number[]): Promise<{ new: number[]; processed: number[] }>;
	remove(): Promise<void>;
}

export interface LockTiming {
	/** Mean wait between two looks at a lock another process holds (drawn at random around it). */
	pollMs: number;
	/** A lock seen unchanged this long is taken for a dead or stalled holder's, and taken over. */
	staleAfterMs: number;
	/**
	 * How long a taker waits, twice, before it trusts a lock it took over. The timing assumption:
	 * every lock call ends within half of it, and the work done under the lock within 1.5 times it.
	 */
	settleMs: number;
}

/** Below every other number: reported "processed" exactly when the row exists. */
export const LOCK_FLOOR = Number.MIN_SAFE_INTEGER;
/** A plain lock holds a time value: the later the time, the lower the value. */
const TIME_BASE = -(2 ** 52) - 2 ** 46;
/** Every value above the time values and below LOCK_TOP is a lock taken over. */
const TAKEN_FLOOR = TIME_BASE + 1;
/** Above the values earlier versions of the guard wrote (below -(2 ** 52) + 2), so they can be taken over. */
const TAKEOVER_BASE = -(2 ** 52) + 2;
/** Every lock value lies below this; another node's workflow-wide history lies above it. */
export const LOCK_TOP = -(2 ** 51);

/** The value of a plain lock taken at `time` (ms), or a look's probe for "taken before `time`". */
export function timeValue(time: number): number {
	return TIME_BASE - Math.floor(time);
}

/** A taker's value: above every time value, and above takeovers made earlier (by a clock within staleAfterMs). */
export function takeoverValue(time: number, random: () => number): number {
	return TAKEOVER_BASE + Math.floor(time) * 256 + Math.floor(random() * 256);
}

/** The row holds something other than this lock: another node's history for the whole workflow. */
export class SharedLockRowError extends Error {}

/** n8n's words when the row was saved in another mode. */
const OTHER_MODE = /incompatible setting/;
/** The database's words when another process created the row first (PostgreSQL, SQLite, MySQL). */
const LOST_INSERT = /duplicate key|unique constraint|duplicate entry/i;

/** What one call saw: whether it created the row, and which of its numbers the row held already. */
interface Look {
	created: boolean;
	holds: (value: number) => boolean;
}

/** A lock held: the value in the row, and whether only its own value proves it is still this holder's. */
interface Hold {
	value: number;
}

export interface WorkflowLock {
	/** Runs `task` under the lock; a failure to give the lock back is returned, not thrown. */
	hold<T>(task: () => Promise<T>): Promise<{ value: T; releaseError?: Error }>;
	/** The longest a lock left by a dead holder delays the next execution (a look every pollMs aside). */
	readonly recoveryMs: number;
}

export function createWorkflowLock(
	row: LockRow,
	timing: LockTiming,
	clock: Clock,
	random: () => number = Math.random,
): WorkflowLock {
	/** One call; 'busy' when another process created the row between its read and its insert. */
	async function look(values: number[]): Promise<Look | 'busy'> {
		try {
			const seen = await row.record(values);
			const held = new Set(seen.processed.map(Number));
			return { created: !held.has(LOCK_FLOOR), holds: (value) => held.has(value) };
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			if (OTHER_MODE.test(message)) throw new SharedLockRowError(message);
			if (LOST_INSERT.test(message)) return 'busy';
			throw error;
		}
	}

	/** Whether the row still holds exactly `value` (then raised to value + 1), or was created with value + 1. */
	async function stillMine(value: number): Promise<'mine' | 'created' | 'lost'> {
		const seen = await look([LOCK_FLOOR, value, value + 1]).catch(() => 'busy' as const);
		if (seen === 'busy') return 'lost';
		if (seen.created) return 'created';
		return seen.holds(value) && !seen.holds(value + 1) ? 'mine' : 'lost';
	}

	/**
	 * Takes over a lock judged stale: raises the row to a takeover value, then waits settleMs (so
	 * that whatever a holder began before lands first) and checks the row is still its value, twice:
	 * the second wait covers a holder that began on a row this value was copied onto. The row stays
	 * in place throughout, so nobody can create it meanwhile.
	 */
	async function takeOver(): Promise<Hold | 'lost' | 'not ours'> {
		const value = takeoverValue(clock.now(), random);
		const raised = await look([LOCK_FLOOR, value]).catch(() => 'busy' as const);
		if (raised === 'busy') return 'lost';
		if (raised.created) return { value };
		// the row holds more: a later takeover, or not a lock at all
		if (raised.holds(value)) return 'not ours';
		let mine = value;
		for (let check = 0; check < 2; check++) {
			await clock.sleep(timing.settleMs);
			const state = await stillMine(mine);
			if (state === 'lost') return 'lost';
			mine += 1;
			// the row was gone, so nobody held it: this call created it
			if (state === 'created') return { value: mine };
		}
		return { value: mine };
	}

	async function acquire(): Promise<Hold> {
		let previousLook = clock.now();
		let sameSince: number | undefined;
		let failedLooks = 0;
		let notOurs = 0;
		for (;;) {
			const lookedAt = clock.now();
			const probe = timeValue(previousLook);
			let seen: Look | 'busy' | undefined;
			try {
				seen = await look([LOCK_FLOOR, probe]);
				failedLooks = 0;
			} catch (error) {
				if (error instanceof SharedLockRowError || ++failedLooks >= 3) throw error;
			}
			if (seen !== undefined && seen !== 'busy' && seen.created) return { value: probe };
			if (seen !== undefined) {
				// the row was created, or is held by someone who took it after the previous look
				const unchanged = seen !== 'busy' && seen.holds(probe);
				if (unchanged) sameSince ??= previousLook;
				else sameSince = undefined;
				if (!unchanged) notOurs = 0;
			}
			previousLook = lookedAt;
			if (sameSince !== undefined && lookedAt - sameSince >= timing.staleAfterMs) {
				const taken = await takeOver();
				if (taken !== 'lost' && taken !== 'not ours') return taken;
				// Twice above a takeover value made now, at least staleAfterMs apart: no lock of ours.
				if (taken === 'not ours' && ++notOurs >= 2) throw new SharedLockRowError('not a lock');
				sameSince = undefined;
				previousLook = clock.now();
			}
			await clock.sleep(timing.pollMs * (0.5 + random()));
		}
	}

	/**
	 * Deletes the row if it is still this holder's. A plain lock is still its holder's while it holds
	 * a time value (a look may have raised it to an earlier time, never out of that band); a lock
	 * taken over, while it holds exactly its value. A row left in place is taken over later.
	 */
	async function release(hold: Hold): Promise<void> {
		const plain = hold.value < TAKEN_FLOOR;
		const seen = plain
			? await look([LOCK_FLOOR, TAKEN_FLOOR])
			: await look([LOCK_FLOOR, hold.value, hold.value + 1]);
		if (seen === 'busy') return;
		const mine = plain
			? !seen.holds(TAKEN_FLOOR)
			: seen.holds(hold.value) && !seen.holds(hold.value + 1);
		if (seen.created || mine) await row.remove();
	}

	return {
		recoveryMs: timing.staleAfterMs + 2 * timing.settleMs,
		async hold(task) {
			const held = await acquire();
			let value: Awaited<ReturnType<typeof task>>;
			try {
				value = await task();
			} catch (error) {
				await release(held).catch(() => undefined);
				throw error;
			}
			const releaseError = await release(held).then(
				() => undefined,
				(error: unknown) => (error instanceof Error ? error : new Error(String(error))),
			);
			return { value, releaseError };
		},
	};
}
