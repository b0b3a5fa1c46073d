// The national rules of src/countries.ts held against libphonenumber's metadata, through
// libphonenumber-js (a devDependency: src/ never imports it). For each country accepted by ISO code,
// libphonenumber's example numbers and numbers it calls valid of each fixed-line and mobile length,
// written nationally and internationally, give libphonenumber's E.164; numbers of a length it
// calls impossible are refused. Where the node refuses a number libphonenumber accepts, the test
// says so and why.
import { Metadata } from 'libphonenumber-js/core';
import {
	getCountries,
	getCountryCallingCode,
	getExampleNumber,
	parsePhoneNumberWithError,
	validatePhoneNumberLength,
} from 'libphonenumber-js/max';
import type { CountryCode, PhoneNumber as LibPhoneNumber } from 'libphonenumber-js/max';
import mobileExamples from 'libphonenumber-js/examples.mobile.json';
import maxMetadata from 'libphonenumber-js/metadata.max.json';

import { CALLING_CODES, NATIONAL_NUMBER_RULES } from '../../src/countries';
import { normalizePhoneNumber } from '../../src/phone';
import { inputErrorOf, thrownBy } from './helpers';

/** The countries Default Country Code accepts by ISO code. */
const ACCEPTED = [...CALLING_CODES.keys()] as CountryCode[];

/**
 * libphonenumber's fixed-line example numbers (exampleNumber of fixedLine in
 * resources/PhoneNumberMetadata.xml): libphonenumber-js ships only the mobile ones. Each is checked
 * below to be a valid fixed-line number by the installed metadata.
 */
const FIXED_LINE_EXAMPLES: Record<string, string> = {
	AE: '22345678',
	AU: '212345678',
	BD: '27111234',
	BH: '17001234',
	CA: '5062345678',
	CN: '1012345678',
	DE: '30123456',
	ES: '810123456',
	FR: '123456789',
	GB: '1212345678',
	HK: '21234567',
	ID: '218350123',
	IE: '2212345',
	IN: '7410410123',
	IT: '0212345678',
	JP: '312345678',
	KE: '202012345',
	KW: '22345678',
	LK: '112345678',
	MY: '323856789',
	NG: '2033123456',
	NL: '101234567',
	NP: '14567890',
	NZ: '32345678',
	OM: '23123456',
	PH: '232345678',
	PK: '2123456789',
	QA: '44123456',
	SA: '112345678',
	SG: '61234567',
	TH: '21234567',
	US: '2015550123',
	ZA: '101234567',
};

/** What the tests read of a libphonenumber-js numbering plan, beyond its published types. */
interface Plan {
	nationalPrefix(): string | 0 | undefined;
	nationalNumberPattern(): string;
	type(
		type: 'FIXED_LINE' | 'MOBILE',
	): { pattern(): string; possibleLengths(): number[] } | undefined;
}

function planOf(region: CountryCode): Plan {
	const metadata = new Metadata(maxMetadata);
	metadata.selectNumberingPlan(region);
	return metadata.numberingPlan as unknown as Plan;
}

/** The regions that share a calling code: +1 is all of NANP, +44 also Jersey, Guernsey, Man. */
function regionsOf(code: string): CountryCode[] {
	return maxMetadata.country_calling_codes[code];
}

/** A deterministic pseudo-random generator (mulberry32), so every run checks the same numbers. */
function randomDigits(seed: number): () => string {
	let state = seed;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return String(Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * 10));
	};
}

/**
 * A national number of `length` digits, starting with `first` and each 3-digit continuation in turn
 * followed by random digits, that `pattern` matches; undefined when none is found.
 */
function sample(
	pattern: RegExp,
	length: number,
	next: () => string,
	first = '',
): string | undefined {
	const starts = first ? [first] : [...'0123456789'];
	for (const start of starts) {
		for (let prefix = 0; prefix < 1000; prefix++) {
			for (let attempt = 0; attempt < 4; attempt++) {
				let digits = `${start}${String(prefix).padStart(3, '0')}`;
				while (digits.length < length) digits += next();
				digits = digits.slice(0, length);
				if (pattern.test(digits)) return digits;
			}
		}
	}
	return undefined;
}

const whole = (pattern: string) => new RegExp(`^(?:${pattern})$`);

/** One number that libphonenumber calls valid of each fixed-line and mobile length of the country. */
function validNumbersOfEachLength(iso: CountryCode): Example[] {
	const code = getCountryCallingCode(iso);
	const next = randomDigits(Number(code));
	const plan = planOf(iso);
	return (['FIXED_LINE', 'MOBILE'] as const).flatMap((type) => {
		const desc = plan.type(type);
		if (desc === undefined) return [];
		return desc.possibleLengths().flatMap((length) => {
			const national = sample(whole(desc.pattern()), length, next);
			if (national === undefined) return [];
			const number = parsePhoneNumberWithError(`+${code}${national}`);
			return number.isValid() ? [{ name: `${iso} ${type} of ${length} digits`, number }] : [];
		});
	});
}

