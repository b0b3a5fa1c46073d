import { maskPhoneNumbersInText } from '../phone/mask';

/**
 * What a refusal's message tells the builder to do, in a form a test (or a workflow reading the
 * error item) can follow as it is: `field` is a display name (e.g. 'Keys to Leave Out').
 * `set` puts a value (text or an n8n expression) in the field; `add` adds an entry to a list field.
 */
export type Advice = { field: string; set: string } | { field: string; add: string };

/** A bad input value: thrown before any request is sent. `field` is the n8n display name, e.g. 'Phone Number'. message already names the field in quotes. */
export class CallKaroInputError extends Error {
	readonly field: string;
	readonly advice?: Advice;

	constructor(field: string, message: string, advice?: Advice) {
		super(message);
		this.name = 'CallKaroInputError';
		this.field = field;
		if (advice) this.advice = advice;
	}
}

/**
 * Builds the one message shape for bad input: the field in quotes, what is wrong (with the value),
 * how to fix it. Any phone number the value holds is masked here, wherever the message quotes it.
 */
export function invalidInput(
	field: string,
	problem: string,
	fix: string,
	advice?: Advice,
): CallKaroInputError {
	return new CallKaroInputError(
		field,
		`"${field}" ${maskPhoneNumbersInText(problem)}. ${fix}.`,
		advice,
	);
}
