import { DateTime, FixedOffsetZone, IANAZone, Info, Settings } from 'luxon';
import type { Zone } from 'luxon';

import { invalidInput } from '../input/inputError';
import { describeValue, wrongTypeError } from '../input/input';
import { ianaZoneOfWindowsName } from './windowsZones';

/** CallKaro reads schedule times as wall-clock time in India. */
export const IST_ZONE = 'Asia/Kolkata';

const WALL_FORMAT = "yyyy-LL-dd'T'HH:mm:ss";
// A fixed locale and digits: the host may have changed luxon's defaults.
const FORMAT_OPTIONS = { locale: 'en-US', numberingSystem: 'latn' } as const;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;
/** CallKaro's format has a four-digit year. */
const FIRST_YEAR = 1;
const LAST_YEAR = 9999;

/** What a Schedule Time more than an hour in the past does: fail the item, or start now. */
export type LongPast = 'fail' | 'startNow';
/** What a Schedule Time more than FAR_AHEAD_DAYS ahead does: fail the item, or send it. */
export type FarAhead = 'fail' | 'send';
/**
 * Callbacks and follow-ups are days or weeks ahead; the furthest a calling campaign plausibly
 * plans is a yearly renewal, on the same date next year (366 days in a leap year). Further
 * than that is a wrong field (a phone number read as epoch seconds) or a mistyped year.
 */
export const FAR_AHEAD_DAYS = 366;
// Further back than this, a past time is a wrong mapping (a created date, seconds read as
// milliseconds) far more often than a late run; a run a few minutes late still starts now.
const LONG_PAST_MS = 60 * MINUTE;

/**
 * A time within a minute of the clock, either side, is "now" as a builder means it: `{{ $now }}`
 * mapped into Schedule Time, or a time a few seconds old by the time its item is read.
 */
const NOW_WITHIN_MS = MINUTE;
export function isNow(instant: number, now: number): boolean {
	return Math.abs(instant - now) <= NOW_WITHIN_MS;
}

// Numbers are read by size. Both epoch readings start at 1973-03-03T09:46:40Z, so a number
// means one time at most, and none before 1973 (in milliseconds a seconds value is 1970).
const FIRST_EPOCH_SECONDS = 1e8;
const FIRST_EPOCH_MILLIS = 1e11;
/** Spreadsheet serial dates count days from 1899-12-30; 100000 is the year 2173. */
const SERIAL_DATE_EPOCH = Date.UTC(1899, 11, 30);
const LAST_SERIAL_DATE = 100_000;
/**
 * A number as text: digits, a fraction, an exponent. BigQuery gives a TIMESTAMP as decimal epoch
 * seconds in exponent notation ('1.7682813E9'), HubSpot epoch milliseconds as digits.
 */
const NUMBER_TEXT = /^(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
/** Further than this an exponent means no time in the years 1-9999; the digits are not spelt out. */
const LONGEST_EXPONENT = 30;

export interface IstSchedule {
	/** '2026-11-22T09:30:00': the time in Asia/Kolkata, in CallKaro's format. */
	scheduleAt: string;
	/** '2026-11-22T04:00:00.000Z' */
	utc: string;
	/** Past by more than a minute: CallKaro starts it at once. */
	isPast: boolean;
	/** Within a minute of now (isNow): the call or run starts now. */
	startsNow?: true;
	/** Set when the value needed a rule to mean one instant, e.g. a repeated hour or epoch seconds. */
	note?: string;
	/** The zone date-and-time text without an offset was read in; absent for any other value. */
	wallClockZone?: string;
}

export interface ScheduleOptions {
	/** IANA zone of date-and-time text without an offset. */
	zone: string;
	now?: Date;
	field?: string;
	/** Default 'fail'. */
	longPast?: LongPast;
	/** Default 'fail'. */
	farAhead?: FarAhead;
	/** When a date without a time starts ('HH:MM' in a zone: Calling Hours' opening); refused without. */
	dayStart?: { zone: string; time: string };
	/** Numbers below 100000 are spreadsheet serial dates, read on the clocks of `zone`. */
	serialDates?: boolean;
	/** The value is one of a database's own values, whose driver gives a DATE column as midnight. */
	dateColumn?: DateColumn;
}

/**
 * How a database node's driver gives a DATE column when not as 'YYYY-MM-DD' text: as an instant
 * (a JS Date, or its ISO text) at midnight on a clock. Such a midnight is the date alone.
 */
export interface DateColumn {
	/** The zone of the driver's midnight: UTC (SQL Server's driver), or the n8n server's (node-postgres). */
	zone: string;
	/** The zone is the n8n server's own, as messages say. */
	serverZone?: boolean;
	/** The node, as messages name it: 'Postgres'. */
	source: string;
	/** The expression of the item's value, for the fix that reads it as an instant: '$json.follow_up_on'. */
	expression: string;
}

/** How scheduleNote starts for a DATE column's midnight: 'midnight read as a date alone, as Postgres gives a DATE column'. */
export const DATE_COLUMN_NOTE = 'midnight read as a date alone, as';

// 'YYYY-MM-DD', 'YYYY-MM-DDTHH:mm[:ss[.fraction]]' or with a space instead of T, optionally with Z,
// UTC or an offset, after a space too: Snowflake's '2026-01-13 09:30:00.000 +0000', Postgres's '+00'.
const DATE_TEXT =
	/^(\d{4})-(\d{2})-(\d{2})(?:[Tt ]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:[.,](\d+))?)? ?(Z|z|UTC|[+-]\d{2}(?::?\d{2})?)?)?$/;
