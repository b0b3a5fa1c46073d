// The phone oracle (issue 38): every region libphonenumber knows, numbers of every type its
// metadata describes, written the ways people and systems write them, each read by the package
// and by libphonenumber-js itself over the same metadata (not the package's door), compared.
//
// Numbers are drawn from the metadata's own patterns (a small generator over the regex subset
// libphonenumber uses: digits, \d, classes, (?:…), |, ?, {n,m}), kept only where libphonenumber
// calls them valid and of the type drawn, plus libphonenumber's mobile example numbers.
import { Metadata } from 'libphonenumber-js/core';
import type { NumberType } from 'libphonenumber-js/core';
import mobileExamples from 'libphonenumber-js/examples.mobile.json';
import {
	METADATA,
	ParseError,
	getCountries,
	getCountryCallingCode,
	getExampleNumber,
	parsePhoneNumberWithError,
	validatePhoneNumberLength,
} from './phoneOracleLibrary';
import type { CountryCode, PhoneNumber } from './phoneOracleLibrary';

import { seededRandom } from '../src/schedule/scheduleOracle';

export const TYPES = [
	'FIXED_LINE',
	'MOBILE',
	'TOLL_FREE',
	'PREMIUM_RATE',
	'PERSONAL_NUMBER',
	'VOICEMAIL',
	'UAN',
	'PAGER',
	'VOIP',
	'SHARED_COST',
] as const;

/** How the package answers: the E.164 it sends, or why it refuses (see reasonOf). */
export type Reading = { e164: string } | { refused: Reason };
export type Reason =
	| 'unreadable'
	| 'extension'
	| 'letters'
	| 'too short'
	| 'too long'
	| 'invalid length'
	| 'not in use'
	| 'premium rate'
	| 'pager'
	| 'voicemail'
	| 'India: bare number not a mobile'
	| 'shorter than CallKaro dials'
	| 'Default Country Code'
	| 'two readings'
	| 'spreadsheet decimal'
	| 'several numbers'
	| 'several values';

/** The listed departures from libphonenumber (docs/phone-numbers.md), by the name tests use. */
export type Departure =
	| 'no region: 00 is +'
	| 'no region: 91 and 10 digits'
	| 'India: bare mobile'
	| 'a calling code read as its main region'
	| 'characters libphonenumber-js does not read'
	| 'two readings'
	| 'spreadsheet decimal';

/** One number of a region, as libphonenumber reads it. */
export interface OracleNumber {
	region: string;
	callingCode: string;
	national: string;
	type: string;
	source: 'pattern' | 'example';
}

/**
 * One way of writing a number, with the Default Country Code it is given under. `plain` is the
 * same text in the characters libphonenumber-js reads (another script's digits as 0-9, a
 * `phone-context` before the number), where the form writes it otherwise.
 */
export interface OracleCase {
	number: OracleNumber;
	form: string;
	raw: unknown;
	defaultCountryCode?: string;
	plain?: string;
	departure?: Departure;
}

// ---- drawing numbers from a pattern --------------------------------------------------------------

type Node =
	| { kind: 'chars'; chars: string }
	| { kind: 'alt'; options: Node[][] }
	| { kind: 'repeat'; node: Node; min: number; max: number };

const DIGITS = '0123456789';

