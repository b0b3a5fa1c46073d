// @ts-check
/**
 * Webhooks the sandbox sends to the user (public docs §5): where they go (config checking),
 * what a `call_ended` event holds, and delivering one over HTTP (node:http/https only).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

import { formatIst } from './validate.mjs';

/**
 * @typedef {object} WebhookConfig
 * @property {string} url  http(s) URL the events are posted to
 * @property {Record<string, string>} headers  the agent's custom webhook headers (e.g. a shared secret)
 * @property {boolean} duplicate  deliver every event twice, the second after the first was answered
 *
 * @typedef {object} WebhookDelivery
 * @property {number} id
 * @property {string} time  ISO time the delivery started
 * @property {string} event
 * @property {string | null} callId
 * @property {string} url
 * @property {1 | 2} attempt  2 = the duplicate
 * @property {Record<string, string>} headers  custom headers sent, values masked
 * @property {Record<string, unknown>} payload
 * @property {number | null} status  HTTP status answered, null when there was no answer
 * @property {string | null} error  'timeout' or the network error, when there was no answer
 * @property {string} response  the answer's body (first 2000 characters)
 * @property {number} durationMs
 */

/** Hangup reasons of the public docs, by outcome group. */
export const HANGUP_REASON_GROUPS = Object.freeze({
	connected: Object.freeze(['CLIENT_INITIATED', 'PARTICIPANT_REMOVED', 'SESSION_TIMEOUT']),
	voicemail: Object.freeze(['VOICEMAIL_DETECTED']),
	notReached: Object.freeze([
		'USER_REJECTED',
		'USER_UNAVAILABLE',
		'USER_UNRESPONSIVE',
		'INVALID_PHONE_NUMBER',
	]),
	other: Object.freeze([
		'UNKNOWN',
		'OUTSIDE_TRIGGER_WINDOW',
		'DELETED_SCH_CALL_ALL',
		'DELETED_SCH_CALL_ONE',
		'PRE_CALL_FN_FAILED',
	]),
});
export const HANGUP_REASONS = Object.freeze(Object.values(HANGUP_REASON_GROUPS).flat());

/** The number calls come from, unless the end request names one. */
export const SANDBOX_FROM_NUMBER = '+918069000000';
/** CallKaro wants a 2xx within 5 seconds. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5000;
const DEFAULT_CONNECTED_SECONDS = 42;
const DEFAULT_TRANSCRIPT = 'Agent: Hello, this is CallKaro calling.\nUser: Hi, yes, go ahead.';
const RESPONSE_PREVIEW = 2000;
const HEADER_NAME_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * @param {unknown} v
 * @returns {v is Record<string, unknown>}
 */
