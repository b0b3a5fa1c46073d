/**
 * Calling codes of common countries by ISO 3166 alpha-2 code, so a CRM's country field can be
 * mapped to Default Country Code. Not a full list: other countries are entered as digits, and
 * national numbers are completed only for the calling codes of NATIONAL_NUMBER_RULES below.
 */
export const CALLING_CODES: ReadonlyMap<string, string> = new Map(
	Object.entries({
		AE: '971',
		AU: '61',
		BD: '880',
		BH: '973',
		CA: '1',
		CN: '86',
		DE: '49',
		ES: '34',
		FR: '33',
		GB: '44',
		HK: '852',
		ID: '62',
		IE: '353',
		IN: '91',
		IT: '39',
		JP: '81',
		KE: '254',
		KW: '965',
		LK: '94',
		MY: '60',
		NG: '234',
		NL: '31',
		NP: '977',
		NZ: '64',
		OM: '968',
		PH: '63',
		PK: '92',
		QA: '974',
		SA: '966',
		SG: '65',
		TH: '66',
		US: '1',
		ZA: '27',
	}),
);

/**
 * How national numbers are written in one country, for completing them with Default Country Code
 * and refusing a number that cannot exist there.
 */
export interface NationalNumberRule {
	/** 'Italy (+39)', as messages name the country. */
	country: string;
	/** The prefix dialled before a national number inside the country, not after the calling code. */
	trunkPrefix?: string;
	/** The national (significant) number's possible lengths, after the calling code. */
	lengths: readonly number[];
	/**
	 * The digits a national number can start with. A 0 among them is part of the number, kept after
	 * the calling code (Italy's 06 6988 4857 is +39 06 6988 4857); where there is a trunk prefix 0,
	 * it never is.
	 */
	firstDigits: string;
}

/**
 * One rule per calling code of the countries in CALLING_CODES (their other regions included: +1 is
 * all of NANP, +44 the Channel Islands, +39 the Vatican). Source: libphonenumber's metadata as of
 * libphonenumber-js 1.13.16 (libphonenumber 9.0.43), the devDependency that
 * test/src/countries.test.ts holds these against: trunkPrefix is its national prefix, lengths the
 * possible lengths of fixed-line and mobile numbers (not those only toll-free or service numbers
 * have, such as India's 1800 numbers of 11 to 13 digits), firstDigits the first digits of its
 * valid numbers of those lengths. A national number of any other calling code is refused, never
 * guessed; with + it is checked for E.164's 8 to 15 digits only.
 *
 * A row: calling code, country, trunk prefix ('' for none), lengths, first digits.
 */
// prettier-ignore
const RULE_ROWS: ReadonlyArray<readonly [string, string, string, readonly number[], string]> = [
	['1',   'the US or Canada', '1', [10],                                     '23456789'],
	['27',  'South Africa',     '0', [5, 6, 7, 8, 9],                          '123456789'],
	['31',  'the Netherlands',  '0', [9, 11],                                  '123456789'],
	['33',  'France',           '0', [9],                                      '123456789'],
	['34',  'Spain',            '',  [9],                                      '456789'],
	['39',  'Italy',            '',  [6, 7, 8, 9, 10, 11, 12],                 '0134578'],
	['44',  'the UK',           '0', [9, 10],                                  '1235789'],
	['49',  'Germany',          '0', [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],  '123456789'],
	['60',  'Malaysia',         '0', [8, 9, 10],                               '13456789'],
	['61',  'Australia',        '0', [9],                                      '123478'],
	['62',  'Indonesia',        '0', [7, 8, 9, 10, 11, 12],                    '123456789'],
	['63',  'the Philippines',  '0', [6, 8, 9, 10],                            '23456789'],
	['64',  'New Zealand',      '0', [8, 9, 10],                               '123456789'],
	['65',  'Singapore',        '',  [8],                                      '3689'],
	['66',  'Thailand',         '0', [8, 9],                                   '123456789'],
	['81',  'Japan',            '0', [9, 10],                                  '123456789'],
	['86',  'China',            '0', [7, 8, 9, 10, 11],                        '123456789'],
	['91',  'India',            '0', [10],                                     '123456789'],
	['92',  'Pakistan',         '0', [9, 10],                                  '123456789'],
	['94',  'Sri Lanka',        '0', [9],                                      '123456789'],
	['234', 'Nigeria',          '0', [10],                                     '2789'],
	['254', 'Kenya',            '0', [7, 8, 9],                                '12456789'],
	['353', 'Ireland',          '0', [7, 8, 9, 10],                            '12456789'],
	['852', 'Hong Kong',        '',  [8],                                      '23456789'],
	['880', 'Bangladesh',       '0', [6, 7, 8, 9, 10],                         '123456789'],
	['965', 'Kuwait',           '',  [8],                                      '24569'],
	['966', 'Saudi Arabia',     '0', [9],                                      '159'],
	['968', 'Oman',             '',  [8],                                      '12789'],
	['971', 'the UAE',          '0', [8, 9],                                   '23456789'],
	['973', 'Bahrain',          '',  [8],                                      '136789'],
	['974', 'Qatar',            '',  [8],                                      '34567'],
	['977', 'Nepal',            '0', [8, 10],                                  '123456789'],
];

/** The rules of RULE_ROWS by calling code. */
export const NATIONAL_NUMBER_RULES: ReadonlyMap<string, NationalNumberRule> = new Map(
	RULE_ROWS.map(([code, country, trunkPrefix, lengths, firstDigits]) => [
		code,
		{
			country: `${country} (+${code})`,
			...(trunkPrefix ? { trunkPrefix } : {}),
			lengths,
			firstDigits,
		},
	]),
);

/** The rule of the calling code a number's digits start with (E.164 codes are prefix-free). */
export function nationalRuleOf(
	digits: string,
): { code: string; national: string; rule: NationalNumberRule } | undefined {
	for (const [code, rule] of NATIONAL_NUMBER_RULES) {
		if (digits.startsWith(code)) return { code, national: digits.slice(code.length), rule };
	}
	return undefined;
}
