import type { Clock } from '../schedule/clock';

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
	 * The timing assumption's unit: every lock call ends within settleMs / 2, and the history call
	 * under the lock within 2 × settleMs (docs/running-at-scale.md, "The timing it rests on").
	 */
	settleMs: number;
	/** A store call that has not answered by then fails (it would otherwise block its queue for good). */
	callLimitMs: number;
}

/** The lock's waits and windows, each derived from the timing assumption. */
export interface LockDurations {
	/** The longest a lock call takes (the assumption). */
	lockCall: number;
	/** The longest the history call under the lock takes (the assumption). */
	historyCall: number;
	/**
	 * How long after a raise is sent a plain holder whose row it landed on has let go: its look
	 * ended within lockCall of the raise landing (which is within lockCall of its sending), then
	 * come the history call and the delete, which lands within lockCall of its sending.
	 */
	plainLife: number;
	/** Longer than a takeover lasts: two waits of plainLife and six lock calls. */
	takeoverSpan: number;
	/**
	 * How long after sending the look that created its row a plain holder may still take its
	 * history call's answer and send its delete: a waiter first saw the row at most lockCall
	 * before the creation, takes it over staleAfterMs later at the earliest, and trusts it after
	 * two waits of plainLife; the delete must land before that.
	 */
	plainWindow: number;
	/** The same for a holder that took the lock over: others take its stamp over 2 × takeoverSpan later. */
	takerWindow: number;
	/** The longest a plain lock left behind delays the next execution (looks aside). */
	recovery: number;
	/** The same for a lock left behind by a holder that took it over (a stamp is trusted longer). */
	recoveryAfterTaker: number;
}

export function lockDurations(timing: LockTiming): LockDurations {
	const lockCall = timing.settleMs / 2;
	const historyCall = 2 * timing.settleMs;
	const plainLife = 4 * lockCall + historyCall;
	const takeoverSpan = 2 * plainLife + 6 * lockCall;
	return {
		lockCall,
		historyCall,
		plainLife,
		takeoverSpan,
		plainWindow: timing.staleAfterMs + 2 * plainLife - 2 * lockCall,
		// others' clocks lie up to lockCall ahead
		takerWindow: 2 * takeoverSpan - 2 * lockCall,
		recovery: timing.staleAfterMs + 2 * plainLife + 6 * lockCall,
		// its stamp outlasts others' attempts; after 2 × (takeoverSpan + staleAfterMs) above them, a
		// waiter's look beyond every stamp takes it over
		recoveryAfterTaker:
			timing.staleAfterMs + 2 * (takeoverSpan + timing.staleAfterMs) + 2 * plainLife + 6 * lockCall,
	};
}

/** The history call under the lock, or the lock's own calls, took longer than the lock allows. */
export class LockTimeError extends Error {}

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

/** A taker's value: above every time value, and above takeovers as of an earlier `time` (by a clock within settleMs / 2). */
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

/**
 * A lock held: the values its holder put in the row, `first` to `last`. A taker raises its own
 * value by one at each check; a look that read an earlier one may write that back.
 */
interface Hold {
	first: number;
	last: number;
	/** Until when (this clock) its holder may take the history call's answer and give the lock back. */
	until: number;
}

export interface WorkflowLock {
	/** Runs `task` under the lock; a failure to give the lock back is returned, not thrown. */
	hold<T>(task: () => Promise<T>): Promise<{ value: T; releaseError?: Error }>;
	/** The longest a lock left by a dead holder delays the next execution (a look every pollMs aside). */
	readonly recoveryMs: number;
}

/**
 * `call`, or a LockTimeError once `limitMs` has passed without its answer. The call itself goes on
 * (a statement cannot be taken back) and may still land.
 */
export async function withinTime<T>(
	call: Promise<T>,
	limitMs: number,
	clock: Clock,
	what: string,
): Promise<T> {
	const answered = new AbortController();
	const expired = clock.expire(Math.max(0, limitMs), answered.signal).then(
		() => {
			throw new LockTimeError(`${what} did not answer within ${Math.round(limitMs / 1000)} s`);
		},
		// answered in time: this wait is over, and never settles
		async () => await new Promise<never>(() => undefined),
	);
	try {
		return await Promise.race([call, expired]);
	} finally {
		answered.abort();
	}
}

