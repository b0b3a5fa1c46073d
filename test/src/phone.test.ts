import { maskPhoneNumber, maskPhoneNumbersInText, normalizePhoneNumber } from '../../src/phone';
import { inputErrorOf } from './helpers';

describe('normalizePhoneNumber', () => {
	test.each([
		['spaces', '+91 91234 56789', undefined, '+919123456789'],
		['dashes', '+91-91234-56789', undefined, '+919123456789'],
		['dots', '+91.91234.56789', undefined, '+919123456789'],
		['brackets', '(+91) 91234 56789', undefined, '+919123456789'],
		['surrounding whitespace', '  +919123456789 ', undefined, '+919123456789'],
		['00 international prefix', '0091 91234 56789', undefined, '+919123456789'],
		['91 and 10 digits without +', '919123456789', undefined, '+919123456789'],
		['a number value', 919123456789, undefined, '+919123456789'],
		['US number with +', '+1 (415) 555-2671', undefined, '+14155552671'],
		['UK number with +', '+44 20 7946 0958', undefined, '+442079460958'],
		['national number, default 91', '91234 56789', '91', '+919123456789'],
		['national number, default +91', '9123456789', '+91', '+919123456789'],
		['trunk 0, default 91', '091234-56789', '91', '+919123456789'],
		['91 prefix, default 91', '91 91234 56789', '91', '+919123456789'],
		['international number ignores the default', '+1 415 555 2671', '91', '+14155552671'],
		['national number, default 1', '(415) 555-2671', '1', '+14155552671'],
		['trunk 0, default 44', '020 7946 0958', '44', '+442079460958'],
		['blank default is no default', '+919123456789', ' ', '+919123456789'],
	])('%s: %p (default %p) -> %s', (_case, raw, defaultCountryCode, e164) => {
		expect(normalizePhoneNumber(raw, { defaultCountryCode })).toEqual({
			e164,
			masked: maskPhoneNumber(e164),
		});
	});

	test.each([
		['empty', '', undefined, 'is empty'],
		['blank', '   ', undefined, 'is empty'],
		['missing', undefined, undefined, 'is empty'],
		['an object', { number: '+919123456789' }, undefined, 'must be text, but is an object'],
		['letters', '91234abc56789', '91', 'may contain only digits'],
		['a + in the middle', '91+9123456789', '91', 'may contain only digits'],
		['no country code', '9123456789', undefined, 'has no country code'],
		['9-digit Indian number', '91234 4321', '91', 'is not a 10-digit Indian number'],
		['11-digit Indian number', '91234 567891', '91', 'is not a 10-digit Indian number'],
		['too short', '+91 91234', undefined, 'must have 8 to 15 digits'],
		['too long', '+91 91234 56789 00000', undefined, 'must have 8 to 15 digits'],
		['country code 0', '+0 91234 56789', undefined, 'must have 8 to 15 digits'],
		['only +', '+', undefined, 'may contain only digits'],
	])('rejects %s', (_case, raw, defaultCountryCode, problem) => {
		const error = inputErrorOf(() => normalizePhoneNumber(raw, { defaultCountryCode }));
		expect(error.field).toBe('Phone Number');
		expect(error.message).toMatch(/^"Phone Number" /);
		expect(error.message).toContain(problem);
		// The middle digits of the number given never appear.
		expect(error.message).not.toContain('2345');
	});

	test('names the field it was given, with the value masked', () => {
		const error = inputErrorOf(() =>
			normalizePhoneNumber('9123456789', { field: 'Caller Number' }),
		);
		expect(error.field).toBe('Caller Number');
		expect(error.message).toBe(
			'"Caller Number" has no country code: "91****6789". Start the number with + and the country code, e.g. +919876543210, or set a default country code.',
		);
	});

	test.each(['abc', '+0', '1234', '9 1'])(
		'rejects the default country code %p',
		(defaultCountryCode) => {
			const error = inputErrorOf(() => normalizePhoneNumber('9123456789', { defaultCountryCode }));
			expect(error.field).toBe('Default Country Code');
			expect(error.message).toContain(`"${defaultCountryCode}"`);
		},
	);
});

describe('maskPhoneNumber', () => {
	test.each([
		['+919876543210', '+91******3210'],
		['919876543210', '91******3210'],
		['+14155552671', '+14*****2671'],
		['+91 98765 43210', '+91********3210'],
		['12345', '***45'],
		['', ''],
	])('%p -> %p', (value, masked) => {
		expect(maskPhoneNumber(value)).toBe(masked);
	});
});

describe('maskPhoneNumbersInText', () => {
	test.each([
		['Number +919876543210 is on the DND list', 'Number +91******3210 is on the DND list'],
		['919876543210 and 14155552671', '91******3210 and 14*****2671'],
		['Order 1234567 is fine', 'Order 1234567 is fine'],
		[
			'a time is not a number: 2026-11-22T09:30:45.123456789012Z',
			'a time is not a number: 2026-11-22T09:30:45.123456789012Z',
		],
		['1+919876543210', '1+91******3210'],
		['no digits', 'no digits'],
	])('%p -> %p', (text, masked) => {
		expect(maskPhoneNumbersInText(text)).toBe(masked);
	});
});
