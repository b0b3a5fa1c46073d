import { DateTime, FixedOffsetZone, IANAZone, Info, Settings } from 'luxon';
import type { Zone } from 'luxon';

import { invalidInput } from './errors';
import { describeValue } from './input';

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

export interface IstSchedule {
	/** '2026-11-22T09:30:00': the time in Asia/Kolkata, in CallKaro's format. */
	scheduleAt: string;
	/** '2026-11-22T04:00:00.000Z' */
	utc: string;
	isPast: boolean;
	/** Set when wall-clock text needed a rule to mean one instant, e.g. a repeated hour. */
	note?: string;
}

// 'YYYY-MM-DD', 'YYYY-MM-DDTHH:mm[:ss[.fraction]]' or with a space instead of T, optionally with Z or an offset.
const DATE_TEXT =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.(\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
const OFFSET_TEXT = /^([+-])(\d{2}):?(\d{2})?$/;
const FORMAT_HINT =
	'Use a date and time such as 2026-11-22T09:30:00 (read in the workflow time zone) or 2026-11-22T09:30:00+05:30';

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
	if (typeof value === 'number') return value;
	if (typeof value === 'object' && value !== null) {
		if (isDateTimeLike(value)) return value.isValid ? value.toMillis() : Number.NaN;
		if (isJsDateLike(value)) return value.toJSDate().getTime();
		if (isJsDate(value)) return value.getTime();
	}
	throw invalidInput(field, `must be a date and time, but is ${describeValue(value)}`, FORMAT_HINT);
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
	if (offset === 'Z') return 0;
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

interface ParsedText {
	instant: number;
	note?: string;
}

function skippedError(text: string, zone: Zone, field: string, reading: WallReading) {
	const gap =
		reading.kind === 'skipped'
			? `The clocks go from ${formatWall(reading.lastBefore, zone)} straight to ${formatWall(reading.firstAfter, zone)}; pick a time outside that gap`
			: 'Pick a time outside the clock change';
	return invalidInput(
		field,
		`does not exist in the time zone ${zone.name}, because the clocks skip it: ${describeValue(text)}`,
		gap,
	);
}

/** Wall-clock text in the zone: one rule for repeated and skipped times, and for days that start late. */
function readWallText(
	text: string,
	wall: number,
	dateOnly: boolean,
	zone: Zone,
	field: string,
): ParsedText {
	const reading = readWallTime(wall, zone);
	if (reading.kind === 'exists') {
		const { instant, repeatedOffset } = reading;
		return {
			instant,
			note:
				repeatedOffset === undefined
					? undefined
					: `repeated wall time read as its first occurrence (${formatOffset(repeatedOffset / MINUTE)})`,
		};
	}
	// A date alone means the first moment of that day that exists, unless the clocks skip the whole day.
	const firstAfter = reading.firstAfter;
	if (dateOnly && firstAfter + offsetAt(zone, firstAfter) < wall + DAY) {
		return {
			instant: firstAfter,
			note: `midnight is skipped in ${zone.name}; read as the first moment of that day (${formatWall(firstAfter, zone).slice(11)})`,
		};
	}
	throw skippedError(text, zone, field, reading);
}

/**
 * The first instant at which the zone's clocks show the wall time, or reach it when the clocks
 * skip it (ms of the wall fields read as UTC): when a window that opens at that time opens.
 */
export function firstInstantAtOrAfter(wall: number, zone: Zone): number {
	const reading = readWallTime(wall, zone);
	return reading.kind === 'exists' ? reading.instant : reading.firstAfter;
}

function parseDateText(text: string, zone: Zone, field: string): ParsedText {
	const match = DATE_TEXT.exec(text);
	if (!match)
		throw invalidInput(field, `is not a date and time: ${describeValue(text)}`, FORMAT_HINT);
	const [, year, month, day, hour, minute = '0', second = '0', fraction = '', offset] = match;
	if (
		Number(month) < 1 ||
		Number(month) > 12 ||
		Number(day) < 1 ||
		Number(day) > daysInMonth(Number(year), Number(month))
	) {
		throw invalidInput(field, `is not a real date or time: ${describeValue(text)}`, FORMAT_HINT);
	}
	// Any number of fraction digits; CallKaro's format has whole seconds, so milliseconds are plenty.
	const millisecond = fraction.slice(0, 3).padEnd(3, '0');
	const wall = wallMillis([year, month, day, hour ?? '0', minute, second, millisecond].map(Number));
	if (offset === undefined) return readWallText(text, wall, hour === undefined, zone, field);
	const minutes = offsetMinutes(offset);
	if (minutes === undefined) {
		throw invalidInput(
			field,
			`has an offset that is not -23:59 to +23:59: ${describeValue(text)}`,
			'Write the offset as +HH:MM or -HH:MM, hours 00-23 and minutes 00-59, such as +05:30',
		);
	}
	return { instant: wall - minutes * MINUTE };
}

function parseInput(value: unknown, zone: Zone, field: string): ParsedText {
	if (typeof value === 'string') return parseDateText(value.trim(), zone, field);
	return { instant: millisOf(value, field) };
}

function istDateTime(instant: number, value: unknown, field: string): DateTime<true> {
	if (!Number.isFinite(instant))
		throw invalidInput(field, `is not a valid date: ${describeValue(value)}`, FORMAT_HINT);
	// India's offset at that instant, looked up once (see offsetAt).
	const offset = FixedOffsetZone.instance(offsetAt(IANAZone.create(IST_ZONE), instant) / MINUTE);
	const ist = DateTime.fromMillis(instant, { zone: offset });
	if (!ist.isValid || ist.year < FIRST_YEAR || ist.year > LAST_YEAR) {
		throw invalidInput(
			field,
			`is outside the years 0001 to 9999 in India time: ${describeValue(value)}`,
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

/** A luxon zone for an IANA name (or UTC and fixed offsets), or an error naming the field. */
export function knownZone(zone: string, field = 'Time Zone'): Zone {
	const known = zone.trim() === '' ? undefined : Info.normalizeZone(zone.trim());
	if (!known?.isValid) {
		throw invalidInput(
			field,
			`is not a known time zone: ${describeValue(zone)}`,
			'Use an IANA time zone name such as Asia/Kolkata',
		);
	}
	return known;
}

/** Converts a date input (luxon DateTime, JS Date, epoch ms, ISO text) into CallKaro's IST schedule format. */
export function toIstSchedule(
	value: unknown,
	options: { zone: string; now?: Date; field?: string },
): IstSchedule {
	const zone = knownZone(options.zone);
	const field = options.field ?? 'Schedule Time';
	const { instant, note } = parseInput(value, zone, field);
	const ist = istDateTime(instant, value, field);
	// Settings.now is luxon's clock, which tests (and hosts) may set.
	const now = options.now?.getTime() ?? Settings.now();
	return {
		scheduleAt: formatIst(ist),
		// the same text as luxon's toUTC().toISO() for these years, without a second DateTime
		utc: new Date(instant).toISOString(),
		isPast: instant < now,
		...(note === undefined ? {} : { note }),
	};
}
