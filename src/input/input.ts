import { invalidInput } from './inputError';
import { maskPhoneNumbersInText } from '../phone/mask';
import { likelySubField, unwrapValue } from '../records/recordShapes';

const SHOWN_TEXT_LENGTH = 60;

/**
 * How a value is shown in an input error: short, and with any phone number masked (a number as
 * well as text: 9876543210 is one); dates and times are shown as they are.
 */
export function describeValue(value: unknown): string {
	if (value === undefined || value === '') return 'empty';
	if (typeof value === 'string') {
		const shown =
			value.length > SHOWN_TEXT_LENGTH ? `${value.slice(0, SHOWN_TEXT_LENGTH)}...` : value;
		return `"${maskPhoneNumbersInText(shown)}"`;
	}
	if (typeof value === 'number') return maskPhoneNumbersInText(String(value));
	if (typeof value === 'boolean' || value === null) return String(value);
	if (Array.isArray(value)) return 'a list';
	return typeof value === 'object' ? 'an object' : typeof value;
}

/**
 * A value of the wrong type, e.g. an object where text is expected. When the object holds its
 * value in a field that stands out (`.value`, `.start`, `.full`, `.text`…), the fix names it.
 */
export function wrongTypeError(field: string, value: unknown, expected: string, fix: string) {
	const subField = likelySubField(value);
	return invalidInput(
		field,
		`must be ${expected}, but is ${describeValue(value)}`,
		subField === undefined
			? fix
			: `Map the value inside it: add ${subField} to the end of the expression`,
	);
}

/**
 * A required text input such as an ID, a name or a phone number: trimmed, never empty. A value
 * in a wrapper that holds only it (HubSpot's `{ value }`, a one-element list) is taken out.
 */
export function requireText(value: unknown, field: string, fix: string): string {
	const unwrapped = unwrapValue(value).value;
	const text =
		typeof unwrapped === 'number' && Number.isFinite(unwrapped) ? String(unwrapped) : unwrapped;
	if (typeof text === 'string' && text.trim() !== '') return text.trim();
	if (typeof text === 'string' || text === undefined || text === null) {
		throw invalidInput(field, 'is empty', fix);
	}
	throw wrongTypeError(field, unwrapped, 'text', fix);
}

/** An optional text input: trimmed, and undefined when empty. */
export function optionalText(value: unknown, field: string): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string') {
		throw invalidInput(
			field,
			`must be text, but is ${describeValue(value)}`,
			'Enter text, or remove the option',
		);
	}
	return value.trim() || undefined;
}

/** A JSON object given as an object or as JSON text; empty text and undefined mean {}. */
export function readJsonObject(value: unknown, field: string): Record<string, unknown> {
	let parsed = value === undefined ? {} : value;
	if (typeof parsed === 'string') {
		const text = parsed.trim() || '{}';
		try {
			parsed = JSON.parse(text);
		} catch {
			// The parser's own message quotes the text, which may hold phone numbers.
			throw invalidInput(
				field,
				`is not valid JSON: ${describeValue(text)}`,
				'Enter a JSON object such as {"city": "Pune"}',
			);
		}
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw invalidInput(
			field,
			`must be an object of keys and values, but is ${describeValue(parsed)}`,
			'Enter a JSON object such as {"city": "Pune"}',
		);
	}
	return parsed as Record<string, unknown>;
}

/**
 * Where a list a builder types breaks: a line (however the editor ends it), a comma, a semicolon
 * (full-width too) or a tab, as pasted from a sheet. A tel: URI's `;phone-context=` or `;ext=`
 * belongs to its number.
 */
const LIST_BREAK = /\r\n|[\r\n\u2028\u2029\t,，；]|;(?![a-z][a-z0-9-]*=)/i;

/**
 * The entries of a list setting as builders write it (Allowed Numbers, Attribute Keys to Send):
 * one per line, or separated by commas or semicolons, blanks dropped; a list an expression gives
 * is read entry by entry, and any other single value is one entry.
 */
export function listEntries(value: unknown): unknown[] {
	if (Array.isArray(value)) return value.flatMap(listEntries);
	if (value === undefined || value === null) return [];
	if (typeof value !== 'string') return [value];
	return value
		.split(LIST_BREAK)
		.map((entry) => entry.trim())
		.filter(Boolean);
}

/**
 * A count a builder sets (Max Calls per Execution, History Size): a whole number of at least
 * `min`, or its digits as an expression gives them. Anything else is refused, never read as 0
 * (which may mean no limit) or rounded.
 */
export function countSetting(value: unknown, field: string, min: number): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number === 'number' && Number.isInteger(number) && number >= min) return number;
	throw invalidInput(
		field,
		`must be a whole number of at least ${min}, but is ${describeValue(value)}`,
		'Change it in the node',
	);
}
