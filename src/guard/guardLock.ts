import type { Clock } from '../schedule/clock';

/**
 * The workflow's lock across n8n processes, over the one row of n8n's processed-data store that a
 * node can share with every process: the workflow-wide row. The protocol, its states and the timing
 * it rests on are in docs/running-at-scale.md ("The lock").
 *
 * What that store offers, read from n8n's DeduplicationHelper: creating a row is atomic (a second
 * insert fails on the primary key); every other write reads the row and writes back what it
 * computed, over whatever was written in between; deleting is unconditional. So the row holds a
 * list of known elements, whose length is its state: a create writes nothing on a row that exists,
 * a count only reads, and only an election's shrinks and deletes and a rescue's delete write a row
 * that exists, at times that keep them off a newer row.
 */

/**
 * The lock row's calls. The row's data is an array of known elements, so no call but `shrink` and
 * `remove` ever writes a row that exists (a look never copies what it read onto a newer row).
 */
export interface LockRow {
	/** Creates the row of the first `size` lockElements if there is none: checkProcessedAndRecord([them]). */
	create(size: number): Promise<'created' | 'present'>;
	/** How many elements the row holds, 0 when there is none: getProcessedDataCount (a read). */
	count(): Promise<number>;
	/** Removes these elements from the row: removeProcessed (a read, then a write of what is left). */
	shrink(elements: string[]): Promise<void>;
	/** Deletes the row: clearAllProcessedItems. */
	remove(): Promise<void>;
}

export interface LockTiming {
	/** Mean wait between two looks at a lock another process holds (drawn at random around it). */
	pollMs: number;
	/**
	 * The timing assumption's unit: every lock call ends within settleMs / 2, and the history call
	 * under the lock within 2 × settleMs; clocks lie within settleMs / 2 of each other.
	 */
	settleMs: number;
	/** A store call that has not answered by then fails (it would otherwise block its queue for good). */
	callLimitMs: number;
}

/** The lock's waits and windows, each derived from the timing assumption. */
export interface LockDurations {
	lockCall: number;
	historyCall: number;
	/** A row's creation time is kept to this step. */
	slot: number;
	/** From sending its create, a holder has its history answer and sends its delete within this. */
	holderWindow: number;
	/** A plain row this old (from the start of its slot, by any clock) is left by a holder that is done. */
	deadAge: number;
	/** How long the winner of an election sends its delete again after one that failed. */
	removeRetry: number;
	/** An election's row unchanged this long has no live taker left. */
	electionStall: number;
	/** Rows no election can clear (a stalled election, an earlier version's list) are deleted only at multiples of this, by any clock. */
	rescuePeriod: number;
	/** A rescue's look is sent within this after the rescue's instant; its delete once the look answers, if within a lock call. */
	rescueWindow: number;
	/** A create sent this long before an instant, to this long after it, could land among its rescue's deletes. */
	zoneBefore: number;
	zoneAfter: number;
	/** The longest a plain lock left behind delays the next execution (looks aside). */
	recovery: number;
	/** The same when the election over it stalled too: it is then rescued. */
	recoveryAfterStall: number;
	/** The longest pause between two looks at a row another holds (looks slower than pollMs stretch it). */
	longestLookPause: number;
	/**
	 * A waiter gives up after this without seeing the lock change hands: recoveryAfterStall and
	 * the pauses of the looks it takes.
	 */
	giveUpAfter: number;
}

/** Digits of an execution id per election round, and rounds: ids are told apart modulo 16^6. */
const DIGIT_BASE = 16;
const ROUNDS = 6;
/** A plain row holds PLAIN_BASE + its creation slot elements; an election shrinks it below that. */
const PLAIN_BASE = ROUNDS * DIGIT_BASE + 1;
const SLOTS = 32;
/** Looks at a held row come every pollMs, or as far apart as a look takes, up to this many pollMs. */
const LOOK_STRETCH = 5;
/** A list this long or longer is no row of this version: an earlier version's lock. */
const PLAIN_END = PLAIN_BASE + SLOTS;

/** What a lock row's count tells (docs/running-at-scale.md, "The lock": its table of states). */
export type LockRowKind = 'none' | 'plain' | 'election' | 'earlierVersion';

/**
 * The kinds of row by their count, and who moves each: the docs' states, as far as a count tells
 * them (held and left are plain rows of different ages; stuck, an election unchanged).
 */
