import { parsePhoneNumberWithError } from '../../support/phoneOracleLibrary';
import type { CountryCode } from '../../support/phoneOracleLibrary';

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

	const xeroPhone = (type: string, area: string, number: string) => ({
		PhoneType: type,
		PhoneNumber: number,
		PhoneAreaCode: area,
		PhoneCountryCode: '44',
	});

	test("Xero's number in parts is the whole number, never its local digits alone", () => {
		expect(normalizePhoneNumber(xeroPhone('MOBILE', '07400', '123461')).e164).toBe('+447400123461');
		expect(
			normalizePhoneNumber([xeroPhone('FAX', '', ''), xeroPhone('DDI', '0113', '496 0388')]).e164,
		).toBe('+441134960388');
	});

	test("Xero's several numbers: the advice joins the first one's parts, and following it reads that number", () => {
		const phones = [
			xeroPhone('DDI', '0113', '496 0388'),
			xeroPhone('FAX', '', ''),
			xeroPhone('MOBILE', '07400', '123461'),
		];
		const error = inputErrorOf(() =>
			normalizePhoneNumber(phones, { parameter: '={{ $json.Phones }}' }),
		);
		const set =
			"{{ '+' + ($json.Phones)[0].PhoneCountryCode + ' ' + ($json.Phones)[0].PhoneAreaCode + ' ' + ($json.Phones)[0].PhoneNumber }}";
		expect(error.message).toBe(
			`"Phone Number" must be one phone number, but is a list holding 2. Map the one meant: set Phone Number to ${set}.`,
		);
		expect(error.advice).toEqual({ field: 'Phone Number', set });
		const [first] = phones;
		const followed = `+${first.PhoneCountryCode} ${first.PhoneAreaCode} ${first.PhoneNumber}`;
		expect(normalizePhoneNumber(followed).e164).toBe('+441134960388');
	});

	test.each([
		[
			'a number that holds its area code',
			{ phone: '0113 496 0388', area_code: '0113', country_code: '44' },
		],
		['a number with its +', { phone: '+44 113 496 0388', area_code: '0113' }],
	])('%s is read as it is, its parts not added again', (_case, raw) => {
		expect(normalizePhoneNumber(raw, { defaultCountryCode: 'GB' }).e164).toBe('+441134960388');
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

describe('numbers as exports, sheets, forms and chat apps write them (issue 46)', () => {
	const E164 = '+919820011112';

	test.each([
		['full-width, ＋ included', '＋９１ ９８２００ １１１１２', undefined],
		['++ before the calling code', '++91 98200 11112', undefined],
		['Devanagari digits', '+९१ ९८२०० ११११२', undefined],
		['Bengali digits', '+৯১ ৯৮২০০ ১১১১২', undefined],
		['Thai digits', '+๙๑ ๙๘๒๐๐ ๑๑๑๑๒', undefined],
		['Arabic-Indic digits', '+٩١ ٩٨٢٠٠ ١١١١٢', undefined],
		['digits of two scripts', '+91 ९८२०० 11112', undefined],
		['groups split by left-to-right marks', '+91\u200e 98200\u200e 11112', undefined],
		['a right-to-left isolate around it', '\u2067+91 98200 11112\u2069', undefined],
		['a zero-width space inside a group', '+91 982\u200b00 11112', undefined],
		['narrow no-break spaces', '+91\u202f98200\u202f11112', undefined],
		['an en dash', '+91–98200–11112', undefined],
		['tel: with phone-context', 'tel:98200-11112;phone-context=+91', undefined],
		["Twilio's WhatsApp sender", 'whatsapp:+919820011112', undefined],
		[
			'tel: with a domain as phone-context, under IN',
			'tel:98200-11112;phone-context=example.com',
			'IN',
		],
		["India's international prefix under 91", '0091 98200 11112', '91'],
		["India's international prefix under IN", '0091 98200 11112', 'IN'],
		['Devanagari Default Country Code', '98200 11112', '९१'],
	])('%s: %p (default %p) is read', (_case, raw, defaultCountryCode) => {
		expect(normalizePhoneNumber(raw, { defaultCountryCode }).e164).toBe(E164);
	});

	test('tel: with phone-context gives the same number on every read', () => {
		const reads = Array.from(
			{ length: 4 },
			() => normalizePhoneNumber('tel:98200-11112;phone-context=+91').e164,
		);
		expect(reads).toEqual([E164, E164, E164, E164]);
	});

	test.each([
		['011 under 1', '011 44 7911 123456', '1'],
		['011 under US', '011 44 7911 123456', 'US'],
		['0011 under 61', '0011 44 7911 123456', '61'],
		['0011 under AU', '0011 44 7911 123456', 'AU'],
		['0011 under +61 as a number value', '0011 44 7911 123456', 61],
	])("the Default Country's international prefix, %s", (_case, raw, defaultCountryCode) => {
		expect(normalizePhoneNumber(raw, { defaultCountryCode }).e164).toBe('+447911123456');
	});

	test.each([
		[
			'Indonesia: 62 without + is also a national number',
			'62812345678',
			'62',
			'"Phone Number" can be read as 2 different numbers: "62*****5678" is "+62*******5678" (a number in Indonesia written without +62) or "+62*****5678" (its first digits 62 being the country code). Write it with + and its country code, as it is meant: + before the digits if they start with the country code 62, else +62 before them.',
		],
		[
			'Germany: 49 without + is also a national number',
			'4915123456789',
			'49',
			'"Phone Number" can be read as 2 different numbers: "49*******6789" is "+49*********6789" (a number in Germany written without +49) or "+49*******6789" (its first digits 49 being the country code). Write it with + and its country code, as it is meant: + before the digits if they start with the country code 49, else +49 before them.',
		],
		[
			"a sheet's decimal",
			'49301234567.0',
			'49',
			'"Phone Number" ends in ".0", as a spreadsheet writes a number it holds as a decimal: it is "49*****4567" without the decimal, or "49******5670" with the 0 as a digit, two different numbers. Format the column as text in the sheet, so that it keeps the number as written, or remove the decimal: add .replace(/\\.0+$/, "") to the end of the expression.',
		],
		[
			'a (0) where the country has no trunk prefix',
			'+247 (0) 40123',
			undefined,
			'"Phone Number" can be read as 2 different numbers: "+24*******0123" is "+24**0123" (the (0) left out, as a trunk prefix) or "+24***0123" (the (0) as a digit of the number). Write it without brackets: with the 0 where it is a digit of the number, without it where it is the trunk prefix.',
		],
		[
			'two numbers in one field',
			'+91 98200 11112 / +91 98200 11113',
			undefined,
			'"Phone Number" holds 2 numbers: "+91********1112", "+91********1113". CallKaro calls one number per item. Map the one to call, or give each number an item of its own.',
		],
		[
			"a +1 number after the trunk 1 of Trinidad, also Trinidad's local number",
			'1 310-2806',
			'TT',
			'"Phone Number" can be read as 2 different numbers: "1*3***2806" is "+13**2806" (a number in Canada written without +1) or "+18*****2806" (1 being a trunk prefix in Trinidad & Tobago). Write it with + and its country code, as it is meant.',
		],
		[
			'a first group 1 alone under India: a US number as Americans write it',
			'1 800 234 5678',
			'IN',
			'"Phone Number" can be read as 2 different numbers: "1*8*******5678" is "+91*******5678" (a number in India written without +91) or "+18*****5678" (its first digit 1 being the country code of +1). Write it with + and its country code, as it is meant: + before the digits if they start with a country code, else +91 before them.',
		],
		[
			"two of a short country's numbers",
			'22158; 22159',
			'SH',
			'"Phone Number" holds 2 numbers: "***58", "***59". CallKaro calls one number per item. Map the one to call, or give each number an item of its own.',
		],
		[
			'a valid number shorter than CallKaro dials',
			'+683 4002',
			undefined,
			'"Phone Number" is shorter than the numbers CallKaro dials: "+****002" in Niue (+683) has 7 digits with its country code, and CallKaro takes 8 to 15. CallKaro cannot call it.',
		],
		[
			'a vanity number',
			'+1 415 JKL 2674',
			undefined,
			'"Phone Number" must be a phone number: digits, spaces, dashes, dots, brackets and a leading +, but is "+1*4***JKL*2674". Letters are not dialled: give the number in digits, with + and its country code.',
		],
		[
			'a letter O inside the number',
			'+91 9820O11112',
			undefined,
			'"Phone Number" must be a phone number: digits, spaces, dashes, dots, brackets and a leading +, but is "+91*****O*1112". Letters are not dialled: give the number in digits, with + and its country code.',
		],
		[
			'exponent notation',
			'9.8200111E+09',
			'IN',
			'"Phone Number" is in exponent notation, as a spreadsheet shows a long number: "9*8****11E*09". Its last digits are lost. Format the column as text in the sheet, so that it keeps the number as written.',
		],
	])('%s is refused, saying why', (_case, raw, defaultCountryCode, message) => {
		expect(inputErrorOf(() => normalizePhoneNumber(raw, { defaultCountryCode })).message).toBe(
			message,
		);
	});

	it.each([
		['1800 12 3456', '+911800123456'],
		['1800-123-4567', '+9118001234567'],
		['1860 345 1234', '+9118603451234'],
		['000 800 100 1234', '+910008001001234'],
	])("India's service number %s, as India writes it, is read", (raw, e164) => {
		expect(normalizePhoneNumber(raw, { defaultCountryCode: 'IN' }).e164).toBe(e164);
	});

	it('gives advice written from the field, quoted in the message', () => {
		const error = inputErrorOf(() =>
			normalizePhoneNumber('+91 98200 11112; +91 98200 11113', {
				parameter: '={{ $json.contact.phone }}',
			}),
		);
		expect(error.advice).toEqual({
			field: 'Phone Number',
			set: '{{ ($json.contact.phone).split(/[,;|&，；｜＆、،؛]/)[0].trim() }}',
		});
		expect(error.message).toContain(`set Phone Number to ${(error.advice as { set: string }).set}`);
		// a fixed value or text around an expression: nothing to wrap
		for (const parameter of ['+91 98200 11112; +91 98200 11113', '=+91 {{ $json.phone }}']) {
			const fixed = inputErrorOf(() =>
				normalizePhoneNumber('+91 98200 11112; +91 98200 11113', { parameter }),
			);
			expect(fixed.advice).toBeUndefined();
		}
	});

	test('the calling code without + is read once where only one reading is valid', () => {
		expect(normalizePhoneNumber('31612345678', { defaultCountryCode: '31' }).e164).toBe(
			'+31612345678',
		);
		expect(normalizePhoneNumber('4930123456', { defaultCountryCode: '49' }).e164).toBe(
			'+4930123456',
		);
	});

	test.each([
		['two numbers on two lines', '98200 11112\n98200 11113', 'IN'],
		['two numbers with commas', '98200 11112, 98200 11113', 'IN'],
		['two numbers, each with +', '+91 98200 11112 +91 98200 11113', undefined],
		['two numbers with "or"', '+91 98200 11112 or +91 98200 11113', undefined],
	])('%s: never joined, and said to be two', (_case, raw, defaultCountryCode) => {
		expect(inputErrorOf(() => normalizePhoneNumber(raw, { defaultCountryCode })).message).toMatch(
			/^"Phone Number" holds 2 numbers: "(\+91\*{8}|98\*{5})1112", "(\+91\*{8}|98\*{5})1113"\./,
		);
	});

	test.each([
		['a subaddress', 'tel:+91-98200-11112;isub=5'],
		['an extension after phone-context', 'tel:98200-11112;phone-context=+91;ext=5'],
	])('a tel: URI with %s is refused as an extension', (_case, raw) => {
		expect(inputErrorOf(() => normalizePhoneNumber(raw)).message).toContain('has an extension');
	});

	test('a tel: URI with post-dial digits is refused', () => {
		expect(
			inputErrorOf(() => normalizePhoneNumber('tel:+91-98200-11112;postd=pp22')).message,
		).toMatch(/^"Phone Number" must be a phone number/);
	});

	test.each([
		['Devanagari, one digit short', '+९१ ९८२०० ११११'],
		['Bengali, one digit long', '+৯১ ৯৮২০০ ১১১১২ ১'],
		['Thai, one digit short', '+๙๑ ๙๘๒๐๐ ๑๑๑๑'],
		['groups split by marks, one digit short', '+91\u200e 98200\u200e 1111'],
		['a letter inside', '+91 98200 1111x2 (home)'],
	])('a refused number in %s shows none of its middle digits', (_case, raw) => {
		const message = inputErrorOf(() => normalizePhoneNumber(raw)).message;
		expect(message).not.toMatch(/[९৯๙9]\s*[८৮๘8]\s*[२২๒2]/u);
		expect(message).not.toMatch(/98200|९८२००|৯৮২০০|๙๘๒๐๐/u);
	});
});