const OFFSET_TEXT = /^([+-])(\d{2}):?(\d{2})?$/;
const FORMAT_HINT =
	'Use a date and time such as 2026-11-22T09:30:00 (read in India time, or in Options → Time Zone) or 2026-11-22T09:30:00+05:30';

interface DateTimeLike {
	isValid: boolean;
	toMillis(): number;
}

// The host's luxon copy may differ from ours, so DateTime.isDateTime cannot be trusted.
function isDateTimeLike(value: object): value is DateTimeLike {
	const candidate = value as Partial<Record<keyof DateTimeLike, unknown>>;
	return typeof candidate.toMillis === 'function' && typeof candidate.isValid === 'boolean';
}

function isJsDateLike(value: object): value is { toJSDate(): Date } {
	return typeof (value as { toJSDate?: unknown }).toJSDate === 'function';
}

function isJsDate(value: object): value is Date {
	return Object.prototype.toString.call(value) === '[object Date]';
}

function millisOf(value: unknown, field: string): number {
	if (typeof value === 'object' && value !== null) {
		if (isDateTimeLike(value)) return value.isValid ? value.toMillis() : Number.NaN;
		if (isJsDateLike(value)) return value.toJSDate().getTime();
		if (isJsDate(value)) return value.getTime();
	}
	throw wrongTypeError(field, value, 'a date and time', FORMAT_HINT);
}

