// Valid numbers of every region, in the forms builders and models write them, for the property
// tests of a tool's settings: libphonenumber's own mobile example of each region that the package
// calls, with its international and national texts.
import fc from 'fast-check';
import { parsePhoneNumberWithError } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';
import mobileExamples from 'libphonenumber-js/examples.mobile.json';

import { normalizePhoneNumber } from '../../../src/phone/phoneNumber';

export interface ExampleNumber {
	region: string;
	e164: string;
	international: string;
	national: string;
}

function readsAs(text: string, defaultCountryCode?: string): string | undefined {
	try {
		return normalizePhoneNumber(text, { defaultCountryCode }).e164;
	} catch {
		return undefined;
	}
}

/** Each region's example mobile number whose every form the package reads as that number. */
export const EXAMPLE_NUMBERS: ExampleNumber[] = Object.entries(mobileExamples).flatMap(
	([region, national]) => {
		const parsed = parsePhoneNumberWithError(national, region as CountryCode);
		const number = {
			region,
			e164: parsed.number,
			international: parsed.formatInternational(),
			national: parsed.formatNational(),
		};
		const readable =
			readsAs(number.e164) === number.e164 &&
			readsAs(number.international) === number.e164 &&
			readsAs(number.national, region) === number.e164;
		return readable ? [number] : [];
	},
);

export const REGIONS = [...new Set(EXAMPLE_NUMBERS.map(({ region }) => region))];

/** One number written as a builder or a model may write it, where it reads as itself. */
export function numberForm(number: ExampleNumber, defaultCountryCode: string | undefined) {
	const separator = fc.constantFrom(' ', '-', '.', '');
	const forms = [
		fc.constant(number.e164),
		separator.map((sep) => number.international.replace(/ /g, sep)),
		fc.constant(`tel:${number.international.replace(/ /g, '-')}`),
		fc.constant(`  ${number.international}\u00a0`),
	];
	// 00 is + where no Default Country Code says otherwise; a national number needs its country.
	if (defaultCountryCode === undefined) {
		forms.push(separator.map((sep) => `00${number.international.slice(1).replace(/ /g, sep)}`));
	}
	if (defaultCountryCode === number.region) forms.push(fc.constant(number.national));
	return fc.oneof(...forms);
}

/** How builders break a list: lines (either way), commas, semicolons, tabs, blanks between. */
export const LIST_BREAKS = fc.constantFrom(
	'\n',
	'\r\n',
	',',
	';',
	', ',
	' ; ',
	'\n\n',
	'\t',
	',\n',
	';\r\n',
);
