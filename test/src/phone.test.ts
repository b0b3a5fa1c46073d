import {
	defaultCountryCodeOf,
	maskPhoneNumber,
	maskPhoneNumbersInText,
	normalizePhoneNumber,
} from '../../src/phone/phoneNumber';
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
		['trunk (0) after +44', '+44 (0)20 7946 0958', undefined, '+442079460958'],
		['trunk (0) after +91', '+91 (0) 98765 43210', undefined, '+919876543210'],
		['trunk (0) after 0044', '0044 (0) 20-7946-0958', undefined, '+442079460958'],
		['trunk (0) after (+91)', '(+91) (0)98765 43210', undefined, '+919876543210'],
		['ISO code IN', '98765 43210', 'IN', '+919876543210'],
		['ISO code in lower case', '98765 43210', ' in ', '+919876543210'],
		['ISO code US', '(312) 345-6789', 'US', '+13123456789'],
		['ISO code GB, trunk 0', '020 7946 0958', 'GB', '+442079460958'],
		['ISO code DE, trunk 0', '030 1234567', 'DE', '+49301234567'],
		['NANP trunk 1 dropped, default 1', '1 (312) 345-6789', '1', '+13123456789'],
		['Indian landline with its 0 STD code, default 91', '022 2345 6789', '91', '+912223456789'],
		['Indian landline written with +91', '+91 22 2345 6789', undefined, '+912223456789'],
		['UAE mobile, trunk 0', '050 123 4567', 'AE', '+971501234567'],
		['Singapore', '8123 4567', 'SG', '+6581234567'],
		['Australian mobile, trunk 0', '0412 345 678', 'AU', '+61412345678'],
		[
			'a country without a national rule keeps E.164 only',
			'+380 67 123 4567',
			undefined,
			'+380671234567',
		],
		[
			'a number with + ignores a default without a rule',
			'+39 06 6988 4857',
			'380',
			'+390669884857',
		],
		['Italian landline keeps its leading 0, ISO code IT', '06 6988 4857', 'IT', '+390669884857'],
		['Italian landline keeps its leading 0, default 39', '06 6988 4857', '39', '+390669884857'],
		['Italian landline written with +39', '+39 06 6988 4857', undefined, '+390669884857'],
		['Italian mobile, default +39', '312 345 6789', '+39', '+393123456789'],
		['Spain, no trunk prefix', '612 34 56 78', 'ES', '+34612345678'],
		['Hong Kong, no trunk prefix', '5123 4567', 'HK', '+85251234567'],
		['Japan, trunk 0', '090-1234-5678', 'JP', '+819012345678'],
		['Qatar, no trunk prefix', '3312 3456', '974', '+97433123456'],
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
		['letters', '91234abc56789', '91', 'must be a phone number: digits'],
		['a + in the middle', '91+9123456789', '91', 'must be a phone number: digits'],
		['no country code', '9123456789', undefined, 'has no country code'],
		['9-digit Indian number', '91234 4321', '91', 'cannot be a number in India (+91)'],
		['11-digit Indian number', '91234 567891', '91', 'cannot be a number in India (+91)'],
		['9 digits after +91', '+91 91234 5678', undefined, 'cannot be a number in India (+91)'],
		['11 digits after +91', '+91 91234 567890', undefined, 'cannot be a number in India (+91)'],
		[
			'the trunk 0 kept after +91',
			'+91 0 91234 56789',
			undefined,
			'cannot be a number in India (+91)',
		],
		['11 digits after 0091', '0091 91234 567890', undefined, 'cannot be a number in India (+91)'],
		[
			'a US number with default 91',
			'(312) 345-6789',
			'91',
			'cannot be a number in India (+91), the Default Country Code',
		],
		[
			'a US number with default IN',
			'312-345-6789',
			'IN',
			'cannot be a number in India (+91), the Default Country Code',
		],
		[
			'NANP area code starting with 1',
			'+1 123 456 7890',
			undefined,
			'cannot be a number in the US or Canada (+1)',
		],
		[
			'NANP exchange starting with 0',
			'(312) 045-6789',
			'US',
			'cannot be a number in the US or Canada (+1)',
		],
		['9 NANP digits', '+1 312 345 678', undefined, 'cannot be a number in the US or Canada (+1)'],
		['UK with 8 digits', '+44 20 7946 09', undefined, 'cannot be a number in the UK (+44)'],
		['UK with the 0 kept', '+44 020 7946 0958', undefined, 'cannot be a number in the UK (+44)'],
		[
			'Singapore starting with 1',
			'+65 1234 5678',
			undefined,
			'cannot be a number in Singapore (+65)',
		],
		[
			'Australia with 10 digits',
			'+61 4123 456 789',
			undefined,
			'cannot be a number in Australia (+61)',
		],
		['UAE with 7 digits', '+971 4 123 456', undefined, 'cannot be a number in the UAE (+971)'],
		['a trunk 0 where Spain has none', '0612 34 56 78', 'ES', 'cannot be a number in Spain (+34)'],
		[
			'Italy with 13 digits',
			'+39 06 6988 4857 123',
			undefined,
			'cannot be a number in Italy (+39)',
		],
		['Italy with 5 digits', '+39 06 698', '39', 'cannot be a number in Italy (+39)'],
		['Japan with the 0 kept', '+81 090 1234 5678', undefined, 'cannot be a number in Japan (+81)'],
		[
			'a national number of a calling code without a rule',
			'067 123 4567',
			'380',
			'does not know how national numbers are written in the country of Default Country Code 380',
		],
		['too short', '+49 91234', undefined, 'must have 8 to 15 digits'],
		['too long', '+49 91234 56789 00000', undefined, 'must have 8 to 15 digits'],
		['country code 0', '+0 91234 56789', undefined, 'must have 8 to 15 digits'],
		['only +', '+', undefined, 'must be a phone number: digits'],
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

	test('a US number with Default Country Code 91 is refused, naming the country and the fix', () => {
		const error = inputErrorOf(() =>
			normalizePhoneNumber('(312) 345-6789', { defaultCountryCode: '91' }),
		);
		expect(error.message).toBe(
			'"Phone Number" cannot be a number in India (+91), the Default Country Code: "31****6789". Without + or a leading 0, an Indian number is a mobile number, 10 digits starting with 6, 7, 8 or 9. Write a landline with its 0 STD code, such as 022 6600 1234, or write a number of another country with + and its country code, such as +1 415 555 0100.',
		);
	});

	test('a +91 number without 10 digits is refused, however it was written', () => {
		const error = inputErrorOf(() => normalizePhoneNumber('+91 (0) 98765 4321'));
		expect(error.message).toBe(
			'"Phone Number" cannot be a number in India (+91): "+91*****4321". Numbers there have 10 digits after +91, without the 0. Check the number, or write a number of another country with + and its country code.',
		);
	});

	test('a national number of a calling code without a rule is refused, not guessed', () => {
		const error = inputErrorOf(() =>
			normalizePhoneNumber('067 123 4567', { defaultCountryCode: '+380' }),
		);
		expect(error.field).toBe('Phone Number');
		expect(error.message).toBe(
			'"Phone Number" has no country code: "06****4567", and this node does not know how national numbers are written in the country of Default Country Code 380. Write it with + and the country code, as it is dialled from another country.',
		);
	});

	test('a number of the wrong length in Italy is refused, naming its rule', () => {
		const error = inputErrorOf(() => normalizePhoneNumber('+39 06 6988 4857 123'));
		expect(error.message).toBe(
			'"Phone Number" cannot be a number in Italy (+39): "+39*********7123". Numbers there have 6 to 12 digits after +39, a leading 0 included, and start with 0, 1, 3, 4, 5, 7 or 8. Check the number, or write a number of another country with + and its country code.',
		);
	});

	test('an unknown ISO country code is refused with the codes known', () => {
		const error = inputErrorOf(() =>
			normalizePhoneNumber('9123456789', { defaultCountryCode: 'ZZ' }),
		);
		expect(error.field).toBe('Default Country Code');
		expect(error.message).toBe(
			'"Default Country Code" is not an ISO country code this node knows: "ZZ". Enter the calling code in digits, such as 49 or +49; the ISO codes known are AE, AU, BD, BH, CA, CN, DE, ES, FR, GB, HK, ID, IE, IN, IT, JP, KE, KW, LK, MY, NG, NL, NP, NZ, OM, PH, PK, QA, SA, SG, TH, US, ZA.',
		);
	});

	test.each(['abc', '+0', '1234', '9 1', 'IND', 'I1'])(
		'rejects the default country code %p',
		(defaultCountryCode) => {
			const error = inputErrorOf(() => normalizePhoneNumber('9123456789', { defaultCountryCode }));
			expect(error.field).toBe('Default Country Code');
			expect(error.message).toContain(`"${defaultCountryCode}"`);
		},
	);
});