function isLeapYear(year: number): boolean {
	return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
	if (month === 2) return isLeapYear(year) ? 29 : 28;
	return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The wall-clock fields as milliseconds of the same fields read in UTC (Date.UTC maps years 0-99 to 1900s). */
function wallMillis(fields: number[]): number {
	const [year, month, day, hour, minute, second, millisecond] = fields;
	const date = new Date(0);
	date.setUTCFullYear(year, month - 1, day);
	date.setUTCHours(hour, minute, second, millisecond);
	return date.getTime();
}

/** Offset in minutes east of UTC, or undefined when it is not an ISO 8601 offset (hours 0-23, minutes 0-59). */
function offsetMinutes(offset: string): number | undefined {
	if (['Z', 'z', 'UTC'].includes(offset)) return 0;
	const [, sign, hours, minutes = '00'] = OFFSET_TEXT.exec(offset) ?? [];
	if (sign === undefined || Number(hours) > 23 || Number(minutes) > 59) return undefined;
	return (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
}

function formatOffset(minutes: number): string {
	const sign = minutes < 0 ? '-' : '+';
	const absolute = Math.round(Math.abs(minutes));
	const pad = (part: number) => String(part).padStart(2, '0');
	return `${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
}

// Offsets already looked up, per zone name and instant. Each lookup is an Intl formatToParts
// (behind luxon's zone.offset), the bulk of a schedule's cost, and a bulk run often schedules
// every item at the same time. Bounded: a zone's entries are dropped when it has too many.
const OFFSET_CACHE_SIZE = 10_000;
const knownOffsets = new Map<string, Map<number, number>>();

/** The zone's offset at an instant, in milliseconds (luxon gives minutes, fractional before 1900). */
function offsetAt(zone: Zone, instant: number): number {
	let offsets = knownOffsets.get(zone.name);
	if (offsets === undefined) knownOffsets.set(zone.name, (offsets = new Map()));
	let offset = offsets.get(instant);
	if (offset === undefined) {
		if (offsets.size >= OFFSET_CACHE_SIZE) offsets.clear();
		offset = Math.round(zone.offset(instant) * MINUTE);
		offsets.set(instant, offset);
	}
	return offset;
}

/** "YYYY-MM-DDTHH:mm:ss" on the clocks of the zone at an instant. */
export function formatWall(instant: number, zone: Zone): string {
	return DateTime.fromMillis(instant, { zone }).toFormat(WALL_FORMAT, FORMAT_OPTIONS);
}

/** The first instant at which the offset is no longer `before`, between two instants with different offsets. */
function changeInstant(zone: Zone, from: number, to: number, before: number): number {
	let [low, high] = [from, to];
	while (high - low > 1) {
		const middle = Math.floor((low + high) / 2);
		if (offsetAt(zone, middle) === before) low = middle;
		else high = middle;
	}
	return high;
}

type WallReading =
	| { kind: 'exists'; instant: number; repeatedOffset?: number }
	| { kind: 'skipped'; lastBefore: number; firstAfter: number };

/**
 * Which instant a wall-clock time in a zone means. The offsets a day before and a day after
 * bracket any clock change near it (the longest known, Apia's, skipped one day), so the answer
 * does not depend on today's offset as luxon's own reading does.
 */
function readWallTime(wall: number, zone: Zone): WallReading {
	const offsetBefore = offsetAt(zone, wall - DAY);
	const offsetAfter = offsetAt(zone, wall + DAY);
	const instants = [...new Set([offsetBefore, offsetAfter])]
		.map((offset) => wall - offset)
		.filter((instant) => offsetAt(zone, instant) === wall - instant)
		.sort((a, b) => a - b);
	if (instants.length > 0) {
		// A repeated time is its first occurrence, the earlier instant (RFC 5545, Python's fold=0).
		const [first] = instants;
		return {
			kind: 'exists',
			instant: first,
			repeatedOffset: instants.length > 1 ? wall - first : undefined,
		};
	}
	const change = changeInstant(zone, wall - DAY, wall + DAY, offsetBefore);
	return { kind: 'skipped', lastBefore: change - SECOND, firstAfter: change };
}

/** What an input means: an instant, and how it was read. */
interface Reading {
	instant: number;
	note?: string;
	wallClockZone?: string;
	/** The last instant the value may mean, when later than `instant`: the end of a date's day. */
	latest?: number;
	/** Wall-clock text without an offset: its fields read as UTC, for the hint that it is UTC. */
	wallAsUtc?: number;
}

function skippedError(text: string, zone: Zone, field: string, reading: WallReading) {
	const gap =
		reading.kind === 'skipped'
			? `The clocks go from ${formatWall(reading.lastBefore, zone)} straight to ${formatWall(reading.firstAfter, zone)}; pick a time outside that gap`
			: 'Pick a time outside the clock change';
	return invalidInput(
		field,
		`does not exist in the time zone ${zone.name}, because the clocks skip it: ${dateShown(text)}`,
		gap,
	);
}

/** Wall-clock text in the zone: one rule for repeated and skipped times. */
function readWallText(text: string, wall: number, zone: Zone, field: string): Reading {
	const reading = readWallTime(wall, zone);
	if (reading.kind === 'skipped') throw skippedError(text, zone, field, reading);
	const { instant, repeatedOffset } = reading;
	return {
		instant,
		wallClockZone: zone.name,
		wallAsUtc: wall,
		...(repeatedOffset === undefined
			? {}
			: {
					note: `repeated wall time read as its first occurrence (${formatOffset(repeatedOffset / MINUTE)})`,
				}),
	};
}

/** Minutes since midnight of 'HH:MM'. */
export function minutesOfDay(timeOfDay: string): number {
	const [hours, minutes] = timeOfDay.split(':').map(Number);
	return hours * 60 + minutes;
}

/** Why a value is a date alone, for the refusal without Calling Hours: what it is, and more fix. */
interface DateAlone {
	/** e.g. 'has a date but no time: "2030-12-05"' */
	said: string;
	/** Said after the fix for any date alone. */
	moreFix?: string;
	/** Said at the start of scheduleNote, when something decided it is a date alone. */
	note?: string;
}

/**
 * A date without a time (a form's date answer) is never a silent midnight call: it starts at the
 * day start given (when Calling Hours open that day), and may be used until that day ends.
 */
function readDate(
	date: string,
	dayStart: ScheduleOptions['dayStart'],
	field: string,
	why: DateAlone,
): Reading {
	if (dayStart === undefined) {
		throw invalidInput(
			field,
			why.said,
			`Add the time, such as ${date}T10:00:00+05:30, or add Options → Calling Hours to start when they open that day${why.moreFix ? `; ${why.moreFix}` : ''}`,
		);
	}
	const zone = knownZone(dayStart.zone, 'Calling Hours Time Zone');
	const day = Date.parse(`${date}T00:00:00Z`);
	const note = `date without a time: starts when Calling Hours open that day (${dayStart.time} in ${zone.name})`;
	return {
		instant: firstInstantAtOrAfter(day + minutesOfDay(dayStart.time) * MINUTE, zone),
		latest: firstInstantAtOrAfter(day + DAY, zone) - 1,
		note: why.note ? `${why.note}; ${note}` : note,
	};
}

// The ISO text a JS Date gives (toISOString, toJSON): what n8n writes a driver's Date as.
const JS_DATE_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * 'YYYY-MM-DD' of an instant that is the start of a day in a zone, else undefined: midnight, or
 * where the clocks resume when they skip it, as a JS Date built for that day is.
 */
function dayStartingAt(instant: number, zone: Zone): string | undefined {
	const wall = instant + offsetAt(zone, instant);
	const day = wall - (((wall % DAY) + DAY) % DAY);
	const starts = firstInstantAtOrAfter(day, zone) === instant;
	return starts ? new Date(day).toISOString().slice(0, 10) : undefined;
}

/**
 * A database's own value that its driver wrote for a DATE column (a JS Date, or its ISO text) at
 * midnight on the driver's clock, read as the date alone; undefined for any other value.
 */
function readDateColumn(value: unknown, options: TextOptions, field: string): Reading | undefined {
	const column = options.dateColumn;
	if (column === undefined) return undefined;
	const shown =
		typeof value === 'string'
			? value.trim()
			: typeof value === 'object' &&
				  value !== null &&
				  isJsDate(value) &&
				  !Number.isNaN(value.getTime())
				? value.toISOString()
				: undefined;
	if (shown === undefined || !JS_DATE_TEXT.test(shown)) return undefined;
	const zone = knownZone(column.zone);
	const date = dayStartingAt(Date.parse(shown), zone);
	if (date === undefined) return undefined;
	const midnight = column.serverZone
		? `midnight on the n8n server's clock (${zone.name})`
		: `midnight ${zone.name}`;
	return readDate(date, options.dayStart, field, {
		said: `is ${midnight}, as ${column.source} gives a DATE column, so a date alone: "${shown}"`,
		moreFix: `if the column holds a time of day, map {{ ${column.expression}.toDateTime() }}, which is read as that instant`,
		note: `${DATE_COLUMN_NOTE} ${column.source} gives a DATE column`,
	});
}

/**
 * The first instant at which the zone's clocks show the wall time, or reach it when the clocks
 * skip it (ms of the wall fields read as UTC): when a window that opens at that time opens.
 */
export function firstInstantAtOrAfter(wall: number, zone: Zone): number {
	const reading = readWallTime(wall, zone);
	return reading.kind === 'exists' ? reading.instant : reading.firstAfter;
}

// String(new Date()), as a Code node or a text template gives a JS Date: 'Wed Dec 02 2026
// 10:00:00 GMT+0530 (India Standard Time)'. It names its offset, so it is an instant.
const JS_DATE_STRING =
	/^([A-Z][a-z]{2}) ([A-Z][a-z]{2}) (\d{2}) (\d{4}) (\d{2}:\d{2}:\d{2}) GMT([+-]\d{4})(?: \([^)]*\))?$/;

/**
 * The instant of a mail or web date (RFC 2822: 'Wed, 02 Dec 2026 10:00:00 +0530', as Gmail, IMAP,
 * RSS and HTTP give it) or of a JS Date's text; undefined for any other text. Each names its
 * offset; luxon refuses a weekday that is not the date's.
 */
function instantOfWrittenDate(text: string): number | undefined {
	const js = JS_DATE_STRING.exec(text);
	const rfc2822 = js ? `${js[1]}, ${js[3]} ${js[2]} ${js[4]} ${js[5]} ${js[6]}` : text;
	const time = DateTime.fromRFC2822(rfc2822, { setZone: true });
	// as in ISO text, an offset of a day or more is no offset (luxon takes +2500)
	return time.isValid && Math.abs(time.offset) < DAY / MINUTE ? time.toMillis() : undefined;
}

function parseDateText(text: string, options: TextOptions, field: string): Reading {
	const match = DATE_TEXT.exec(text);
	if (!match) {
		const instant = instantOfWrittenDate(text);
		if (instant !== undefined) return { instant };
		throw invalidInput(field, `is not a date and time: ${describeValue(text)}`, FORMAT_HINT);
	}
	const [, year, month, day, hour, minute = '0', second = '0', fraction = '', offset] = match;
	if (
		Number(month) < 1 ||
		Number(month) > 12 ||
		Number(day) < 1 ||
		Number(day) > daysInMonth(Number(year), Number(month))
	) {
		throw invalidInput(field, `is not a real date or time: ${dateShown(text)}`, FORMAT_HINT);
	}
	// Any number of fraction digits; CallKaro's format has whole seconds, so milliseconds are plenty.
	const millisecond = fraction.slice(0, 3).padEnd(3, '0');
	const wall = wallMillis([year, month, day, hour ?? '0', minute, second, millisecond].map(Number));
	const date = text.slice(0, 10);
	if (hour === undefined) {
		return readDate(date, options.dayStart, field, {
			said: `has a date but no time: ${dateShown(text)}`,
		});
	}
	if (offset === undefined) {
		// Midnight without an offset is what a date picker gives for a date alone: it names no
		// instant, and no one means a call at 00:00. With an offset it is that instant.
		if (wall % DAY === 0) {
			return readDate(date, options.dayStart, field, {
				said: `is midnight without an offset, as a date picker gives a date alone: ${dateShown(text)}`,
				moreFix: `for a call at midnight, give the offset: ${date}T00:00:00+05:30`,
			});
		}
		return readWallText(text, wall, options.zone, field);
	}
	const minutes = offsetMinutes(offset);
	if (minutes === undefined) {
		throw invalidInput(
			field,
			`has an offset that is not -23:59 to +23:59: ${dateShown(text)}`,
			'Write the offset as +HH:MM or -HH:MM, hours 00-23 and minutes 00-59, such as +05:30',
		);
	}
	return { instant: wall - minutes * MINUTE };
}

/**
 * Date text as a message shows it: as given, since it is no phone number, but with a fraction
 * of a second cut to 6 digits, so that no run of a phone number's length is shown.
 */
function dateShown(text: string): string {
	return `"${text.replace(/([.,]\d{6})\d+/, '$1…')}"`;
}

/** How a value is read: offset-less date and time in `zone`, a date alone from `dayStart`. */
interface TextOptions {
	zone: Zone;
	dayStart: ScheduleOptions['dayStart'];
	serialDates?: boolean;
	dateColumn?: DateColumn;
}

/** A number as a message shows it: its size, once it has as many digits as the shortest phone numbers. */
function numberShown(number: number): string {
	const digits = numberDigits(number)?.length ?? 0;
	if (digits < 7) return String(number);
	return `a ${number < 0 ? 'negative ' : ''}number of ${digits} digits`;
}

/** A refused value as messages show it: a number by its size, date text as given, other text masked. */
function valueShown(value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : undefined;
	if (typeof value === 'number') return numberShown(value);
	if (text !== undefined && NUMBER_TEXT.test(text)) return numberShown(Number(text));
	if (text !== undefined && DATE_TEXT.test(text)) return dateShown(text);
	return describeValue(value);
}

/** The option that reads spreadsheet serial dates, as fixes name it. */
export const SERIAL_DATES_OPTION = 'Options → Schedule Time Numbers → Spreadsheet Serial Dates';

/** How scheduleNote starts for a serial read as a date: 'spreadsheet serial date read as 2026-01-13 10:30'. */
export const SERIAL_DATE_NOTE = 'spreadsheet serial date read as';

/** A serial's wall-clock fields (days since 1899-12-30, the time of day as the fraction), to the minute. */
function serialWall(serial: number): number {
	return SERIAL_DATE_EPOCH + Math.round(serial * 24 * 60) * MINUTE;
}

/** '2026-01-14 10:30', or '2026-01-14' for a whole day: how a serial is shown, never as its digits. */
function serialShown(serial: number): string {
	const text = new Date(serialWall(serial)).toISOString();
	return Number.isInteger(serial)
		? text.slice(0, 10)
		: `${text.slice(0, 10)} ${text.slice(11, 16)}`;
}

/** A serial as its date and time on the zone's clocks, or its date alone for a whole number. */
function readSerial(serial: number, options: TextOptions, field: string): Reading {
	const wall = serialWall(serial);
	const shown = serialShown(serial);
	const reading = Number.isInteger(serial)
		? readDate(shown, options.dayStart, field, { said: `has a date but no time: "${shown}"` })
		: readWallText(shown, wall, options.zone, field);
	const note = `${SERIAL_DATE_NOTE} ${shown}`;
	return { ...reading, note: reading.note ? `${note}; ${reading.note}` : note };
}

/**
 * A number's decimal text with its exponent applied, as the digits before and after the point:
 * '1.7682813E9' is 1768281300 and ''. Undefined for text that is not one, or a longer exponent.
 */
function decimalParts(text: string): { whole: string; fraction: string } | undefined {
	const [, whole, fraction = '', exponent = '0'] = NUMBER_TEXT.exec(text) ?? [];
	const shift = Number(exponent);
	if (whole === undefined || Math.abs(shift) > LONGEST_EXPONENT) return undefined;
	const digits = whole + fraction;
	const point = whole.length + shift;
	if (point <= 0) return { whole: '0', fraction: '0'.repeat(-point) + digits };
	if (point >= digits.length) return { whole: digits.padEnd(point, '0'), fraction: '' };
	return { whole: digits.slice(0, point), fraction: digits.slice(point) };
}

/**
 * Epoch seconds (unit SECOND) or milliseconds (unit 1) as milliseconds, from the number's decimal
 * text: exact, with a fraction of a millisecond cut as ISO text's is, so every form agrees.
 */
function epochMillis(number: number, text: string, unit: number): number {
	const parts = decimalParts(text);
	if (parts === undefined) return Math.floor(number * unit);
	const places = unit === SECOND ? 3 : 0;
	return Number(parts.whole + parts.fraction.slice(0, places).padEnd(places, '0'));
}

/** A number by its size: epoch milliseconds, epoch seconds, a serial date, or refused saying what it looks like. */
function readNumber(
	number: number,
	options: TextOptions,
	field: string,
	text = String(number),
): Reading {
	if (Number.isNaN(number) || number >= FIRST_EPOCH_MILLIS) {
		return { instant: epochMillis(number, text, 1) };
	}
	if (number >= FIRST_EPOCH_SECONDS) {
		return {
			instant: epochMillis(number, text, SECOND),
			note: 'number read as epoch seconds, not milliseconds',
		};
	}
	if (number > 0 && number < LAST_SERIAL_DATE) {
		if (options.serialDates) return readSerial(number, options, field);
		throw invalidInput(
			field,
			`is a number that looks like a spreadsheet serial date, ${serialShown(number)} (days since 1899-12-30, the time as the fraction), not a date and time`,
			`To read it so, set ${SERIAL_DATES_OPTION}; or give a date and time such as 2026-11-22T09:30:00+05:30`,
		);
	}
	throw invalidInput(
		field,
		`is ${numberShown(number)}, which is neither epoch seconds (9 to 11 digits) nor epoch milliseconds (12 digits or more) nor a spreadsheet serial date (below ${LAST_SERIAL_DATE})`,
		FORMAT_HINT,
	);
}

function emptyError(field: string) {
	return invalidInput(
		field,
		'is empty',
		`${FORMAT_HINT}. An empty Schedule Time never means now: to start now, set none`,
	);
}

function parseInput(value: unknown, options: TextOptions, field: string): Reading {
	const dateColumn = readDateColumn(value, options, field);
	if (dateColumn !== undefined) return dateColumn;
	if (typeof value === 'number') return readNumber(value, options, field);
	if (value === undefined || value === null) throw emptyError(field);
	if (typeof value !== 'string') return { instant: millisOf(value, field) };
	const text = value.trim();
	if (text === '') throw emptyError(field);
	// HubSpot sends epoch milliseconds as text, BigQuery epoch seconds in exponent notation.
	return NUMBER_TEXT.test(text)
		? readNumber(Number(text), options, field, text)
		: parseDateText(text, options, field);
}

function istDateTime(instant: number, value: unknown, field: string): DateTime<true> {
	if (!Number.isFinite(instant))
		throw invalidInput(field, `is not a valid date: ${valueShown(value)}`, FORMAT_HINT);
	// India's offset at that instant, looked up once (see offsetAt).
	const offset = FixedOffsetZone.instance(offsetAt(IANAZone.create(IST_ZONE), instant) / MINUTE);
	const ist = DateTime.fromMillis(instant, { zone: offset });
	if (!ist.isValid || ist.year < FIRST_YEAR || ist.year > LAST_YEAR) {
		throw invalidInput(
			field,
			`is outside the years 0001 to 9999 in India time: ${valueShown(value)}`,
			"CallKaro's schedule format has a four-digit year; pick a time in that range",
		);
	}
	return ist;
}

/** "YYYY-MM-DDTHH:mm:ss" of a time whose year is 1 to 9999: what toFormat(WALL_FORMAT) gives, without its locale set-up. */
function formatIst(time: DateTime): string {
	const pad = (value: number, width = 2) => String(value).padStart(width, '0');
	return `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)}T${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`;
}

/** India's zone under the names people and ICU give it. */
const INDIA_ZONE_NAMES = new Set(['asia/kolkata', 'asia/calcutta', 'ist']);
/** Abbreviations that name no single zone (EST has no summer time, IST is also Israel's). */
const ZONE_ABBREVIATION = /^([A-Z]{3,4}|[a-z]{3,4})$/;
const ZONE_FIX = 'Use an IANA time zone name such as Asia/Kolkata or America/New_York';

/**
 * A luxon zone for an IANA or Windows name in any case (or UTC and fixed offsets), or an error naming the
 * field. India's zone by any of its names (IST, asia/calcutta) is Asia/Kolkata, so zones compare
 * as zones, not as text; other abbreviations are refused, since each means several zones.
 */
export function knownZone(zone: string, field = 'Time Zone'): Zone {
	// Microsoft's calendars name zones as Windows does: 'India Standard Time'.
	const given = ianaZoneOfWindowsName(zone) ?? zone.trim();
	if (INDIA_ZONE_NAMES.has(given.toLowerCase())) return IANAZone.create(IST_ZONE);
	if (ZONE_ABBREVIATION.test(given) && !['utc', 'gmt'].includes(given.toLowerCase())) {
		throw invalidInput(
			field,
			`is an abbreviation, ${describeValue(zone)}, which names no single time zone`,
			ZONE_FIX,
		);
	}
	const known = given === '' ? undefined : Info.normalizeZone(given);
	if (!known?.isValid) {
		throw invalidInput(field, `is not a known time zone: ${describeValue(zone)}`, ZONE_FIX);
	}
	return known.type === 'iana' ? IANAZone.create(canonicalZoneName(known.name)) : known;
}

// Zones are read for every item, and an Intl.DateTimeFormat is costly to build: each name once.
const canonicalNames = new Map<string, string>();

/** 'europe/london' -> 'Europe/London': the zone's own name, as the output reports it. */
function canonicalZoneName(name: string): string {
	let canonical = canonicalNames.get(name);
	if (canonical === undefined) {
		const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions()
			.timeZone;
		canonical = INDIA_ZONE_NAMES.has(resolved.toLowerCase()) ? IST_ZONE : resolved;
		canonicalNames.set(name, canonical);
	}
	return canonical;
}

/** The digits of a number's whole part, given as a number or as text: '1768281300' for '1.7682813E9'. */
function numberDigits(value: unknown): string | undefined {
	const text =
		typeof value === 'number' && Number.isFinite(value)
			? String(Math.abs(value))
			: typeof value === 'string'
				? value.trim()
				: undefined;
	const parts = text === undefined ? undefined : decimalParts(text);
	return parts?.whole.replace(/^0+(?=\d)/, '');
}

/** Before this, an epoch reading is more likely a phone number than a date someone meant. */
const FIRST_PLAUSIBLE_EPOCH = Date.UTC(2001, 0, 1);

/**
 * How a refused time was given, shown as what it was read as, never as its digits. A number of
 * a phone number's size that reads as a far-off time is said to look like one, since a phone
 * field mapped by mistake is its likely cause.
 */
function givenAs(value: unknown, farOff: boolean): string {
	const digits = numberDigits(value);
	if (digits === undefined) {
		return typeof value === 'string' ? ` (given as ${valueShown(value)})` : '';
	}
	const unit = Number(digits) >= FIRST_EPOCH_MILLIS ? 'milliseconds' : 'seconds';
	const phoneSized = farOff && digits.length >= 10 && digits.length <= 15;
	return ` (a number of ${digits.length} digits read as epoch ${unit}${phoneSized ? '; it looks like a phone number' : ''})`;
}

/**
 * A time without an offset, read in a zone east of UTC, that is long past but would be now or
 * ahead read as UTC: the system that gave it wrote UTC (a database, an API), not local time.
 * Its reading in India time as UTC, or undefined.
 */
function probablyUtc(reading: Reading, now: number): string | undefined {
	const { wallAsUtc, wallClockZone } = reading;
	if (wallAsUtc === undefined || wallClockZone === 'UTC' || wallAsUtc < now - LONG_PAST_MS) {
		return undefined;
	}
	return formatIst(istDateTime(wallAsUtc, wallAsUtc, 'Schedule Time'));
}

/**
 * Converts a date input (luxon DateTime, JS Date, epoch seconds or milliseconds as a number or
 * text, ISO text) into CallKaro's IST schedule format.
 */
export function toIstSchedule(value: unknown, options: ScheduleOptions): IstSchedule {
	const zone = knownZone(options.zone);
	const field = options.field ?? 'Schedule Time';
	const { dayStart, serialDates, dateColumn } = options;
	const reading = parseInput(value, { zone, dayStart, serialDates, dateColumn }, field);
	const { instant, note, wallClockZone, latest = instant } = reading;
	const ist = istDateTime(instant, value, field);
	// Settings.now is luxon's clock, which tests (and hosts) may set.
	const now = options.now?.getTime() ?? Settings.now();
	if (options.longPast !== 'startNow' && latest < now - LONG_PAST_MS) {
		const utc = probablyUtc(reading, now);
		if (utc !== undefined) {
			throw invalidInput(
				field,
				`is ${formatIst(ist)} in India time${givenAs(value, false)}, more than an hour in the past; read as UTC it is ${utc} in India time, so it is probably UTC`,
				'Set Options → Time Zone to UTC, or give the time with its offset (Z or +00:00)',
			);
		}
		throw invalidInput(
			field,
			`is ${formatIst(ist)} in India time${givenAs(value, instant < FIRST_PLAUSIBLE_EPOCH)}, more than an hour in the past`,
			'Such a time is usually the wrong field (a created date, say): map the time the call should start, or set Options → Schedule Time Long Past to Start Now',
		);
	}
	if (options.farAhead !== 'send' && instant > now + FAR_AHEAD_DAYS * DAY) {
		throw invalidInput(
			field,
			`is ${formatIst(ist)} in India time${givenAs(value, true)}, more than ${FAR_AHEAD_DAYS} days ahead`,
			'Such a time is usually the wrong field or a mistyped year: map the time the call should start, or set Options → Schedule Time Far Ahead to Send It',
		);
	}
	return {
		scheduleAt: formatIst(ist),
		// the same text as luxon's toUTC().toISO() for these years, without a second DateTime
		utc: new Date(instant).toISOString(),
		isPast: instant < now && !isNow(instant, now),
		...(isNow(instant, now) ? { startsNow: true as const } : {}),
		...(note === undefined ? {} : { note }),
		...(wallClockZone === undefined ? {} : { wallClockZone }),
	};
}
