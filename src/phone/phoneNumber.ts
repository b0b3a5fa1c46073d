import { adviceFromField, invalidInput } from '../input/inputError';
import type { Advice } from '../input/inputError';
import { describeValue, requireText, wrongTypeError } from '../input/input';
import {
	isPlainObject,
	PHONE_KEY,
	unwrapValue,
	valuesInside,
	valuesThatFit,
} from '../records/recordShapes';
import type { ValueAtPath } from '../records/recordShapes';
import { libphonenumber } from './libphonenumber';
import type { LibReading, LibRefusal, NumberKind, ReadingContext } from './libphonenumber';
import { maskPhoneNumber, maskWrittenNumber } from './mask';
import { placeOf, regionName } from './regionNames';
import {
	exponentNotation,
	hasSubaddress,
	hasLetters,
	numbersIn,
	plainCharacters,
	withoutWhatsAppChannel,
	spreadsheetDecimal,
	withPhoneContext,
} from './writtenNumber';

export { maskPhoneNumber, maskPhoneNumbersInText } from './mask';

export interface PhoneNumber {
	/** '+919876543210' */
	e164: string;
	/** '+91******3210' */
	masked: string;
}

/**
 * The Default Country Code as given: undefined when the option is not set, null when it is set
 * but its expression gave nothing for this item, text or a number (91) otherwise.
 */
export type DefaultCountryCode = unknown;

const INDIA = '91';
const NANP = '1';
// What India writes without + or 0: mobiles, and service numbers (toll-free 1800 and 000800,
// shared-cost 1860, UAN 140; premium-rate 1861, refused as premium-rate).
const WRITTEN_BARE_IN_INDIA: ReadonlyArray<NumberKind | undefined> = [
	'MOBILE',
	'FIXED_LINE_OR_MOBILE',
	'TOLL_FREE',
	'SHARED_COST',
	'UAN',
	'PREMIUM_RATE',
];
// India's calling code and a 10-digit number, without +: how spreadsheets hold Indian numbers.
const INDIAN_WITHOUT_PLUS = /^91\d{10}$/;
// Numbers that reach no person: charged at a premium to the caller, a pager, a voicemail box.
const NOT_CALLED: Partial<Record<NumberKind, string>> = {
	PREMIUM_RATE:
		'is a premium-rate number, charged at a premium to the caller, so CallKaro does not dial it',
	PAGER: 'is a pager number, which cannot take a call',
	VOICEMAIL: 'is a voicemail access number, which reaches a mailbox, not a person',
};
// CallKaro's to_number holds 8 to 15 digits with the country code (test/sandbox/README.md): a
// shorter valid number (Niue's, Tristan da Cunha's +290 8999) is refused before it is sent.
const CALLKARO_FEWEST_DIGITS = 8;
// Separators people write between digits (plainCharacters made every space and dash ASCII's).
const SEPARATORS = /[\s\-.()/[\]~]/g;
const OTHER_COUNTRY_FIX = 'write a number of another country with + and its country code';

/**
 * Options → Default Country Code as n8n gives it: absent when the option was not added; once
 * added, an empty value (an expression that found no country for this item) is null.
 */
export function defaultCountryCodeOf(options: {
	defaultCountryCode?: unknown;
}): DefaultCountryCode {
	if (!('defaultCountryCode' in options)) return undefined;
	const value = options.defaultCountryCode;
	const empty =
		value === undefined || value === null || (typeof value === 'string' && !value.trim());
	return empty ? null : value;
}

/**
 * Where national numbers are read: any ISO region or calling code libphonenumber knows; 'empty'
 * when the option is set but gave nothing for this item; undefined when it is not set.
 */
