// Allowed Numbers as builders write them (issue 46): whatever the separators, blanks and repeats,
// and in whichever form each number is written, a valid list reads as the same set; one entry that
// is no number is the builder's error, naming it, with every number masked; a number in the list
// is accepted and one outside it is refused to the model. And the tool's answers read as English.
import fc from 'fast-check';

import { checkAllowed, readAllowedNumbers } from '../../../src/agent/allowedNumbers';
import { limitReachedText } from '../../../src/agent/toolAnswers';
import { CallKaroInputError } from '../../../src/input/inputError';
import { normalizePhoneNumber } from '../../../src/phone/phoneNumber';
import { propertyRuns } from '../../support/property.mjs';
import { EXAMPLE_NUMBERS, LIST_BREAKS, REGIONS, numberForm } from './agentSupport';
import type { ExampleNumber } from './agentSupport';

const defaultCountryCode = fc.option(fc.constantFrom(...REGIONS), { nil: undefined });
const someNumbers = fc.array(fc.constantFrom(...EXAMPLE_NUMBERS), { minLength: 1, maxLength: 6 });

/** The numbers, each in a form that reads as itself under the Default Country Code. */
function written(numbers: ExampleNumber[], country: string | undefined) {
	return fc.tuple(...numbers.map((number) => numberForm(number, country)));
}

/** Entries joined the way a builder may: any break between them, blank entries, a break at either end. */
function joined(entries: string[]) {
	return fc
		.tuple(
			fc.array(LIST_BREAKS, { minLength: entries.length + 1, maxLength: entries.length + 1 }),
			fc.array(fc.boolean(), { minLength: entries.length + 1, maxLength: entries.length + 1 }),
		)
		.map(([breaks, blanks]) =>
			[
				breaks[0],
				...entries.flatMap((entry, index) => [
					entry,
					breaks[index + 1],
					blanks[index + 1] ? ` ${breaks[index]}` : '',
				]),
			].join(''),
		);
}

const aValidList = defaultCountryCode.chain((country) =>
	someNumbers.chain((numbers) =>
		written(numbers, country).chain((forms) =>
			joined(forms).map((text) => ({ country, numbers, forms, text })),
		),
	),
);

/** Entries that are no number anywhere: words, a calling code alone, an extension, a letter for a digit. */
const notANumber = fc.oneof(
	fc.stringMatching(/^[a-z]{3,8}$/),
	fc.integer({ min: 1, max: 999 }).map((code) => `+${code}`),
	fc.constantFrom(...EXAMPLE_NUMBERS).map(({ international }) => `${international} ext. 12`),
	fc.tuple(fc.constantFrom(...EXAMPLE_NUMBERS), fc.nat()).map(([{ e164 }, at]) => {
		const index = 3 + (at % (e164.length - 3));
		return `${e164.slice(0, index)}O${e164.slice(index + 1)}`;
	}),
);

