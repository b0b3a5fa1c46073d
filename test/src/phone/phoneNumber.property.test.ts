// A number is one number (issue 46). Numbers of every type of every region (drawn from the
// metadata's own patterns, or the region's example), written in generated forms: how the country
// is given (+, 00, any region's international prefix, national with or without its trunk prefix,
// the calling code without +, tel: with and without phone-context, a trunk prefix after the
// calling code, a +1 country's trunk 1), separators of every kind, digits of any script or of
// several, full-width, ++, invisible marks anywhere, a sheet's .0, a number value; under a Default
// Country Code given as ISO code or calling code. Each gives the number's own E.164 or a refusal, the same on every
// read, and no refusal shows the value's digits in any script. And any text at all: the same
// answer on every read, its digits masked in a refusal.
//   CALLKARO_PROPERTY_SEED=7 CALLKARO_PROPERTY_RUNS=20000 npx jest phoneNumber.property
import fc from 'fast-check';

import { CallKaroInputError } from '../../../src/input/inputError';
import { normalizePhoneNumber } from '../../../src/phone/phoneNumber';
import {
	TYPES,
	asciiDigits,
	drawNumber,
	exampleNumber,
	fullWidth,
	internationalPrefixOf,
	mainRegionOf,
	nationalPrefixOf,
	numberingPlans,
	unicodeCharacters,
} from '../../support/phoneOracle';
import type { OracleNumber } from '../../support/phoneOracle';
import { propertyRuns } from '../../support/property.mjs';
import { seededRandom } from '../schedule/scheduleOracle';

const PLANS = numberingPlans();
const REGIONS = PLANS.filter((plan) => plan.region !== '001');
const { zeros: ZEROS, invisible: INVISIBLE } = unicodeCharacters();
// Every space and dash of Unicode (found by scanning it), and what else people put between digits.
const SEPARATORS = [
	...Array.from({ length: 0x10000 }, (_, codePoint) => String.fromCodePoint(codePoint)).filter(
		(char) => /[\p{Zs}\p{Pd}]/u.test(char),
	),
	...'./()[]~\u2212\u30fc',
];
// The numbers the fixes give as examples, which are no value's digits.
const EXAMPLES = ['+919876543210', '022 6600 1234', '+1 415 555 0100'];

type Answer = { e164: string } | { refused: string } | { unexpected: string };

/** The package's answer: the E.164 it sends, its refusal, or an error that is neither (a fault). */
function answerOf(raw: unknown, defaultCountryCode: unknown): Answer {
	try {
		return { e164: normalizePhoneNumber(raw, { defaultCountryCode }).e164 };
	} catch (error) {
		if (!(error instanceof CallKaroInputError)) return { unexpected: String(error) };
		return { refused: error.message };
	}
}

/** Runs of 5 or more digits a message shows, in any script, joined across separators and marks. */
function shownDigitRuns(message: string): string[] {
	const withoutExamples = EXAMPLES.reduce((text, example) => text.replaceAll(example, ''), message);
	const joined = asciiDigits(withoutExamples).replace(
		/(?<=\d)[\s\p{Pd}\p{Cf}.()/[\]~\u2212\u30fc]+(?=\d)/gu,
		'',
	);
	return joined.match(/\d{5,}/g) ?? [];
}

/** Read twice: the same answer, and a refusal that shows no run of the value's digits. */
function readTwice(raw: unknown, defaultCountryCode: unknown): Answer {
	const answer = answerOf(raw, defaultCountryCode);
	expect(answer).not.toHaveProperty('unexpected');
	expect(answerOf(raw, defaultCountryCode)).toEqual(answer);
	if ('refused' in answer) expect(shownDigitRuns(answer.refused)).toEqual([]);
	return answer;
}

/** A number of a plan and type, drawn with a seed; the region's example where the draw finds none. */
const numbers: fc.Arbitrary<OracleNumber> = fc
	.record({ plan: fc.constantFrom(...PLANS), type: fc.constantFrom(...TYPES), seed: fc.integer() })
	.map(
		({ plan, type, seed }) => drawNumber(plan, type, seededRandom(seed), 10) ?? exampleNumber(plan),
	)
	.filter((number): number is OracleNumber => number !== undefined);

/** A region as Default Country Code: its ISO code in either case, or its calling code as text, with + or as a number (the main region of a code). */
function countryAs(region: string, how: number): string | number {
	const callingCode = PLANS.find((plan) => plan.region === region)?.callingCode ?? '';
	if (mainRegionOf(callingCode) !== region || how % 5 < 2) {
		return how % 2 === 0 ? region : region.toLowerCase();
	}
	return [callingCode, `+${callingCode}`, Number(callingCode)][how % 3];
}

