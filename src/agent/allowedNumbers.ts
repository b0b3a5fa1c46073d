import { CallKaroInputError } from '../input/inputError';
import { listEntries } from '../input/input';
import { normalizePhoneNumber } from '../phone/phoneNumber';
import type { DefaultCountryCode } from '../phone/phoneNumber';

export const ALLOWED_NUMBERS = 'Allowed Numbers';

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
			if (!(error instanceof CallKaroInputError) || error.field !== ALLOWED_NUMBERS) throw error;
			const entryNamed = `"${ALLOWED_NUMBERS}" entry ${index + 1} of ${entries.length}`;
			throw new CallKaroInputError(
				ALLOWED_NUMBERS,
				error.message.replace(`"${ALLOWED_NUMBERS}"`, entryNamed),
			);
		}
	};
	return new Set(entries.map(numberOf));
}
