import type { NetworkFailureKind } from './transport';

export type Operation = 'assign' | 'delete' | 'outbound' | 'campaign';

export type AttemptOutcome =
	| { type: 'response'; status: number; retryAfterMs?: number }
	| { type: 'network'; kind: NetworkFailureKind };

export interface RetryPolicy {
	maxAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxAttempts: 4,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
};

export type RetryDecision =
	| { retry: true; delayMs: number }
	| { retry: false; outcomeUnknown: boolean };

/**
 * Whether repeating a request that may already have taken effect is harmless. A repeated assign
 * gets 409 instead of a second run, and deleting twice deletes once; a repeated outbound call
 * places a second call, and a repeated campaign creation makes a second campaign.
 */
const SAFE_TO_REPEAT: Record<Operation, boolean> = {
	assign: true,
	delete: true,
	outbound: false,
	campaign: false,
};

function isServerError(status: number): boolean {
	return status >= 500 && status <= 599;
}

/** The service may have acted on a request that ended this way. */
export function mayHaveTakenEffect(outcome: AttemptOutcome): boolean {
	return outcome.type === 'network' ? outcome.kind !== 'not-sent' : isServerError(outcome.status);
}

function isWorthRetrying(operation: Operation, outcome: AttemptOutcome): boolean {
	if (outcome.type === 'network' && outcome.kind === 'aborted') return false;
	// A 429 or an unsent request never took effect, so it is safe to repeat for every operation.
	if (outcome.type === 'network' ? outcome.kind === 'not-sent' : outcome.status === 429)
		return true;
	return mayHaveTakenEffect(outcome) && SAFE_TO_REPEAT[operation];
}

/** Full-jitter exponential backoff: a random delay up to base * 2^(attempt-1), capped. */
export function backoffDelayMs(attempt: number, policy: RetryPolicy, random: () => number): number {
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
	return Math.floor(random() * ceiling);
}

/** `attempt` is the 1-based count of attempts made so far. */
export function decideRetry(
	operation: Operation,
	outcome: AttemptOutcome,
	attempt: number,
	policy: RetryPolicy,
	random: () => number,
): RetryDecision {
	const retryAfterMs = outcome.type === 'response' ? (outcome.retryAfterMs ?? 0) : 0;
	// A service that asks for a longer wait than the cap is not retried at all.
	if (
		!isWorthRetrying(operation, outcome) ||
		attempt >= policy.maxAttempts ||
		retryAfterMs > policy.maxDelayMs
	) {
		return { retry: false, outcomeUnknown: mayHaveTakenEffect(outcome) };
	}
	return { retry: true, delayMs: Math.max(retryAfterMs, backoffDelayMs(attempt, policy, random)) };
}