export const LOCK_ROW_KINDS: ReadonlyArray<{
	kind: LockRowKind;
	/** Counts [from, to). */
	from: number;
	to: number;
	movedBy: string;
}> = [
	{ kind: 'none', from: 0, to: 1, movedBy: 'a create (no row, or a number row)' },
	{
		kind: 'election',
		from: 1,
		to: PLAIN_BASE,
		movedBy: "its voters' shrinks, its winner's delete, or a rescue",
	},
	{
		kind: 'plain',
		from: PLAIN_BASE,
		to: PLAIN_END,
		movedBy: "its holder's delete, or an election once left",
	},
	{ kind: 'earlierVersion', from: PLAIN_END, to: Number.POSITIVE_INFINITY, movedBy: 'a rescue' },
];

/** The kind of row a count tells. */
export function lockRowKind(count: number): LockRowKind {
	return LOCK_ROW_KINDS.find(({ from, to }) => count >= from && count < to)?.kind ?? 'none';
}

export function lockDurations(timing: LockTiming): LockDurations {
	const lockCall = timing.settleMs / 2;
	const historyCall = 2 * timing.settleMs;
	const slot = lockCall;
	// twice what the assumption needs (its create's answer, a pause, the history call), so that a
	// holder up to twice as slow still calls rather than failing its items
	const holderWindow = 2 * (2 * lockCall + historyCall);
	// slot start to create, the window, its delete landing, a clock up to a lock call behind
	const deadAge = slot + holderWindow + 2 * lockCall;
	// the winner deletes again while no new row can have reached its election's value
	const removeRetry = 10 * lockCall;
	// a survivor's next shrink lands within 6 lock calls of the row's value; the winner's last
	// delete within removeRetry and 4 more
	const electionStall = removeRetry + 8 * lockCall;
	// a round: its shrink, two lock calls, its count
	const election = ROUNDS * 4 * lockCall;
	// from a row's turning left: a clock a lock call behind and a look in flight, then the look
	// that finds it, a create, a look, the election, its delete, a look and a create
	const clearing = 5 * lockCall + election + 3 * lockCall;
	const recovery = deadAge + clearing;
	// rare enough that a process seldom meets a zone without having seen the row gone before it
	const rescuePeriod = 150 * lockCall;
	const rescueWindow = lockCall / 2;
	const longestLookPause = 1.5 * LOOK_STRETCH * timing.pollMs;
	// a rescue's deletes land within [instant, instant + rescueWindow + 2 lockCall] by its clock
	// (its look sent in the window and answered within a lock call, its delete a lock call in
	// flight); a create lands within a lock call of its sending; clocks a lock call apart, either
	// way; and a lock call of margin
	const zoneBefore = 3 * lockCall;
	const zoneAfter = rescueWindow + 4 * lockCall;
	// the election stalls (electionStall after its last change, and a look), then the next
	// instant, its zone, a look and a create
	const recoveryAfterStall =
		recovery + electionStall + lockCall + rescuePeriod + zoneAfter + 2 * lockCall;
	return {
		lockCall,
		historyCall,
		slot,
		holderWindow,
		deadAge,
		removeRetry,
		electionStall,
		rescuePeriod,
		rescueWindow,
		zoneBefore,
		zoneAfter,
		recovery,
		recoveryAfterStall,
		longestLookPause,
		// the looks that find the row left, ours, gone, stalled, gone again, and a margin; no sleep
		// of a waiter passes it
		giveUpAfter: recoveryAfterStall + 8 * longestLookPause,
	};
}

/** The history call under the lock, or the lock's own calls, took longer than the lock allows. */
export class LockTimeError extends Error {}

/** Another execution's lock, or one left behind, kept this one waiting longer than any recovery takes. */
export class LockHeldError extends Error {
	constructor(
		readonly waitedMs: number,
		readonly clearsWithinMs: number,
	) {
		super(`the workflow's lock was held for ${Math.round(waitedMs / 1000)} s`);
	}
}

/** The elements of a row of `count` elements: a row only ever holds a prefix of these. */
export function lockElements(from: number, to: number): string[] {
	return Array.from(
		{ length: Math.max(0, to - from) },
		(_, index) => `callkaro-lock:${from + index}`,
	);
}

