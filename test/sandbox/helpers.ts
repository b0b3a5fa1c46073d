import { FormData, request } from 'undici';

import { DEMO_API_KEY } from './sandbox.mjs';

export interface AttributeResult {
	updated: string[];
	kept_existing: string[];
	ignored: string[];
	invalid: Array<{ key: string; reason: string }>;
}

export interface ApiBody {
	status: string;
	message: string;
	run_id?: string;
	enrollment_id?: string;
	attributes?: AttributeResult;
	call_id?: string;
	call_sid?: string;
	batch_id?: string;
	[key: string]: unknown;
}

export interface Answer {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: ApiBody;
	text: string;
}

export interface CallOptions {
	/** X-API-KEY; default the demo key; null sends no key. */
	key?: string | null;
	method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
	/** A raw body (sent as is) or FormData (multipart). Overrides `json`. */
	raw?: string | FormData;
	contentType?: string;
	headers?: Record<string, string>;
}

/** Send one request to the sandbox and read the JSON answer. */
export async function call(
	baseUrl: string,
	path: string,
	json?: unknown,
	options: CallOptions = {},
): Promise<Answer> {
	const headers: Record<string, string> = { ...options.headers };
	const key = options.key === undefined ? DEMO_API_KEY : options.key;
	if (key !== null) headers['x-api-key'] = key;
	let body: string | FormData | undefined;
	if (options.raw !== undefined) {
		body = options.raw;
		if (options.contentType) headers['content-type'] = options.contentType;
	} else if (json !== undefined) {
		body = JSON.stringify(json);
		headers['content-type'] = options.contentType ?? 'application/json';
	}
	const res = await request(`${baseUrl}${path}`, {
		method: options.method ?? 'POST',
		headers,
		body,
	});
	const text = await res.body.text();
	let parsed: ApiBody;
	try {
		parsed = JSON.parse(text) as ApiBody;
	} catch {
		parsed = { status: 'unparsed', message: text };
	}
	return { status: res.statusCode, headers: res.headers, body: parsed, text };
}

/** A different valid phone number per call, so tests do not collide. */
let counter = 0;
export function freshNumber(): string {
	counter += 1;
	return `+9190000${String(Date.now() % 100000).padStart(5, '0')}${String(counter).padStart(3, '0')}`.slice(
		0,
		16,
	);
}

export { FormData };