/** One way of writing a number in ASCII, and the Default Country Code it is read under. */
const writings = (number: OracleNumber) =>
	fc
		.record({
			way: fc.integer({ min: 0, max: 9 }),
			region: fc.constantFrom(...REGIONS),
			how: fc.nat(),
			withNationalPrefix: fc.boolean(),
		})
		.map(({ way, region: { region }, how, withNationalPrefix }) => {
			const { callingCode: cc, national } = number;
			const own = number.region === '001' ? undefined : number.region;
			const prefix = (withNationalPrefix && own && nationalPrefixOf(own)) || '';
			const idd = internationalPrefixOf(region, seededRandom(how));
			const anyCountry = how % 3 === 0 ? undefined : countryAs(region, how);
			const forms: Array<[string, string | number | undefined]> = [
				[`+${cc} ${national}`, anyCountry],
				[`00 ${cc} ${national}`, undefined],
				[`${idd} ${cc} ${national}`, countryAs(region, how)],
				// a number of no country has no national form: its + form instead
				own ? [`${prefix}${national}`, countryAs(own, how)] : [`+${cc}${national}`, anyCountry],
				own ? [`${cc}${national}`, countryAs(own, how)] : [`${cc}${national}`, undefined],
				[`tel:+${cc}-${national}`, anyCountry],
				[`tel:${national};phone-context=+${cc}`, anyCountry],
				[`+${cc} (${prefix || '0'}) ${national}`, anyCountry],
				[`whatsapp:+${cc}${national}`, anyCountry],
				// a +1 country's trunk prefix 1 before its number, as dialled there
				own && cc === '1' ? [`1 ${national}`, own] : [`+${cc}${national}`, anyCountry],
			];
			const [text, defaultCountryCode] = forms[way];
			return { text, defaultCountryCode };
		});

/** Separators of every kind between some of the digits. */
const separated = (text: string) =>
	fc
		.array(fc.tuple(fc.nat(), fc.constantFrom(...SEPARATORS), fc.boolean()), { maxLength: 6 })
		.map((cuts) => {
			const chars = Array.from(text);
			for (const [at, separator, spaced] of cuts) {
				const gap = 1 + (at % Math.max(chars.length - 1, 1));
				if (/\d/.test(chars[gap - 1] ?? '') && /\d/.test(chars[gap] ?? '')) {
					chars.splice(gap, 0, spaced ? ` ${separator} `.trim() + ' ' : separator);
				}
			}
			return chars.join('');
		});

/** The text's characters varied: digits of one script or several, full-width, ＋ or ++, invisible marks anywhere, a .0. */
const characters = (text: string) =>
	fc
		.record({
			digits: fc.oneof(
				fc.constant<'ascii'>('ascii'),
				fc.constantFrom(...ZEROS),
				fc.array(fc.constantFrom(...ZEROS), { minLength: 1, maxLength: 4 }),
			),
			wide: fc.boolean(),
			plus: fc.constantFrom('+', '＋', '++'),
			marks: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...INVISIBLE)), { maxLength: 4 }),
			decimal: fc.boolean(),
		})
		.map(({ digits, wide, plus, marks, decimal }) => {
			let written = decimal && /^\d+$/.test(text) ? `${text}.0` : text;
			written = written.replace(/^\+/, plus);
			if (wide) written = fullWidth(written);
			let at = 0;
			written = written.replace(/[0-9]/g, (digit) => {
				const zero =
					digits === 'ascii' ? 0x30 : Array.isArray(digits) ? digits[at++ % digits.length] : digits;
				return String.fromCodePoint(zero + Number(digit));
			});
			const chars = Array.from(written);
			for (const [position, mark] of marks) chars.splice(position % (chars.length + 1), 0, mark);
			return chars.join('');
		});

describe('a number is one number, however it is written', () => {
	test('every form of a number gives its E.164 or a refusal, the same on every read, its digits masked', () => {
		const forms = numbers.chain((number) =>
			writings(number).chain(({ text, defaultCountryCode }) =>
				separated(text)
					.chain(characters)
					.chain((written) =>
						fc.record({
							number: fc.constant(number),
							// digits alone may come as a number value, as a sheet holds them
							raw: /^\d+$/.test(written)
								? fc.constantFrom(written, Number(written))
								: fc.constant(written),
							defaultCountryCode: fc.constant(defaultCountryCode),
						}),
					),
			),
		);
		fc.assert(
			fc.property(forms, ({ number, raw, defaultCountryCode }) => {
				const answer = readTwice(raw, defaultCountryCode);
				if ('e164' in answer) expect(answer.e164).toBe(`+${number.callingCode}${number.national}`);
			}),
			propertyRuns(100, 10000),
		);
	});

	test('any text: the same answer on every read, and a refusal masks its digits in any script', () => {
		const pieces = fc.oneof(
			fc.stringMatching(/^[0-9]{1,5}$/).chain(characters),
			fc.constantFrom(...SEPARATORS, ...INVISIBLE),
			fc.constantFrom(
				'+',
				'＋',
				'00',
				'tel:',
				';phone-context=+91',
				';ext=12',
				' x',
				'.0',
				',',
				' / ',
				'O',
				'JKL',
				'(mobile)',
			),
		);
		const texts = fc.array(pieces, { minLength: 1, maxLength: 12 }).map((parts) => parts.join(''));
		const countries = fc.option(
			fc.constantFrom(...REGIONS.map((plan) => plan.region), '91', '1', '49', '62'),
		);
		fc.assert(
			fc.property(texts, countries, (text, defaultCountryCode) => {
				readTwice(text, defaultCountryCode ?? undefined);
			}),
			propertyRuns(100, 10000),
		);
	});
});