/** The size of the plain row a holder creates at `createdAt` (its clock): it tells the slot. */
export function plainRowSize(createdAt: number, timing: LockTiming): number {
	const slotOf = Math.floor(createdAt / lockDurations(timing).slot) % SLOTS;
	return PLAIN_BASE + slotOf;
}

/** The elements of that row. */
export function plainRowElements(createdAt: number, timing: LockTiming): string[] {
	return lockElements(0, plainRowSize(createdAt, timing));
}

/** Where an election's round keeps its values: [start, start + DIGIT_BASE). */
function roundStart(round: number): number {
	return PLAIN_BASE - (round + 1) * DIGIT_BASE;
}

/** The digits of an execution id, most significant first, one per round. */
export function electionDigits(executionId: string): number[] {
	let id = Number(executionId);
	if (!Number.isSafeInteger(id) || id < 0) {
		// not a number: told apart by a hash of it (two such ids may then agree)
		id = [...executionId].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) % 2 ** 31, 7);
	}
	const digits: number[] = [];
	for (let round = ROUNDS - 1; round >= 0; round--) {
		digits.unshift(id % DIGIT_BASE);
		id = Math.floor(id / DIGIT_BASE);
	}
	return digits;
}

/** The row was saved in another mode: another node's history for the whole workflow. */
export class SharedLockRowError extends Error {}

/**
 * The row has held a number for longer than any holder keeps it: a lock an earlier version of the
 * guard left (it kept a number there), or a node's history of the largest key for the whole workflow.
 * Neither can be told apart without writing to the row, nor removed safely by one of many waiters.
 */
export class NumberLockRowError extends Error {}

/** n8n's words when the row was saved in another mode. */
const OTHER_MODE = /incompatible setting/;
/** n8n's words when a list meets a number row (an earlier version's lock, or another node's). */
const NOT_A_LIST = /Invalid value/;
/** The database's words when another process created the row first (PostgreSQL, SQLite, MySQL). */
const LOST_INSERT = /duplicate key|unique constraint|duplicate entry/i;

/** The weight of the latest wait in a process's usual wait. */
const WAIT_WEIGHT = 0.3;
/** A waiter sleeps this share of its usual wait, less a look, before its first look. */
const TURN_SHARE = 0.95;
/** ...and never longer than this many of its process's holds take (more waiters then look)... */
const TURN_HOLDS = 10;
/** ...or this share of its usual wait, when that is longer. */
const LONG_TURN_SHARE = 0.8;
/** A wait for the lock longer than this many lock calls is taken as this long in the usual wait. */
const LONGEST_TURN_LOCK_CALLS = 4;
/** Turns slept in vain, one after another, after which a process forgets its usual wait. */
const FREE_TURNS_TO_FORGET = 3;
/** The share of a sleep that found the lock free that counts as waiting. */
const UNNEEDED_SLEEP_SHARE = 0.5;
/** A young waiter pauses up to this many looks between looks... */
const YOUNG_PAUSE_LOOKS = 2;
/** ...and less the longer it has waited, none from this many looks of waiting. */
const ELDER_AFTER_LOOKS = 20;
/** An elder's pause, in pollMs. */
const ELDER_PAUSE_POLLS = 0.02;

/** A lock held: until when (this clock) its holder may take the history answer and give it back. */
interface Hold {
	until: number;
}

export interface WorkflowLock {
	/** Runs `task` under the lock; a failure to give the lock back is returned, not thrown. */
	hold<T>(task: () => Promise<T>): Promise<{ value: T; releaseError?: Error }>;
	/** The longest a lock left by a dead holder delays the next execution (a look every pollMs aside). */
	readonly recoveryMs: number;
}

const ANSWERED = 'answered';

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
		// with a reason, so that no DOMException (and its stack) is made for every store call
		answered.abort(ANSWERED);
	}
}

/**
 * What a process remembers of a workflow's lock row between its executions: the last call that
 * found no row, or deleted it, and answered a lock call before the next rescue instant. It lets a
 * create go ahead near that instant (see `createAllowedAt`).
 */
export interface LockMemory {
	/** Per instant (the next two at most), when that call was sent. */
	goneBefore?: Map<number, number>;
	/** How long its executions waited for the lock of late (a mean that favours the latest). */
	usualWait?: number;
	/** How long its last look at a held lock took, and its last hold (taken to given back). */
	lookMs?: number;
	holdMs?: number;
	/** Executions in a row that slept their turn and then found the lock free. */
	freeAfterTurn?: number;
}

