// The package's reading of phone numbers held against libphonenumber over every region it knows
// (issue 38). Numbers of every type each region's metadata describes, drawn from its patterns,
// and each region's mobile example, written internationally, with 00, nationally under Default
// Country Code (ISO code, lower case, calling code), punctuated, as tel: URIs, with extensions, as
// number values, with a (0) or a trunk prefix after the calling code, a calling code without +,
// one digit short, long or off. Every answer must be libphonenumber's, but for the departures
// docs/phone-numbers.md lists, each counted here and asserted below by example.
//
// `npm test` draws 1 number per region and type and 4 of its forms; `npm run test:deep` 5 numbers
// and every form. Or:
//   CALLKARO_PHONE_NUMBERS=5 CALLKARO_PHONE_FORMS=30 npx jest phone/oracle
//   CALLKARO_PHONE_SEED=7 npx jest phone/oracle       another draw
import { normalizePhoneNumber } from '../../../src/phone/phoneNumber';
import { maskPhoneNumber } from '../../../src/phone/mask';
import {
	casesOf,
	dialledFormsOf,
	expectedReading,
	oracleNumbers,
	reasonOf,
	writtenFormsOf,
	zoneOf,
} from '../../support/phoneOracle';
import type { OracleCase, Reading } from '../../support/phoneOracle';
import { formsPerNumber, numbersPerType, oracleSeed } from '../../support/phoneOracleHost.mjs';
import { seededRandom } from '../schedule/scheduleOracle';

// the example number the fixes give
const EXAMPLE = '+919876543210';

/** The package's answer, and what it showed of the number where that is more than it may. */
function packageReading(oracleCase: OracleCase): { reading: Reading; unmasked?: string } {
	try {
		const { e164, masked } = normalizePhoneNumber(oracleCase.raw, {
			defaultCountryCode: oracleCase.defaultCountryCode,
		});
		return { reading: { e164 }, unmasked: masked === maskPhoneNumber(e164) ? undefined : masked };
	} catch (error) {
		const message = (error as Error).message;
		// a refusal never shows the number: at most the calling code and the last 4 digits
		const unmasked = /\d{5,}/.test(message.replaceAll(EXAMPLE, '')) ? message : undefined;
		return { reading: { refused: reasonOf(message) }, unmasked };
	}
}

/** `count` of the cases, drawn without repeats (all of them when there are no more). */
function drawn<T>(cases: T[], count: number, random: () => number): T[] {
	const pool = [...cases];
	for (let at = pool.length - 1; at > 0; at--) {
		const other = Math.floor(random() * (at + 1));
		[pool[at], pool[other]] = [pool[other], pool[at]];
	}
	return pool.slice(0, count);
}

describe('every region libphonenumber knows, as libphonenumber reads it', () => {
	const seed = oracleSeed();
	const numbers = oracleNumbers(seed, numbersPerType());
	const random = seededRandom(seed);
	const forms = formsPerNumber();
	// and every region's example number dialled from regions (each region's international prefix,
	// its calling code without + where a national reading may be valid too, a sheet's decimal) and
	// written in characters libphonenumber-js does not read
	const everyRegion = numbers
		.filter((number) => number.source === 'example')
		.flatMap((number) => [...dialledFormsOf(number, random), ...writtenFormsOf(number, random)]);
	// and India's example and fixed lines in every form: India's departures are met in every draw
	const india = numbers.filter(
		(number) =>
			number.region === 'IN' && (number.source === 'example' || number.type === 'FIXED_LINE'),
	);
	const cases = [
		...numbers.flatMap((number) => drawn(casesOf(number, random), forms, random)),
		...everyRegion,
		...india.flatMap((number) => casesOf(number, random)),
	];
	const differences: string[] = [];
	const shown: string[] = [];
	const departures = new Map<string, number>();
	const byZone = new Map<string, { cases: number; sent: number; refused: number }>();
	for (const oracleCase of cases) {
		const expected = expectedReading(oracleCase);
		const { reading: actual, unmasked } = packageReading(oracleCase);
		if (unmasked !== undefined) shown.push(unmasked);
		const zone = zoneOf(oracleCase.number.callingCode);
		const counts = byZone.get(zone) ?? { cases: 0, sent: 0, refused: 0 };
		counts.cases++;
		counts['e164' in actual ? 'sent' : 'refused']++;
		byZone.set(zone, counts);
		for (const departure of new Set([expected.departure, oracleCase.departure])) {
			if (departure) departures.set(departure, (departures.get(departure) ?? 0) + 1);
		}
		if (JSON.stringify(actual) !== JSON.stringify(expected.reading)) {
			const { number, form, raw, defaultCountryCode } = oracleCase;
			differences.push(
				`${number.region} ${number.type} (${form}): ${JSON.stringify(raw)} under ${defaultCountryCode ?? 'none'}: package ${JSON.stringify(actual)}, libphonenumber ${JSON.stringify(expected.reading)}`,
			);
		}
	}

	test('draws numbers of every type in every region', () => {
		const regions = new Set(numbers.map((number) => number.region));
		const types = new Set(numbers.map((number) => number.type));
		expect(regions.size).toBeGreaterThanOrEqual(240); // 245 regions and the global codes (001)
		expect([...types].sort()).toEqual(
			expect.arrayContaining([
				'FIXED_LINE',
				'MOBILE',
				'TOLL_FREE',
				'PREMIUM_RATE',
				'SHARED_COST',
				'VOIP',
				'PAGER',
				'UAN',
				'VOICEMAIL',
				'PERSONAL_NUMBER',
			]),
		);
		expect(cases.length).toBeGreaterThanOrEqual(Math.min(forms, 12) * numbers.length);
	});

	test('0 differences from libphonenumber outside the listed departures', () => {
		expect(differences).toEqual([]);
	});

	test('every refusal masks the number', () => {
		expect(shown).toEqual([]);
	});

	test('each listed departure is met, each zone both sends and refuses', () => {
		expect([...departures.keys()].sort()).toEqual([
			'India: bare mobile',
			'a calling code read as its main region',
			'characters libphonenumber-js does not read',
			'no region: 00 is +',
			'no region: 91 and 10 digits',
			'spreadsheet decimal',
			'two readings',
		]);
		for (const [, counts] of byZone) {
			expect(counts.sent).toBeGreaterThan(0);
			expect(counts.refused).toBeGreaterThan(0);
		}
	});
});
