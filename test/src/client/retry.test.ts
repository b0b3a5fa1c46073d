import { backoffDelayMs, decideRetry, DEFAULT_RETRY_POLICY } from '../../../src/client/retry';
import type { AttemptOutcome, Operation, RetryDecision } from '../../../src/client/retry';

const policy = DEFAULT_RETRY_POLICY;
const noJitter = () => 0.5;

const status = (code: number, retryAfterMs?: number): AttemptOutcome => ({
	type: 'response',
	status: code,
	retryAfterMs,
});
const network = (kind: 'not-sent' | 'no-answer' | 'aborted'): AttemptOutcome => ({
	type: 'network',
	kind,
});

const retryWithBackoff = (attempt: number): RetryDecision => ({
	retry: true,
	delayMs: backoffDelayMs(attempt, policy, noJitter),
});
const stop = (outcomeUnknown: boolean): RetryDecision => ({ retry: false, outcomeUnknown });

describe('decideRetry', () => {
	test.each<[Operation, AttemptOutcome, number, RetryDecision]>([
		// assign: a repeat is answered with 409, so 5xx and lost answers are retried.
		['assign', status(500), 1, retryWithBackoff(1)],
		['assign', status(502), 2, retryWithBackoff(2)],
		['assign', status(503), 3, retryWithBackoff(3)],
		['assign', status(500), 4, stop(true)],
		['assign', status(429), 1, retryWithBackoff(1)],
		['assign', network('not-sent'), 1, retryWithBackoff(1)],
		['assign', network('no-answer'), 1, retryWithBackoff(1)],
		['assign', network('no-answer'), 4, stop(true)],
		['assign', network('aborted'), 1, stop(true)],
		['assign', status(400), 1, stop(false)],
		['assign', status(401), 1, stop(false)],
		['assign', status(404), 1, stop(false)],
		['assign', status(409), 1, stop(false)],
		['assign', status(418), 1, stop(false)],
		// delete: idempotent.
		['delete', status(500), 1, retryWithBackoff(1)],
		['delete', status(503), 3, retryWithBackoff(3)],
		['delete', status(429), 2, retryWithBackoff(2)],
		['delete', network('not-sent'), 1, retryWithBackoff(1)],
		['delete', network('no-answer'), 1, retryWithBackoff(1)],
		['delete', network('aborted'), 1, stop(true)],
		['delete', status(403), 1, stop(false)],
		['delete', network('not-sent'), 4, stop(false)],
		// outbound: a repeat places a second call.
		['outbound', status(500), 1, stop(true)],
		['outbound', status(503), 1, stop(true)],
		['outbound', network('no-answer'), 1, stop(true)],
		['outbound', network('aborted'), 1, stop(true)],
		['outbound', status(429), 1, retryWithBackoff(1)],
		['outbound', status(429), 4, stop(false)],
		['outbound', network('not-sent'), 1, retryWithBackoff(1)],
		['outbound', network('not-sent'), 3, retryWithBackoff(3)],
		['outbound', status(400), 1, stop(false)],
		['outbound', status(404), 1, stop(false)],
		// campaign: a repeat creates a second campaign.
		['campaign', status(500), 1, stop(true)],
		['campaign', network('no-answer'), 1, stop(true)],
		['campaign', status(429), 1, retryWithBackoff(1)],
		['campaign', network('not-sent'), 2, retryWithBackoff(2)],
		['campaign', status(403), 1, stop(false)],
	])('%s, %o, attempt %i', (operation, outcome, attempt, decision) => {
		expect(decideRetry(operation, outcome, attempt, policy, noJitter)).toEqual(decision);
	});

	test.each<[string, AttemptOutcome, RetryDecision]>([
		['Retry-After longer than the backoff wins', status(429, 2000), { retry: true, delayMs: 2000 }],
		['backoff longer than Retry-After wins', status(429, 100), { retry: true, delayMs: 250 }],
		[
			'Retry-After equal to the cap is honoured',
			status(503, 30_000),
			{ retry: true, delayMs: 30_000 },
		],
		['Retry-After beyond the cap gives up', status(429, 30_001), stop(false)],
		['Retry-After beyond the cap on a 503 gives up', status(503, 60_000), stop(true)],
	])('%s', (_case, outcome, decision) => {
		expect(decideRetry('assign', outcome, 1, policy, noJitter)).toEqual(decision);
	});

	test('respects a smaller maxAttempts', () => {
		const once = { ...policy, maxAttempts: 1 };
		expect(decideRetry('assign', status(500), 1, once, noJitter)).toEqual(stop(true));
	});
});

describe('backoffDelayMs', () => {
	test.each([
		[1, 0, 0],
		[1, 0.5, 250],
		[1, 0.999, 499],
		[2, 0.999, 999],
		[3, 0.5, 1000],
		[4, 0.999, 3996],
		[7, 0.999, 29_970],
		[8, 0.999, 29_970],
		[20, 0.999, 29_970],
	])('attempt %i, random %f -> %i ms', (attempt, random, delay) => {
		expect(backoffDelayMs(attempt, policy, () => random)).toBe(delay);
	});

	test('stays within 0 and the cap', () => {
		for (let attempt = 1; attempt <= 12; attempt += 1) {
			for (const random of [0, 0.25, 0.999_999]) {
				const delay = backoffDelayMs(attempt, policy, () => random);
				expect(delay).toBeGreaterThanOrEqual(0);
				expect(delay).toBeLessThan(policy.maxDelayMs);
				expect(delay).toBeLessThan(policy.baseDelayMs * 2 ** (attempt - 1));
			}
		}
	});
});
