import { assertKeyMayBeSentTo, checkBaseUrl } from '../../../src/client/baseUrl';
import { inputErrorOf } from '../helpers';

describe('checkBaseUrl', () => {
	test.each([
		['https://api.callkaro.ai', 'https://api.callkaro.ai'],
		['  https://api.callkaro.ai/  ', 'https://api.callkaro.ai'],
		['https://proxy.example.com/callkaro/', 'https://proxy.example.com/callkaro'],
		['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
		['http://127.1.2.3:4010/', 'http://127.1.2.3:4010'],
		['http://localhost:4010', 'http://localhost:4010'],
		['http://LOCALHOST:4010', 'http://localhost:4010'],
		['http://[::1]:4010', 'http://[::1]:4010'],
	])('accepts %j as %j', (value, expected) => {
		expect(checkBaseUrl(value)).toBe(expected);
	});

	test.each([
		['plain http to another host', 'http://api.callkaro.ai'],
		['a host that only starts like a loopback address', 'http://127.evil.example'],
		['a host that only starts with localhost', 'http://localhost.evil.example'],
		['another scheme', 'ftp://api.callkaro.ai'],
		['a user name in the URL', 'https://user:secret@api.callkaro.ai'],
		['a query', 'https://api.callkaro.ai?x=1'],
		['text that is no URL', 'api.callkaro.ai'],
		['nothing', undefined],
	])('refuses %s', (_, value) => {
		expect(inputErrorOf(() => checkBaseUrl(value)).message).toMatch(/^"Base URL" /);
	});
});

describe('assertKeyMayBeSentTo', () => {
	test.each([
		'https://api.callkaro.ai/call/outbound',
		'http://LOCALHOST:4010/call/outbound',
		'http://127.0.0.1:4010',
		'http://[::1]:4010',
	])('lets the key go to %s', (url) => {
		expect(() => assertKeyMayBeSentTo(url)).not.toThrow();
	});

	test.each(['http://0.0.0.0:4010', 'http://api.callkaro.ai/call/outbound', 'ftp://x.example'])(
		'says that %s must use https',
		(url) => {
			expect(inputErrorOf(() => assertKeyMayBeSentTo(url)).message).toMatch(
				/^"Base URL" must start with https:\/\/ \(got .*\), because the API key travels with every request\./,
			);
		},
	);
});