describe('Allowed Numbers, read as builders write them', () => {
	it('a valid list reads as the same set whatever its separators, blanks, repeats and forms', () => {
		fc.assert(
			fc.property(aValidList, ({ country, numbers, text }) => {
				const read = readAllowedNumbers(text, country);
				expect([...read].sort()).toEqual([...new Set(numbers.map(({ e164 }) => e164))].sort());
			}),
			propertyRuns(25, 5_000),
		);
	});

	it("one entry that is no number is the builder's error, naming its place, every number masked", () => {
		fc.assert(
			fc.property(aValidList, notANumber, fc.nat(), ({ country, forms }, bad, at) => {
				const entries = [...forms];
				const position = at % (entries.length + 1);
				entries.splice(position, 0, bad);
				const text = entries.join('\n');
				let error: unknown;
				try {
					readAllowedNumbers(text, country);
				} catch (thrown) {
					error = thrown;
				}
				expect(error).toBeInstanceOf(CallKaroInputError);
				const { message, field } = error as CallKaroInputError;
				expect(field).toBe('Allowed Numbers');
				expect(message).toContain(`"Allowed Numbers" entry ${position + 1} of ${entries.length} `);
				// No number shows in full: at most its last four digits.
				const shown = EXAMPLE_NUMBERS.filter(({ e164 }) => message.includes(e164.slice(1)));
				expect(shown).toEqual([]);
			}),
			propertyRuns(20, 3_000),
		);
	});

	it('a number in the list is accepted; one outside it is refused to the model, naming the list', () => {
		const asked = fc
			.constantFrom(...EXAMPLE_NUMBERS)
			.chain((number) => numberForm(number, undefined).map((form) => ({ number, form })));
		const verb = fc.constantFrom('call', 'enrol', 'cancel calls to');
		fc.assert(
			fc.property(aValidList, asked, verb, ({ country, text }, { number, form }, action) => {
				const allowed = readAllowedNumbers(text, country);
				const phone = normalizePhoneNumber(form);
				const check = () => checkAllowed(allowed, phone, action);
				if (allowed.has(number.e164)) {
					expect(check).not.toThrow();
					return;
				}
				expect(check).toThrow(
					`"Phone Number" is not among the numbers this tool may ${action} (its Allowed Numbers): "${phone.masked}".`,
				);
			}),
			propertyRuns(25, 5_000),
		);
	});
});

describe('the examples of issue 46', () => {
	it.each([
		['one per line', '+919820061001\n+919820061003'],
		['separated by semicolons', '+919820061001; +919820061003'],
		[
			'in a form Phone Number takes, with a repeat',
			'+91 98200 61001,\r\n0091-98200-61003;;+919820061001',
		],
	])('%s', (_form, text) => {
		expect([...readAllowedNumbers(text, undefined)]).toEqual(['+919820061001', '+919820061003']);
	});

	it('one entry that is no valid number is refused for the builder, masked', () => {
		expect(() => readAllowedNumbers('+919820061001\n+91 98200 6100', undefined)).toThrow(
			'"Allowed Numbers" entry 2 of 2 is not a number in use in India (+91): "+91*****6100".',
		);
	});

	it('a tel: URI keeps its ;phone-context= while semicolons break the list', () => {
		expect([
			...readAllowedNumbers('tel:98200-61001;phone-context=+91; +919820061003', undefined),
		]).toEqual(['+919820061001', '+919820061003']);
	});
});

function thrownMessage(run: () => void): string {
	try {
		run();
	} catch (error) {
		return (error as Error).message;
	}
	return 'nothing thrown';
}

describe('tool answers read as English', () => {
	it('every count agrees with its noun: 1 number, 0 or 2 numbers', () => {
		fc.assert(
			fc.property(fc.nat(), fc.constantFrom('called', 'enrolled'), (maxCalls, done) => {
				const text = limitReachedText(done, maxCalls, 'Max Calls per Execution');
				expect(text).toContain(`has ${done} ${maxCalls} number${maxCalls === 1 ? '' : 's'} in`);
				expect(text).not.toMatch(/\b1 numbers\b|\b(?!1\b)\d+ number\b/);
			}),
			propertyRuns(50, 10_000),
		);
	});

	it('a tool that cancels calls speaks of cancelling, never of calling', () => {
		fc.assert(
			fc.property(aValidList, fc.constantFrom(...EXAMPLE_NUMBERS), ({ country, text }, number) => {
				const allowed = readAllowedNumbers(text, country);
				fc.pre(!allowed.has(number.e164));
				const phone = normalizePhoneNumber(number.e164);
				for (const list of [allowed, new Set<string>()]) {
					const message = thrownMessage(() => checkAllowed(list, phone, 'cancel calls to'));
					expect(message).toMatch(/may cancel calls to/);
					expect(message).not.toMatch(/\b(may call|be called|cannot call|called)\b/);
				}
			}),
			propertyRuns(25, 2_000),
		);
	});
});
