// The package's one door to libphonenumber-js, Google's libphonenumber in JavaScript, with its
// fullest metadata, whose number ranges (which numbers are valid) are Google's own
// (./metadata.json, made by scripts/build/libphonenumber.mjs --metadata). libphonenumber-js is a
// devDependency: `npm run build` bundles this file with the library's code and the metadata into
// dist/, read on the first number a process reads, so the published package has no dependency.
import {
	Metadata,
	ParseError,
	getCountries,
	getCountryCallingCode,
	isSupportedCountry,
	parsePhoneNumberWithError,
	validatePhoneNumberLength,
} from 'libphonenumber-js/core';
import type { CountryCode, MetadataJson } from 'libphonenumber-js/core';
import metadataJson from './metadata.json';

const METADATA = metadataJson as unknown as MetadataJson;

/** Where a number without its calling code is read: an ISO region, or only a calling code. */
export interface ReadingContext {
	region?: string;
	callingCode?: string;
}

/** libphonenumber's types of number (max metadata). */
export type NumberKind =
	| 'FIXED_LINE'
	| 'MOBILE'
	| 'FIXED_LINE_OR_MOBILE'
	| 'TOLL_FREE'
	| 'PREMIUM_RATE'
	| 'SHARED_COST'
	| 'VOIP'
	| 'PERSONAL_NUMBER'
	| 'PAGER'
	| 'UAN'
	| 'VOICEMAIL';

/** What libphonenumber read. `region` is absent for a number it cannot place in one region. */
export interface LibReading {
	e164: string;
	callingCode: string;
	nationalNumber: string;
	region?: string;
	extension?: string;
	valid: boolean;
	kind?: NumberKind;
	/** 'TOO_SHORT', 'TOO_LONG' or 'INVALID_LENGTH' where the length alone rules the number out. */
	lengthProblem?: string;
}

/** libphonenumber could not read a number at all: 'NOT_A_NUMBER', 'INVALID_COUNTRY', 'TOO_SHORT', 'TOO_LONG'. */
export interface LibRefusal {
	refused: string;
}

export interface Libphonenumber {
	/** libphonenumber's reading of the whole text as one number (RFC 3966 `tel:` URIs included). */
	read(text: string, context: ReadingContext): LibReading | LibRefusal;
	isRegion(code: string): boolean;
	/** The region's international prefixes (00, 011, 0011, 00 and a carrier's code), whole. */
	internationalPrefixOf(region: string): RegExp;
	/** The region's national (trunk) prefix, `0` or `1`; undefined where it has none. */
	nationalPrefixOf(region: string): string | undefined;
	callingCodeOf(region: string): string;
	/** The regions of a calling code, its main region first; [] for a code not in use. */
	regionsOf(callingCode: string): readonly string[];
	/** Whether the calling code is one libphonenumber knows (geographic or not). */
	isCallingCode(callingCode: string): boolean;
	regions(): readonly string[];
}

function optionsOf(context: ReadingContext) {
	return {
		defaultCountry: context.region as CountryCode | undefined,
		defaultCallingCode: context.callingCode,
	};
}

function read(text: string, context: ReadingContext): LibReading | LibRefusal {
	const options = optionsOf(context);
	try {
		const number = parsePhoneNumberWithError(text, options, METADATA);
		// with types in the metadata, isValid() is getType() !== undefined: one pass, not two
		const kind = number.getType();
		const valid = kind !== undefined;
		return {
			e164: number.number,
			callingCode: number.countryCallingCode,
			nationalNumber: number.nationalNumber,
			region: number.country,
			extension: number.ext,
			valid,
			kind,
			lengthProblem: valid ? undefined : validatePhoneNumberLength(text, options, METADATA),
		};
	} catch (error) {
		// anything else thrown would be the library's own fault: the number is refused all the same
		return { refused: error instanceof ParseError ? error.message : 'NOT_A_NUMBER' };
	}
}

const internationalPrefixes = new Map<string, RegExp>();

function numberingPlanOf(region: string) {
	const metadata = new Metadata(METADATA);
	metadata.selectNumberingPlan(region as CountryCode);
	return metadata.numberingPlan;
}

function internationalPrefixOf(region: string): RegExp {
	let prefix = internationalPrefixes.get(region);
	if (prefix === undefined) {
		prefix = new RegExp(`^(?:${numberingPlanOf(region)?.IDDPrefix() ?? '(?!)'})$`);
		internationalPrefixes.set(region, prefix);
	}
	return prefix;
}

const API: Libphonenumber = {
	read,
	internationalPrefixOf,
	nationalPrefixOf: (region) => {
		// libphonenumber-js's plan has it, but its types do not declare it
		const plan = numberingPlanOf(region) as unknown as { nationalPrefix(): string | undefined };
		return plan.nationalPrefix() || undefined;
	},
	isRegion: (code) => isSupportedCountry(code as CountryCode, METADATA),
	callingCodeOf: (region) => getCountryCallingCode(region as CountryCode, METADATA),
	regionsOf: (callingCode) => METADATA.country_calling_codes[callingCode] ?? [],
	isCallingCode: (callingCode) => callingCode in METADATA.country_calling_codes,
	regions: () => getCountries(METADATA),
};

/** libphonenumber, as the package uses it. */
export function libphonenumber(): Libphonenumber {
	return API;
}