/** What an execution's lock works with: the row, the timing, and its process's memory. */
interface LockParts {
	row: LockRow;
	timing: LockTiming;
	clock: Clock;
	durations: LockDurations;
	digits: number[];
	random: () => number;
	memory: LockMemory;
	/** A store call, failed once callLimitMs passes without its answer. */
	limited: <T>(call: Promise<T>) => Promise<T>;
}

/** A wait for the lock: what its moves read and write, from the first look to the hold. */
interface Waiter extends LockParts {
	/** Set when the wait was not for other holders (a row left behind, a number, a zone). */
	recovering: boolean;
	/** When the wait began. */
	waitingSince: number;
	/**
	 * When it last saw the lock change hands (the row gone, or a holder's row of another slot): it
	 * gives up giveUpAfter later. A queue that moves is waited out however long it is; a row that
	 * stays is cleared within recoveryAfterStall of its creation, or never.
	 */
	movedAt: number;
	/** Since when the row has been seen holding a number, with no other row seen since. */
	numberSince?: number;
	/** The lock's creates, and its counts, that failed in a row: the third of either fails the items. */
	failedInRow: { create: number; count: number };
	/** How long it slept its turn before its first look. */
	slept: number;
	/** How long a look takes (pollMs at least). */
	lookMs: number;
	/** A count seen unchanged since: an election's row, or an earlier version's. */
	unchanged?: { count: number; since: number };
	/** The count of a row a create has found to be this lock's (not another node's). */
	ours?: number;
	/** When it last counted. */
	countedAt: number;
	/** The last plain row it counted. */
	plainSeen?: number;
}

/** A count, and when its look was sent. */
interface Look {
	count: number;
	sentAt: number;
}

/** The states of the lock row a waiter tells by a look (docs/running-at-scale.md, its table). */
export type LockState = 'free' | 'held' | 'left' | 'election' | 'stuck';

/** What a waiter does after a move: it holds the lock, pauses before its next look, or looks at once. */
type MoveOutcome = Hold | 'pause' | 'lookAgain';

/**
 * The states a waiter's look tells, in the order they are told (the first that fits is the one):
 * the kinds of row a count shows, what else the look must show, and the waiter's move on it. The
 * docs' table of states is this one; the holder's own moves are `claim` and `giveBack`.
 */
export const LOCK_STATES: ReadonlyArray<{
	state: LockState;
	kinds: readonly LockRowKind[];
	when?: (waiter: Waiter, look: Look) => boolean;
	move: (waiter: Waiter, look: Look) => Promise<MoveOutcome>;
}> = [
	{ state: 'free', kinds: ['none'], move: claimFree },
	{
		state: 'stuck',
		kinds: ['election', 'earlierVersion'],
		when: ({ unchanged, durations }, { sentAt }) =>
			unchanged !== undefined && sentAt - unchanged.since >= durations.electionStall,
		move: rescueStuck,
	},
	{ state: 'election', kinds: ['election', 'earlierVersion'], move: waitTurn },
	{
		state: 'left',
		kinds: ['plain'],
		when: (waiter, { count, sentAt }) => isLeft(waiter, count, sentAt),
		move: clearLeft,
	},
	{ state: 'held', kinds: ['plain'], move: waitTurn },
];

/** The state a look tells, once `observe` has taken it in. */
function lockStateOf(waiter: Waiter, look: Look): (typeof LOCK_STATES)[number] {
	const kind = lockRowKind(look.count);
	return LOCK_STATES.find(
		({ kinds, when }) => kinds.includes(kind) && (when?.(waiter, look) ?? true),
	)!;
}

/** 'number' when the row holds a number: n8n compares it with the list, and writes nothing. */
async function createRow(
	{ row, limited }: LockParts,
	size: number,
): Promise<'created' | 'present' | 'number'> {
	let failure: unknown;
	try {
		return await limited(row.create(size));
	} catch (error) {
		failure = error;
	}
	const message = failure instanceof Error ? failure.message : String(failure);
	if (OTHER_MODE.test(message)) throw new SharedLockRowError(message);
	if (NOT_A_LIST.test(message)) return 'number';
	if (LOST_INSERT.test(message)) return 'present';
	throw failure;
}