export function readingContextOf(value: DefaultCountryCode): ReadingContext | 'empty' | undefined {
	if (value === null) return 'empty';
	if (value === undefined) return undefined;
	const inner = unwrapValue(value).value;
	const unwrapped = oneValueInside(
		inner,
		'Default Country Code',
		found(valuesThatFit(inner, looksLikeCountry)),
		'country code',
	);
	if (typeof unwrapped !== 'string' && typeof unwrapped !== 'number') {
		throw wrongTypeError(
			'Default Country Code',
			unwrapped,
			'text or a number',
			'Map the calling code, such as 91, or the ISO country code, such as IN',
		);
	}
	const text = plainCharacters(String(unwrapped)).trim();
	if (!text) return undefined;
	const lib = libphonenumber();
	if (/^[a-z]{2}$/i.test(text)) {
		const region = text.toUpperCase();
		if (lib.isRegion(region)) return { region };
		throw invalidInput(
			'Default Country Code',
			`is not an ISO country code of any country or region: "${text}"`,
			'Enter a two-letter ISO 3166 code, such as IN or DE, or the calling code, such as 91 or +49',
		);
	}
	const digits = text.replace(/^(\+|00)/, '');
	if (/^[1-9]\d{0,2}$/.test(digits) && lib.isCallingCode(digits)) {
		return contextOfCallingCode(digits);
	}
	throw invalidInput(
		'Default Country Code',
		/^\d{1,3}$/.test(digits)
			? `is not a calling code in use: "${text}"`
			: `must be a calling code such as 91 or +91, or an ISO country code such as IN, not "${text}"`,
		'Enter the calling code in digits, such as 49 or +49, or the two-letter ISO code, such as DE',
	);
}

/**
 * A calling code as Default Country Code reads numbers as its main region does (91 as IN, 1 as
 * US, 44 as GB): libphonenumber reads a region's international prefix (0091, 011, 0011) only
 * under a region, and 91 and IN must read every number the same. A code of no country (+800)
 * stays a calling code.
 */
function contextOfCallingCode(callingCode: string): ReadingContext {
	const [main] = libphonenumber().regionsOf(callingCode);
	return /^[A-Z]{2}$/.test(main) ? { region: main } : { callingCode };
}

function callingCodeOf(context: ReadingContext): string {
	return context.callingCode ?? libphonenumber().callingCodeOf(context.region ?? '');
}

/**
 * Where no Default Country Code says otherwise, two ways of writing a number that libphonenumber
 * reads only with a region: `00` before the calling code, as most of the world dials abroad, and
 * India's 91 followed by 10 digits, as spreadsheets hold Indian numbers. Each is read as with `+`.
 */
function withoutRegion(text: string): string | undefined {
	const compact = text.replace(SEPARATORS, '');
	if (/^00[1-9]/.test(compact)) return text.replace(/^([^\d+]*)00/, '$1+');
	if (INDIAN_WITHOUT_PLUS.test(compact)) return `+${compact}`;
	return undefined;
}

/**
 * libphonenumber's reading of a number in plain characters: a `tel:` URI's phone-context put
 * before the number, and a run of + signs at the start read as one, as libphonenumber reads them.
 */
function readPlain(
	plain: string,
	regional: ReadingContext | undefined,
): { text: string; reading: LibReading | LibRefusal } {
	const resolved = withPhoneContext(plain);
	if (resolved === undefined) return { text: plain, reading: { refused: 'NOT_A_NUMBER' } };
	const text = resolved.replace(/^\++/, '+');
	const read = regional === undefined ? (withoutRegion(text) ?? text) : text;
	return { text, reading: libphonenumber().read(read, regional ?? {}) };
}

/** The value as a message shows it: as written, every digit but a number's first 2 and last 4 masked. */
function shownValue(written: string): string {
	return describeValue(maskWrittenNumber(written));
}

/** A number libphonenumber could not read at all, refused in the builder's words. */
function unreadable(
	refused: string,
	text: string,
	written: string,
	context: ReadingContext | 'empty' | undefined,
	field: string,
): Error {
	const compact = text.replace(SEPARATORS, '');
	// letters among digits (a vanity number, a letter O for a 0); a text of no digits is no number
	if (hasLetters(text) && /\d/.test(text)) return lettersRefusal(written, field);
	if (refused === 'INVALID_COUNTRY' && /^(\+|00)/.test(compact)) {
		return invalidInput(
			field,
			`does not start with a calling code in use: "${maskPhoneNumber(compact)}"`,
			'Check the digits after + (or 00): they begin with the country code, such as 91 for India or 44 for the UK',
		);
	}
	if (refused === 'INVALID_COUNTRY' && context === 'empty') {
		return invalidInput(
			field,
			`has no country code: "${maskPhoneNumber(compact)}", and "Default Country Code" is empty for this item`,
			'Map a field that has the country for every item, or start the number with + and the country code',
		);
	}
	if (refused === 'INVALID_COUNTRY') {
		return invalidInput(
			field,
			`has no country code: "${maskPhoneNumber(compact)}"`,
			'Start the number with + and the country code, e.g. +919876543210, or set a default country code',
		);
	}
	if (refused === 'TOO_SHORT' || refused === 'TOO_LONG') {
		return invalidInput(
			field,
			`is too ${refused === 'TOO_SHORT' ? 'short' : 'long'} to be a phone number: ${shownValue(written)}`,
			'Give the number with + and its country code, such as +919876543210',
		);
	}
	return notANumber(
		written,
		field,
		'Give the number with + and its country code, such as +919876543210',
	);
}

