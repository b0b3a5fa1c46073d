import { sleep } from 'n8n-workflow';

/** How a node run waits (between attempts, for its pace) and reads the time. */
export interface Clock {
	/** Resolves after `ms`, or rejects at once when `signal` aborts. */
	sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
	/**
	 * A time limit: resolves after `ms` unless `signal` aborts first (then it rejects). Apart from
	 * sleep, so that a test clock that jumps over waits does not cut every limit short.
	 */
	expire: (ms: number, signal: AbortSignal) => Promise<void>;
	now: () => number;
}

/** Real time. Read at each run, so engine tests can swap in a clock that jumps instead of waiting. */
export const DEFAULT_CLOCK: Clock = {
	sleep: async (ms, signal) => await sleep(ms, signal),
	expire: async (ms, signal) => await sleep(ms, signal),
	now: () => Date.now(),
};
