import { REDACTED_KEY, redactSecret } from '../../../src/client/redact';

describe('redactSecret', () => {
	const key = 'ck_dummy_key_123456';

	it('replaces the key in text, nested values and object keys, and leaves the rest', () => {
		expect(
			redactSecret(
				{ message: `bad key ${key}!`, list: [key, 7, null, true], [key]: { deep: `${key}${key}` } },
				key,
			),
		).toEqual({
			message: `bad key ${REDACTED_KEY}!`,
			list: [REDACTED_KEY, 7, null, true],
			[REDACTED_KEY]: { deep: `${REDACTED_KEY}${REDACTED_KEY}` },
		});
	});

	it('works on a text body', () => {
		expect(redactSecret(`<p>${key}</p>`, key)).toBe(`<p>${REDACTED_KEY}</p>`);
	});

	it.each(['', 'ab'])('leaves everything alone for a key as short as %j', (short) => {
		expect(redactSecret({ message: 'a b ab' }, short)).toEqual({ message: 'a b ab' });
	});
});
