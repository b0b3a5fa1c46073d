import { DateTime, FixedOffsetZone, IANAZone, Info, Settings } from 'luxon';
import type { Zone } from 'luxon';

import { invalidInput, problem } from '../input/inputError';
import type { AsWritten, CallKaroInputError, Problem } from '../input/inputError';
import { describeValue, wrongTypeError } from '../input/input';
import { plainCharacters } from '../phone/writtenNumber';
import { ianaZoneOfWindowsName } from './windowsZones';
import { dateShape, instantOfMailDate, isRealDate, isoTime, offsetMinutes } from './writtenDates';
import type { DateShape, WrittenTime } from './writtenDates';

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

// Numbers from 100000000 are read by their digits: 9 to 11 are epoch seconds, 13 milliseconds, 16
// microseconds, 19 nanoseconds (each from 1973 or 2001 to 2286, so no two units meet), and 12 or
// 14 a basic ISO date and time (yyyyMMddHHmm[ss]), as iCalendar and logs write one: as
// milliseconds 12 digits are before 2001 and 14 after the year 5000, which no call is.
const FIRST_EPOCH_SECONDS = 1e8;
/** The unit of an epoch number by its digits: how many of them are below the millisecond. */
const EPOCH_UNITS: Record<number, { name: string; places: number }> = {
	9: { name: 'seconds', places: -3 },
	10: { name: 'seconds', places: -3 },
	11: { name: 'seconds', places: -3 },
	13: { name: 'milliseconds', places: 0 },
	16: { name: 'microseconds', places: 3 },
	19: { name: 'nanoseconds', places: 6 },
};
/** Digits of a basic ISO date and time, and its tokens. */
const BASIC_DIGITS: Record<number, string> = { 12: 'yyyyMMddHHmm', 14: 'yyyyMMddHHmmss' };
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
	/**
	 * The field's value as an expression ('$json.when', or a typed text in quotes), for advice that
	 * wraps it: a date in a form the node does not read, read with DateTime.fromFormat.
	 */
	expression?: string;
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

const FORMAT_HINT =
	'Use a date and time such as 2026-11-22T09:30:00 (read in India time, or in Time Zone) or 2026-11-22T09:30:00+05:30';

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