/** The regex subset of libphonenumber's patterns, as a tree. */
function parsePattern(source: string): Node[][] {
	let at = 0;
	function alternatives(): Node[][] {
		const options: Node[][] = [[]];
		while (at < source.length && source[at] !== ')') {
			if (source[at] === '|') {
				at++;
				options.push([]);
				continue;
			}
			options[options.length - 1].push(quantified(atom()));
		}
		return options;
	}
	function atom(): Node {
		const char = source[at++];
		if (char === '\\' && source[at++] === 'd') return { kind: 'chars', chars: DIGITS };
		if (char === '[') {
			let chars = '';
			while (source[at] !== ']') {
				const from = source[at++];
				if (source[at] === '-' && source[at + 1] !== ']') {
					const to = source[at + 1];
					at += 2;
					for (let c = from.charCodeAt(0); c <= to.charCodeAt(0); c++)
						chars += String.fromCharCode(c);
				} else if (from === '\\' && source[at] === 'd') {
					at++;
					chars += DIGITS;
				} else chars += from;
			}
			at++;
			return { kind: 'chars', chars };
		}
		if (char === '(') {
			if (source.startsWith('?:', at)) at += 2;
			const options = alternatives();
			at++; // ')'
			return { kind: 'alt', options };
		}
		if (/\d/.test(char)) return { kind: 'chars', chars: char };
		throw new Error(`pattern syntax not drawn: ${char} in ${source}`);
	}
	function quantified(node: Node): Node {
		if (source[at] === '?') {
			at++;
			return { kind: 'repeat', node, min: 0, max: 1 };
		}
		const braces = /^\{(\d+)(?:,(\d+))?\}/.exec(source.slice(at));
		if (!braces) return node;
		at += braces[0].length;
		const min = Number(braces[1]);
		return { kind: 'repeat', node, min, max: braces[2] === undefined ? min : Number(braces[2]) };
	}
	return alternatives();
}

function draw(options: Node[][], random: () => number): string {
	const pick = options[Math.floor(random() * options.length)];
	return pick.map((node) => drawNode(node, random)).join('');
}

function drawNode(node: Node, random: () => number): string {
	if (node.kind === 'chars') return node.chars[Math.floor(random() * node.chars.length)];
	if (node.kind === 'alt') return draw(node.options, random);
	const count = node.min + Math.floor(random() * (node.max - node.min + 1));
	return Array.from({ length: count }, () => drawNode(node.node, random)).join('');
}

const trees = new Map<string, Node[][]>();

/** One national number drawn from a libphonenumber pattern (any metadata's). */
export function drawFromPattern(pattern: string, random: () => number): string {
	let tree = trees.get(pattern);
	if (tree === undefined) {
		tree = parsePattern(pattern);
		trees.set(pattern, tree);
	}
	return draw(tree, random);
}

// ---- the numbers of every region -----------------------------------------------------------------

function parseOrUndefined(text: string, region?: string): PhoneNumber | undefined {
	try {
		return parsePhoneNumberWithError(text, { defaultCountry: region as CountryCode });
	} catch {
		return undefined;
	}
}

/** Calling codes of numbers outside any country (+800, +882…), drawn like a region. */
function nonGeographicCodes(): string[] {
	return Object.keys((METADATA as unknown as { nonGeographic: object }).nonGeographic);
}

/** A numbering plan: a region, or a calling code of no country (region '001'). */
export interface NumberingPlan {
	region: string;
	callingCode: string;
	plan: string;
}

/** Every region libphonenumber knows, and the calling codes of no country (+800, +882...). */
export function numberingPlans(): NumberingPlan[] {
	return [
		...getCountries().map((region) => ({
			region,
			callingCode: getCountryCallingCode(region),
			plan: region,
		})),
		...nonGeographicCodes().map((code) => ({ region: '001', callingCode: code, plan: code })),
	];
}

const patterns = new Map<string, Node[][] | undefined>();

/** The national number pattern of a type in a plan, as a tree to draw from; undefined where it has none. */
function patternOf(plan: string, type: string): Node[][] | undefined {
	const key = `${plan} ${type}`;
	if (!patterns.has(key)) patterns.set(key, readPattern(plan, type));
	return patterns.get(key);
}

function readPattern(plan: string, type: string): Node[][] | undefined {
	const metadata = new Metadata(METADATA);
	metadata.selectNumberingPlan(plan as CountryCode);
	const numberingPlan = metadata.numberingPlan as unknown as {
		type(type: string): { pattern(): string } | undefined;
	};
	const pattern = numberingPlan.type(type)?.pattern();
	return pattern ? parsePattern(pattern) : undefined;
}

