import { CALLING_CODES, NATIONAL_NUMBER_RULES, nationalRuleOf } from './countries';
import type { NationalNumberRule } from './countries';
import { invalidInput } from './errors';
import { describeValue, requireText, wrongTypeError } from './input';
import { unwrapValue } from './recordShapes';
import { maskPhoneNumber } from './mask';

export { maskPhoneNumber, maskPhoneNumbersInText } from './mask';

export interface PhoneNumber {
	/** '+919876543210' */
	e164: string;
	/** '+91******3210' */
	masked: string;
}

const SEPARATORS = /[\s\-.()]/g;
// '+44 (0)20 7946 0958': the trunk 0 written in brackets after the country code is not dialled.
const BRACKETED_TRUNK = /^(\s*\(?\s*(?:\+|00)[\s\-.]*\d{1,3}\s*\)?)[\s\-.]*\(\s*0\s*\)/;
const INDIA = '91';
const INDIAN_MOBILE = /^[6-9]/;
const NANP = '1';
// NANP: area code and exchange never start with 0 or 1.
const NANP_NUMBER = /^[2-9]\d{2}[2-9]\d{6}$/;
const NANP_RULE =
	'numbers there have 10 digits after +1, and neither the area code nor the next 3 digits start with 0 or 1';
const OTHER_COUNTRY_FIX = 'write a number of another country with + and its country code';

/**
 * The Default Country Code as given: undefined when the option is not set, null when it is set
 * but its expression gave nothing for this item, text or a number (91) otherwise.
 */
export type DefaultCountryCode = unknown;

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

/** 'not set', 'empty' (set, but nothing for this item), or the calling code's digits. */
function countryCodeDigits(value: DefaultCountryCode): string | 'empty' | undefined {
	if (value === null) return 'empty';
	if (value === undefined) return undefined;
	const unwrapped = unwrapValue(value).value;
	if (typeof unwrapped !== 'string' && typeof unwrapped !== 'number') {
		throw wrongTypeError(
			'Default Country Code',
			unwrapped,
			'text or a number',
			'Map the calling code, such as 91, or the ISO country code, such as IN',
		);
	}
	const text = String(unwrapped).trim();
	if (!text) return undefined;
	if (/^[a-z]{2}$/i.test(text)) {
		const code = CALLING_CODES.get(text.toUpperCase());
		if (code !== undefined) return code;
		throw invalidInput(
			'Default Country Code',
			`is not an ISO country code this node knows: "${value}"`,
			`Enter the calling code in digits, such as 49 or +49; the ISO codes known are ${[...CALLING_CODES.keys()].join(', ')}`,
		);
	}
	const digits = text.replace(/^\+/, '');
	if (!/^[1-9]\d{0,2}$/.test(digits)) {
		throw invalidInput(
			'Default Country Code',
			`must be 1 to 3 digits, such as 91 or +91, or an ISO country code such as IN, not "${value}"`,
			'Enter the country code without other characters',
		);
	}
	return digits;
}

/**
 * The national number completed with the default country code, by that country's rule: its trunk
 * prefix dropped, a leading 0 that is part of the number (Italy) kept. A calling code without a
 * rule is refused rather than guessed: whether its leading 0 is dialled from abroad is not known.
 */
function completedDigits(compact: string, countryCode: string, field: string): string {
	const rule = NATIONAL_NUMBER_RULES.get(countryCode);
	if (rule === undefined) {
		throw invalidInput(
			field,
			`has no country code: "${maskPhoneNumber(compact)}", and this node does not know how national numbers are written in the country of Default Country Code ${countryCode}`,
			'Write it with + and the country code, as it is dialled from another country',
		);
	}
	const trunk = rule.trunkPrefix;
	const hasTrunk = trunk !== undefined && compact.startsWith(trunk);
	const national = hasTrunk ? compact.slice(trunk.length) : compact;
	const digits = countryCode + national;
	checkNationalNumber(digits, maskPhoneNumber(compact), field);
	// Indians write a landline with its 0 STD code, so a bare number that is no mobile is
	// most likely another country's, such as a US (312) 345-6789.
	if (countryCode === INDIA && !hasTrunk && !INDIAN_MOBILE.test(national)) {
		throw invalidInput(
			field,
			`cannot be a number in India (+91), the Default Country Code: "${maskPhoneNumber(compact)}"`,
			`Without + or a leading 0, an Indian number is a mobile number, 10 digits starting with 6, 7, 8 or 9. Write a landline with its 0 STD code, such as 022 6600 1234, or ${OTHER_COUNTRY_FIX}, such as +1 415 555 0100`,
		);
	}
	return digits;
}

