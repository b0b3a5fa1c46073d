import { DateTime } from 'luxon';

import { CallKaroApiError } from '../client/errors';
import { CallKaroInputError, invalidInput } from '../input/inputError';
import type { LockTiming } from './guardLock';

/**
 * The duplicate-call guard's decisions, apart from any store: which key stands for "this person
 * with this agent (or workflow)", and when a claimed key may be given back.
 */

export const DEFAULT_HISTORY_SIZE = 10_000;

/**
 * A holder keeps the lock for a few store calls (tens of ms); the timing assumption allows a lock
 * call 2 s and the history call 8 s (settleMs 4 s). Every wait derives from these (lockDurations;
 * docs/running-at-scale.md): a lock left by a killed worker delays the workflow's guarded
 * executions by up to 94 s (445 s when an election over it stalled too). Tests pass shorter ones.
 */
export const DEFAULT_GUARD_TIMING: LockTiming = {
	pollMs: 20,
	settleMs: 4_000,
	callLimitMs: 10_000,
};

/** Share of the history in use from which the node warns that old numbers are about to be forgotten. */
export const HISTORY_NEARLY_FULL = 0.9;

export type GuardWindow =
	/** Once ever, as long as the number is among the last `historySize` recorded. */
	| { kind: 'ever' }
	/** Once per calendar day in `zone`: the day of the scheduled time, else of the run. */
	| { kind: 'day'; zone: string };

/** Whom a request reaches: the agent or workflow, and the number in canonical + form. */
export interface GuardSubject {
	target: string;
	toNumber: string;
	/** When the call or run happens, if scheduled in the future; otherwise it happens now. */
	scheduledFor?: Date;
}

/** Checks a day window's zone before anything is claimed. `field` is the n8n display name. */
export function dayWindow(zone: string, field: string): GuardWindow {
	if (!DateTime.local().setZone(zone).isValid) {
		throw invalidInput(
			field,
			`is not a time zone: "${zone}"`,
			'Use an IANA zone name such as Asia/Kolkata or Europe/London',
		);
	}
	return { kind: 'day', zone };
}

/**
 * The key recorded for a subject. The history name is part of it, so a new name starts a fresh
 * history without touching the stored one (whose keys then simply age out).
 */
export function guardKey(
	subject: GuardSubject,
	window: GuardWindow,
	historyName: string,
	now: Date,
): string {
	const parts = [historyName.trim(), subject.target, subject.toNumber];
	if (window.kind === 'day') {
		const when = subject.scheduledFor ?? now;
		parts.push(DateTime.fromJSDate(when, { zone: window.zone }).toISODate() ?? '');
	}
	return parts.join('|');
}

/**
 * Whether a failed request certainly did not reach the person: bad input (nothing was sent), a
 * 4xx, or a connection that failed before sending. Anything else (a 5xx, a lost answer, a
 * cancelled request, an unexpected error) may have placed the call, and a second call is worse
 * than a missed one.
 */
export function certainlyNotPlaced(error: unknown): boolean {
	if (error instanceof CallKaroInputError) return true;
	if (!(error instanceof CallKaroApiError) || error.outcomeUnknown) return false;
	if (error.kind === 'network') return true;
	return error.httpStatus !== undefined && error.httpStatus >= 400 && error.httpStatus <= 499;
}

/**
 * Runs the given tasks one at a time, in the order they are handed in. n8n's store reads, then
 * writes, with no lock: two claims at the same moment in one process would both see a number as
 * new.
 */
export function createSerializer(): <T>(task: () => Promise<T>) => Promise<T> {
	let last: Promise<unknown> = Promise.resolve();
	return async <T>(task: () => Promise<T>): Promise<T> => {
		const result = last.then(task);
		last = result.catch(() => undefined);
		return await result;
	};
}