interface Example {
	/** 'IT mobile example', 'IT FIXED_LINE of 10 digits' */
	name: string;
	number: LibPhoneNumber;
}

/** Every number checked for one accepted country, and the other regions of its calling code. */
function examplesOf(iso: CountryCode): Example[] {
	const code = getCountryCallingCode(iso);
	const mobile = getExampleNumber(iso, mobileExamples);
	const fixed = parsePhoneNumberWithError(`+${code}${FIXED_LINE_EXAMPLES[iso]}`);
	const others = regionsOf(code)
		.filter((region) => region !== iso)
		.flatMap((region) => {
			const example = getExampleNumber(region, mobileExamples);
			return example ? [{ name: `${region} mobile example`, number: example }] : [];
		});
	return [
		...(mobile ? [{ name: `${iso} mobile example`, number: mobile }] : []),
		{ name: `${iso} fixed-line example`, number: fixed },
		...others,
		...validNumbersOfEachLength(iso),
	];
}

/** Digits of the whole E.164 number the node accepts (E.164 allows at most 15; 8 is the node's floor). */
const withinE164 = (e164: string) => e164.length - 1 >= 8 && e164.length - 1 <= 15;

const e164Of = (raw: string, defaultCountryCode?: string) =>
	normalizePhoneNumber(raw, { defaultCountryCode }).e164;

describe('the national rules are libphonenumber metadata', () => {
	test.each([...NATIONAL_NUMBER_RULES.keys()])('+%s', (code) => {
		const rule = NATIONAL_NUMBER_RULES.get(code)!;
		const regions = regionsOf(code);
		const plans = regions.map(planOf);
		const trunk = plans[0].nationalPrefix() || undefined;
		const lengths = new Set(
			plans.flatMap((plan) =>
				(['FIXED_LINE', 'MOBILE'] as const).flatMap(
					(type) => plan.type(type)?.possibleLengths() ?? [],
				),
			),
		);
		// A first digit is possible when a valid number of a rule length starts with it; a 0 only
		// where there is no trunk prefix: elsewhere a leading 0 is the trunk prefix (Japan's and
		// Indonesia's 00 toll-free numbers aside).
		const next = randomDigits(Number(code) + 1);
		const firstDigits = [...'0123456789']
			.filter((digit) => digit !== '0' || trunk === undefined)
			.filter((digit) =>
				plans.some((plan) =>
					rule.lengths.some(
						(length) =>
							sample(whole(plan.nationalNumberPattern()), length, next, digit) !== undefined,
					),
				),
			)
			.join('');

		expect(regions.some((region) => CALLING_CODES.get(region) === code)).toBe(true);
		expect({
			trunkPrefix: rule.trunkPrefix,
			lengths: rule.lengths,
			firstDigits: rule.firstDigits,
		}).toEqual({
			trunkPrefix: trunk,
			lengths: [...lengths].sort((a, b) => a - b),
			firstDigits,
		});
	});

	test('every calling code of the ISO codes accepted has a rule, and only those', () => {
		expect([...NATIONAL_NUMBER_RULES.keys()].sort()).toEqual(
			[...new Set(CALLING_CODES.values())].sort(),
		);
		for (const [iso, code] of CALLING_CODES) {
			expect({ iso, code }).toEqual({ iso, code: getCountryCallingCode(iso as CountryCode) });
		}
	});

	test('a leading 0 is kept only in Italy', () => {
		const kept = [...NATIONAL_NUMBER_RULES]
			.filter(([, rule]) => rule.firstDigits.includes('0'))
			.map(([code]) => code);
		expect(kept).toEqual(['39']);
	});
});

