import { invalidInput } from '../input/inputError';
import { describeValue } from '../input/input';

export const DEFAULT_CONCURRENCY = 5;
export const MAX_CONCURRENCY = 50;

export interface RunOptions {
	/** Requests in flight at once: a whole number from 1 to MAX_CONCURRENCY. */
	concurrency: number;
	/** Request starts per second across the run; 0 means no limit. */
	maxRequestsPerSecond: number;
}

/**
 * Checks the options that pace a whole run. The editor bounds them, but an expression is not
 * bounded there ({{ 500 }}), so they are checked here too. An out-of-range value is refused,
 * not clamped: a run that silently sends at another pace than the one set is harder to explain.
 */
export function checkRunOptions(given: {
	concurrency?: unknown;
	maxRequestsPerSecond?: unknown;
}): RunOptions {
	const { concurrency = DEFAULT_CONCURRENCY, maxRequestsPerSecond = 0 } = given;
	if (
		typeof concurrency !== 'number' ||
		!Number.isInteger(concurrency) ||
		concurrency < 1 ||
		concurrency > MAX_CONCURRENCY
	) {
		throw invalidInput(
			'Concurrency',
			`must be a whole number from 1 to ${MAX_CONCURRENCY}, but is ${describeValue(concurrency)}`,
			'Change it in the node options',
		);
	}
	if (
		typeof maxRequestsPerSecond !== 'number' ||
		!Number.isFinite(maxRequestsPerSecond) ||
		maxRequestsPerSecond < 0
	) {
		throw invalidInput(
			'Max Requests per Second',
			`must be a number from 0 (no limit) upwards, but is ${describeValue(maxRequestsPerSecond)}`,
			'Change it in the node options',
		);
	}
	return { concurrency, maxRequestsPerSecond };
}