/** Whether a plain row of `count`, read by a look sent at `sentAt`, is surely left. */
function isLeft({ durations }: LockParts, count: number, sentAt: number): boolean {
	const { lockCall, slot, deadAge } = durations;
	const cycle = SLOTS * slot;
	const createdSlot = (count - PLAIN_BASE) * slot;
	// the latest time of that slot not after the latest its creator's clock could have read
	const latest = sentAt + 2 * lockCall + slot;
	const created = latest - ((((latest - createdSlot) % cycle) + cycle) % cycle);
	return sentAt - created >= deadAge;
}

/** Remembers a call, sent at `sentAt`, that found no row or deleted it, for the next instant it tells of. */
function sawGone({ clock, durations, memory }: LockParts, sentAt: number): void {
	const { lockCall, rescuePeriod } = durations;
	const answeredAt = clock.now();
	// the first instant two lock calls after the answer (a rescue's look, by a clock a lock call
	// off, comes after it, and so up to twice the assumption)
	const instant = (Math.floor((answeredAt + 2 * lockCall) / rescuePeriod) + 1) * rescuePeriod;
	const goneBefore = (memory.goneBefore ??= new Map());
	goneBefore.set(instant, Math.max(sentAt, goneBefore.get(instant) ?? sentAt));
	for (const earlier of goneBefore.keys()) {
		if (earlier < instant - rescuePeriod) goneBefore.delete(earlier);
	}
}

/**
 * Whether a create sent now may land among the deletes of a rescue: only near a rescue's instant,
 * and only when this process has not seen the row gone shortly before that instant (a row seen
 * gone then cannot have stalled for electionStall by the instant, so nobody rescues at it).
 * Returns when the create may be sent.
 */
function createAllowedAt({ durations, memory }: LockParts, now: number): number {
	const { lockCall, electionStall, rescuePeriod, rescueWindow, zoneBefore, zoneAfter } = durations;
	const instant = Math.round(now / rescuePeriod) * rescuePeriod;
	if (now < instant - zoneBefore || now > instant + zoneAfter) return now;
	const goneSentAt = memory.goneBefore?.get(instant);
	// the row rescued at the instant was there, unchanged, from electionStall before its
	// rescuer's judging look (a look, a clock off, and as much again past the assumption)
	const clear =
		goneSentAt !== undefined && goneSentAt >= instant + rescueWindow + 4 * lockCall - electionStall;
	return clear ? now : instant + zoneAfter;
}

/** The wait has lasted giveUpAfter since the lock last changed hands. */
function gaveUp({ clock, durations, waitingSince }: Waiter): LockHeldError {
	return new LockHeldError(clock.now() - waitingSince, durations.recoveryAfterStall);
}

/** Sleeps until `at`, or gives up once the wait reaches giveUpAfter before then. */
async function sleepUntil(waiter: Waiter, at: number): Promise<void> {
	const giveUpAt = waiter.movedAt + waiter.durations.giveUpAfter;
	await waiter.clock.sleep(Math.max(0, Math.min(at, giveUpAt) - waiter.clock.now()));
	if (at > giveUpAt) throw gaveUp(waiter);
}

/** Counts a failed create or count; the third in a row fails the items. */
function failed(waiter: Waiter, call: 'create' | 'count', error: unknown): void {
	if (++waiter.failedInRow[call] >= 3) throw error;
}

/**
 * Claim: creates a plain row of now; undefined when a row is there (an error when it is not ours,
 * or has held a number for longer than any holder keeps the lock).
 */
async function claim(waiter: Waiter): Promise<Hold | undefined> {
	const { clock, timing, durations } = waiter;
	const allowedAt = createAllowedAt(waiter, clock.now());
	if (allowedAt > clock.now()) {
		waiter.recovering = true;
		await sleepUntil(waiter, allowedAt);
	}
	const createdAt = clock.now();
	const made = await createRow(waiter, plainRowSize(createdAt, timing)).catch((error: unknown) => {
		if (error instanceof SharedLockRowError) throw error;
		failed(waiter, 'create', error);
		return 'failed' as const;
	});
	if (made !== 'failed') waiter.failedInRow.create = 0;
	// waiting for a number to go is no turn of the queue
	if (made === 'number') waiter.recovering = true;
	if (made !== 'number') waiter.numberSince = undefined;
	else if (waiter.numberSince === undefined) waiter.numberSince = createdAt;
	else if (createdAt - waiter.numberSince >= durations.recovery) {
		throw new NumberLockRowError('the lock row holds a number');
	}
	if (made !== 'created') return undefined;
	sawGone(waiter, createdAt);
	return { until: createdAt + durations.holderWindow };
}

