/**
 * Calling codes of common countries by ISO 3166 alpha-2 code, so a CRM's country field can be
 * mapped to Default Country Code. Not a full list: other countries are entered as digits.
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

/** What a national number (the digits after the calling code) must look like in one country. */
export interface NationalNumberRule {
	/** 'India (+91)', as messages name the country. */
	country: string;
	pattern: RegExp;
	/** The pattern in words, for the error message. */
	rule: string;
	/** The prefix dialled before a national number inside the country, dropped after the calling code. */
	trunkPrefix?: string;
}

/**
 * National lengths of the countries most numbers go to: enough to refuse a number of the wrong
 * country, not a numbering plan (libphonenumber's is ~250 kB). Other calling codes get only
 * E.164's 8 to 15 digits.
 */
export const NATIONAL_NUMBER_RULES: ReadonlyMap<string, NationalNumberRule> = new Map(
	Object.entries({
		'1': {
			country: 'the US or Canada (+1)',
			// NANP: area code and exchange never start with 0 or 1.
			pattern: /^[2-9]\d{2}[2-9]\d{6}$/,
			rule: 'numbers there have 10 digits after +1, and neither the area code nor the next 3 digits start with 0 or 1',
			trunkPrefix: '1',
		},
		'44': {
			country: 'the UK (+44)',
			pattern: /^[1-9]\d{8,9}$/,
			rule: 'numbers there have 9 or 10 digits after +44, without the 0',
			trunkPrefix: '0',
		},
		'61': {
			country: 'Australia (+61)',
			pattern: /^[2-478]\d{8}$/,
			rule: 'numbers there have 9 digits after +61, without the 0',
			trunkPrefix: '0',
		},
		'65': {
			country: 'Singapore (+65)',
			pattern: /^[3689]\d{7}$/,
			rule: 'numbers there have 8 digits, starting with 3, 6, 8 or 9',
		},
		'91': {
			country: 'India (+91)',
			pattern: /^[1-9]\d{9}$/,
			rule: 'numbers there have 10 digits after +91, without the 0',
			trunkPrefix: '0',
		},
		'971': {
			country: 'the UAE (+971)',
			pattern: /^[1-9]\d{7,8}$/,
			rule: 'numbers there have 8 or 9 digits after +971, without the 0',
			trunkPrefix: '0',
		},
	}),
);

/** The national rule of the calling code a number's digits start with (E.164 codes are prefix-free). */
export function nationalRuleOf(
	digits: string,
): { national: string; rule: NationalNumberRule } | undefined {
	for (const [code, rule] of NATIONAL_NUMBER_RULES) {
		if (digits.startsWith(code)) return { national: digits.slice(code.length), rule };
	}
	return undefined;
}