/** Refuses a number that cannot exist in a country whose national numbers this node knows. */
function checkNationalNumber(digits: string, shown: string, field: string): void {
	const ruled = nationalRuleOf(digits);
	if (ruled === undefined) return;
	const { code, national, rule } = ruled;
	const possible =
		rule.lengths.includes(national.length) &&
		rule.firstDigits.includes(national.charAt(0)) &&
		(code !== NANP || NANP_NUMBER.test(national));
	if (!possible) {
		const words = code === NANP ? NANP_RULE : ruleInWords(code, rule);
		throw invalidInput(
			field,
			`cannot be a number in ${rule.country}: "${shown}"`,
			`${words[0].toUpperCase()}${words.slice(1)}. Check the number, or ${OTHER_COUNTRY_FIX}`,
		);
	}
}

/**
 * A rule in words: 'numbers there have 9 or 10 digits after +44, without the 0, and start with 1,
 * 2, 3, 5, 7, 8 or 9'.
 */
function ruleInWords(code: string, rule: NationalNumberRule): string {
	const parts = [`numbers there have ${inWords(lengthRuns(rule.lengths))} digits after +${code}`];
	if (rule.trunkPrefix !== undefined) parts.push(`without the ${rule.trunkPrefix}`);
	if (rule.firstDigits.startsWith('0')) parts.push('a leading 0 included');
	if (rule.firstDigits !== '123456789') {
		parts.push(`and start with ${inWords([...rule.firstDigits])}`);
	}
	return parts.join(', ');
}

/** [6, 8, 9, 10] -> ['6', '8 to 10']; [9, 10] -> ['9', '10']. */
function lengthRuns(lengths: readonly number[]): string[] {
	const runs: number[][] = [];
	for (const length of lengths) {
		const run = runs[runs.length - 1];
		if (run !== undefined && length === run[run.length - 1] + 1) run.push(length);
		else runs.push([length]);
	}
	return runs.flatMap((run) =>
		run.length > 2 ? [`${run[0]} to ${run[run.length - 1]}`] : run.map(String),
	);
}

/** ['3', '6', '8', '9'] -> '3, 6, 8 or 9' */
function inWords(items: string[]): string {
	return items.length > 1
		? `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`
		: items.join('');
}

/** Digits after the country code's '+', from a number written internationally or nationally. */
function internationalDigits(
	compact: string,
	countryCode: string | 'empty' | undefined,
	field: string,
): string {
	const international = /^(?:\+|00)(\d*)$/.exec(compact)?.[1];
	// Indian numbers are often written as 91 and the 10-digit number, without '+'.
	const digits =
		international ?? (compact.length === 12 && compact.startsWith(INDIA) ? compact : undefined);
	if (digits !== undefined) {
		checkNationalNumber(digits, maskPhoneNumber(`+${digits}`), field);
		return digits;
	}
	if (countryCode === 'empty') {
		throw invalidInput(
			field,
			`has no country code: "${maskPhoneNumber(compact)}", and "Default Country Code" is empty for this item`,
			'Map a field that has the country for every item, or start the number with + and the country code',
		);
	}
	if (countryCode === undefined) {
		throw invalidInput(
			field,
			`has no country code: "${maskPhoneNumber(compact)}"`,
			'Start the number with + and the country code, e.g. +919876543210, or set a default country code',
		);
	}
	return completedDigits(compact, countryCode, field);
}

/** Reads a phone number as typed by a person or sent by another system, into E.164. */
export function normalizePhoneNumber(
	raw: unknown,
	options: { defaultCountryCode?: DefaultCountryCode; field?: string } = {},
): PhoneNumber {
	const field = options.field ?? 'Phone Number';
	const text = requireText(
		raw,
		field,
		'Enter a phone number with country code, e.g. +919876543210',
	);
	const compact = text.replace(BRACKETED_TRUNK, '$1').replace(SEPARATORS, '');
	if (!/^\+?\d+$/.test(compact)) {
		throw invalidInput(
			field,
			`must be a phone number: digits, spaces, dashes, dots, brackets and a leading +, but is ${describeValue(text)}`,
			'Give the number with + and its country code, such as +919876543210',
		);
	}
	const digits = internationalDigits(compact, countryCodeDigits(options.defaultCountryCode), field);
	const e164 = `+${digits}`;
	if (!/^[1-9]\d{7,14}$/.test(digits)) {
		throw invalidInput(
			field,
			`must have 8 to 15 digits including the country code, but is "${maskPhoneNumber(e164)}"`,
			'Check the number and its country code',
		);
	}
	return { e164, masked: maskPhoneNumber(e164) };
}