function notANumber(written: string, field: string, fix: string): Error {
	return invalidInput(
		field,
		`must be a phone number: digits, spaces, dashes, dots, brackets and a leading +, but is ${shownValue(written)}`,
		fix,
	);
}

function lettersRefusal(written: string, field: string): Error {
	return notANumber(
		written,
		field,
		'Letters are not dialled: give the number in digits, with + and its country code',
	);
}

/** Whether a part of a text is a valid number by itself (without an extension) where the whole is read. */
function isOneNumber(part: string, regional: ReadingContext | undefined): boolean {
	const { reading } = readPlain(part, regional);
	return 'valid' in reading && reading.valid && reading.extension === undefined;
}

/**
 * Several numbers in one field, with any separator: never joined, never one of them picked, and
 * never taken for a number and its extension. The advice picks the first, from the field's own
 * expression.
 */
function severalNumbersRefusal(
	text: string,
	regional: ReadingContext | undefined,
	refusing: Refusing,
): Error | undefined {
	const several = numbersIn(text, (part) => isOneNumber(part, regional));
	if (several === undefined) return undefined;
	const shown = several.numbers.map(maskWrittenNumber);
	const { field, parameter } = refusing;
	const advice = adviceFromField(
		field,
		parameter,
		(expression) => `${expression}.split(${several.splitter})[0].trim()`,
	);
	return invalidInput(
		field,
		`holds ${shown.length} numbers: "${shown.join('", "')}"`,
		`CallKaro calls one number per item. Map the one to call${advice ? `, such as the first: set ${field} to ${advice.set}` : ''}, or give each number an item of its own`,
		advice,
	);
}

/** A number libphonenumber read but that is not called: why, in the builder's words. */
function refusalOf(
	reading: LibReading,
	text: string,
	written: string,
	field: string,
): Error | undefined {
	const shown = `"${maskPhoneNumber(reading.e164)}"`;
	const place = () => placeOf(reading.callingCode, reading.region);
	if (reading.extension !== undefined || hasSubaddress(text)) {
		return invalidInput(
			field,
			`has an extension: ${shown} and an extension after it`,
			'CallKaro dials the number alone and cannot dial an extension. Give the person’s direct number, or remove the extension to call the switchboard',
		);
	}
	if (hasLetters(text)) return lettersRefusal(written, field);
	if (!reading.valid) {
		const problem = {
			TOO_SHORT: ['is too short for a number in', 'Check for a missing digit'],
			TOO_LONG: ['is too long for a number in', 'Check for an extra digit'],
			INVALID_LENGTH: ['has a length that no number has in', 'Check the digits'],
		}[reading.lengthProblem ?? ''] ?? [
			'is not a number in use in',
			'Its digits match no number range in use there. Check the digits',
		];
		return invalidInput(
			field,
			`${problem[0]} ${place()}: ${shown}`,
			`${problem[1]}, or ${OTHER_COUNTRY_FIX}`,
		);
	}
	const notCalled = reading.kind === undefined ? undefined : NOT_CALLED[reading.kind];
	if (notCalled !== undefined) {
		return invalidInput(field, `${notCalled}: ${shown} in ${place()}`, 'Check the number');
	}
	const digits = reading.e164.length - 1;
	if (digits < CALLKARO_FEWEST_DIGITS) {
		return invalidInput(
			field,
			`is shorter than the numbers CallKaro dials: ${shown} in ${place()} has ${digits} digits with its country code, and CallKaro takes ${CALLKARO_FEWEST_DIGITS} to 15`,
			'CallKaro cannot call it',
		);
	}
	return undefined;
}

/**
 * A number as a sheet holds it, refused: a decimal (`49301234567.0`, which libphonenumber reads
 * with a last 0), a number value with a fraction, and exponent notation (its last digits lost).
 */
