import { CallKaroInputError, invalidInput } from '../input/inputError';
import { listEntries } from '../input/input';
import { normalizePhoneNumber } from '../phone/phoneNumber';
import type { DefaultCountryCode, PhoneNumber } from '../phone/phoneNumber';

export const ALLOWED_NUMBERS = 'Allowed Numbers';

/** The phone reading's refusal of one entry, naming the entry's place in the list. */
function entryRefusal(error: unknown, position: number, count: number): unknown {
	if (!(error instanceof CallKaroInputError) || error.field !== ALLOWED_NUMBERS) return error;
	const entryNamed = `"${ALLOWED_NUMBERS}" entry ${position} of ${count}`;
	return new CallKaroInputError(
		ALLOWED_NUMBERS,
		error.message.replace(`"${ALLOWED_NUMBERS}"`, entryNamed),
	);
}

/**
 * A tool's Allowed Numbers as builders write them (one per line, or separated by commas or
 * semicolons, in any form Phone Number accepts) as the set of numbers in E.164. An entry that is
 * no number is refused, naming its place: a list read in part would refuse the number meant.
 */
export function readAllowedNumbers(
	value: unknown,
	defaultCountryCode: DefaultCountryCode,
): Set<string> {
	const entries = listEntries(value);
	const numberOf = (entry: unknown, index: number) => {
		try {
			return normalizePhoneNumber(entry, { defaultCountryCode, field: ALLOWED_NUMBERS }).e164;
		} catch (error) {
			throw entryRefusal(error, index + 1, entries.length);
		}
	};
	return new Set(entries.map(numberOf));
}

/**
 * The model asked for a number outside the tool's Allowed Numbers, or the list holds no number in
 * this execution (the trigger gave none): the model's to handle, never another number.
 */
function numberNotAllowed(
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
 * Refuses a number outside the list, as an answer to the model (its argument, its to handle).
 * `verb` is what the tool does to a number: 'call', 'cancel calls to'.
 */
export function checkAllowed(allowed: Set<string>, phone: PhoneNumber, verb: string): void {
	if (!allowed.has(phone.e164)) throw numberNotAllowed(verb, phone.masked, allowed.size);
}