/** One national number drawn from a type's pattern, if libphonenumber calls it valid, of that type and in that region. */
export function drawNumber(
	{ region, callingCode, plan }: NumberingPlan,
	type: string,
	random: () => number,
	attempts = 60,
): OracleNumber | undefined {
	const tree = patternOf(plan, type);
	for (let attempt = 0; tree && attempt < attempts; attempt++) {
		const national = draw(tree, random);
		const parsed = parseOrUndefined(`+${callingCode}${national}`);
		const inRegion = region === '001' || parsed?.country === region;
		if (!parsed?.isValid() || !inRegion || parsed.nationalNumber !== national) continue;
		if (parsed.getType() !== type && !(type === 'MOBILE' && isFixedOrMobile(parsed))) continue;
		return { region, callingCode, national, type, source: 'pattern' };
	}
	return undefined;
}

/** The region's mobile example number, as libphonenumber gives it. */
export function exampleNumber({ region, callingCode }: NumberingPlan): OracleNumber | undefined {
	if (region === '001') return undefined;
	const example = getExampleNumber(region as CountryCode, mobileExamples);
	if (!example) return undefined;
	return {
		region,
		callingCode,
		national: example.nationalNumber,
		type: example.getType() ?? 'MOBILE',
		source: 'example',
	};
}

/**
 * Up to `perType` numbers of each type each region has, drawn from its patterns with a seed,
 * each valid and of that type by libphonenumber; and each region's mobile example. `share` draws
 * from that share of the regions only (picked with the seed): a sample costs what it holds.
 */
export function oracleNumbers(seed: number, perType: number, share = 1): OracleNumber[] {
	const random = seededRandom(seed);
	const numbers: OracleNumber[] = [];
	const allPlans = numberingPlans();
	const plans = share < 1 ? allPlans.filter(() => random() < share) : allPlans;
	for (const plan of plans) {
		for (const type of TYPES.filter((one) => patternOf(plan.plan, one))) {
			const seen = new Set<string>();
			for (let attempt = 0; attempt < 60 * perType && seen.size < perType; attempt++) {
				const number = drawNumber(plan, type, random, 1);
				if (number === undefined || seen.has(number.national)) continue;
				seen.add(number.national);
				numbers.push(number);
			}
		}
		const example = exampleNumber(plan);
		if (example) numbers.push(example);
	}
	return numbers;
}

function isFixedOrMobile(number: PhoneNumber): boolean {
	return number.getType() === 'FIXED_LINE_OR_MOBILE';
}

// ---- how people and systems write a number -------------------------------------------------------

/** The region's national prefix (trunk prefix), when it has one. */
export function nationalPrefixOf(region: string): string | undefined {
	if (region === '001') return undefined;
	const metadata = new Metadata(METADATA);
	metadata.selectNumberingPlan(region as CountryCode);
	const plan = metadata.numberingPlan as unknown as { nationalPrefix(): string | undefined };
	return plan.nationalPrefix() || undefined;
}

/** Punctuated as people do: groups of 3 or 4 with spaces, dashes, dots and brackets. */
function punctuated(digits: string, random: () => number): string {
	const separators = [' ', '-', '.', ' '];
	const groups: string[] = [];
	for (let at = 0; at < digits.length; ) {
		const size = Math.min(digits.length - at, 3 + Math.floor(random() * 2));
		groups.push(digits.slice(at, at + size));
		at += size;
	}
	if (groups.length > 2 && random() < 0.5) groups[0] = `(${groups[0]})`;
	const separator = separators[Math.floor(random() * separators.length)];
	return groups.join(separator);
}

/** The region's international prefix, drawn from its pattern in the metadata: 00, 011, 0011, 0015... */
export function internationalPrefixOf(region: string, random: () => number): string {
	const metadata = new Metadata(METADATA);
	metadata.selectNumberingPlan(region as CountryCode);
	const plan = metadata.numberingPlan as unknown as { IDDPrefix(): string };
	return draw(parsePattern(plan.IDDPrefix()), random);
}

/** The main region of a calling code, as libphonenumber lists it first ('001' for +800...). */
export function mainRegionOf(callingCode: string): string {
	return METADATA.country_calling_codes[callingCode][0];
}

const DECIMAL_DIGIT = /\p{Nd}/u;
const INVISIBLE = /\p{Cf}/u;
let characters: { zeros: number[]; invisible: string[] } | undefined;