function spreadsheetRefusal(plain: string, value: unknown, written: string, refusing: Refusing) {
	const { field } = refusing;
	const decimal = spreadsheetDecimal(plain);
	const fix = 'Format the column as text in the sheet, so that it keeps the number as written';
	if (decimal !== undefined) {
		const advice = adviceFromField(
			field,
			refusing.parameter,
			(expression) => `String${expression}.replace(/\\.0+$/, "")`,
		);
		const without = maskPhoneNumber(decimal.digits);
		const withFraction = maskPhoneNumber(`${decimal.digits}${decimal.fraction}`);
		const one = decimal.fraction.length === 1;
		return invalidInput(
			field,
			`ends in ${one ? '".0"' : `"." and ${decimal.fraction.length} zeros`}, as a spreadsheet writes a number it holds as a decimal: it is "${without}" without the decimal, or "${withFraction}" with ${one ? 'the 0 as a digit' : 'the zeros as digits'}, two different numbers`,
			`${fix}, or remove the decimal: ${advice ? `set ${field} to ${advice.set}` : 'add .replace(/\\.0+$/, "") to the end of the expression'}`,
			advice,
		);
	}
	if (exponentNotation(plain)) {
		return invalidInput(
			field,
			`is in exponent notation, as a spreadsheet shows a long number: ${shownValue(written)}. Its last digits are lost`,
			fix,
		);
	}
	if (typeof value === 'number' && !Number.isInteger(value)) {
		return invalidInput(field, `is a number with a fraction: ${shownValue(written)}`, fix);
	}
	return undefined;
}

type Readings = Array<[international: string, how: string]>;

/** Who refuses: the field's display name, and the field as the builder wrote it (for advice). */
interface Refusing {
	field: string;
	parameter?: unknown;
}

/**
 * A number written without + under a Default Country Code, read every way libphonenumber could:
 * as a national number; as starting with the country's calling code (libphonenumber takes this
 * one only where the national reading is not valid); after each of the country's international
 * prefixes it starts with (a prefix with a carrier's optional digits can end in two places); after
 * a trunk prefix, the country's or else a 0 (`1 310-2806` in Trinidad is its local 310-2806, and
 * Canada's +1 310 2806; Gabon's `02 00 01 71` is +241 02000171 and +241 2000171); outside +1, a
 * first group `1` alone as +1 (`1 800 123 4567`).
 */
