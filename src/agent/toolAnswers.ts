import { invalidInput } from '../input/inputError';
import type { CallKaroInputError } from '../input/inputError';
import { ALLOWED_NUMBERS } from './allowedNumbers';

/**
 * What a tool answers the AI agent's model when it sends nothing: plain English, in the words of
 * what the tool does (a tool that cancels calls never says it calls).
 */

/** '1 number', '3 numbers': every count an answer gives. */
export function countOf(value: number, noun: string): string {
	return `${value} ${value === 1 ? noun : `${noun}s`}`;
}

/**
 * The model asked for a number outside the tool's Allowed Numbers, or the list holds no number in
 * this execution (the trigger gave none): the model's to handle, never another number.
 */
export function numberNotAllowed(
	/** What the tool does to a number, after "may": 'call', 'enrol', 'cancel calls to'. */
	verb: string,
	masked: string,
	allowedCount: number,
): CallKaroInputError {
	const refused = `is not among the numbers this tool may ${verb}`;
	const cannot = `tell the person that you cannot ${verb} it; nothing was sent`;
	if (allowedCount === 0) {
		return invalidInput(
			'Phone Number',
			`${refused} ("${masked}"): its ${ALLOWED_NUMBERS} hold no number in this execution`,
			`Do not try another number: ${cannot}`,
		);
	}
	return invalidInput(
		'Phone Number',
		`${refused} (its ${ALLOWED_NUMBERS}): "${masked}"`,
		`Use only the number you were given, or ${cannot}`,
	);
}

/**
 * A number the tool reached earlier in this execution: it reaches a number once. `done` is what
 * it did to the number: 'called', 'enrolled'.
 */
export function alreadyReachedText(done: string, masked: string, pairedWith: string): string {
	return `Not ${done}: this tool has already ${done} ${masked} with ${pairedWith} in this execution, and reaches a number once`;
}

/** Max Calls per Execution is used up. */
export function limitReachedText(done: string, maxCalls: number, setting: string): string {
	return `Not ${done}: this tool has ${done} ${countOf(maxCalls, 'number')} in this execution, its ${setting}; no more are ${done} in this conversation`;
}