/**
 * Every script's 0 (Unicode lays out each script's digits as runs of ten, 0 first) and every
 * invisible formatting character, found by scanning Unicode rather than listed.
 */
export function unicodeCharacters(): { zeros: number[]; invisible: string[] } {
	if (characters) return characters;
	const zeros: number[] = [];
	const invisible: string[] = [];
	let run = 0;
	for (let codePoint = 0; codePoint < 0x20000; codePoint++) {
		const char = String.fromCodePoint(codePoint);
		if (INVISIBLE.test(char)) invisible.push(char);
		if (!DECIMAL_DIGIT.test(char)) run = 0;
		else if (run++ % 10 === 0) zeros.push(codePoint);
	}
	characters = { zeros, invisible };
	return characters;
}

/** Every script's digits of a text as 0-9: each is its distance from the last 0 at or before it. */
export function asciiDigits(text: string): string {
	const { zeros } = unicodeCharacters();
	return Array.from(text, (char) => {
		if (!DECIMAL_DIGIT.test(char)) return char;
		const codePoint = char.codePointAt(0) ?? 0;
		return String(codePoint - (zeros.filter((zero) => zero <= codePoint).at(-1) ?? codePoint));
	}).join('');
}

/** The ASCII digits of a text in the script whose 0 is `zero`. */
export function inScript(text: string, zero: number): string {
	return text.replace(/[0-9]/g, (digit) => String.fromCodePoint(zero + Number(digit)));
}

/** ASCII's full-width forms: ＋９１ ９８２００. */
export function fullWidth(text: string): string {
	return text.replace(/[!-~]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0));
}

function pick<T>(values: readonly T[], random: () => number): T {
	return values[Math.floor(random() * values.length)];
}

/** Every form of one number: international, 00, national, punctuated, the edge forms. */
export function casesOf(number: OracleNumber, random: () => number): OracleCase[] {
	const { region, callingCode: cc, national } = number;
	const prefix = nationalPrefixOf(region);
	const geographic = region !== '001';
	const at = (form: string, raw: unknown, defaultCountryCode?: string): OracleCase => ({
		number,
		form,
		raw,
		...(defaultCountryCode === undefined ? {} : { defaultCountryCode }),
	});
	const shorter = national.slice(0, -1);
	const longer = `${national}${Math.floor(random() * 10)}`;
	const offByOne = `${national.slice(0, -1)}${(Number(national.slice(-1)) + 1) % 10}`;
	const cases = [
		at('international', `+${cc}${national}`),
		at('international, punctuated', `+${cc} ${punctuated(national, random)}`),
		at('00 and the calling code', `00${cc} ${national}`),
		at('tel: URI', `tel:+${cc}-${punctuated(national, random).replace(/[ .()]/g, '-')}`),
		at('with an extension', `+${cc} ${national} ext. 12`),
		at('a number value with its calling code', Number(`${cc}${national}`)),
		at('one digit short', `+${cc}${shorter}`),
		at('one digit long', `+${cc}${longer}`),
		at('last digit off by one', `+${cc}${offByOne}`),
		at('international under another Default Country Code', `+${cc}${national}`, 'DE'),
		at('calling code without +, no Default Country Code', `${cc}${national}`),
	];
	if (geographic) {
		const nationalForm = `${prefix ?? ''}${national}`;
		cases.push(
			at('national under its ISO code', nationalForm, region),
			at('national, punctuated, under its ISO code', punctuated(nationalForm, random), region),
			at('national under its calling code', nationalForm, cc),
			at('national, lower-case ISO code', nationalForm, region.toLowerCase()),
			at('bare national number under its ISO code', national, region),
			at('calling code without + under its ISO code', `${cc}${national}`, region),
			at('00 and the calling code under its ISO code', `00${cc}${national}`, region),
			at('a number value, national', Number(nationalForm), region),
			at('national, one digit short', `${prefix ?? ''}${shorter}`, region),
			at('national, one digit long', `${prefix ?? ''}${longer}`, region),
			at('national without a Default Country Code', nationalForm),
		);
	}
	if (prefix !== undefined) {
		cases.push(
			at('(national prefix) after the calling code', `+${cc} (${prefix}) ${national}`),
			at('national prefix after the calling code', `+${cc} ${prefix}${national}`),
		);
	}
	if (geographic) cases.push(...dialledFormsOf(number, random));
	cases.push(...writtenFormsOf(number, random));
	return cases;
}

