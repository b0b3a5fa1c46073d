// Dates as people and systems write them, beyond ISO 8601's extended text: ISO's basic form
// (iCalendar's 20260328T233000Z), RFC 9557's time zone in brackets (Java's and Temporal's
// default text), a mail date (RFC 2822), a JS Date's text, English month names; and, for a date
// in a form the node does not read, its DateTime.fromFormat tokens.
import { DateTime } from 'luxon';

/** A date and time as written: its wall-clock fields, and what it says of its zone. */
export interface WrittenTime {
	year: number;
	month: number;
	day: number;
	/** Absent for a date alone. */
	hour?: number;
	minute: number;
	second: number;
	millisecond: number;
	/** As written: 'Z', 'UTC', '+05:30', 'GMT+5'; absent for a wall-clock time. */
	offset?: string;
	/** RFC 9557's time zone in brackets: '[America/St_Johns]'. */
	zone?: string;
}

const ZERO_NAMES = ['Z', 'z', 'UTC', 'GMT', 'UT'];
// Z, UTC, GMT or UT; ±HH, ±HHMM or ±HH:MM; after UTC or GMT, ±H and ±H:MM too (Intl's 'GMT+5:30').
const ZONE = String.raw`(Z|z|UTC|GMT|UT|[+-]\d{2}(?::?\d{2})?|(?:UTC|GMT)[+-]\d{1,2}(?::?\d{2})?)`;
// RFC 9557: a time zone in brackets ('!' marks it critical), then annotations such as [u-ca=iso8601].
const SUFFIX = String.raw`(?:\[!?([^\]=[]+)\])?((?:\[!?[a-z_][a-z0-9_-]*=[^\][]+\])*)`;
const TIME_OF_DAY = String.raw`([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:[.,](\d+))?)?`;
// 'YYYY-MM-DD', 'YYYY-MM-DDTHH:mm[:ss[.fraction]]' or with a space instead of T, optionally with a
// zone, after a space too: Snowflake's '2026-01-13 09:30:00.000 +0000', Postgres's '+00'.
const EXTENDED_TEXT = new RegExp(
	String.raw`^(\d{4})-(\d{2})-(\d{2})(?:[Tt ]${TIME_OF_DAY} ?${ZONE}?)?${SUFFIX}$`,
);
// ISO's basic form, iCalendar's: '20260328T233000Z', '20260328T2330+0530'.
const BASIC_TEXT = new RegExp(
	String.raw`^(\d{4})(\d{2})(\d{2})[Tt]([01]\d|2[0-3])([0-5]\d)(?:([0-5]\d)(?:[.,](\d+))?)? ?${ZONE}?${SUFFIX}$`,
);
/** Annotations that do not change the instant: a calendar to show it in. Other critical ones are refused (RFC 9557). */
const CRITICAL_ANNOTATION = /\[!(?!u-ca=)/;

/** Any number of fraction digits; CallKaro's format has whole seconds, so milliseconds are plenty. */
function millisecondOf(fraction: string): number {
	return Number(fraction.slice(0, 3).padEnd(3, '0'));
}

/** ISO 8601 text, extended or basic, with RFC 9557's suffix; undefined for any other text. */
export function isoTime(text: string): WrittenTime | undefined {
	const match = EXTENDED_TEXT.exec(text) ?? BASIC_TEXT.exec(text);
	if (!match) return undefined;
	const [, year, month, day, hour, minute = '0', second = '0', fraction = '', offset, zone] = match;
	if (CRITICAL_ANNOTATION.test(text)) return undefined;
	return {
		year: Number(year),
		month: Number(month),
		day: Number(day),
		hour: hour === undefined ? undefined : Number(hour),
		minute: Number(minute),
		second: Number(second),
		millisecond: millisecondOf(fraction),
		...(offset === undefined ? {} : { offset }),
		...(zone === undefined ? {} : { zone }),
	};
}

const OFFSET_TEXT = /^(?:UTC|GMT)?([+-])(\d{1,2}):?(\d{2})?$/;

/** Offset in minutes east of UTC, or undefined when it is not one (hours 0-23, minutes 0-59). */
export function offsetMinutes(offset: string): number | undefined {
	if (ZERO_NAMES.includes(offset)) return 0;
	const [, sign, hours, minutes = '00'] = OFFSET_TEXT.exec(offset) ?? [];
	if (sign === undefined || Number(hours) > 23 || Number(minutes) > 59) return undefined;
	return (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
}

// String(new Date()), as a Code node or a text template gives a JS Date: 'Wed Dec 02 2026
// 10:00:00 GMT+0530 (India Standard Time)'. It names its offset, so it is an instant.
const JS_DATE_STRING =
	/^([A-Z][a-z]{2}) ([A-Z][a-z]{2}) (\d{2}) (\d{4}) (\d{2}:\d{2}:\d{2}) GMT(?:([+-]\d{2}):?(\d{2}))?(?: \([^)]*\))?$/;
const MINUTES_IN_DAY = 24 * 60;

/**
 * The instant of a mail or web date (RFC 2822: 'Wed, 02 Dec 2026 10:00:00 +0530', as Gmail, IMAP,
 * RSS and HTTP give it, its 'UT' too; HTTP's older RFC 850 form, 'Wednesday, 02-Dec-26 04:30:00
 * GMT') or of a JS Date's text; undefined for any other text. Each names its offset; luxon
 * refuses a weekday that is not the date's.
 */
export function instantOfMailDate(text: string): number | undefined {
	// HTTP's asctime form has no zone (C's asctime writes local time): only a date ending in GMT
	const http = / GMT$/.test(text) ? DateTime.fromHTTP(text, { zone: 'UTC' }) : undefined;
	if (http?.isValid) return http.toMillis();
	const js = JS_DATE_STRING.exec(text);
	const rfc2822 = js
		? `${js[1]}, ${js[3]} ${js[2]} ${js[4]} ${js[5]} ${js[6] === undefined ? 'GMT' : `${js[6]}${js[7]}`}`
		: text.replace(/ UT$/, ' GMT');
	const time = DateTime.fromRFC2822(rfc2822, { setZone: true });
	// as in ISO text, an offset of a day or more is no offset (luxon takes +2500)
	return time.isValid && Math.abs(time.offset) < MINUTES_IN_DAY ? time.toMillis() : undefined;
}

const MONTHS = [
	'january',
	'february',
	'march',
	'april',
	'may',
	'june',
	'july',
	'august',
	'september',
	'october',
	'november',
	'december',
];
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** A name or its three-letter abbreviation, in any case, as luxon's MMMM/MMM and EEEE/EEE read it. */
function nameToken(word: string, names: string[], token: string): string | undefined {
	const lower = word.toLowerCase();
	if (names.includes(lower)) return token.repeat(4);
	return names.some((name) => name.slice(0, 3) === lower) ? token.repeat(3) : undefined;
}

/** A date in a form the node does not read: how it reads, and its tokens when they are sure. */
export interface DateShape {
	/** Its readings: one, or more when its day, month and year can be read in other orders. */
	readings: Array<{ time: WrittenTime; tokens?: string }>;
	/** It names its month in English. */
	monthName: boolean;
	/** The zone the tokens need: 'UTC' for a zone written as a name (the tokens hold it as text). */
	zone?: string;
}

type Part = { kind: 'digits' | 'word' | 'mark'; text: string };

const PARTS = /\d+|\p{L}+|[^\d\p{L}]/gu;
/** A zone at the end, after a time: a name or an offset. */
const ZONE_AT_END =
	/(?<=:\d{2}(?:[.,]\d+)? ?(?:[AaPp][Mm])? ?)(UTC|GMT|UT|Z|(?:UTC|GMT)?[+-]\d{1,2}(?::?\d{2})?)$/;
const MERIDIEM = /^[ap]m$/i;
const UTC_WORD = /^(UTC|GMT)$/;
/**
 * Words that tokens hold as text: between a date and its time, after a day's number. Any other
 * word may name a zone (IST, CET), which tokens that left it out would read in another.
 */
const LITERAL_WORD = /^(T|t|at|um|st|nd|rd|th)$/;
/** Marks that tokens hold as they are, and an n8n expression can quote: no quote, brace or backslash. */
const LITERAL_MARK = /^[ ,./:-]$/;

/** The luxon tokens of a zone as written, and the zone option they need. */
function zoneTokens(zone: string): { tokens: string; option?: string } {
	if (ZERO_NAMES.includes(zone)) return { tokens: `'${zone}'`, option: 'UTC' };
	const [, prefix = '', offset] = /^(UTC|GMT)?(.*)$/.exec(zone) ?? [];
	const token = /^[+-]\d{4}$/.test(offset) ? 'ZZZ' : 'ZZ';
	return { tokens: `${prefix ? `'${prefix}'` : ''}${token}` };
}

interface Slots {
	date: number[];
	time: number[];
	month?: number;
	weekday?: number;
	meridiem?: 'am' | 'pm';
	/** UTC or GMT written inside the text, as Unix `date` writes it: 'Sat Mar 28 23:30:00 UTC 2026'. */
	utc?: string;
}

/** The parts as tokens, with `order` the tokens of the date's digit runs: undefined when one has none. */
function tokensOf(parts: Part[], order: string[], timeTokens: string[]): string | undefined {
	let [dateIndex, timeIndex] = [0, 0];
	const tokens: string[] = [];
	for (const [index, part] of parts.entries()) {
		if (part.kind === 'digits') {
			const inTime = timeIndex < timeTokens.length && isTimePart(parts, index);
			tokens.push(inTime ? timeTokens[timeIndex++] : order[dateIndex++]);
		} else if (part.kind === 'word') {
			const token =
				nameToken(part.text, MONTHS, 'M') ??
				nameToken(part.text, WEEKDAYS, 'E') ??
				(MERIDIEM.test(part.text)
					? 'a'
					: LITERAL_WORD.test(part.text) || UTC_WORD.test(part.text)
						? `'${part.text}'`
						: undefined);
			if (token === undefined) return undefined;
			tokens.push(token);
		} else if (LITERAL_MARK.test(part.text)) {
			tokens.push(part.text);
		} else return undefined;
	}
	return tokens.join('');
}

/** Whether the digit run at `index` is of the time: next to a ':', or the fraction after its seconds. */
function isTimePart(parts: Part[], index: number): boolean {
	const near = (offset: number) => parts[index + offset]?.text;
	const afterSeconds = ['.', ','].includes(near(-1) ?? '') && near(-3) === ':';
	return near(1) === ':' || near(-1) === ':' || afterSeconds;
}

function slotsOf(parts: Part[]): Slots {
	const slots: Slots = { date: [], time: [] };
	for (const [index, part] of parts.entries()) {
		if (part.kind === 'digits') {
			(isTimePart(parts, index) ? slots.time : slots.date).push(index);
		} else if (part.kind === 'word') {
			const lower = part.text.toLowerCase();
			const month = MONTHS.findIndex((name) => name === lower || name.slice(0, 3) === lower);
			const weekday = WEEKDAYS.findIndex((name) => name === lower || name.slice(0, 3) === lower);
			if (month >= 0 && slots.month === undefined) slots.month = month + 1;
			else if (weekday >= 0 && slots.weekday === undefined) slots.weekday = weekday + 1;
			else if (MERIDIEM.test(part.text)) slots.meridiem = lower.startsWith('a') ? 'am' : 'pm';
			else if (UTC_WORD.test(part.text)) slots.utc = part.text;
		}
	}
	return slots;
}

function isLeapYear(year: number): boolean {
	return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** Days in a month of the proleptic Gregorian calendar. */
function daysInMonth(year: number, month: number): number {
	if (month === 2) return isLeapYear(year) ? 29 : 28;
	return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Whether the fields name a real day. */
export function isRealDate({ year, month, day }: WrittenTime): boolean {
	return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/**
 * The text as a date in a form the node does not read: a date of three numbers (or a day, an
 * English month name and a four-digit year), with a time of day written with ':', and
 * nothing else but words and marks. Its tokens are given when luxon's fromFormat reads the text
 * with them as the same fields. Undefined for text that is no such date: such text may be a phone
 * number, and is masked.
 */
export function dateShape(text: string): DateShape | undefined {
	const zone = ZONE_AT_END.exec(text)?.[1];
	const body = zone === undefined ? text : text.slice(0, text.length - zone.length);
	const parts: Part[] = Array.from(body.matchAll(PARTS), ([part]) => ({
		kind: /^\d/.test(part) ? 'digits' : /^\p{L}/u.test(part) ? 'word' : 'mark',
		text: part,
	}));
	const slots = slotsOf(parts);
	const clock = timeOfDay(parts, slots);
	if (clock === undefined) return undefined;
	const dateNumbers = slots.date.map((index) => parts[index].text);
	const timeTokens = [slots.meridiem ? 'h' : 'H', 'mm', 'ss', 'SSS'];
	// one zone at most: UTC inside the text, or a zone at its end
	if (zone !== undefined && slots.utc !== undefined) return undefined;
	const offset = zone ?? slots.utc;
	const orders = dateOrders(dateNumbers, slots.month !== undefined);
	const readings = orders
		.map((order) => {
			const value = (token: string) => Number(dateNumbers[order.indexOf(token)]);
			const time: WrittenTime = {
				year: order.includes('yyyy') ? value('yyyy') : fullYear(value('yy')),
				month: slots.month ?? value('M'),
				day: value('d'),
				...clock,
				...(offset === undefined ? {} : { offset }),
			};
			return { time, order };
		})
		.filter(({ time }) => isRealDate(time) && weekdayAgrees(time, slots.weekday));
	if (readings.length === 0) return undefined;
	const zoneToken = zone === undefined ? undefined : zoneTokens(zone);
	// UTC inside the text is held in the tokens as text, so they need the zone too
	const zoneOption = zoneToken?.option ?? (slots.utc === undefined ? undefined : 'UTC');
	return {
		monthName: slots.month !== undefined,
		...(zoneOption === undefined ? {} : { zone: zoneOption }),
		readings: readings.map(({ time, order }) => {
			const body = tokensOf(parts, order, timeTokens);
			const tokens = body === undefined ? undefined : `${body}${zoneToken?.tokens ?? ''}`;
			return { time, ...(tokens && tokensRead(text, tokens, time) ? { tokens } : {}) };
		}),
	};
}

/**
 * The time of day the parts write with ':', or none for a date alone whose month is named
 * ('13 January 2026': no phone number has a month); undefined when they write no time.
 */
function timeOfDay(
	parts: Part[],
	slots: Slots,
): Pick<WrittenTime, 'hour' | 'minute' | 'second' | 'millisecond'> | undefined {
	if (slots.time.length === 0) {
		const alone = slots.month !== undefined && !slots.meridiem && !slots.utc;
		return alone ? { minute: 0, second: 0, millisecond: 0 } : undefined;
	}
	// a sign before the hour makes it an offset ('2026-11-22+05:30'), not a time
	const beforeTime = parts[slots.time[0] - 1]?.text;
	if (beforeTime === '+' || beforeTime === '-' || slots.time.length < 2 || slots.time.length > 4)
		return undefined;
	const [hourText, minuteText, secondText = '00', fraction] = slots.time.map(
		(index) => parts[index].text,
	);
	if (minuteText.length !== 2 || secondText.length !== 2) return undefined;
	if (fraction !== undefined && fraction.length !== 3) return undefined;
	const hour = clockHour(Number(hourText), slots.meridiem);
	const [minute, second] = [Number(minuteText), Number(secondText)];
	if (hour === undefined || minute > 59 || second > 59) return undefined;
	return { hour, minute, second, millisecond: fraction === undefined ? 0 : Number(fraction) };
}

/** 0-23 from a clock's hour, with AM or PM when it is 12-hour. */
function clockHour(hour: number, meridiem: Slots['meridiem']): number | undefined {
	if (meridiem === undefined) return hour <= 23 ? hour : undefined;
	if (hour < 1 || hour > 12) return undefined;
	return (hour % 12) + (meridiem === 'pm' ? 12 : 0);
}

/**
 * The orders the date's numbers may be in, as tokens: a four-digit year first or last, or, with
 * three numbers of one or two digits (a locale's short date, '28.03.26'), a two-digit year
 * last or first.
 */
function dateOrders(numbers: string[], monthName: boolean): string[][] {
	if (numbers.some((number) => number.length > 4 || number.length === 3)) return [];
	const yearAt = numbers.findIndex((number) => number.length === 4);
	if (numbers.filter((number) => number.length === 4).length > 1) return [];
	if (monthName) {
		if (numbers.length !== 2 || yearAt < 0) return [];
		return [yearAt === 0 ? ['yyyy', 'd'] : ['d', 'yyyy']];
	}
	if (numbers.length !== 3 || yearAt === 1) return [];
	if (yearAt === 0) return [['yyyy', 'M', 'd']];
	const year = yearAt === 2 ? 'yyyy' : 'yy';
	return [['d', 'M', year], ['M', 'd', year], ...(yearAt < 0 ? [['yy', 'M', 'd']] : [])];
}

/** A two-digit year as luxon reads it by default: up to 60 in this century, above it in the last. */
function fullYear(twoDigits: number): number {
	return twoDigits > 60 ? 1900 + twoDigits : 2000 + twoDigits;
}

function weekdayAgrees(time: WrittenTime, weekday: number | undefined): boolean {
	return (
		weekday === undefined ||
		new Date(Date.UTC(time.year, time.month - 1, time.day)).getUTCDay() === weekday % 7
	);
}

/** Whether luxon's fromFormat reads the text with the tokens as the same fields. */
function tokensRead(text: string, tokens: string, time: WrittenTime): boolean {
	// setZone keeps the offset written, so the fields are the text's own
	const wall = DateTime.fromFormat(text, tokens, { zone: 'UTC', setZone: true, locale: 'en-US' });
	return (
		wall.isValid &&
		wall.year === time.year &&
		wall.month === time.month &&
		wall.day === time.day &&
		wall.hour === (time.hour ?? 0) &&
		wall.minute === time.minute &&
		wall.second === time.second &&
		wall.millisecond === time.millisecond
	);
}
