// The package's validity held to Google's libphonenumber itself (npm google-libphonenumber), over
// every region and type: each region's example number of each type and the issue's ranges (#52)
// in the forms Google writes them (E.164, international, RFC 3966, dialled from the US and the
// UK, national, for mobile dialling, as typed: a third of each number's forms in turn in `npm
// test`, all in the deep run), and under CALLKARO_DEEP numbers drawn from Google's own patterns. A number Google
// holds valid is sent as Google's E.164, or refused for a decision listed here and in
// docs/phone-numbers.md; a different E.164 is a wrong number, and fails every run.
//
//   CALLKARO_GOOGLE_NUMBERS=5 npx jest phone/google      5 numbers per region and type
import { normalizePhoneNumber } from '../../../src/phone/phoneNumber';
import { drawFromPattern, reasonOf } from '../../support/phoneOracle';
import type { Reason } from '../../support/phoneOracle';
import {
	GOOGLE_TYPES,
	googleExample,
	googleForms,
	googlePattern,
	googlePlans,
	googleRead,
} from '../../support/phoneOracleGoogle.mjs';
import {
	googleNumbersPerType,
	metadataIsFresh,
	oracleSeed,
} from '../../support/phoneOracleHost.mjs';
import { inTurn } from '../../support/testScale.mjs';
import { seededRandom } from '../schedule/scheduleOracle';

/** The refusals of numbers Google holds valid that are the package's decisions, and why. */
const DECISIONS: Partial<Record<Reason, string>> = {
	'premium rate': 'charged at a premium to the caller, the route of call fraud: not dialled',
	pager: 'a pager cannot take a call',
	voicemail: 'a voicemail access number reaches a mailbox, not a person',
	'two readings': 'the value is also another valid number: nothing says which person is meant',
	'shorter than CallKaro dials': "CallKaro's to_number holds 8 to 15 digits with the country code",
};

// Ranges Google holds valid that libphonenumber-js 1.13.16's own metadata refused (issue 52)
const ISSUE_RANGES: Array<[range: string, e164: string]> = [
	['China, fixed lines 410', '+864107049805'],
	['China, fixed lines 413', '+864137508928'],
	['China, fixed lines 414', '+864141068999'],
	['China, fixed lines 378', '+863787636256'],
	['China, fixed lines 634', '+866344095922'],
	['China, fixed lines 852', '+868524498577'],
	['China, fixed lines 853', '+868536609624'],
	['Zimbabwe, fixed lines 13', '+2631312345'],
	['Zimbabwe, fixed lines 55', '+2635586583'],
	['Zimbabwe, fixed lines 68', '+2636878032'],
	['Romania, mobiles 600', '+40600156641'],
	['Romania, mobiles 62x', '+40628286338'],
	['Botswana, mobiles 321', '+26732173877'],
	['Colombia, mobiles 9101', '+579101791250'],
	['Benin, VoIP 857', '+22985751234'],
	['Benin, UAN 81', '+22981123456'],
	['Finland and Åland, mobiles 4946', '+358494633638'],
];

type Outcome = { sent: string } | { refused: Reason; message: string };

function packageReading(raw: string, defaultCountryCode?: string): Outcome {
	try {
		return { sent: normalizePhoneNumber(raw, { defaultCountryCode }).e164 };
	} catch (error) {
		const message = (error as Error).message;
		return { refused: reasonOf(message), message };
	}
}

/**
 * Every form of each number, read by the package, against Google: a number sent is the one
 * written, or Google's own reading of the form (which can differ: Google writes Gabon's
 * +241 2000171 as `02 00 01 71`, and reads that back as +241 02000171); a refusal is a decision
 * listed above, or a form Google cannot read as a valid number either.
 */
function compare(numbers: Array<{ label: string; e164: string }>) {
	const wrong: string[] = [];
	const refused: string[] = [];
	const decided = new Map<Reason, number>();
	let sent = 0;
	for (const [at, { label, e164 }] of numbers.entries()) {
		// every form in the deep run; in `npm test` a third of each number's forms, in turn
		const forms = googleForms(e164).filter((_, index) => inTurn(at + index, 0, 3));
		for (const { form, raw, dcc } of forms) {
			const outcome = packageReading(raw, dcc);
			const google = googleRead(raw, dcc)?.e164;
			const where = `${label} ${form}: ${JSON.stringify(raw)} under ${dcc ?? 'none'}`;
			if ('sent' in outcome && (outcome.sent === e164 || outcome.sent === google)) sent++;
			else if ('sent' in outcome) wrong.push(`${where}: sent ${outcome.sent}, Google ${e164}`);
			else if (DECISIONS[outcome.refused]) {
				decided.set(outcome.refused, (decided.get(outcome.refused) ?? 0) + 1);
			} else if (google !== undefined) refused.push(`${where}: ${outcome.message}`);
		}
	}
	return { wrong, refused, decided, sent };
}

describe("the package's validity is Google's libphonenumber's", () => {
	test('the bundled metadata is what the installed google-libphonenumber gives', () => {
		// else: node scripts/build/libphonenumber.mjs --metadata
		expect(metadataIsFresh()).toBe(true);
	});

	test("the issue's ranges are valid for Google, and sent in every form", () => {
		for (const [range, e164] of ISSUE_RANGES) expect([range, googleRead(e164)]).toBeTruthy();
		const result = compare(ISSUE_RANGES.map(([label, e164]) => ({ label, e164 })));
		expect(result.wrong).toEqual([]);
		expect(result.refused).toEqual([]);
		expect(result.sent).toBeGreaterThanOrEqual(ISSUE_RANGES.length * 2);
	});

	const plans = googlePlans();
	const examples = plans.flatMap((plan) =>
		Object.keys(GOOGLE_TYPES).flatMap((type) => {
			const e164 = googleExample(plan, type);
			return e164 ? [{ label: `${plan.region} ${plan.callingCode} ${type}`, e164 }] : [];
		}),
	);

	test("every region's example number of every type, in every form Google writes", () => {
		expect(new Set(examples.map(({ label }) => label.split(' ')[0])).size).toBeGreaterThan(240);
		const result = compare(examples);
		expect(result.wrong).toEqual([]);
		expect(result.refused).toEqual([]);
		// the types not called are met in every run; two readings and short numbers in some forms
		expect([...result.decided.keys()]).toEqual(
			expect.arrayContaining(['pager', 'premium rate', 'voicemail']),
		);
	});

	const perType = googleNumbersPerType();
	(perType > 0 ? test : test.skip)(
		`${perType} numbers per region and type drawn from Google's patterns, in every form`,
		() => {
			const random = seededRandom(oracleSeed());
			const drawn = plans.flatMap((plan) =>
				Object.keys(GOOGLE_TYPES).flatMap((type) => {
					const pattern = googlePattern(plan, type);
					const found: Array<{ label: string; e164: string }> = [];
					for (let attempt = 0; pattern && found.length < perType && attempt < 40; attempt++) {
						const reading = googleRead(`+${plan.callingCode}${drawFromPattern(pattern, random)}`);
						if (reading) found.push({ label: `${plan.region} ${type}`, e164: reading.e164 });
					}
					return found;
				}),
			);
			const result = compare(drawn);
			expect(result.wrong).toEqual([]);
			expect(result.refused).toEqual([]);
		},
	);
});