/**
 * Look: a count; undefined when it failed. What it tells of the queue is taken in by `observe`.
 */
async function look(waiter: Waiter): Promise<number | undefined> {
	try {
		const count = await waiter.limited(waiter.row.count());
		waiter.failedInRow.count = 0;
		return count;
	} catch (error) {
		failed(waiter, 'count', error);
		return undefined;
	}
}

/** What a count tells the wait: whether the lock changed hands, and whether this is a turn of the queue. */
function observe(waiter: Waiter, { count, sentAt }: Look): void {
	// a list row: any number seen before was deleted since
	if (count > 0) waiter.numberSince = undefined;
	const plain = lockRowKind(count) === 'plain';
	if (count === 0 || (plain && count !== waiter.plainSeen)) waiter.movedAt = sentAt;
	if (plain) waiter.plainSeen = count;
	// waiting for an election or a rescue is no turn of the queue
	if (count > 0 && !plain) waiter.recovering = true;
	if (plain || count === 0) waiter.unchanged = undefined;
	else if (waiter.unchanged?.count !== count) waiter.unchanged = { count, since: sentAt };
}

/** Free: a create takes it; one that finds a row there pauses. */
async function claimFree(waiter: Waiter): Promise<MoveOutcome> {
	return (await claim(waiter)) ?? 'pause';
}

/** Held, or an election under way: the waiter pauses and looks again. */
function waitTurn(): Promise<MoveOutcome> {
	return Promise.resolve('pause');
}

/**
 * Left: a first create, which on another node's row fails before it removes anything of it; once
 * that has found the row to be this lock's, an election.
 */
async function clearLeft(waiter: Waiter, { count, sentAt }: Look): Promise<MoveOutcome> {
	waiter.recovering = true;
	if (waiter.ours === count) {
		waiter.ours = undefined;
		await elect(waiter, count, sentAt);
		return 'lookAgain';
	}
	const held = await claim(waiter);
	if (held) return held;
	waiter.ours = count;
	return 'lookAgain';
}

/** Stuck: rescued at the next instant. */
async function rescueStuck(waiter: Waiter, { count }: Look): Promise<MoveOutcome> {
	waiter.unchanged = undefined;
	await rescue(waiter, count);
	return 'lookAgain';
}

/**
 * A rescue of a row no election can clear: at the next instant, a look sent within the rescue's
 * window and, if the row is still the same and the look answered within a lock call (as every
 * lock call does in the assumption), a delete. Every waiter that saw the row unchanged does the
 * same; no create lands among their deletes (createAllowedAt).
 */
async function rescue(waiter: Waiter, count: number): Promise<void> {
	const { clock, durations, row, limited } = waiter;
	const instant = Math.ceil(clock.now() / durations.rescuePeriod) * durations.rescuePeriod;
	await sleepUntil(waiter, instant);
	const lookedAt = clock.now();
	if (lookedAt >= instant + durations.rescueWindow) return;
	const seen = await limited(row.count()).catch(() => undefined);
	if (seen !== count || clock.now() > lookedAt + durations.lockCall) return;
	await limited(row.remove()).catch(() => undefined);
}

/**
 * An election over a row no one holds: rounds on this execution's id digits, each a shrink of
 * the row to the round's value of this digit, sent within a lock call of the look that read
 * the round's start, then a check two lock calls after its answer (every shrink of the round has
 * landed by then). The last taker left deletes the row.
 */
async function elect(parts: LockParts, start: number, readSentAt: number): Promise<void> {
	const { clock, row, limited, digits } = parts;
	const { lockCall } = parts.durations;
	let value = start;
	let lastSend = readSentAt;
	for (let round = 0; round < ROUNDS; round++) {
		const target = roundStart(round) + digits[round];
		if (clock.now() - lastSend > lockCall) return;
		try {
			await limited(row.shrink(lockElements(target, value)));
		} catch {
			return;
		}
		await clock.sleep(2 * lockCall);
		lastSend = clock.now();
		let seen: number;
		try {
			seen = await limited(row.count());
		} catch {
			return;
		}
		if (seen !== target) return;
		value = seen;
	}
	await removeElected(parts, value, lastSend);
}

