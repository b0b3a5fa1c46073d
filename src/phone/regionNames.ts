import { libphonenumber } from './libphonenumber';

// libphonenumber's region for calling codes that belong to no country (+800, +882…).
const NON_GEOGRAPHIC = '001';
// Names read after "in": "in the United Arab Emirates", "in the Isle of Man".
const NAMED_WITH_THE =
	/^(United |Netherlands|Caribbean Netherlands|Philippines|Bahamas|Gambia|Maldives|Comoros|Seychelles|Isle of |Dominican Republic|Central African Republic)|(Islands|Territories)$/;

let englishNames: Intl.DisplayNames | undefined;

/** A region's English name ('Germany', 'the United Arab Emirates'), or its code without ICU data. */
export function regionName(region: string): string {
	englishNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
	const name = englishNames.of(region) ?? region;
	return NAMED_WITH_THE.test(name) ? `the ${name}` : name;
}

/**
 * Where a number is, for messages: 'Germany (+49)'; for a number of a shared calling code that
 * libphonenumber places in no region, the code and its main region: '+1 (the United States and
 * 24 other regions)'.
 */
export function placeOf(callingCode: string, region?: string): string {
	if (region !== undefined && region !== NON_GEOGRAPHIC) {
		return `${regionName(region)} (+${callingCode})`;
	}
	const regions = libphonenumber().regionsOf(callingCode);
	if (regions.length === 0 || regions[0] === NON_GEOGRAPHIC) {
		return `+${callingCode}, a calling code outside any country`;
	}
	const main = regionName(regions[0]);
	const others = regions.length - 1;
	if (others === 0) return `${main} (+${callingCode})`;
	return `+${callingCode} (${main} and ${others} other region${others === 1 ? '' : 's'})`;
}
