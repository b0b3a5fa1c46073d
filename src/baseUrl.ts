import { invalidInput } from './errors';

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);
const LOOPBACK_IPV4 = /^127(\.\d{1,3}){3}$/;

/**
 * The credential's Base URL without a trailing slash. It must be https, because the API key
 * travels in a header; plain http is allowed only to a sandbox on this machine.
 */
export function checkBaseUrl(value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : '';
	const url = URL.canParse(text) ? new URL(text) : undefined;
	if (!url) {
		throw invalidInput('Base URL', `is not a URL: "${text}"`, 'Use e.g. https://api.callkaro.ai');
	}
	const isLoopback = LOOPBACK_HOSTS.has(url.hostname) || LOOPBACK_IPV4.test(url.hostname);
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback)) {
		throw invalidInput(
			'Base URL',
			`must start with https:// (got ${url.origin})`,
			'Plain http is allowed only for a local sandbox on localhost',
		);
	}
	if (url.username || url.password || url.search || url.hash) {
		throw invalidInput(
			'Base URL',
			'contains a user name, password, query or fragment',
			'Remove it',
		);
	}
	return url.href.replace(/\/+$/, '');
}