export function createWorkflowLock(
	row: LockRow,
	timing: LockTiming,
	clock: Clock,
	random: () => number = Math.random,
): WorkflowLock {
	const durations = lockDurations(timing);
	const { plainLife, takeoverSpan } = durations;
	const limited = async <T>(call: Promise<T>) =>
		await withinTime(call, timing.callLimitMs, clock, "n8n's store");

	/** One call; 'busy' when another process created the row between its read and its insert. */
	async function look(values: number[]): Promise<Look | 'busy'> {
		let failure: unknown;
		try {
			const seen = await limited(row.record(values));
			const held = new Set(seen.processed.map(Number));
			return { created: !held.has(LOCK_FLOOR), holds: (value) => held.has(value) };
		} catch (error) {
			failure = error;
		}
		const message = failure instanceof Error ? failure.message : String(failure);
		if (OTHER_MODE.test(message)) throw new SharedLockRowError(message);
		if (LOST_INSERT.test(message)) return 'busy';
		throw failure;
	}

	/**
	 * Whether the row still holds one of this holder's values; raised to last + 1 if so. 'again'
	 * when it held less: a look wrote back an older value, or the row was deleted and created
	 * again; raised to last + 1 now, it is this holder's again, but must be waited for anew.
	 * 'failed' when the store failed: the row may have been raised or not.
	 */
	async function check(hold: Hold): Promise<'mine' | 'again' | 'created' | 'lost' | 'failed'> {
		const next = hold.last + 1;
		let seen: Look | 'busy';
		try {
			seen = await look([LOCK_FLOOR, hold.first, next]);
		} catch {
			return 'failed';
		}
		if (seen === 'busy') return 'lost';
		if (seen.created) return 'created';
		if (seen.holds(next)) return 'lost';
		return seen.holds(hold.first) ? 'mine' : 'again';
	}

	/**
	 * Takes over a lock judged stale. Its first value is as of a takeover span ago: above a plain
	 * lock, and above a taker that died, but below a takeover still under way, which it leaves alone.
	 * Once it has raised the row, it stamps a value a span ahead, so that nobody takes it over while
	 * it waits. It then waits until a plain holder whose row its raise landed on has let go, and
	 * checks the row still holds its value, twice: a check that finds it raised over something else
	 * waits anew. The row stays in place throughout, so nobody can create it meanwhile.
	 *
	 * `beyondEveryStamp`: the row has stayed above its attempts for longer than any takeover lasts;
	 * its first value is then a stamp of now, above every takeover's. A row that holds more is not
	 * a lock ('not a lock'); one that did not now holds this taker's stamp, which it goes on with
	 * (rather than leaving a fresh stamp for others to wait out).
	 */
	async function takeOver(
		beyondEveryStamp = false,
	): Promise<Hold | 'lost' | 'not ours' | 'not a lock'> {
		let raisedAt = clock.now();
		const attempt = beyondEveryStamp
			? // by a clock up to settleMs ahead, with the highest low bits
				takeoverValue(raisedAt + takeoverSpan + timing.settleMs, () => 1)
			: takeoverValue(raisedAt - takeoverSpan, random);
		const raised = await look([LOCK_FLOOR, attempt]).catch(() => 'busy' as const);
		if (raised === 'busy') return 'lost';
		if (raised.created)
			return { first: attempt, last: attempt, until: raisedAt + durations.plainWindow };
		// the row holds more: a takeover under way, or not a lock at all
		if (raised.holds(attempt)) return beyondEveryStamp ? 'not a lock' : 'not ours';
		let hold: Hold = { first: attempt, last: attempt, until: raisedAt + durations.takerWindow };
		if (!beyondEveryStamp) {
			const stampedAt = clock.now();
			const stamp = takeoverValue(stampedAt + takeoverSpan, random);
			// a stamp that failed may have landed or not: the checks tell
			const stamped = await look([LOCK_FLOOR, stamp]).catch(() => undefined);
			if (stamped === 'busy' || stamped?.holds(stamp)) return 'lost';
			hold = { first: stamp, last: stamp, until: stampedAt + durations.takerWindow };
			if (stamped?.created) return hold;
		}
		// two checks in a row that find the row as this taker left it
		for (let clean = 0; clean < 2; ) {
			// each check comes once a plain holder that created the row before the last raise has let go
			await clock.sleep(Math.max(timing.settleMs, raisedAt + plainLife - clock.now()));
			const checkedAt = clock.now();
			const state = await check(hold);
			if (state === 'lost') return 'lost';
			raisedAt = checkedAt;
			// a check that failed may have raised the row too
			hold.last += 1;
			// the row was gone, so nobody held it: this call created it
			if (state === 'created') return { ...hold, first: hold.last };
			clean = state === 'mine' ? clean + 1 : 0;
		}
		return hold;
	}

	async function acquire(): Promise<Hold> {
		let previousLook = clock.now();
		let sameSince: number | undefined;
		let failedLooks = 0;
		let notOursSince: number | undefined;
		for (;;) {
			const lookedAt = clock.now();
			const probe = timeValue(previousLook);
			let seen: Look | 'busy' | undefined;
			let failure: unknown;
			try {
				seen = await look([LOCK_FLOOR, probe]);
				failedLooks = 0;
			} catch (error) {
				failure = error;
			}
			// a look that failed is tried again, up to 3 times in a row
			if (failure !== undefined) {
				if (failure instanceof SharedLockRowError || ++failedLooks >= 3) throw failure;
			}
			if (seen !== undefined && seen !== 'busy' && seen.created)
				return { first: probe, last: probe, until: lookedAt + durations.plainWindow };
			if (seen !== undefined) {
				// the row was created, or is held by someone who took it after the previous look
				const unchanged = seen !== 'busy' && seen.holds(probe);
				if (unchanged) sameSince ??= previousLook;
				else sameSince = undefined;
				if (!unchanged) notOursSince = undefined;
			}
			previousLook = lookedAt;
			if (sameSince !== undefined && lookedAt - sameSince >= timing.staleAfterMs) {
				notOursSince ??= lookedAt;
				// Above every attempt for longer than any takeover lasts: a lock at all?
				const beyond = lookedAt - notOursSince >= 2 * (takeoverSpan + timing.staleAfterMs);
				const taken = await takeOver(beyond);
				if (taken === 'not a lock') throw new SharedLockRowError(taken);
				if (taken !== 'lost' && taken !== 'not ours') return taken;
				if (taken === 'lost' || beyond) notOursSince = undefined;
				sameSince = undefined;
				previousLook = clock.now();
			}
			await clock.sleep(timing.pollMs * (0.5 + random()));
		}
	}

	/**
	 * Gives the lock back. A plain lock is deleted: were it taken over meanwhile, the taker's checks
	 * find the row gone (or created again) before it trusts it. A lock taken over is deleted only
	 * while it holds exactly its value; a row left in place is taken over later. Past its window a
	 * holder leaves the row: a delete landing then might remove a taker's.
	 */
	async function release(hold: Hold): Promise<void> {
		if (clock.now() > hold.until) return;
		if (hold.last < TAKEN_FLOOR) return await limited(row.remove());
		const seen = await look([LOCK_FLOOR, hold.first, hold.last + 1]);
		if (seen === 'busy' || clock.now() > hold.until) return;
		const mine = seen.holds(hold.first) && !seen.holds(hold.last + 1);
		if (seen.created || mine) await limited(row.remove());
	}

	return {
		recoveryMs: durations.recovery,
		async hold(task) {
			const held = await acquire();
			const started = clock.now();
			let outcome: { value: Awaited<ReturnType<typeof task>> } | { error: unknown };
			try {
				const answer = withinTime(
					task(),
					held.until - started,
					clock,
					"n8n's store of processed items",
				);
				outcome = { value: await answer };
			} catch (error) {
				outcome = { error };
			}
			if ('error' in outcome) {
				// Past its window the holder gives nothing back: it may no longer hold the lock.
				if (outcome.error instanceof LockTimeError) throw outcome.error;
				// A write that failed may land after all, within the time a history call may take:
				// the lock stays until then, so that no one reads the history before it lands.
				const landed = Math.min(started + durations.historyCall, held.until);
				await clock.sleep(Math.max(0, landed - clock.now()));
			}
			const releaseError = await release(held).then(
				() => undefined,
				(error: unknown) => (error instanceof Error ? error : new Error(String(error))),
			);
			if ('error' in outcome) throw outcome.error;
			return { value: outcome.value, releaseError };
		},
	};
}