function readingsWithoutPlus(text: string, context: ReadingContext): Readings {
	const digits = digitsOf(text);
	const callingCode = callingCodeOf(context);
	const country = context.region === undefined ? `+${callingCode}` : regionName(context.region);
	// where the calling code is shared, the region the digits belong to (+1 310 2806 is Canada's)
	const withCode = libphonenumber().read(`+${callingCode}${digits}`, {});
	const place = 'region' in withCode && withCode.region ? regionName(withCode.region) : country;
	const readings: Readings = [
		[`+${callingCode}${digits}`, `a number in ${place} written without +${callingCode}`],
	];
	if (digits.startsWith(callingCode)) {
		readings.push([`+${digits}`, `its first digits ${callingCode} being the country code`]);
	}
	const prefix = context.region && libphonenumber().internationalPrefixOf(context.region);
	let afterPrefix = false;
	for (let end = 1; prefix && end < digits.length; end++) {
		if (!prefix.test(digits.slice(0, end))) continue;
		afterPrefix = true;
		if (digits[end] !== '0') {
			readings.push([`+${digits.slice(end)}`, "after the country's international prefix"]);
		}
	}
	// a country without a trunk prefix may still write its numbers with a 0 that was one (Gabon)
	const trunk = context.region && (libphonenumber().nationalPrefixOf(context.region) ?? '0');
	if (trunk && !afterPrefix && digits.startsWith(trunk)) {
		const rest = libphonenumber().read(digits.slice(trunk.length), context);
		if ('e164' in rest) readings.push([rest.e164, `${trunk} being a trunk prefix in ${country}`]);
	}
	if (callingCode !== NANP && /^1[\s\-.(]/.test(text.trim())) {
		readings.push([`+${digits}`, 'its first digit 1 being the country code of +1']);
	}
	return readings;
}

/**
 * A number written with + and a (0) after its calling code: the trunk prefix people write in
 * brackets, left out; where the country has no trunk prefix, libphonenumber reads the 0 as a digit.
 */
function readingsOfBracketedZero(text: string, reading: LibReading): Readings {
	const compact = text.replace(/[^\d+()]/g, '');
	const start = `+${reading.callingCode}(0)`;
	if (!compact.startsWith(start)) return [];
	const rest = digitsOf(compact.slice(start.length));
	return [
		[`+${reading.callingCode}${rest}`, 'the (0) left out, as a trunk prefix'],
		[`+${reading.callingCode}0${rest}`, 'the (0) as a digit of the number'],
	];
}

/**
 * Where both rewrites give one of the readings, the words that say which is which: `+` before the
 * digits that start with their country code, else what the national reading puts before them.
 */
function bothRewrites(
	readings: Map<string, string>,
	reading: LibReading,
	digits: string,
	callingCode: string,
): string {
	const before = nationalBefore(reading, digits);
	if (!readings.has(`+${digits}`) || before === undefined) return '';
	const code = digits.startsWith(callingCode)
		? `the country code ${callingCode}`
		: 'a country code';
	return `: + before the digits if they start with ${code}, else ${before} before them`;
}

/** What libphonenumber's national reading puts before the digits: +49, or +1868 in Trinidad. */
function nationalBefore(reading: LibReading, digits: string): string | undefined {
	const national = reading.e164.endsWith(digits) && reading.e164 !== `+${digits}`;
	return national ? reading.e164.slice(0, -digits.length) : undefined;
}

/**
 * The advice for a value of two readings without +, with the words that say when to follow it:
 * the field with + before it where its digits starting with their country code is a reading;
 * else with what libphonenumber's national reading puts before the digits (+49, or +1868 before
 * a 7-digit number of Trinidad).
 */
function withPlusAdvice(
	readings: Map<string, string>,
	reading: LibReading,
	digits: string,
	refusing: Refusing,
): { advice: Advice; words: string } | undefined {
	const startsWithCode = readings.has(`+${digits}`);
	const before = startsWithCode ? '+' : nationalBefore(reading, digits);
	if (before === undefined) return undefined;
	const advice = adviceFromField(
		refusing.field,
		refusing.parameter,
		(expression) => `'${before}' + ${expression}`,
	);
	const when = startsWithCode
		? 'Where the values start with their country code'
		: 'Where no value starts with its country code';
	return advice && { advice, words: `. ${when}, set ${refusing.field} to ${advice.set}` };
}

/** Two different valid readings of one value cannot tell which person was meant: refused. */
function ambiguityRefusal(
	reading: LibReading,
	text: string,
	written: string,
	context: ReadingContext | undefined,
	refusing: Refusing,
): Error | undefined {
	const withPlus = text.includes('+');
	if (!withPlus && context === undefined) return undefined;
	const candidates = withPlus
		? readingsOfBracketedZero(text, reading)
		: readingsWithoutPlus(text, context ?? {});
	const readings = new Map<string, string>();
	for (const [international, how] of candidates) {
		const one = libphonenumber().read(international, {});
		if ('e164' in one && one.valid && !readings.has(one.e164)) readings.set(one.e164, how);
	}
	if (!readings.has(reading.e164)) readings.set(reading.e164, 'as libphonenumber reads it');
	if (readings.size < 2) return undefined;
	const shown = [...readings].map(([e164, how]) => `"${maskPhoneNumber(e164)}" (${how})`);
	const callingCode = context === undefined ? reading.callingCode : callingCodeOf(context);
	const withPlusFix = withPlus
		? undefined
		: withPlusAdvice(readings, reading, digitsOf(text), refusing);
	return invalidInput(
		refusing.field,
		`can be read as ${readings.size} different numbers: ${shownValue(written)} is ${shown.join(' or ')}`,
		withPlus
			? 'Write it without brackets: with the 0 where it is a digit of the number, without it where it is the trunk prefix'
			: `Write it with + and its country code, as it is meant${bothRewrites(readings, reading, digitsOf(text), callingCode)}${withPlusFix?.words ?? ''}`,
		withPlusFix?.advice,
	);
}

/**
 * India's departure from libphonenumber: a number written without + or 0 under India is a mobile
 * or a service number (1800, 1860). Indians write a landline with its 0 STD code, so a bare 10
 * digits that are neither are most likely another country's, such as a US (312) 345-6789.
 */
function indianBareNumberRefusal(
	reading: LibReading,
	text: string,
	context: ReadingContext,
	field: string,
): Error | undefined {
	const bare = text.replace(SEPARATORS, '') === reading.nationalNumber;
	const writtenBare = WRITTEN_BARE_IN_INDIA.includes(reading.kind);
	if (callingCodeOf(context) !== INDIA || !bare || writtenBare) return undefined;
	return invalidInput(
		field,
		`cannot be a number in India (+91), the Default Country Code: "${maskPhoneNumber(reading.nationalNumber)}"`,
		`Without + or a leading 0, an Indian number is a mobile number, 10 digits starting with 6, 7, 8 or 9. Write a landline with its 0 STD code, such as 022 6600 1234, or ${OTHER_COUNTRY_FIX}, such as +1 415 555 0100`,
	);
}

/** Text with only a number's characters and 7 to 15 digits: '+91 98200-12345', 'tel:+4930…'. */
function looksLikePhone({ path, value }: ValueAtPath): boolean {
	// A bare number is a phone number only under a key that says so; else it is an id or a count.
	if (typeof value === 'number') return PHONE_KEY.test(path);
	if (typeof value !== 'string') return false;
	const text = withoutWhatsAppChannel(plainCharacters(value)).trim().replace(/^tel:/i, '');
	const digits = digitsOf(text).length;
	// A date ('2026-12-03', '03/12/2026') has a number's characters too.
	if (/^\d{4}-\d{2}-\d{2}|^\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}$/.test(text)) return false;
	return /^\+?[\d\s().\-/]+$/.test(text) && digits >= 7 && digits <= 15;
}

