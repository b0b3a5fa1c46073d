import { invalidInput } from '../input/inputError';

/** CallKaro's API: where a credential points unless the builder chose Another Server. */
export const CALLKARO_BASE_URL = 'https://api.callkaro.ai';

/** The CallKaro API credential's fields that say where requests go. */
export interface ServerFields {
	/** 'callKaro' (the default) or 'other'. */
	environment?: unknown;
	/** The URL of Another Server. */
	serverUrl?: unknown;
	/** The Base URL of a credential saved before Server existed (now a hidden field). */
	baseUrl?: unknown;
}

/**
 * The URL a credential points at: Another Server's URL when chosen; else the Base URL a credential
 * saved before Server existed holds, so that it works as before; else CallKaro's.
 */
export function credentialBaseUrl(fields: ServerFields): unknown {
	if (fields.environment === 'other') return fields.serverUrl;
	const saved = typeof fields.baseUrl === 'string' ? fields.baseUrl.trim() : '';
	return saved === '' ? CALLKARO_BASE_URL : saved;
}

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);
const LOOPBACK_IPV4 = /^127(\.\d{1,3}){3}$/;

function parseUrl(value: unknown): URL {
	const text = typeof value === 'string' ? value.trim() : '';
	if (!URL.canParse(text)) {
		throw invalidInput('Base URL', `is not a URL: "${text}"`, `Use e.g. ${CALLKARO_BASE_URL}`);
	}
	return new URL(text);
}

/**
 * Refuses a URL to which the API key must not travel: anything but https, except plain http to
 * this machine (a local sandbox). URL parsing lower-cases the host, so http://LOCALHOST is loopback.
 */
function assertSecureOrigin(url: URL): void {
	const isLoopback = LOOPBACK_HOSTS.has(url.hostname) || LOOPBACK_IPV4.test(url.hostname);
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback)) {
		throw invalidInput(
			'Base URL',
			`must start with https:// (got ${url.origin}), because the API key travels with every request`,
			'Plain http is allowed only for a local sandbox on this machine (localhost, 127.0.0.1)',
		);
	}
}

/** Throws unless the API key may be sent to this URL (see assertSecureOrigin). */
export function assertKeyMayBeSentTo(value: unknown): void {
	assertSecureOrigin(parseUrl(value));
}

/**
 * The credential's Base URL without a trailing slash. It must be https, because the API key
 * travels in a header; plain http is allowed only to a sandbox on this machine.
 */
export function checkBaseUrl(value: unknown): string {
	const url = parseUrl(value);
	assertSecureOrigin(url);
	if (url.username || url.password || url.search || url.hash) {
		throw invalidInput(
			'Base URL',
			'contains a user name, password, query or fragment',
			'Remove it',
		);
	}
	return url.href.replace(/\/+$/, '');
}
