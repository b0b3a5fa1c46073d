import type { Transport, TransportRequest } from './transport';

/** Thrown by the preview transport in place of sending: carries the request exactly as built. */
export class RequestNotSent extends Error {
	readonly request: TransportRequest;

	constructor(request: TransportRequest) {
		super('Preview only: the request was not sent');
		this.name = 'RequestNotSent';
		this.request = request;
	}
}

/**
 * A transport that sends nothing. The client builds every request as it would for the service
 * and hands it here; the error carries it back out, before any retry or answer handling.
 */
export const previewTransport: Transport = {
	async send(request) {
		throw new RequestNotSent(request);
	},
};

/** What a preview shows of a request: method, path with its query, and the JSON body (or form fields). */
export function describeRequest(request: TransportRequest): Record<string, unknown> {
	const query = request.query ? `?${new URLSearchParams(request.query).toString()}` : '';
	return {
		method: request.method,
		path: `${request.path}${query}`,
		...(request.form ? { form: request.form } : { body: request.body ?? null }),
	};
}
