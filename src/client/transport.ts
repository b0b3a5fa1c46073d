/** One HTTP exchange with CallKaro. The transport owns the base URL and the X-API-KEY header; the core deals in paths. */
export interface TransportRequest {
	method: 'POST';
	path: string;
	query?: Record<string, string>;
	/** Sent as JSON. */
	body?: Record<string, unknown>;
	/** Sent as multipart/form-data instead of body. */
	form?: Record<string, string>;
}

export interface TransportResponse {
	status: number;
	/** Lower-case header names. */
	headers: Record<string, string | undefined>;
	/** Parsed JSON when it parses, else the raw text. */
	body: unknown;
}

/**
 * 'not-sent': provably never reached the service (ECONNREFUSED, ENOTFOUND, EAI_AGAIN...).
 * 'no-answer': may have been processed (reset, timeout, socket hang up).
 * 'aborted': execution cancelled.
 */
export type NetworkFailureKind = 'not-sent' | 'no-answer' | 'aborted';

export class TransportError extends Error {
	readonly kind: NetworkFailureKind;

	constructor(kind: NetworkFailureKind, message: string, options?: { cause?: unknown }) {
		super(message, options);
		this.name = 'TransportError';
		this.kind = kind;
	}
}

export interface Transport {
	send(request: TransportRequest): Promise<TransportResponse>;
}

// Failures before the connection was established: the request cannot have been processed.
const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'UND_ERR_CONNECT_TIMEOUT',
]);
// Node's AbortError and axios' CanceledError.
const ABORTED_CODES = new Set(['ABORT_ERR', 'ERR_CANCELED']);

function propertyOf(value: unknown, name: string): unknown {
	return typeof value === 'object' && value !== null
		? (value as Record<string, unknown>)[name]
		: undefined;
}

/** Maps a Node/undici error code (err.code or err.cause.code) to a kind. */
export function networkFailureKind(error: unknown): NetworkFailureKind {
	if (error instanceof TransportError) return error.kind;
	const codes = [propertyOf(error, 'code'), propertyOf(propertyOf(error, 'cause'), 'code')];
	if (
		propertyOf(error, 'name') === 'AbortError' ||
		codes.some((code) => ABORTED_CODES.has(String(code)))
	) {
		return 'aborted';
	}
	if (codes.some((code) => NOT_SENT_CODES.has(String(code)))) return 'not-sent';
	// Anything else (resets, timeouts, unknown errors) may have reached the service.
	return 'no-answer';
}