describe('Default Country Code as a mapped field gives it', () => {
	test.each([
		['a number, as a CRM field of digits gives it', 91, '+919820012345'],
		['digits with +', '+91', '+919820012345'],
		['an ISO code', 'IN', '+919820012345'],
		["HubSpot's { value }", { value: 'IN', versions: [] }, '+919820012345'],
	])('%s', (_case, defaultCountryCode, e164) => {
		expect(normalizePhoneNumber('98200 12345', { defaultCountryCode }).e164).toBe(e164);
	});

	test('set, but empty for this item: a national number fails, naming the option', () => {
		const error = inputErrorOf(() =>
			normalizePhoneNumber('98200 12345', { defaultCountryCode: null }),
		);
		expect(error.field).toBe('Phone Number');
		expect(error.message).toBe(
			'"Phone Number" has no country code: "98****2345", and "Default Country Code" is empty for this item. Map a field that has the country for every item, or start the number with + and the country code.',
		);
	});

	test('set, but empty for this item: a number with its country code needs none', () => {
		expect(normalizePhoneNumber('+44 20 7946 0958', { defaultCountryCode: null }).e164).toBe(
			'+442079460958',
		);
	});

	test('an object names the field to map', () => {
		const error = inputErrorOf(() =>
			normalizePhoneNumber('98200 12345', { defaultCountryCode: { iso2: 'IN', dial: '91' } }),
		);
		expect(error.message).toBe(
			'"Default Country Code" must be text or a number, but is an object. Map the calling code, such as 91, or the ISO country code, such as IN.',
		);
	});

	test.each([
		['not added', {}, undefined],
		['added and empty', { defaultCountryCode: '' }, null],
		['added, expression gave nothing', { defaultCountryCode: undefined }, null],
		['a number', { defaultCountryCode: 91 }, 91],
	])('defaultCountryCodeOf: %s', (_case, options, value) => {
		expect(defaultCountryCodeOf(options)).toBe(value);
	});
});