function looksLikeCountry({ value }: ValueAtPath): boolean {
	if (typeof value === 'number') return Number.isInteger(value) && value > 0 && value < 1000;
	return typeof value === 'string' && /^([a-z]{2}|\+?\d{1,3})$/i.test(value.trim());
}

function digitsOf(value: unknown): string {
	return plainCharacters(String(value)).replace(/\D/g, '');
}

/** A value found inside an object or list, and how to reach it from the field's expression. */
interface FoundValue extends ValueAtPath {
	reach: (expression: string) => string;
}

function found(values: ValueAtPath[]): FoundValue[] {
	return values.map((entry) => ({ ...entry, reach: (expression) => `${expression}${entry.path}` }));
}

const AREA_CODE_KEY = /area[-_ ]?code/i;
const COUNTRY_CODE_KEY = /(country|calling|dial(l)?ing)[-_ ]?code/i;

/**
 * The phone numbers inside a value, a number given in parts (Xero's PhoneCountryCode,
 * PhoneAreaCode and PhoneNumber) joined into one: its local digits alone are no number. A
 * number that already holds its area code or a + is read as it is.
 */
function phoneNumbersInside(value: unknown): FoundValue[] {
	const inParts = new Map<string, FoundValue | undefined>();
	for (const { path, value: entry } of objectsInside(value)) {
		const keys = Object.keys(entry);
		const numberKey = keys.find((key) => PHONE_KEY.test(key) && isDigitsText(entry[key]));
		const areaKey = keys.find((key) => AREA_CODE_KEY.test(key) && isDigitsText(entry[key]));
		const countryKey = keys.find((key) => COUNTRY_CODE_KEY.test(key) && isDigitsText(entry[key]));
		// Only a number that holds neither its country code (+) nor its area code is in parts.
		if (numberKey === undefined || areaKey === undefined) continue;
		const significant = (part: unknown) => digitsOf(part).replace(/^0+/, '');
		if (/\+/.test(String(entry[numberKey]))) continue;
		if (significant(entry[numberKey]).startsWith(significant(entry[areaKey]))) continue;
		const parts = [countryKey, areaKey, numberKey].filter((key) => key !== undefined);
		const text = parts.map((key) => String(entry[key])).join(' ');
		const joined = countryKey === undefined ? text : `+${text}`;
		const plus = countryKey === undefined ? '' : "'+' + ";
		inParts.set(
			path,
			looksLikePhone({ path: `${path}.${numberKey}`, value: joined })
				? {
						path,
						value: joined,
						reach: (expression) =>
							`${plus}${parts.map((key) => `${expression}${path}.${key}`).join(" + ' ' + ")}`,
					}
				: undefined,
		);
	}
	// In the order the value holds them, a number in parts where its first part stands.
	const numbers: FoundValue[] = [];
	const emitted = new Set<string>();
	for (const scalar of valuesInside(value)) {
		const owner = [...inParts.keys()].find((path) => scalar.path.startsWith(`${path}.`));
		if (owner === undefined) {
			if (looksLikePhone(scalar)) numbers.push(...found([scalar]));
			continue;
		}
		const joined = inParts.get(owner);
		if (joined !== undefined && !emitted.has(owner)) numbers.push(joined);
		emitted.add(owner);
	}
	return numbers;
}

