import { maskPhoneNumbersInText } from '../phone/mask';

/**
 * What a refusal's message tells the builder to do, in a form a test (or a workflow reading the
 * error item) can follow as it is: `field` is a display name (e.g. 'Keys to Leave Out').
 * `set` puts a value (text or an n8n expression) in the field; `add` adds an entry to a list field.
 */
export type Advice = SetAdvice | { field: string; add: string };
export type SetAdvice = { field: string; set: string };

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

/** Text a message shows as written, never masked: a value that was read as a date, which no phone number is. */
export interface AsWritten {
	readonly asWritten: string;
}

/** A problem's text, in parts: its AsWritten parts are shown as they are, the rest is masked. */
export type Problem = string | ReadonlyArray<string | AsWritten>;

/** A problem written as a template: `problem\`is ${shown}\``, with AsWritten values kept apart. */
export function problem(
	strings: TemplateStringsArray,
	...values: ReadonlyArray<string | number | AsWritten>
): Array<string | AsWritten> {
	return strings.flatMap((text, index) => {
		const value = values[index];
		return index < values.length
			? [text, typeof value === 'number' ? String(value) : value]
			: [text];
	});
}

function maskedProblem(given: Problem): string {
	if (typeof given === 'string') return maskPhoneNumbersInText(given);
	return given
		.map((part) => (typeof part === 'string' ? maskPhoneNumbersInText(part) : part.asWritten))
		.join('');
}

/**
 * Builds the one message shape for bad input: the field in quotes, what is wrong (with the value),
 * how to fix it. Any phone number the value holds is masked here, wherever the message quotes it,
 * except in the parts given as written (a date the schedule reader read as one).
 */
export function invalidInput(
	field: string,
	problem: Problem,
	fix: string,
	advice?: Advice,
): CallKaroInputError {
	return new CallKaroInputError(field, `"${field}" ${maskedProblem(problem)}. ${fix}.`, advice);
}

/**
 * The expression inside a field written as one n8n expression (`={{ $json.phone }}` gives
 * `$json.phone`), so that advice can extend or wrap it; undefined for a fixed value or text
 * around an expression, which no advice can keep as the builder wrote it.
 */
export function expressionInside(parameter: unknown): string | undefined {
	if (typeof parameter !== 'string') return undefined;
	const inside = /^=\s*\{\{([\s\S]*)\}\}\s*$/.exec(parameter)?.[1].trim();
	return inside && !/\{\{|\}\}/.test(inside) ? inside : undefined;
}

/** A field's value as an expression advice can wrap: its own expression, or its typed text quoted. */
export function valueExpression(parameter: unknown): string | undefined {
	if (typeof parameter !== 'string') return undefined;
	const typed = !parameter.startsWith('=') && !/\{\{|\}\}/.test(parameter);
	return typed ? JSON.stringify(parameter) : expressionInside(parameter);
}

/** Advice to set a field to an expression of its own: `wrap` gets the field's expression in brackets. */
export function adviceFromField(
	field: string,
	parameter: unknown,
	wrap: (expression: string) => string,
): SetAdvice | undefined {
	const expression = expressionInside(parameter);
	return expression === undefined ? undefined : { field, set: `{{ ${wrap(`(${expression})`)} }}` };
}