/**
 * The winner's delete. One that failed may have landed: a look two lock calls after sending it
 * (it has landed by then, or never will, and so one up to twice as late) that still finds the
 * election's value finds this election's row (a new row reaches that value only after a
 * holder's window and an election), so the delete is sent again, until `removeRetry` after
 * winning; then the row is rescued.
 */
async function removeElected(parts: LockParts, value: number, wonAt: number): Promise<void> {
	const { clock, row, limited, durations } = parts;
	let verifiedAt = wonAt;
	for (;;) {
		const sentAt = clock.now();
		if (sentAt - verifiedAt > durations.lockCall || sentAt - wonAt > durations.removeRetry) return;
		try {
			await limited(row.remove());
			sawGone(parts, sentAt);
			return;
		} catch {
			// landed or not: looked at below
		}
		await clock.sleep(Math.max(0, sentAt + 2 * durations.lockCall - clock.now()));
		verifiedAt = clock.now();
		const seen = await limited(row.count()).catch(() => undefined);
		if (seen !== value) return;
	}
}

/**
 * Waiting its turn. While executions queue for the lock, each sleeps most of its process's usual
 * wait before its first look, so that the waiters that came before it go first; then it looks
 * with creates (a create takes a free lock in the same call), the more often the longer it has
 * waited, so that the oldest waiter most often takes a lock that frees. That also evens out the
 * processes' usual waits: one that sleeps too long is then the oldest, and waits less.
 */
function turnSleep({ memory, timing }: LockParts): number {
	const { usualWait, lookMs = timing.pollMs, holdMs = Number.POSITIVE_INFINITY } = memory;
	if (usualWait === undefined) return 0;
	const sleep = Math.min(
		TURN_SHARE * usualWait - lookMs,
		Math.max(TURN_HOLDS * holdMs, LONG_TURN_SHARE * usualWait),
	);
	return sleep > timing.pollMs ? sleep : 0;
}

/**
 * The pause after a look at a held lock by a waiter of `age`, whose looks take `lookMs` (taken
 * as LOOK_STRETCH pollMs at most: a store that hangs makes no waiter pause for long).
 */
function turnPause({ timing, random }: LockParts, age: number, lookMs: number): number {
	const stretched = Math.min(lookMs, LOOK_STRETCH * timing.pollMs);
	const youth = stretched > 0 ? Math.max(0, 1 - age / (ELDER_AFTER_LOOKS * stretched)) : 0;
	// never none: a store that answers at once must not spin the process
	return (
		Math.max(ELDER_PAUSE_POLLS * timing.pollMs, YOUNG_PAUSE_LOOKS * stretched * youth) *
		(0.5 + random())
	);
}

/** The pause after a look sent at `sentAt`: pollMs, or as long as the look took when the store is slower. */
async function recoveryPause({ clock, timing, random }: LockParts, sentAt: number): Promise<void> {
	const looked = Math.min(clock.now() - sentAt, LOOK_STRETCH * timing.pollMs);
	await clock.sleep(Math.max(timing.pollMs, looked) * (0.5 + random()));
}

/** Keeps how long this execution waited for other holders, once it holds the lock. */
function learnTurn(waiter: Waiter, foundFree: boolean): void {
	const { memory, slept } = waiter;
	const wait = waiter.clock.now() - waiter.waitingSince;
	if (waiter.recovering) return;
	if (slept > 0 && foundFree) {
		// the sleep was longer than the turn needed; a few in a row, and nobody is waiting any
		// more (a burst is over): the next execution goes at once
		memory.freeAfterTurn = (memory.freeAfterTurn ?? 0) + 1;
		if (memory.freeAfterTurn >= FREE_TURNS_TO_FORGET) {
			memory.usualWait = undefined;
			memory.freeAfterTurn = 0;
			return;
		}
	} else memory.freeAfterTurn = 0;
	const sample = Math.min(
		foundFree ? UNNEEDED_SLEEP_SHARE * slept : wait,
		LONGEST_TURN_LOCK_CALLS * waiter.durations.lockCall,
	);
	memory.usualWait = (memory.usualWait ?? sample) * (1 - WAIT_WEIGHT) + sample * WAIT_WEIGHT;
}