describe.each(ACCEPTED)('%s numbers as libphonenumber writes them', (iso) => {
	const code = getCountryCallingCode(iso);
	const rule = NATIONAL_NUMBER_RULES.get(code)!;
	const examples = examplesOf(iso);

	test('its examples and a number of each fixed-line and mobile length are checked', () => {
		const lengths = new Set(
			examples.map((example) => String(example.number.nationalNumber).length),
		);
		expect(examples.length).toBeGreaterThanOrEqual(1 + rule.lengths.length);
		expect([...lengths].sort((a, b) => a - b)).toEqual(rule.lengths);
	});

	test("libphonenumber's fixed-line example is a valid fixed-line number", () => {
		const fixed = parsePhoneNumberWithError(`+${code}${FIXED_LINE_EXAMPLES[iso]}`);
		expect(fixed.isValid()).toBe(true);
		expect(['FIXED_LINE', 'FIXED_LINE_OR_MOBILE']).toContain(fixed.getType());
	});

	test.each(examples.map(({ name, number }) => [name, number.number, number] as const))(
		'%s %s',
		(_name, _e164, number) => {
			const e164 = number.number;
			const national = number.formatNational();
			const international = number.formatInternational();
			if (!withinE164(e164)) {
				// E.164 numbers have at most 15 digits, and the node's floor is 8: Germany's 5-digit
				// and 14- to 15-digit and South Africa's 5-digit national numbers are outside.
				const tooShortOrLong = 'must have 8 to 15 digits including the country code';
				expect(inputErrorOf(() => e164Of(national, iso)).message).toContain(tooShortOrLong);
				expect(inputErrorOf(() => e164Of(international)).message).toContain(tooShortOrLong);
				return;
			}
			expect(e164Of(international)).toBe(e164);
			expect(e164Of(e164)).toBe(e164);
			expect(e164Of(national, iso)).toBe(e164);
			expect(e164Of(national, `+${code}`)).toBe(e164);
			// The national significant number alone: what a form without the trunk prefix gives.
			const nsn = String(number.nationalNumber);
			if (code === '91' && !/^[6-9]/.test(nsn)) {
				// India's own rule: without + or a leading 0, an Indian number is a mobile (6-9), since a
				// bare landline is more likely another country's number, such as a US (312) 345-6789.
				expect(inputErrorOf(() => e164Of(nsn, iso)).message).toContain(
					'cannot be a number in India (+91), the Default Country Code',
				);
			} else {
				expect(e164Of(nsn, iso)).toBe(e164);
			}
		},
	);

	test('numbers of a length libphonenumber calls impossible are refused', () => {
		const base = String(getExampleNumber(iso, mobileExamples)!.nationalNumber);
		for (let length = 1; length <= 17; length++) {
			const nsn = `${base}${'0123456789'.repeat(2)}`.slice(0, length);
			const impossible = validatePhoneNumberLength(`+${code}${nsn}`);
			const national = `${rule.trunkPrefix ?? ''}${nsn}`;
			if (impossible !== undefined) {
				expect({
					nsn,
					impossible,
					international: thrownBy(() => e164Of(`+${code}${nsn}`)),
				}).toEqual({
					nsn,
					impossible,
					international: expect.objectContaining({ name: 'CallKaroInputError' }),
				});
				expect({ nsn, national: thrownBy(() => e164Of(national, iso)) }).toEqual({
					nsn,
					national: expect.objectContaining({ name: 'CallKaroInputError' }),
				});
			}
		}
	});

	test('a national number with a first digit no number there has is refused', () => {
		const base = String(getExampleNumber(iso, mobileExamples)!.nationalNumber);
		for (const digit of [...'0123456789'].filter((first) => !rule.firstDigits.includes(first))) {
			const nsn = `${digit}${base.slice(1)}`;
			expect(inputErrorOf(() => e164Of(`+${code} ${nsn}`)).message).toContain(
				`cannot be a number in ${rule.country}`,
			);
		}
	});
});

test('Italian numbers keep their leading 0 after +39 (the issue)', () => {
	expect(e164Of('06 6988 4857', 'IT')).toBe('+390669884857');
	expect(e164Of('06 6988 4857', '39')).toBe('+390669884857');
	expect(e164Of('+39 06 6988 4857')).toBe('+390669884857');
	expect(parsePhoneNumberWithError('06 6988 4857', 'IT').number).toBe('+390669884857');
});

describe('calling codes without a rule', () => {
	const others = getCountries().filter(
		(region) => !NATIONAL_NUMBER_RULES.has(getCountryCallingCode(region)),
	);

	test.each(
		others.flatMap((region) => {
			const example = getExampleNumber(region, mobileExamples);
			return example ? [[region, example] as const] : [];
		}),
	)('%s: a national number is refused, the number with + passes E.164', (region, example) => {
		const code = getCountryCallingCode(region);
		const error = inputErrorOf(() => e164Of(example.formatNational(), code));
		expect(error.message).toContain(
			`and this node does not know how national numbers are written in the country of Default Country Code ${code}. Write it with + and the country code, as it is dialled from another country.`,
		);
		if (withinE164(example.number)) {
			expect(e164Of(example.formatInternational())).toBe(example.number);
		} else {
			expect(inputErrorOf(() => e164Of(example.formatInternational())).message).toContain(
				'must have 8 to 15 digits',
			);
		}
	});
});
