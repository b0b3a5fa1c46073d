import { Agent, FormData, request } from 'undici';

import { networkFailureKind, TransportError } from '../../src/client/transport';
import type { Transport, TransportRequest, TransportResponse } from '../../src/client/transport';

function formDataOf(fields: Record<string, string>): FormData {
	const form = new FormData();
	for (const [name, value] of Object.entries(fields)) form.append(name, value);
	return form;
}

function parseBody(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

function failure(error: Error): never {
	throw new TransportError(networkFailureKind(error), error.message, { cause: error });
}

/**
 * The core's transport over undici, for tests and benchmarks outside n8n: the same core that
 * runs under n8n's helper in the nodes. Redirects are not followed (undici's default).
 */
export function createUndiciTransport(options: {
	baseUrl: string;
	apiKey: string;
	connections?: number;
}): Transport {
	const dispatcher = new Agent({ connections: options.connections ?? 50 });
	return {
		async send(transportRequest: TransportRequest): Promise<TransportResponse> {
			const url = new URL(`${options.baseUrl}${transportRequest.path}`);
			for (const [name, value] of Object.entries(transportRequest.query ?? {}))
				url.searchParams.set(name, value);
			const { form, body } = transportRequest;
			const response = await request(url, {
				method: transportRequest.method,
				dispatcher,
				headers: {
					'x-api-key': options.apiKey,
					...(form ? {} : { 'content-type': 'application/json' }),
				},
				body: form ? formDataOf(form) : JSON.stringify(body ?? {}),
			}).catch(failure);
			const text = await response.body.text().catch(failure);
			return {
				status: response.statusCode,
				headers: Object.fromEntries(
					Object.entries(response.headers).map(([name, value]) => [
						name,
						Array.isArray(value) ? value.join(', ') : value,
					]),
				),
				body: parseBody(text),
			};
		},
	};
}
