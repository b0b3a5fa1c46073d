import { parseRetryAfter } from './errors';
import { DEFAULT_RETRY_POLICY } from './retry';
import type { Transport, TransportRequest, TransportResponse } from './transport';

export interface PacingOptions {
	/** Request starts per second across all concurrent requests; 0 means no limit. */
	maxRequestsPerSecond: number;
	sleep: (ms: number) => Promise<void>;
	now?: () => number;
	/** The longest pause a 429 imposes: a request told to wait longer gives up instead (see retry.ts). */
	maxPauseMs?: number;
}

/**
 * Wraps a transport so that all requests of one node run share one pace: starts are spaced to
 * the rate limit, and a 429's Retry-After holds back every request, not just the one that got it
 * (otherwise the other workers keep hitting the limit while that one waits).
 */
export function createPacedTransport(transport: Transport, options: PacingOptions): Transport {
	const now = options.now ?? (() => Date.now());
	const maxPauseMs = options.maxPauseMs ?? DEFAULT_RETRY_POLICY.maxDelayMs;
	const startInterval = options.maxRequestsPerSecond > 0 ? 1000 / options.maxRequestsPerSecond : 0;
	let nextStartAt = 0;
	let pausedUntil = 0;
	// Requests take their turns one after another, and each start sets the next one's time. A
	// slot handed out in advance would keep its time through a 429's pause and fire with every
	// other such slot the moment the pause ends.
	let lastTurn: Promise<void> = Promise.resolve();

	async function startWhenDue(): Promise<void> {
		// A 429 seen while waiting can push the pause further, so check again after each wait.
		for (
			let wait = Math.max(nextStartAt, pausedUntil) - now();
			wait > 0;
			wait = Math.max(nextStartAt, pausedUntil) - now()
		) {
			await options.sleep(wait);
		}
		nextStartAt = now() + startInterval;
	}

	async function waitForTurn(): Promise<void> {
		const turn = lastTurn.then(startWhenDue);
		// A cancelled wait fails its own request only; the next one still takes its turn.
		lastTurn = turn.catch(() => undefined);
		await turn;
	}

	return {
		async send(request: TransportRequest): Promise<TransportResponse> {
			await waitForTurn();
			const response = await transport.send(request);
			if (response.status === 429) {
				const retryAfterMs = parseRetryAfter(response.headers['retry-after'], new Date(now())) ?? 0;
				pausedUntil = Math.max(pausedUntil, now() + Math.min(retryAfterMs, maxPauseMs));
			}
			return response;
		},
	};
}