function isObject(v) {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Check a webhook config ({ url, headers?, duplicate? }); unknown fields are refused.
 * @param {unknown} input
 * @param {string} where  prefix of error messages
 * @param {string[]} [extraKeys]  other keys the caller reads from the same object
 * @returns {{ ok: true, config: WebhookConfig } | { ok: false, message: string }}
 */
export function parseWebhookConfig(input, where, extraKeys = []) {
	/** @param {string} message */
	const fail = (message) => /** @type {const} */ ({ ok: false, message: `${where}${message}` });
	if (!isObject(input)) return fail(' must be an object { url, headers?, duplicate? }');
	const allowed = ['url', 'headers', 'duplicate', ...extraKeys];
	for (const key of Object.keys(input)) {
		if (!allowed.includes(key))
			return fail(`: unknown field "${key}" (allowed: ${allowed.join(', ')})`);
	}
	if (typeof input.url !== 'string') return fail('.url must be an http(s) URL');
	let url;
	try {
		url = new URL(input.url);
	} catch {
		return fail('.url must be an http(s) URL');
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:')
		return fail('.url must be an http(s) URL');
	/** @type {Record<string, string>} */
	const headers = {};
	if (input.headers !== undefined && input.headers !== null) {
		if (!isObject(input.headers))
			return fail('.headers must be an object of header name -> string value');
		for (const [name, value] of Object.entries(input.headers)) {
			if (!HEADER_NAME_RE.test(name)) return fail(`.headers: "${name}" is not a valid header name`);
			if (typeof value !== 'string' || /[\r\n]/.test(value)) {
				return fail(`.headers["${name}"] must be a string on one line`);
			}
			headers[name] = value;
		}
	}
	const duplicate = input.duplicate ?? false;
	if (typeof duplicate !== 'boolean') return fail('.duplicate must be a boolean');
	return { ok: true, config: { url: input.url, headers, duplicate } };
}

/**
 * A webhook config for display: header values masked.
 * @param {WebhookConfig} config
 */
export function maskedConfig(config) {
	return { ...config, headers: maskHeaderValues(config.headers) };
}

/** @param {Record<string, string>} headers */
export function maskHeaderValues(headers) {
	return Object.fromEntries(
		Object.entries(headers).map(([name, value]) => [
			name,
			value.length >= 8 ? `${value.slice(0, 2)}…${value.slice(-2)}` : '…',
		]),
	);
}

/**
 * @typedef {object} CallEndDetails
 * @property {string} hangupReason
 * @property {number} [durationSeconds]  default 42 for a connected reason, else 0
 * @property {string} [transcript]  default a short dialogue for a connected reason, else ''
 * @property {string} [from]  default SANDBOX_FROM_NUMBER
 * @property {number} [tryCount]  default 0 (-1 inbound, 0 first try, 1+ retries)
 * @property {string} versionId
 * @property {number} endedAtMs
 * @property {Record<string, unknown>} [extra]  fields merged over `data` (odd or missing fields in tests)
 */

/**
 * The `call_ended` event of a call, with every field of public docs §5.
 * @param {import('./engine.mjs').Call} call
 * @param {CallEndDetails} details
 */
export function callEndedPayload(call, details) {
	const connected = HANGUP_REASON_GROUPS.connected.includes(details.hangupReason);
	/** @type {Record<string, unknown>} */
	const data = {
		callSid: call.id,
		name: call.type,
		agent: call.agentId,
		versionId: details.versionId,
		from: details.from ?? SANDBOX_FROM_NUMBER,
		to: `+${call.number}`,
		batchId: call.batchId,
		recordingUrl: connected ? `https://recordings.sandbox.callkaro.invalid/${call.id}.mp3` : '',
		call_duration: details.durationSeconds ?? (connected ? DEFAULT_CONNECTED_SECONDS : 0),
		time: formatIst(details.endedAtMs).replace('T', ' '),
		transcription: details.transcript ?? (connected ? DEFAULT_TRANSCRIPT : ''),
		hangup_reason: details.hangupReason,
		call_metadata: { ...(call.options.metadata ?? {}) },
		try_count: details.tryCount ?? 0,
		post_call: {},
		post_call_detail: {},
		functions_called: [],
		disposition_reason: '',
		conversion_status: '',
		next_call_scheduled: false,
		call_link: `https://app.sandbox.callkaro.invalid/dashboard/calls/${call.id}`,
		...details.extra,
	};
	return { event: 'call_ended', data };
}

/**
 * POST one JSON payload. Never rejects: a missing answer is reported as { status: null, error }.
 * @param {WebhookConfig} config
 * @param {unknown} payload
 * @param {{ timeoutMs?: number, signal?: AbortSignal }} [options]
 * @returns {Promise<{ status: number | null, error: string | null, response: string, durationMs: number }>}
 */
export function postJson(config, payload, options = {}) {
	const started = Date.now();
	const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
	const body = JSON.stringify(payload);
	const url = new URL(config.url);
	const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
	return new Promise((resolve) => {
		let settled = false;
		/** @param {number | null} status @param {string | null} error @param {string} [response] */
		const finish = (status, error, response = '') => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			options.signal?.removeEventListener('abort', onAbort);
			resolve({
				status,
				error,
				response: response.slice(0, RESPONSE_PREVIEW),
				durationMs: Date.now() - started,
			});
		};
		const req = send(url, {
			method: 'POST',
			headers: {
				'user-agent': 'CallKaro-Sandbox-Webhook/1',
				...config.headers,
				'content-type': 'application/json',
				'content-length': Buffer.byteLength(body),
			},
		});
		const timer = setTimeout(() => {
			finish(null, `timeout: no answer within ${timeoutMs} ms`);
			req.destroy();
		}, timeoutMs);
		timer.unref();
		const onAbort = () => {
			finish(null, 'aborted: the sandbox closed');
			req.destroy();
		};
		options.signal?.addEventListener('abort', onAbort, { once: true });
		req.on('response', (res) => {
			/** @type {Buffer[]} */
			const chunks = [];
			res.on('data', (chunk) => chunks.push(chunk));
			res.on('end', () =>
				finish(res.statusCode ?? null, null, Buffer.concat(chunks).toString('utf8')),
			);
			res.on('error', (error) => finish(res.statusCode ?? null, null, String(error)));
		});
		req.on('error', (error) => finish(null, error.message));
		req.end(body);
	});
}