/**
 * A number as dialled from a region: after that region's international prefix (under its ISO
 * code and under its calling code), with its calling code but without + (where a national
 * reading may be valid too), and as a sheet holds it as a decimal.
 */
export function dialledFormsOf(number: OracleNumber, random: () => number): OracleCase[] {
	const { region, callingCode: cc, national } = number;
	const other = pick(getCountries(), random);
	const main = mainRegionOf(cc);
	return [
		{ form: 'its international prefix, under its ISO code', idd: region, dcc: region },
		{ form: 'its international prefix, under its calling code', idd: main, dcc: cc },
		{ form: "another region's international prefix, under it", idd: other, dcc: other },
	]
		.map(({ form, idd, dcc }) => ({
			number,
			form,
			raw: `${internationalPrefixOf(idd, random)} ${cc} ${national}`,
			defaultCountryCode: dcc,
		}))
		.concat([
			{
				number,
				form: 'calling code without + under its calling code',
				raw: `${cc}${national}`,
				defaultCountryCode: cc,
			},
			{
				number,
				form: "a spreadsheet's decimal, under its ISO code",
				raw: `${cc}${national}.0`,
				defaultCountryCode: region,
			},
		]);
}

/**
 * The number written in characters libphonenumber-js does not read (another script's digits,
 * full-width, invisible marks between its groups, ++), and as a `tel:` URI with phone-context.
 */
export function writtenFormsOf(number: OracleNumber, random: () => number): OracleCase[] {
	const { callingCode: cc, national } = number;
	const { zeros, invisible } = unicodeCharacters();
	const groups = punctuated(national, random).replace(/[^\d]+/g, ' ');
	const plain = `+${cc} ${groups}`;
	const departure = 'characters libphonenumber-js does not read' as const;
	const written = (form: string, raw: string): OracleCase => ({
		number,
		form,
		raw,
		plain,
		departure,
	});
	return [
		written("another script's digits", inScript(plain, pick(zeros, random))),
		written('full-width', fullWidth(plain)),
		written(
			'invisible marks between its groups',
			plain.replace(/ /g, () => `${pick(invisible, random)} `),
		),
		written('++ before the calling code', `+${plain}`),
		{
			number,
			form: 'tel: URI with phone-context',
			raw: `tel:${groups.replace(/ /g, '-')};phone-context=+${cc}`,
			plain: `+${cc} ${groups.replace(/ /g, '-')}`,
		},
	];
}

// ---- what libphonenumber and the package make of it ----------------------------------------------

const NOT_CALLED: Partial<Record<NonNullable<NumberType>, Reason>> = {
	PREMIUM_RATE: 'premium rate',
	PAGER: 'pager',
	VOICEMAIL: 'voicemail',
};

function callingCodeOf(defaultCountryCode: string): string {
	return /^\d+$/.test(defaultCountryCode)
		? defaultCountryCode
		: getCountryCallingCode(defaultCountryCode.toUpperCase() as CountryCode);
}

type Options = { defaultCallingCode?: string; defaultCountry?: CountryCode };

/** A calling code is read as its main region (91 as IN), a code of no country as itself. */
function optionsOf(defaultCountryCode?: string): Options {
	if (defaultCountryCode === undefined) return {};
	if (!/^\d+$/.test(defaultCountryCode)) {
		return { defaultCountry: defaultCountryCode.toUpperCase() as CountryCode };
	}
	const main = mainRegionOf(defaultCountryCode);
	return main === '001'
		? { defaultCallingCode: defaultCountryCode }
		: { defaultCountry: main as CountryCode };
}

function libReading(text: string, options: Options) {
	try {
		return parsePhoneNumberWithError(text, options);
	} catch (error) {
		// libphonenumber could not read it: a refusal, whichever error says so
		expect(error).toBeInstanceOf(ParseError);
		return undefined;
	}
}

