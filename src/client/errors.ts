import { DateTime } from 'luxon';

import type { Operation } from './retry';

export type CallKaroErrorKind =
	| 'bad-request'
	| 'auth'
	| 'not-found'
	| 'already-running'
	| 'rate-limited'
	| 'service-failure'
	| 'network'
	| 'unexpected-response'
	/** Assign with On Attribute Problems = Fail the Item: the run started, but not every attribute was saved. */
	| 'attributes-not-saved'
	/** Delete with When Nothing Is Scheduled = Fail the Item: CallKaro had no such scheduled call. */
	| 'not-scheduled';

export interface CallKaroApiErrorDetails {
	kind: CallKaroErrorKind;
	httpStatus?: number;
	serviceMessage?: string;
	retryAfterMs?: number;
	attempts: number;
	outcomeUnknown: boolean;
	body?: unknown;
	/** What the request achieved all the same (e.g. the run it started), shown with the error. */
	achieved?: Record<string, unknown>;
	/** The endpoint's operation, for hints that depend on it. */
	operation?: Operation;
}

/** The service (or the network) refused the request. message is plain English and carries the service's own text; never the API key, never a full phone number (masked). */
export class CallKaroApiError extends Error {
	readonly kind: CallKaroErrorKind;
	/** undefined for network failures. */
	readonly httpStatus?: number;
	/** body.message as the service sent it (phone numbers masked). */
	readonly serviceMessage?: string;
	readonly retryAfterMs?: number;
	/** How many requests were sent. */
	readonly attempts: number;
	/** True when the request may have had its effect although it failed. */
	readonly outcomeUnknown: boolean;
	/** Raw response body when there is one. */
	readonly body?: unknown;
	readonly achieved?: Record<string, unknown>;
	readonly operation?: Operation;

	constructor(message: string, details: CallKaroApiErrorDetails) {
		super(message);
		this.name = 'CallKaroApiError';
		this.kind = details.kind;
		this.httpStatus = details.httpStatus;
		this.serviceMessage = details.serviceMessage;
		this.retryAfterMs = details.retryAfterMs;
		this.attempts = details.attempts;
		this.outcomeUnknown = details.outcomeUnknown;
		this.body = details.body;
		this.achieved = details.achieved;
		this.operation = details.operation;
	}
}

/** The kinds an HTTP status can have. */
export type HttpErrorKind = Exclude<
	CallKaroErrorKind,
	'network' | 'attributes-not-saved' | 'not-scheduled'
>;

const KIND_BY_STATUS: Record<number, HttpErrorKind> = {
	400: 'bad-request',
	401: 'auth',
	403: 'auth',
	404: 'not-found',
	409: 'already-running',
	429: 'rate-limited',
};

export function classifyStatus(status: number): HttpErrorKind {
	if (status >= 500 && status <= 599) return 'service-failure';
	return KIND_BY_STATUS[status] ?? 'unexpected-response';
}

/** Reads a Retry-After header (delay in seconds, or an HTTP date) as milliseconds from now. */
export function parseRetryAfter(headerValue: string | undefined, now: Date): number | undefined {
	const value = headerValue?.trim() ?? '';
	// Most answers carry no Retry-After: skip luxon's date parsing for them.
	if (!value) return undefined;
	if (/^\d+$/.test(value)) return Number(value) * 1000;
	// fromHTTP accepts only the HTTP date formats, unlike the lenient Date.parse.
	const date = DateTime.fromHTTP(value);
	return date.isValid ? Math.max(0, date.toMillis() - now.getTime()) : undefined;
}
