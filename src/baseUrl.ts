import { CallKaroInputError } from './errors';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The credential's Base URL without a trailing slash. It must be https, because the API key
 * travels in a header; plain http is allowed only to a sandbox on this machine.
 */
export function checkBaseUrl(value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : '';
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		throw new CallKaroInputError(
			'Base URL',
			`"Base URL" in the CallKaro credential is not a URL: "${text}". Use e.g. https://api.callkaro.ai`,
		);
	}
	const isLoopback = LOOPBACK_HOSTS.has(url.hostname) || url.hostname.startsWith('127.');
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback)) {
		throw new CallKaroInputError(
			'Base URL',
			`"Base URL" in the CallKaro credential must start with https:// (plain http only for localhost): "${url.origin}"`,
		);
	}
	if (url.username || url.password || url.search || url.hash) {
		throw new CallKaroInputError(
			'Base URL',
			'"Base URL" in the CallKaro credential must not contain a user name, password, query or fragment',
		);
	}
	return url.href.replace(/\/+$/, '');
}
