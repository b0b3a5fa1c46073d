import { invalidInput } from './errors';
import { maskPhoneNumbersInText } from './mask';

const SHOWN_TEXT_LENGTH = 60;

/**
 * How a value is shown in an input error: short, and with any phone number masked, unless the
 * text is known to be a date (`masked` false), whose digits are no phone number.
 */
export function describeValue(value: unknown, masked = true): string {
	if (value === undefined || value === '') return 'empty';
	if (typeof value === 'string') {
		const shown =
			value.length > SHOWN_TEXT_LENGTH ? `${value.slice(0, SHOWN_TEXT_LENGTH)}...` : value;
		return `"${masked ? maskPhoneNumbersInText(shown) : shown}"`;
	}
	if (typeof value === 'number' || typeof value === 'boolean' || value === null)
		return String(value);
	if (Array.isArray(value)) return 'a list';
	return typeof value === 'object' ? 'an object' : typeof value;
}

/** A required text input such as an ID or a name: trimmed, never empty. */
export function requireText(value: unknown, field: string, fix: string): string {
	const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
	if (typeof text === 'string' && text.trim() !== '') return text.trim();
	const problem =
		typeof text === 'string' || text === undefined || text === null
			? 'is empty'
			: `must be text, but is ${describeValue(value)}`;
	throw invalidInput(field, problem, fix);
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
