import { parsePhoneNumberWithError } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';

import {
	defaultCountryCodeOf,
	maskPhoneNumber,
	maskPhoneNumbersInText,
	normalizePhoneNumber,
} from '../../../src/phone/phoneNumber';
import { inputErrorOf } from '../helpers';

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
		// as libphonenumber reads them (issue 38)
		['German number without its 0, default DE', '9186 92855738', 'DE', '+49918692855738'],
		['German number from a spreadsheet, default 49', 918692855738, '49', '+49918692855738'],
		['Dutch code without +, default 31', '31612345678', '31', '+31612345678'],
		['Italian code without +, default IT', '390669884857', 'IT', '+390669884857'],
		['German code without +, default 49', '4930123456', '49', '+4930123456'],
		['Belgian trunk 0 after +32', '+32 0450 00 12 34', undefined, '+32450001234'],
		['Russian trunk 8 after +7', '+7 8 (912) 345-67-89', undefined, '+79123456789'],
		["Argentina's 15 after the area code", '+54 11 15 2345 6789', undefined, '+5491123456789'],
		[
			"Italy's (0) kept: it is part of the number",
			'+39 (0)6 6988 4857',
			undefined,
			'+390669884857',
		],
		['the UK trunk 0 kept after +44', '+44 020 7946 0958', undefined, '+442079460958'],
		['Ukraine, national, default 380', '067 123 4567', '380', '+380671234567'],
		['Ukraine, national, default UA', '067 123 4567', 'UA', '+380671234567'],
		['Andorra, default AD', '312 345', 'AD', '+376312345'],
		['a tel: URI', 'tel:+1-201-555-0123', undefined, '+12015550123'],
		['00 under a region that dials 00 abroad', '0044 20 7946 0958', 'DE', '+442079460958'],
		['011 under the US, its international prefix', '011 44 20 7946 0958', 'US', '+442079460958'],
		['a toll-free number', '+1 800 234 5678', undefined, '+18002345678'],
		['a global freephone number', '+800 1234 5678', undefined, '+80012345678'],
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
		['an object without a number', { label: 'work' }, undefined, 'must be text, but is an object'],
		['letters', '91234abc56789', '91', 'must be a phone number: digits'],
		['a vanity number', '+1 800 FLOWERS', undefined, 'Letters are not dialled'],
		['a + in the middle', '91+9123456789', '91', 'must be a phone number: digits'],
		['no country code', '9123456789', undefined, 'has no country code'],
		['9-digit Indian number', '91234 4321', '91', 'cannot be a number in India (+91)'],
		['11-digit Indian number', '91234 567891', '91', 'cannot be a number in India (+91)'],
		['9 digits after +91', '+91 91234 5678', undefined, 'is not a number in use in India (+91)'],
		['11 digits after +91', '+91 91234 567890', undefined, 'is not a number in use in India (+91)'],
		['11 digits after 0091', '0091 91234 567890', undefined, 'is not a number in use in India'],
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
			'an Indian landline without its 0 STD code',
			'22 6600 1234',
			'IN',
			'cannot be a number in India (+91), the Default Country Code',
		],
		[
			'NANP area code starting with 1',
			'+1 123 456 7890',
			undefined,
			'is not a number in use in +1 (the United States and 24 other regions)',
		],
		[
			'NANP exchange starting with 0',
			'(312) 045-6789',
			'US',
			'is not a number in use in the United States (+1)',
		],
		['9 NANP digits', '+1 312 345 678', undefined, 'is too short for a number in'],
		[
			'UK with 8 digits',
			'+44 20 7946 09',
			undefined,
			'has a length that no number has in +44 (the United Kingdom and 3 other regions)',
		],
		[
			'Singapore starting with 1',
			'+65 1234 5678',
			undefined,
			'is not a number in use in Singapore (+65)',
		],
		['Australia with 10 digits', '+61 4123 456 789', undefined, 'is not a number in use in +61'],
		['UAE mobile with 7 digits', '+971 50 123 456', undefined, 'in the United Arab Emirates'],
		['a trunk 0 where Spain has none', '0612 34 56 78', 'ES', 'is too long for a number in Spain'],
		['Italy with 13 digits', '+39 06 6988 4857 123', undefined, 'is too long for a number in'],
		['Andorra with 5 digits', '+376 312 34', undefined, 'is too short for a number in Andorra'],
		[
			'Mexico with the old 1',
			'+52 1 55 1234 5678',
			undefined,
			'is too long for a number in Mexico',
		],
		['country code 0', '+0 91234 56789', undefined, 'does not start with a calling code in use'],
		['only +', '+', undefined, 'must be a phone number: digits'],
		[
			'an extension',
			'+44 20 7946 0958 ext. 123',
			undefined,
			'has an extension: "+44******0958" and an extension after it',
		],
		['an extension in a tel: URI', 'tel:+44-20-7946-0958;ext=123', undefined, 'has an extension'],
		['a premium-rate number', '+44 909 876 5432', undefined, 'is a premium-rate number'],
		['a pager', '+44 7640 123456', undefined, 'is a pager number'],
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

	test.each([
		[
			'too short for its country',
			'+376 312 34',
			'"Phone Number" is too short for a number in Andorra (+376): "+37**1234". Check for a missing digit, or write a number of another country with + and its country code.',
		],
		[
			'too long for its country',
			'+49 30 1234 5678 9012 34',
			'"Phone Number" is too long for a number in Germany (+49): "+49************1234". Check for an extra digit, or write a number of another country with + and its country code.',
		],
		[
			'a length no number has there',
			'+971 50 123 456',
			'"Phone Number" is not a number in use in the United Arab Emirates (+971): "+97*****3456". Its digits match no number range in use there. Check the digits, or write a number of another country with + and its country code.',
		],
		[
			'an extension',
			'+44 20 7946 0958 x123',
			'"Phone Number" has an extension: "+44******0958" and an extension after it. CallKaro dials the number alone and cannot dial an extension. Give the person’s direct number, or remove the extension to call the switchboard.',
		],
		[
			'a premium-rate number',
			'+44 909 876 5432',
			'"Phone Number" is a premium-rate number, charged at a premium to the caller, so CallKaro does not dial it: "+44******5432" in the United Kingdom (+44). Check the number.',
		],
		[
			'a calling code not in use',
			'+0 91234 56789',
			'"Phone Number" does not start with a calling code in use: "+09*****6789". Check the digits after + (or 00): they begin with the country code, such as 91 for India or 44 for the UK.',
		],
	])('%s: the refusal says why', (_case, raw, message) => {
		expect(inputErrorOf(() => normalizePhoneNumber(raw)).message).toBe(message);
	});

	test('an unknown ISO country code is refused, naming the two ways to give a country', () => {
		const error = inputErrorOf(() =>
			normalizePhoneNumber('9123456789', { defaultCountryCode: 'ZZ' }),
		);
		expect(error.field).toBe('Default Country Code');
		expect(error.message).toBe(
			'"Default Country Code" is not an ISO country code of any country or region: "ZZ". Enter a two-letter ISO 3166 code, such as IN or DE, or the calling code, such as 91 or +49.',
		);
	});

	test.each([
		['abc', 'must be a calling code such as 91 or +91'],
		['+0', 'is not a calling code in use'],
		['1234', 'must be a calling code such as 91 or +91'],
		['9 1', 'must be a calling code such as 91 or +91'],
		['IND', 'must be a calling code such as 91 or +91'],
		['I1', 'must be a calling code such as 91 or +91'],
		['999', 'is not a calling code in use'],
	])('rejects the default country code %p', (defaultCountryCode, problem) => {
		const error = inputErrorOf(() => normalizePhoneNumber('9123456789', { defaultCountryCode }));
		expect(error.field).toBe('Default Country Code');
		expect(error.message).toContain(`${problem}`);
		expect(error.message).toContain(`"${defaultCountryCode}"`);
	});
});