/** The wall-clock fields as milliseconds of the same fields read in UTC (Date.UTC maps years 0-99 to 1900s). */
function wallMillis(fields: number[]): number {
	const [year, month, day, hour, minute, second, millisecond] = fields;
	const date = new Date(0);
	date.setUTCFullYear(year, month - 1, day);
	date.setUTCHours(hour, minute, second, millisecond);
	return date.getTime();
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

function skippedError(shown: Shown, zone: Zone, field: string, reading: WallReading) {
	const gap =
		reading.kind === 'skipped'
			? `The clocks go from ${formatWall(reading.lastBefore, zone)} straight to ${formatWall(reading.firstAfter, zone)}; pick a time outside that gap`
			: 'Pick a time outside the clock change';
	return invalidInput(
		field,
		problem`does not exist in the time zone ${zone.name}, because the clocks skip it: ${shown}`,
		gap,
	);
}

/** Wall-clock text in the zone: one rule for repeated and skipped times. */
function readWallText(shown: Shown, wall: number, zone: Zone, field: string): Reading {
	const reading = readWallTime(wall, zone);
	if (reading.kind === 'skipped') throw skippedError(shown, zone, field, reading);
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
	said: Problem;
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

/** How a message shows a value that was read as a date: as written, or as what its digits were read as. */
type Shown = AsWritten | string;

/**
 * Date text as a message shows it: as given, since it was read as a date and no phone number is
 * one, but with a fraction of a second cut to 6 digits, so that no run of a phone number's length
 * is shown.
 */
function dateShown(text: string): AsWritten {
	return { asWritten: `"${text.replace(/([.,]\d{6})\d+/, '$1…')}"` };
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** 'YYYY-MM-DD' of written fields. */
function isoDate({ year, month, day }: WrittenTime): string {
	return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** An RFC 9557 time zone in brackets as a zone, or refused naming it. */
function bracketZone(zone: string, shown: Shown, field: string): Zone {
	try {
		return knownZone(zone.replace(/^!/, ''), field);
	} catch {
		throw invalidInput(
			field,
			problem`names a time zone in brackets that is no IANA time zone: ${shown}`,
			`${ZONE_FIX}, or leave the brackets out`,
		);
	}
}

/** A written date and time: an instant by its offset, else wall-clock time in its zone, or a date alone. */
function readWrittenTime(
	time: WrittenTime,
	shown: Shown,
	options: TextOptions,
	field: string,
): Reading {
	if (!isRealDate(time)) {
		throw invalidInput(field, problem`is not a real date or time: ${shown}`, FORMAT_HINT);
	}
	const { hour = 0, minute, second, millisecond, offset } = time;
	const wall = wallMillis([time.year, time.month, time.day, hour, minute, second, millisecond]);
	const date = isoDate(time);
	if (time.hour === undefined) {
		return readDate(date, options.dayStart, field, {
			said: problem`has a date but no time: ${shown}`,
		});
	}
	const zone = time.zone === undefined ? undefined : bracketZone(time.zone, shown, field);
	if (offset === undefined) {
		// Midnight without an offset is what a date picker gives for a date alone: it names no
		// instant, and no one means a call at 00:00. With an offset it is that instant.
		if (wall % DAY === 0) {
			return readDate(date, options.dayStart, field, {
				said: problem`is midnight without an offset, as a date picker gives a date alone: ${shown}`,
				moreFix: `for a call at midnight, give the offset: ${date}T00:00:00+05:30`,
			});
		}
		return readWallText(shown, wall, zone ?? options.zone, field);
	}
	const minutes = offsetMinutes(offset);
	if (minutes === undefined) {
		throw invalidInput(
			field,
			problem`has an offset that is not -23:59 to +23:59: ${shown}`,
			'Write the offset as +HH:MM or -HH:MM, hours 00-23 and minutes 00-59, such as +05:30',
		);
	}
	const instant = wall - minutes * MINUTE;
	// RFC 9557: the offset decides; a zone that has another offset then is a contradiction. Z (or
	// UTC) with a zone says only the instant is known.
	if (zone !== undefined && /\d/.test(offset) && offsetAt(zone, instant) !== minutes * MINUTE) {
		throw invalidInput(
			field,
			problem`has the offset ${formatOffset(minutes)}, but the time zone ${zone.name} in its brackets is ${formatOffset(offsetAt(zone, instant) / MINUTE)} at that time: ${shown}`,
			'Give the offset the zone has at that time, or the time without the offset (it is then read in the zone)',
		);
	}
	return { instant };
}

/** The text read as a date in any form the node reads, or undefined. */
function writtenTime(latin: string): WrittenTime | number | undefined {
	const iso = isoTime(latin);
	if (iso !== undefined) return iso;
	const mailDate = instantOfMailDate(latin);
	if (mailDate !== undefined) return mailDate;
	// English month names with a zone name their instant; without one, the tokens are given.
	const shape = dateShape(latin);
	return shape && monthNameWithZone(shape);
}

/** The time of a date with an English month name and a zone (`13 January 2026 05:15 UTC`), which names its instant. */
function monthNameWithZone({ monthName, readings }: DateShape): WrittenTime | undefined {
	const [only, other] = readings;
	return monthName && other === undefined && only.time.offset !== undefined ? only.time : undefined;
}

function parseDateText(text: string, options: TextOptions, field: string, raw: unknown): Reading {
	// digits of any script as 0-9, any dash as '-', invisible marks left out
	const latin = plainCharacters(text);
	const written = writtenTime(latin);
	if (typeof written === 'number') return { instant: written };
	if (written !== undefined) return readWrittenTime(written, dateShown(text), options, field);
	throw unreadDateError(text, latin, options, field, raw);
}

/** The tokens' DateTime.fromFormat options: the zone, and English for names of months, days, AM/PM. */
function fromFormatOptions(tokens: string, zone: string): string {
	const english = /M{3}|E|a/.test(tokens.replace(/'[^']*'/g, ''));
	return `{ zone: '${zone}'${english ? ", locale: 'en-US'" : ''} }`;
}

/**
 * The refusal of text that is no date in a form the node reads: a date in another form is shown
 * as written, with its DateTime.fromFormat tokens when they are sure, and the advice that reads
 * it so when the field's expression is known and gives the text as it is; other text is masked.
 */
function unreadDateError(
	text: string,
	latin: string,
	options: TextOptions,
	field: string,
	raw: unknown,
): CallKaroInputError {
	const shape = dateShape(latin);
	if (shape === undefined) {
		return invalidInput(field, `is not a date and time: ${describeValue(text)}`, FORMAT_HINT);
	}
	const said = problem`is a date in a form this node does not read: ${dateShown(text)}`;
	const tokens = shape.readings.map((reading) => reading.tokens);
	const [sure] = tokens.length === 1 ? tokens : [];
	if (sure === undefined || latin !== text) {
		const named = tokens.flatMap((token) => (token === undefined ? [] : [`'${token}'`]));
		const example = 'a date and time such as 2026-11-22T09:30:00+05:30';
		const fix =
			tokens.length > 1 && named.length === tokens.length
				? `It can be read in ${named.length} ways: read it with DateTime.fromFormat and the tokens ${named.slice(0, -1).join(', ')} or ${named[named.length - 1]}, as your data writes dates; or give ${example}`
				: `Give ${example}`;
		return invalidInput(field, said, fix);
	}
	const quoted = sure.includes("'") ? `"${sure}"` : `'${sure}'`;
	// a date alone stays one: its ISO date, which starts when Calling Hours open that day
	const dateAlone = shape.readings[0].time.hour === undefined ? '.toISODate()' : '';
	const call = (value: string) =>
		`DateTime.fromFormat(${value}, ${quoted}, ${fromFormatOptions(sure, shape.zone ?? options.zone.name)})${dateAlone}`;
	const { expression } = options;
	if (expression === undefined) {
		return invalidInput(
			field,
			said,
			`Read it with its tokens, as {{ ${call('the value')} }}; or give a date and time such as 2026-11-22T09:30:00+05:30`,
		);
	}
	// the expression gives the value untrimmed
	const value = raw === text ? expression : `String(${expression}).trim()`;
	const set = `{{ ${call(value)} }}`;
	return invalidInput(field, said, `Read it with its tokens: set it to ${set}`, {
		field,
		set,
	});
}

/** How a value is read: offset-less date and time in `zone`, a date alone from `dayStart`. */
interface TextOptions {
	zone: Zone;
	dayStart: ScheduleOptions['dayStart'];
	serialDates?: boolean;
	dateColumn?: DateColumn;
	expression?: string;
}

/** A number as a message shows it: its size, once it has as many digits as the shortest phone numbers. */
function numberShown(number: number): string {
	const digits = numberDigits(number)?.length ?? 0;
	if (digits < 7) return String(number);
	return `a ${number < 0 ? 'negative ' : ''}number of ${digits} digits`;
}

/** A refused value as messages show it: a number by its size, a date as written, other text masked. */
function valueShown(value: unknown): Shown {
	const text = typeof value === 'string' ? value.trim() : undefined;
	if (typeof value === 'number') return numberShown(value);
	if (text !== undefined && NUMBER_TEXT.test(text)) return numberShown(Number(text));
	if (text !== undefined && writtenTime(plainCharacters(text)) !== undefined)
		return dateShown(text);
	return describeValue(value);
}

/** The option that reads spreadsheet serial dates, as fixes name it. */
export const SERIAL_DATES_OPTION = 'Options → Schedule Time Numbers → Spreadsheet Serial Dates';

/** How scheduleNote starts for a serial read as a date: 'spreadsheet serial date read as 2026-01-13 10:30'. */
export const SERIAL_DATE_NOTE = 'spreadsheet serial date read as';

/**
 * A serial's wall-clock fields (days since 1899-12-30, the time of day as the fraction), to the
 * second, as a sheet shows its time: a day's fraction in binary is no whole number of seconds.
 */
function serialWall(serial: number): number {
	return SERIAL_DATE_EPOCH + Math.round(serial * (DAY / SECOND)) * SECOND;
}

/** '2026-01-14 10:30' ('10:30:15' with seconds), or '2026-01-14' for a whole day: never its digits. */
function serialShown(serial: number): string {
	const text = new Date(serialWall(serial)).toISOString();
	if (Number.isInteger(serial)) return text.slice(0, 10);
	const seconds = text.slice(17, 19);
	return `${text.slice(0, 10)} ${text.slice(11, 16)}${seconds === '00' ? '' : `:${seconds}`}`;
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

const EPOCH_SIZES =
	'epoch seconds (9 to 11 digits), milliseconds (13), microseconds (16) or nanoseconds (19)';

/**
 * Digits of a basic ISO date and time (yyyyMMddHHmm[ss]) as wall-clock time in the zone, or
 * refused: they are digits only, so they are shown as what they were read as, never as written.
 */
function readBasicDigits(
	digits: string,
	fraction: string,
	options: TextOptions,
	field: string,
): Reading {
	const tokens = BASIC_DIGITS[digits.length];
	const [year, month, day, hour, minute, second = 0] = (digits.match(/^\d{4}|\d{2}/g) ?? []).map(
		Number,
	);
	const time: WrittenTime = { year, month, day, hour, minute, second, millisecond: 0 };
	if (fraction !== '' || !isRealDate(time) || hour > 23 || minute > 59 || second > 59) {
		throw invalidInput(
			field,
			`is a number of ${digits.length} digits, which is neither ${EPOCH_SIZES} nor a basic ISO date and time (${tokens}): it may be a phone number or an ID`,
			FORMAT_HINT,
		);
	}
	const clock = `${pad(hour)}:${pad(minute)}${digits.length === 14 ? `:${pad(second)}` : ''}`;
	const shown = `${isoDate(time)}T${clock} (${digits.length} digits read as ${tokens})`;
	return readWrittenTime(time, shown, options, field);
}

/**
 * A number of 9 digits or more, by its digits: epoch time in its unit, exact from its decimal
 * text with a fraction of a millisecond cut as ISO text's is (so every form agrees), or a basic
 * ISO date and time.
 */
function readLongNumber(
	number: number,
	options: TextOptions,
	field: string,
	text: string,
): Reading {
	const parts = decimalParts(text);
	const whole = parts?.whole.replace(/^0+(?=\d)/, '') ?? '';
	const fraction = parts?.fraction ?? '';
	if (BASIC_DIGITS[whole.length]) return readBasicDigits(whole, fraction, options, field);
	const unit = EPOCH_UNITS[whole.length];
	if (unit === undefined) {
		throw invalidInput(
			field,
			`is ${numberShown(number)}, which is none of ${EPOCH_SIZES}`,
			FORMAT_HINT,
		);
	}
	const instant =
		unit.places < 0
			? Number(whole + fraction.slice(0, -unit.places).padEnd(-unit.places, '0'))
			: Number(whole.slice(0, whole.length - unit.places));
	return {
		instant,
		...(unit.name === 'milliseconds'
			? {}
			: {
					note: `number read as epoch ${unit.name}${unit.name === 'seconds' ? ', not milliseconds' : ''}`,
				}),
	};
}

/** A number by its size: epoch time, a basic ISO date and time, a serial date, or refused saying what it looks like. */
function readNumber(
	number: number,
	options: TextOptions,
	field: string,
	text = String(number),
): Reading {
	if (!Number.isFinite(number)) return { instant: Number.NaN };
	if (number >= FIRST_EPOCH_SECONDS) return readLongNumber(number, options, field, text);
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
		`is ${numberShown(number)}, which is none of ${EPOCH_SIZES}, nor a spreadsheet serial date (below ${LAST_SERIAL_DATE})`,
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
		: parseDateText(text, options, field, value);
}

function istDateTime(instant: number, value: unknown, field: string): DateTime<true> {
	if (!Number.isFinite(instant))
		throw invalidInput(field, problem`is not a valid date: ${valueShown(value)}`, FORMAT_HINT);
	// India's offset at that instant, looked up once (see offsetAt).
	const offset = FixedOffsetZone.instance(offsetAt(IANAZone.create(IST_ZONE), instant) / MINUTE);
	const ist = DateTime.fromMillis(instant, { zone: offset });
	if (!ist.isValid || ist.year < FIRST_YEAR || ist.year > LAST_YEAR) {
		throw invalidInput(
			field,
			problem`is outside the years 0001 to 9999 in India time: ${valueShown(value)}`,
			"CallKaro's schedule format has a four-digit year; pick a time in that range",
		);
	}
	return ist;
}

/** "YYYY-MM-DDTHH:mm:ss" of a time whose year is 1 to 9999: what toFormat(WALL_FORMAT) gives, without its locale set-up. */
function formatIst(time: DateTime): string {
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
function givenAs(value: unknown, farOff: boolean): Shown[] {
	const digits = numberDigits(value);
	if (digits === undefined) {
		return typeof value === 'string' ? [' (given as ', valueShown(value), ')'] : [];
	}
	const basic = BASIC_DIGITS[digits.length];
	const readAs = basic
		? `a basic ISO date and time (${basic})`
		: `epoch ${EPOCH_UNITS[digits.length]?.name ?? 'seconds'}`;
	const phoneSized = farOff && !basic && digits.length >= 10 && digits.length <= 15;
	return [
		` (a number of ${digits.length} digits read as ${readAs}${phoneSized ? '; it looks like a phone number' : ''})`,
	];
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
	const { dayStart, serialDates, dateColumn, expression } = options;
	const reading = parseInput(value, { zone, dayStart, serialDates, dateColumn, expression }, field);
	const { instant, note, wallClockZone, latest = instant } = reading;
	const ist = istDateTime(instant, value, field);
	// Settings.now is luxon's clock, which tests (and hosts) may set.
	const now = options.now?.getTime() ?? Settings.now();
	if (options.longPast !== 'startNow' && latest < now - LONG_PAST_MS) {
		const utc = probablyUtc(reading, now);
		if (utc !== undefined) {
			throw invalidInput(
				field,
				[
					`is ${formatIst(ist)} in India time`,
					...givenAs(value, false),
					`, more than an hour in the past; read as UTC it is ${utc} in India time, so it is probably UTC`,
				],
				'Set Time Zone to UTC, or give the time with its offset (Z or +00:00)',
			);
		}
		throw invalidInput(
			field,
			[
				`is ${formatIst(ist)} in India time`,
				...givenAs(value, instant < FIRST_PLAUSIBLE_EPOCH),
				', more than an hour in the past',
			],
			'Such a time is usually the wrong field (a created date, say): map the time the call should start, or set Options → Schedule Time Long Past to Start Now',
		);
	}
	if (options.farAhead !== 'send' && instant > now + FAR_AHEAD_DAYS * DAY) {
		throw invalidInput(
			field,
			[
				`is ${formatIst(ist)} in India time`,
				...givenAs(value, true),
				`, more than ${FAR_AHEAD_DAYS} days ahead`,
			],
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
