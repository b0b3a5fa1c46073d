import { invalidInput } from './errors';
import { requireText } from './input';
import { maskPhoneNumber } from './mask';

export { maskPhoneNumber, maskPhoneNumbersInText } from './mask';

export interface PhoneNumber {
	/** '+919876543210' */
	e164: string;
	/** '+91******3210' */
	masked: string;
}

const SEPARATORS = /[\s\-.()]/g;
const INDIA = '91';
const INDIAN_NATIONAL_LENGTH = 10;

function countryCodeDigits(value: string | undefined): string | undefined {
	const digits = value?.trim().replace(/^\+/, '');
	if (!digits) return undefined;
	if (!/^[1-9]\d{0,2}$/.test(digits)) {
		throw invalidInput(
			'Default Country Code',
			`must be 1 to 3 digits, such as 91 or +91, not "${value}"`,
			'Enter the country code without other characters',
		);
	}
	return digits;
}

/** Digits after the country code's '+', from a number written internationally or nationally. */
function internationalDigits(
	compact: string,
	countryCode: string | undefined,
	field: string,
): string {
	if (compact.startsWith('+')) return compact.slice(1);
	if (compact.startsWith('00')) return compact.slice(2);
	// Indian numbers are often written as 91 and the 10-digit number, without '+'.
	if (compact.length === 12 && compact.startsWith(INDIA)) return compact;
	const masked = maskPhoneNumber(compact);
	if (countryCode === undefined) {
		throw invalidInput(
			field,
			`has no country code: "${masked}"`,
			'Start the number with + and the country code, e.g. +919876543210, or set a default country code',
		);
	}
	const national = compact.replace(/^0/, ''); // the trunk prefix is not dialled from abroad
	if (countryCode === INDIA && national.length !== INDIAN_NATIONAL_LENGTH) {
		throw invalidInput(
			field,
			`is not a 10-digit Indian number: "${masked}"`,
			'Enter the 10-digit number, or the full number with + and the country code',
		);
	}
	return countryCode + national;
}

/** Reads a phone number as typed by a person or sent by another system, into E.164. */
export function normalizePhoneNumber(
	raw: unknown,
	options: { defaultCountryCode?: string; field?: string } = {},
): PhoneNumber {
	const field = options.field ?? 'Phone Number';
	const text = requireText(
		raw,
		field,
		'Enter a phone number with country code, e.g. +919876543210',
	);
	const compact = text.replace(SEPARATORS, '');
	if (!/^\+?\d+$/.test(compact)) {
		throw invalidInput(
			field,
			`may contain only digits, spaces, dashes, dots, brackets and a leading +, but is "${maskPhoneNumber(text)}"`,
			'Remove the other characters',
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