describe('where the package departs from libphonenumber, on purpose (docs/phone-numbers.md)', () => {
	const libphonenumber = (text: string, defaultCountry?: CountryCode) => {
		try {
			const number = parsePhoneNumberWithError(text, { defaultCountry });
			return number.isValid() ? number.number : `invalid, ${number.getType() ?? 'no type'}`;
		} catch (error) {
			return (error as Error).message;
		}
	};

	test('without Default Country Code, 00 counts as + (libphonenumber needs a region to read it)', () => {
		expect(libphonenumber('0044 20 7946 0958')).toBe('INVALID_COUNTRY');
		expect(normalizePhoneNumber('0044 20 7946 0958').e164).toBe('+442079460958');
	});

	test('without Default Country Code, 91 and 10 digits is an Indian number, as spreadsheets hold them', () => {
		expect(libphonenumber('919876543210')).toBe('INVALID_COUNTRY');
		expect(normalizePhoneNumber('919876543210').e164).toBe('+919876543210');
		expect(normalizePhoneNumber(919876543210, { defaultCountryCode: null }).e164).toBe(
			'+919876543210',
		);
		// a Default Country Code says otherwise: the same digits are German under DE
		expect(normalizePhoneNumber('918692855738', { defaultCountryCode: 'DE' }).e164).toBe(
			'+49918692855738',
		);
	});

	test('under India, a number without +, 91 or 0 must be a mobile: a bare landline is refused', () => {
		expect(libphonenumber('2266001234', 'IN')).toBe('+912266001234');
		expect(
			inputErrorOf(() => normalizePhoneNumber('2266001234', { defaultCountryCode: 'IN' })).message,
		).toContain('cannot be a number in India (+91), the Default Country Code');
		// with its 0 STD code, the same landline is called
		expect(normalizePhoneNumber('022 6600 1234', { defaultCountryCode: 'IN' }).e164).toBe(
			'+912266001234',
		);
	});

	test('valid numbers that reach no person are refused: premium rate, pager, voicemail', () => {
		expect(libphonenumber('+44 909 876 5432')).toBe('+449098765432');
		expect(inputErrorOf(() => normalizePhoneNumber('+44 909 876 5432')).message).toContain(
			'is a premium-rate number',
		);
	});

	test('a number with an extension is refused, not called without it', () => {
		expect(libphonenumber('+44 20 7946 0958 ext. 123')).toBe('+442079460958');
		expect(inputErrorOf(() => normalizePhoneNumber('+44 20 7946 0958 ext. 123')).message).toContain(
			'has an extension',
		);
	});
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
			'"Default Country Code" must be one country code, but is an object holding 2. Map the one meant: add .iso2 to the end of the expression.',
		);
	});

	test('an object holding one country code gives it', () => {
		const country = { name: 'India', code: 'IN' };
		expect(normalizePhoneNumber('98200 12345', { defaultCountryCode: country }).e164).toBe(
			'+919820012345',
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
		[
			'a monday.com column',
			{ id: 'phone', title: 'Phone', text: '+91 98200 12345', type: 'phone', value: null },
		],
		['phones grouped by type, one of them filled', { mobile: ['+91 98200 12345'], work: [] }],
		['an entry whose number is a number', { type: 'mobile', phoneNumber: 919820012345 }],
		[
			'Google Contacts with RAW Data on: value and canonicalForm, one number',
			[
				{
					metadata: { primary: true, source: { type: 'CONTACT', id: 'c5081826424312345678' } },
					value: '+91 98200 12345',
					canonicalForm: '+919820012345',
					type: 'mobile',
				},
			],
		],
		['a number beside its date', { number: '+91 98200 12345', updated: '2026-12-03' }],
	])('%s is read', (_case, raw) => {
		expect(normalizePhoneNumber(raw).e164).toBe('+919820012345');
	});

	test("Jotform's phone answer is read from .full, the one value that is a whole number", () => {
		const answer = { area: '98200', phone: '12345', full: '(98200) 12345' };
		expect(normalizePhoneNumber(answer, { defaultCountryCode: 'IN' }).e164).toBe('+919820012345');
	});

	test.each([
		[
			'phones grouped by type, two filled',
			{ mobile: ['+91 98200 12345'], work: ['+91 22 4000 1234'] },
			'"Phone Number" must be one phone number, but is an object holding 2. Map the one meant: add .mobile[0] to the end of the expression.',
		],
		[
			'an id beside a name',
			{ id: 98200123, name: 'Asha' },
			'"Phone Number" must be text, but is an object. Map the value inside it: add .name to the end of the expression.',
		],
		[
			'two Pipedrive phone entries',
			[
				{ label: 'work', value: '+919820012345', primary: true },
				{ label: 'home', value: '+919820012346', primary: false },
			],
			'"Phone Number" must be one phone number, but is a list holding 2. Map the one meant: add [0].value to the end of the expression.',
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