describe('a phone number as n8n nodes wrap it', () => {
	test.each([
		["HubSpot's { value, versions }", { value: '+91 98200 12345', versions: [] }],
		[
			"Notion's phone_number property",
			{ id: 'p', type: 'phone_number', phone_number: '+91 98200 12345' },
		],
		["Meta's one-element answer", ['+919820012345']],
		['one Pipedrive phone entry', [{ label: 'mobile', value: '+919820012345', primary: true }]],
	])('%s is read', (_case, raw) => {
		expect(normalizePhoneNumber(raw).e164).toBe('+919820012345');
	});

	test.each([
		[
			"Jotform's phone answer",
			{ area: '98200', phone: '12345', full: '(98200) 12345' },
			'"Phone Number" must be text, but is an object. Map the value inside it: add .full to the end of the expression.',
		],
		[
			'two Pipedrive phone entries',
			[
				{ label: 'work', value: '+919820012345', primary: true },
				{ label: 'home', value: '+919820012346', primary: false },
			],
			'"Phone Number" must be text, but is a list. Map the value inside it: add [0].value to the end of the expression.',
		],
		[
			'a monday.com column',
			{ id: 'phone', title: 'Phone', text: '+91 98200 12345', type: 'phone', value: null },
			'"Phone Number" must be text, but is an object. Map the value inside it: add .text to the end of the expression.',
		],
	])('%s is refused, naming the field to map', (_case, raw, message) => {
		expect(inputErrorOf(() => normalizePhoneNumber(raw)).message).toBe(message);
	});
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
		// however the digits are separated
		['is "+91 98765 43210"', 'is "+91********3210"'],
		['call (022) 6600-1234 now', 'call (02********1234 now'],
		['98765.43210 or 98765-43210', '98*****3210 or 98*****3210'],
		['0091 98765 43210', '00**********3210'],
		// dates and times are no phone numbers
		[
			'2026-11-22 09:30 and 2026-11-22T09:30:45+05:30',
			'2026-11-22 09:30 and 2026-11-22T09:30:45+05:30',
		],
		['Calling Hours 09:00-21:00', 'Calling Hours 09:00-21:00'],
		['digits in groups, not a date', 'digits in groups, not a date'],
		['a phone 2026 12 05 10 30', 'a phone 20*********10*30'],
	])('%p -> %p', (text, masked) => {
		expect(maskPhoneNumbersInText(text)).toBe(masked);
	});
});
