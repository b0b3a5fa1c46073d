// libphonenumber-js over the metadata the package bundles (src/phone/metadata.json: its reading
// rules, with Google's number ranges), for the tests that compare the package with it.
import {
	ParseError,
	getCountries as countries,
	getCountryCallingCode as callingCodeOfRegion,
	getExampleNumber as exampleOf,
	parsePhoneNumberWithError as parse,
	validatePhoneNumberLength as lengthOf,
} from 'libphonenumber-js/core';
import type {
	CountryCode,
	Examples,
	MetadataJson,
	ParseError as ParseErrorType,
	PhoneNumber,
} from 'libphonenumber-js/core';
import metadataJson from '../../src/phone/metadata.json';

export const METADATA = metadataJson as unknown as MetadataJson;
export { ParseError };
export type { CountryCode, ParseErrorType, PhoneNumber };

type ParseOptions = { defaultCountry?: CountryCode; defaultCallingCode?: string };

export const getCountries = () => countries(METADATA);
export const getCountryCallingCode = (region: CountryCode) => callingCodeOfRegion(region, METADATA);
export const getExampleNumber = (region: CountryCode, examples: Examples) =>
	exampleOf(region, examples, METADATA);
export const parsePhoneNumberWithError = (text: string, options?: ParseOptions | CountryCode) =>
	parse(
		text,
		(typeof options === 'string' ? { defaultCountry: options } : options) ?? {},
		METADATA,
	);
export const validatePhoneNumberLength = (text: string, options?: ParseOptions) =>
	lengthOf(text, options ?? {}, METADATA);
