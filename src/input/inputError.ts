import { maskPhoneNumbersInText } from '../phone/mask';

/** A bad input value: thrown before any request is sent. `field` is the n8n display name, e.g. 'Phone Number'. message already names the field in quotes. */
export class CallKaroInputError extends Error {
	readonly field: string;

	constructor(field: string, message: string) {
		super(message);
		this.name = 'CallKaroInputError';
		this.field = field;
	}
}

/**
 * Builds the one message shape for bad input: the field in quotes, what is wrong (with the value),
 * how to fix it. Any phone number the value holds is masked here, wherever the message quotes it.
 */
export function invalidInput(field: string, problem: string, fix: string): CallKaroInputError {
	return new CallKaroInputError(field, `"${field}" ${maskPhoneNumbersInText(problem)}. ${fix}.`);
}