/**
 * Takes the lock: sleeps its turn, claims, then looks until a move on the state it sees holds the
 * lock (LOCK_STATES), or the wait gives up.
 */
async function acquire(parts: LockParts): Promise<Hold> {
	const { clock, timing, durations } = parts;
	const waitingSince = clock.now();
	const waiter: Waiter = {
		...parts,
		recovering: false,
		waitingSince,
		movedAt: waitingSince,
		failedInRow: { create: 0, count: 0 },
		slept: turnSleep(parts),
		lookMs: timing.pollMs,
		countedAt: Number.NEGATIVE_INFINITY,
	};
	if (waiter.slept > 0) await clock.sleep(waiter.slept);
	// most often there is no row: the create is then the only call (and on a row it writes nothing)
	const lookedAt = clock.now();
	const first = await claim(waiter);
	if (first) {
		learnTurn(waiter, true);
		return first;
	}
	waiter.lookMs = Math.max(timing.pollMs, clock.now() - lookedAt);
	parts.memory.lookMs = waiter.lookMs;
	for (;;) {
		const sentAt = clock.now();
		const age = sentAt - waiter.waitingSince;
		if (sentAt - waiter.movedAt >= durations.giveUpAfter) throw gaveUp(waiter);
		// in its turn, between counts that tell a row left behind, a waiter looks with a create:
		// the older, the more often, however long it has waited (a waiter that looked less often
		// would lose every race to younger ones)
		if (!waiter.recovering && sentAt - waiter.countedAt < durations.lockCall / 2) {
			const held = await claim(waiter);
			if (held) {
				learnTurn(waiter, false);
				return held;
			}
			await clock.sleep(turnPause(waiter, age, waiter.lookMs));
			continue;
		}
		waiter.countedAt = sentAt;
		const count = await look(waiter);
		if (count !== undefined) {
			const seen = { count, sentAt };
			observe(waiter, seen);
			const outcome = await lockStateOf(waiter, seen).move(waiter, seen);
			if (outcome === 'lookAgain') continue;
			if (outcome !== 'pause') {
				learnTurn(waiter, false);
				return outcome;
			}
		}
		if (!waiter.recovering) await clock.sleep(turnPause(waiter, age, waiter.lookMs));
		else await recoveryPause(waiter, sentAt);
	}
}

/**
 * Give back: runs the history call within the hold's window, then deletes the row, unless the
 * window has passed (the row is then left to an election: a delete might land on another's).
 */
async function giveBack<T>(
	parts: LockParts,
	held: Hold,
	task: () => Promise<T>,
): Promise<{ value: T; releaseError?: Error }> {
	const { clock, durations, row, limited, memory } = parts;
	const started = clock.now();
	// a history call sent later could land after others take the row for left
	if (started > held.until - durations.historyCall) {
		// within its window it gives the row back; past it, the row is left to an election
		if (started <= held.until) await limited(row.remove()).catch(() => undefined);
		throw new LockTimeError('the lock came too late for the history call');
	}
	let outcome: { value: T } | { error: unknown };
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
		if (outcome.error instanceof LockTimeError) throw outcome.error;
		const landed = Math.min(started + durations.historyCall, held.until);
		await clock.sleep(Math.max(0, landed - clock.now()));
	}
	const removeSentAt = clock.now();
	const releaseError =
		removeSentAt > held.until
			? undefined
			: await limited(row.remove()).then(
					() => {
						sawGone(parts, removeSentAt);
						memory.holdMs = clock.now() - started;
						return undefined;
					},
					(error: unknown) => (error instanceof Error ? error : new Error(String(error))),
				);
	if ('error' in outcome) throw outcome.error;
	return { value: outcome.value, releaseError };
}

export function createWorkflowLock(
	row: LockRow,
	timing: LockTiming,
	clock: Clock,
	executionId: string,
	random: () => number = Math.random,
	memory: LockMemory = {},
): WorkflowLock {
	const durations = lockDurations(timing);
	const parts: LockParts = {
		row,
		timing,
		clock,
		durations,
		digits: electionDigits(executionId),
		random,
		memory,
		limited: async (call) => await withinTime(call, timing.callLimitMs, clock, "n8n's store"),
	};
	return {
		recoveryMs: durations.recovery,
		async hold(task) {
			return await giveBack(parts, await acquire(parts), task);
		},
	};
}