function isDigitsText(value: unknown): boolean {
	return (typeof value === 'string' || typeof value === 'number') && /\d/.test(String(value));
}

/** Every plain object a value is or holds, with its path. */
function objectsInside(
	value: unknown,
	path = '',
): Array<{ path: string; value: Record<string, unknown> }> {
	const entries: Array<[string, unknown]> = Array.isArray(value)
		? value.map((entry, index) => [`${path}[${index}]`, entry])
		: isPlainObject(value)
			? Object.entries(value).map(([key, entry]) => [`${path}.${key}`, entry])
			: [];
	return [
		...(isPlainObject(value) ? [{ path, value }] : []),
		...entries.flatMap(([inner, entry]) => objectsInside(entry, inner)),
	];
}

/**
 * The one value an object or list holds that fits the field: a contact's phones grouped by type
 * with one number (`{ mobile: ['…'], work: [] }`). Several are refused, naming the first to map.
 */
function oneValueInside(
	value: unknown,
	field: string,
	fitting: FoundValue[],
	what: string,
	parameter?: unknown,
): unknown {
	// One number written twice (Google's value and canonicalForm) is one number.
	const distinct = fitting.filter(
		(entry, index, all) =>
			all.findIndex((other) => digitsOf(other.value) === digitsOf(entry.value)) === index,
	);
	if (distinct.length === 1) return distinct[0].value;
	if (distinct.length === 0) return value;
	const [first] = distinct;
	const advice = adviceFromField(field, parameter, first.reach);
	throw invalidInput(
		field,
		`must be one ${what}, but is ${describeValue(value)} holding ${distinct.length}`,
		advice
			? `Map the one meant: set ${field} to ${advice.set}`
			: `Map the one meant: add ${first.path} to the end of the expression`,
		advice,
	);
}

/**
 * Reads a phone number as typed by a person or sent by another system, into E.164, as
 * libphonenumber reads it (docs/phone-numbers.md lists where the package departs from it). A
 * number is sent only when libphonenumber calls it valid and it has one reading; every other
 * number is an error naming why, with the number masked.
 */
export function normalizePhoneNumber(
	raw: unknown,
	options: {
		defaultCountryCode?: DefaultCountryCode;
		field?: string;
		/** The field as the builder wrote it (n8n's parameter, `={{ $json.phone }}`), for advice. */
		parameter?: unknown;
	} = {},
): PhoneNumber {
	const field = options.field ?? 'Phone Number';
	const refusing: Refusing = { field, parameter: options.parameter };
	const inner = unwrapValue(raw).value;
	const value = oneValueInside(
		inner,
		field,
		phoneNumbersInside(inner),
		'phone number',
		options.parameter,
	);
	const written = requireText(
		value,
		field,
		'Enter a phone number with country code, e.g. +919876543210',
	);
	const plain = withoutWhatsAppChannel(plainCharacters(written));
	const context = readingContextOf(options.defaultCountryCode);
	const regional = typeof context === 'object' ? context : undefined;
	const spreadsheet = spreadsheetRefusal(plain, unwrapValue(value).value, written, refusing);
	if (spreadsheet) throw spreadsheet;
	const { text, reading } = readPlain(plain, regional);
	const oneNumber =
		'valid' in reading && reading.valid && reading.extension === undefined && !hasSubaddress(text);
	const several = oneNumber ? undefined : severalNumbersRefusal(text, regional, refusing);
	if (several) throw several;
	if ('refused' in reading) throw unreadable(reading.refused, text, written, context, field);
	const refusal =
		(regional && indianBareNumberRefusal(reading, text, regional, field)) ||
		refusalOf(reading, text, written, field) ||
		ambiguityRefusal(reading, text, written, regional, refusing);
	if (refusal) throw refusal;
	return { e164: reading.e164, masked: maskPhoneNumber(reading.e164) };
}