/** What libphonenumber reads, in short: the E.164 and whether it is valid. */
function outcomeOf(text: string, options: Options): string {
	const number = libReading(text, options);
	return number === undefined ? 'refused' : `${number.number} ${number.isValid()}`;
}

/** The E.164 of a valid reading of an international text, else undefined. */
function validNumber(text: string): string | undefined {
	const number = libReading(text, {});
	return number?.isValid() ? number.number : undefined;
}

/**
 * The readings of a text written without + under a region: national, after the region's calling
 * code, after each international prefix of the region that it starts with, after a trunk prefix
 * (the region's or a 0); outside +1, a first group 1 alone as +1.
 */
function readingsWithoutPlus(text: string, options: Options): Set<string> {
	const digits = text.replace(/\D/g, '');
	const region = options.defaultCountry;
	const callingCode = region ? getCountryCallingCode(region) : (options.defaultCallingCode ?? '');
	const readings = [validNumber(`+${callingCode}${digits}`)];
	if (digits.startsWith(callingCode)) readings.push(validNumber(`+${digits}`));
	if (region) {
		const metadata = new Metadata(METADATA);
		metadata.selectNumberingPlan(region);
		const plan = metadata.numberingPlan as unknown as { IDDPrefix(): string };
		const prefix = new RegExp(`^(?:${plan.IDDPrefix()})$`);
		const ends = [...digits].map((_, end) => end).filter((end) => end > 0);
		const afterPrefix = ends.filter((end) => prefix.test(digits.slice(0, end)));
		for (const end of afterPrefix) {
			if (digits[end] !== '0') readings.push(validNumber(`+${digits.slice(end)}`));
		}
		// after a trunk prefix: the region's own, or else a 0, where no international prefix starts it
		const trunk = nationalPrefixOf(region) ?? '0';
		if (afterPrefix.length === 0 && digits.startsWith(trunk)) {
			const rest = parseOrUndefined(digits.slice(trunk.length), region);
			if (rest?.isValid()) readings.push(rest.number);
		}
	}
	if (callingCode !== '1' && /^1[\s\-.(]/.test(text)) readings.push(validNumber(`+${digits}`));
	return new Set(readings.filter((e164) => e164 !== undefined));
}

/** A (0) after the calling code, read as a trunk prefix left out and as a digit. */
function readingsOfBracketedZero(text: string, callingCode: string): Set<string> {
	const compact = text.replace(/[^\d+()]/g, '');
	if (!compact.startsWith(`+${callingCode}(0)`)) return new Set();
	const rest = compact.slice(`+${callingCode}(0)`.length).replace(/\D/g, '');
	const readings = [validNumber(`+${callingCode}${rest}`), validNumber(`+${callingCode}0${rest}`)];
	return new Set(readings.filter((e164) => e164 !== undefined));
}

/**
 * What the package must answer: libphonenumber's reading where it calls the number valid and the
 * number reaches a person, with the listed departures; `departure` names the one applied.
 */
export function expectedReading({
	raw,
	defaultCountryCode,
	plain,
}: Pick<OracleCase, 'raw' | 'defaultCountryCode' | 'plain'>): {
	reading: Reading;
	departure?: Departure;
} {
	const text = (plain ?? String(raw)).trim();
	if (/^\+?\d+\.0+$/.test(text)) {
		return { reading: { refused: 'spreadsheet decimal' }, departure: 'spreadsheet decimal' };
	}
	const compact = text.replace(/[\s\-.()/]/g, '');
	let read = text;
	let departure: Departure | undefined;
	if (defaultCountryCode === undefined && /^00[1-9]/.test(compact)) {
		read = `+${compact.slice(2)}`;
		departure = 'no region: 00 is +';
	} else if (defaultCountryCode === undefined && /^91\d{10}$/.test(compact)) {
		read = `+${compact}`;
		departure = 'no region: 91 and 10 digits';
	}
	const options = optionsOf(defaultCountryCode);
	if (
		options.defaultCountry &&
		/^\d+$/.test(defaultCountryCode ?? '') &&
		outcomeOf(read, options) !== outcomeOf(read, { defaultCallingCode: defaultCountryCode })
	) {
		departure = 'a calling code read as its main region';
	}
	const number = libReading(read, options);
	if (number === undefined) return { reading: { refused: 'unreadable' }, departure };
	if (number.ext !== undefined) return { reading: { refused: 'extension' }, departure };
	if (/[a-z]/i.test(text.replace(/^tel:/i, '')))
		return { reading: { refused: 'letters' }, departure };
	const type = number.getType();
	const indian = defaultCountryCode !== undefined && callingCodeOf(defaultCountryCode) === '91';
	// India writes its landlines with their 0; all else of its (mobiles, 1800, 1860, 140) bare
	const landlineOrNone = type === 'FIXED_LINE' || type === undefined;
	if (indian && compact === number.nationalNumber && landlineOrNone) {
		return {
			reading: { refused: 'India: bare number not a mobile' },
			departure: 'India: bare mobile',
		};
	}
	if (!number.isValid()) {
		const length = lengthReason(validatePhoneNumberLength(read, options));
		return { reading: { refused: length ?? 'not in use' }, departure };
	}
	const notCalled = type === undefined ? undefined : NOT_CALLED[type];
	if (notCalled !== undefined) return { reading: { refused: notCalled }, departure };
	// CallKaro's to_number holds 8 to 15 digits
	if (number.number.length - 1 < 8) {
		return { reading: { refused: 'shorter than CallKaro dials' }, departure };
	}
	const readings = read.includes('+')
		? readingsOfBracketedZero(read, number.countryCallingCode)
		: defaultCountryCode === undefined
			? new Set<string>()
			: readingsWithoutPlus(read, options);
	if (readings.add(number.number).size > 1) {
		return { reading: { refused: 'two readings' }, departure: 'two readings' };
	}
	return { reading: { e164: number.number }, departure };
}

function lengthReason(problem: string | undefined): Reason | undefined {
	if (problem === 'TOO_SHORT') return 'too short';
	if (problem === 'TOO_LONG') return 'too long';
	if (problem === 'INVALID_LENGTH') return 'invalid length';
	return undefined;
}

/** The reason a refusal message gives, by its wording (src/phone/phoneNumber.ts). */
export function reasonOf(message: string): Reason {
	const reasons: Array<[RegExp, Reason]> = [
		[/^"Default Country Code"/, 'Default Country Code'],
		[/has an extension/, 'extension'],
		[/Letters are not dialled/, 'letters'],
		[/cannot be a number in India/, 'India: bare number not a mobile'],
		[/is too short for a number in/, 'too short'],
		[/is too long for a number in/, 'too long'],
		[/has a length that no number has/, 'invalid length'],
		[/is not a number in use in/, 'not in use'],
		[/is a premium-rate number/, 'premium rate'],
		[/is a pager number/, 'pager'],
		[/is a voicemail access number/, 'voicemail'],
		[/is shorter than the numbers CallKaro dials/, 'shorter than CallKaro dials'],
		[/can be read as \d+ different numbers/, 'two readings'],
		[/as a spreadsheet writes a number it holds as a decimal/, 'spreadsheet decimal'],
		[/holds \d+ numbers/, 'several numbers'],
		[/must be one phone number/, 'several values'],
		[
			/must be a phone number|has no country code|does not start with a calling code|to be a phone number/,
			'unreadable',
		],
	];
	const found = reasons.find(([pattern]) => pattern.test(message));
	if (!found) throw new Error(`a refusal the oracle cannot place: ${message}`);
	return found[1];
}

/** The world zone of a calling code (its first digit), for counts per region group. */
export function zoneOf(callingCode: string): string {
	return (
		{
			'1': '1 North America and the Caribbean',
			'2': '2 Africa',
			'3': '3-4 Europe',
			'4': '3-4 Europe',
			'5': '5 Central and South America',
			'6': '6 Southeast Asia and Oceania',
			'7': '7 Russia and Kazakhstan',
			'8': '8 East Asia and global services',
			'9': '9 South, West and Central Asia',
		} as Record<string, string>
	)[callingCode[0]];
}
