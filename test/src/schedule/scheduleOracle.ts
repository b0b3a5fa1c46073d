/**
 * An independent reading of the tz rules for the property test of toIstSchedule: built on
 * Intl.DateTimeFormat (the platform's own tz data), never on luxon.
 */
import { DateTime } from 'luxon';
import type { IstSchedule } from '../../../src/schedule/schedule';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const ORACLE_ZONES = [
	'Europe/London',
	'Europe/Berlin',
	'America/New_York',
	'America/Sao_Paulo',
	'America/Santiago',
	'America/St_Johns',
	'Australia/Adelaide',
	'Australia/Lord_Howe',
	'Pacific/Chatham',
	'Pacific/Apia',
	'Africa/Casablanca',
	'Asia/Tehran',
] as const;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
	let formatter = formatters.get(zone);
	if (!formatter) {
		formatter = new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			era: 'short',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
			hourCycle: 'h23',
		});
		formatters.set(zone, formatter);
	}
	return formatter;
}

// en-US text such as '01/15/2026 AD, 09:30:00' (format is several times faster than formatToParts).
const US_TEXT = /^(\d{2})\/(\d{2})\/(\d+) (AD|BC), (\d{2}):(\d{2}):(\d{2})$/;

/** The wall clock of an instant in a zone, as 'YYYY-MM-DDTHH:mm:ss' (a negative year before 1 AD). */
export function wallText(instant: number, zone: string): string {
	const text = formatterFor(zone).format(new Date(instant));
	const [, month, day, eraYear, era, hour, minute, second] = US_TEXT.exec(text) ?? [];
	if (!eraYear) throw new Error(`oracle: unexpected Intl text ${text}`);
	const year = era === 'BC' ? 1 - Number(eraYear) : Number(eraYear);
	const yearText = year < 0 ? `-${String(-year).padStart(4, '0')}` : String(year).padStart(4, '0');
	return `${yearText}-${month}-${day}T${hour}:${minute}:${second}`;
}

/** Milliseconds of a wall text read as if it were UTC. */
function asUtcMillis(text: string): number {
	const [, year, month, day, hour, minute, second] =
		/^(-?\d+)-(\d+)-(\d+)T(\d+):(\d+):(\d+)/.exec(text) ?? [];
	const date = new Date(0);
	date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
	date.setUTCHours(Number(hour), Number(minute), Number(second), 0);
	return date.getTime();
}

/** The zone's offset at an instant in milliseconds, from the wall clock Intl shows. */
export function offsetAt(instant: number, zone: string): number {
	const wholeSecond = Math.floor(instant / SECOND) * SECOND;
	return asUtcMillis(wallText(wholeSecond, zone)) - wholeSecond;
}

export type OracleWall =
	| { kind: 'instants'; instants: number[] }
	| { kind: 'skipped'; lastBefore: string; firstAfter: string; firstAfterInstant: number };

/** Where the offset leaves `before`, to the second, between two instants. */
function changeBetween(from: number, to: number, before: number, zone: string): number {
	let [low, high] = [from, to];
	while (high - low > SECOND) {
		const middle = low + Math.floor((high - low) / 2 / SECOND) * SECOND;
		if (offsetAt(middle, zone) === before) low = middle;
		else high = middle;
	}
	return high;
}

/**
 * Every instant whose wall clock in the zone reads `wall` (ms of the wall fields read as UTC), by
 * trying each offset the zone has within 30 hours either side; none means the time is skipped.
 */
export function oracleWall(wall: number, zone: string): OracleWall {
	const samples = [-30, -15, 0, 15, 30].map((hours) => wall + hours * HOUR);
	const offsets = [...new Set(samples.map((sample) => offsetAt(sample, zone)))];
	const target = new Date(Math.floor(wall / SECOND) * SECOND).toISOString().slice(0, 19);
	const instants = offsets
		.map((offset) => wall - offset)
		.filter((instant) => wallText(instant, zone) === target)
		.sort((a, b) => a - b);
	if (instants.length > 0) return { kind: 'instants', instants };
	// Skipped: the change lies between the sample before the wall time and the one after it.
	for (let index = 0; index + 1 < samples.length; index += 1) {
		const before = offsetAt(samples[index], zone);
		if (before === offsetAt(samples[index + 1], zone)) continue;
		const change = changeBetween(samples[index], samples[index + 1], before, zone);
		if (wall - before >= change && wall - offsetAt(change, zone) < change) {
			return {
				kind: 'skipped',
				lastBefore: wallText(change - SECOND, zone),
				firstAfter: wallText(change, zone),
				firstAfterInstant: change,
			};
		}
	}
	throw new Error(`oracle: no reading of ${target} in ${zone}`);
}

/** Roughly (to the hour) when a zone's clocks change in a year: where the property cases gather. */
const changesByZoneYear = new Map<string, number[]>();

export function clockChanges(zone: string, year: number): number[] {
	const key = `${zone} ${year}`;
	let changes = changesByZoneYear.get(key);
	if (!changes) {
		changes = [];
		const end = Date.UTC(year + 1, 0, 1);
		// Samples every 10 days: no zone here changes and changes back within 10 days.
		for (let from = Date.UTC(year, 0, 1); from < end; from += 10 * DAY) {
			const to = Math.min(from + 10 * DAY, end);
			const before = offsetAt(from, zone);
			if (before === offsetAt(to, zone)) continue;
			let [low, high] = [from, to];
			while (high - low > HOUR) {
				const middle = low + Math.floor((high - low) / 2 / HOUR) * HOUR;
				if (offsetAt(middle, zone) === before) low = middle;
				else high = middle;
			}
			changes.push(high);
		}
		changesByZoneYear.set(key, changes);
	}
	return changes;
}

/** mulberry32: a small seeded generator, so that every run (and every failure) can be repeated. */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export type PropertyCase = {
	kind: string;
	value: unknown;
	zone: string;
	/** What is shown when the case fails. */
	shown: string;
	expected: OracleExpectation;
};

export type OracleExpectation =
	| IstSchedule
	| { skipped: { lastBefore: string; firstAfter: string } };

const FIRST_INSTANT = Date.UTC(1990, 0, 1);
const LAST_INSTANT = Date.UTC(2061, 0, 1);
const IST = 'Asia/Kolkata';

function pad(value: number, length = 2): string {
	return String(value).padStart(length, '0');
}

function offsetText(minutes: number, style: number): string {
	if (minutes === 0 && style === 0) return 'Z';
	const sign = minutes < 0 ? '-' : '+';
	const [hours, rest] = [pad(Math.floor(Math.abs(minutes) / 60)), pad(Math.abs(minutes) % 60)];
	if (style === 1) return `${sign}${hours}${rest}`;
	if (style === 2 && rest === '00') return `${sign}${hours}`;
	return `${sign}${hours}:${rest}`;
}

/** A fraction of a second of 0 to 12 digits, and the milliseconds it means (truncated). */
function fraction(random: () => number): { text: string; millis: number } {
	const digits = Math.floor(random() * 13);
	let text = '';
	for (let index = 0; index < digits; index += 1) text += String(Math.floor(random() * 10));
	return {
		text: digits ? `.${text}` : '',
		millis: Number(text.slice(0, 3).padEnd(3, '0')),
	};
}

function expectedForInstant(
	instant: number,
	now: number,
	note?: string,
	wallClockZone?: string,
): OracleExpectation {
	return {
		scheduleAt: wallText(instant, IST),
		utc: new Date(instant).toISOString(),
		// Within a minute of now is now, not past.
		isPast: instant < now - MINUTE,
		...(Math.abs(instant - now) <= MINUTE ? { startsNow: true } : {}),
		...(note === undefined ? {} : { note }),
		...(wallClockZone === undefined ? {} : { wallClockZone }),
	};
}

/** The time of day the property test gives as the start of a date alone (as Calling Hours would). */
export const DAY_START = '00:00';

function formatOffset(offset: number): string {
	return offsetText(Math.round(offset / MINUTE), 3);
}

/** What toIstSchedule must give for wall text in a zone, by the documented rules. */
function expectedForWall(wall: number, zone: string, now: number): OracleExpectation {
	const reading = oracleWall(wall, zone);
	if (reading.kind === 'skipped') {
		return { skipped: { lastBefore: reading.lastBefore, firstAfter: reading.firstAfter } };
	}
	const [first] = reading.instants;
	const note =
		reading.instants.length > 1
			? `repeated wall time read as its first occurrence (${formatOffset(wall - first)})`
			: undefined;
	return expectedForInstant(first, now, note, zone);
}

/** A date alone starts at DAY_START in the zone, or where the clocks resume when they skip it. */
function expectedForDate(midnight: number, zone: string, now: number): OracleExpectation {
	const reading = oracleWall(midnight, zone);
	const start = reading.kind === 'instants' ? reading.instants[0] : reading.firstAfterInstant;
	return expectedForInstant(
		start,
		now,
		`date without a time: starts when Calling Hours open that day (${DAY_START} in ${zone})`,
	);
}

/** ISO text in the basic form: the date's dashes and the time's colons left out, the offset's too. */
function basicText(text: string): string {
	return `${text.slice(0, 10).replaceAll('-', '')}T${text.slice(11).replaceAll(':', '')}`;
}

function wallTextOf(wall: number, separator: string, withSeconds: boolean, tail: string): string {
	const iso = new Date(wall).toISOString();
	const time = withSeconds ? iso.slice(11, 19) : iso.slice(11, 16);
	return `${iso.slice(0, 10)}${separator}${time}${tail}`;
}

/** Draws one case: a zone, an input form, and the answer the oracle expects. */
export function drawCase(random: () => number, now: number): PropertyCase {
	const zone = ORACLE_ZONES[Math.floor(random() * ORACLE_ZONES.length)];
	const instant = FIRST_INSTANT + Math.floor(random() * (LAST_INSTANT - FIRST_INSTANT));
	const pick = random();
	if (pick < 0.08) {
		// 13 digits are milliseconds, 16 microseconds and 19 nanoseconds (as text, read exactly): all
		// from 2001-09-09, before which they have fewer digits and are refused
		const epoch = instant >= 1e12 ? instant : instant + (1e12 - FIRST_INSTANT);
		const below = String(Math.floor(random() * 1e6)).padStart(6, '0');
		const unit = Math.floor(random() * 3);
		const value = [epoch, `${epoch}${below.slice(0, 3)}`, `${epoch}${below}`][unit];
		const name = ['milliseconds', 'microseconds', 'nanoseconds'][unit];
		return {
			kind: ['epoch ms', 'epoch µs', 'epoch ns'][unit],
			value,
			zone,
			shown: String(value),
			expected: expectedForInstant(
				epoch,
				now,
				unit === 0 ? undefined : `number read as epoch ${name}`,
			),
		};
	}
	if (pick < 0.16) {
		return {
			kind: 'JS Date',
			value: new Date(instant),
			zone,
			shown: `new Date(${instant})`,
			expected: expectedForInstant(instant, now),
		};
	}
	if (pick < 0.24) {
		const valueZone = ORACLE_ZONES[Math.floor(random() * ORACLE_ZONES.length)];
		return {
			kind: 'luxon DateTime',
			value: DateTime.fromMillis(instant, { zone: valueZone }),
			zone,
			shown: `DateTime.fromMillis(${instant}, { zone: '${valueZone}' })`,
			expected: expectedForInstant(instant, now),
		};
	}
	if (pick < 0.4) {
		// Text with an offset: any offset ISO 8601 allows, in each of its spellings.
		const minutes = Math.floor(random() * (2 * 24 * 60 - 1)) - (24 * 60 - 1);
		const { text: fractionText, millis } = fraction(random);
		const wall = Math.floor(instant / MINUTE) * MINUTE + Math.floor(random() * 60) * SECOND;
		const spelling = random();
		if (spelling < 0.15) {
			// RFC 9557: the zone in brackets, with the offset it has at that instant
			const exact = Math.floor(instant / SECOND) * SECOND;
			const offset = Math.round(offsetAt(exact, zone) / MINUTE);
			const value = `${wallTextOf(exact + offset * MINUTE, 'T', true, '')}${offsetText(offset, 0)}[${zone}]`;
			return {
				kind: 'RFC 9557',
				value,
				zone,
				shown: value,
				expected: expectedForInstant(exact, now),
			};
		}
		const text = `${wallTextOf(wall, random() < 0.5 ? 'T' : ' ', true, '')}${fractionText}${offsetText(minutes, Math.floor(random() * 4))}`;
		// ISO's basic form too, iCalendar's: 20260328T233000Z
		const value = spelling < 0.35 ? basicText(text) : text;
		const exact = wall + millis - minutes * MINUTE;
		return {
			kind: 'text with offset',
			value,
			zone,
			shown: value,
			// any text with an offset names its instant, midnight UTC too (a booking's time)
			expected: expectedForInstant(exact, now),
		};
	}
	// Wall-clock text, most of it within hours of one of the zone's clock changes.
	const year = new Date(instant).getUTCFullYear();
	const changes = clockChanges(zone, year);
	let wall = Math.floor(instant / SECOND) * SECOND;
	if (changes.length > 0 && random() < 0.75) {
		const change = changes[Math.floor(random() * changes.length)];
		const before = offsetAt(change - DAY, zone);
		wall = change + before + Math.floor((random() * 2 - 1) * 3 * 60) * MINUTE;
		wall += Math.floor(random() * 60) * SECOND;
	}
	if (random() < 0.15) {
		const day = new Date(wall).toISOString().slice(0, 10);
		const midnight = Date.parse(`${day}T00:00:00Z`);
		return {
			kind: 'date only',
			value: day,
			zone,
			shown: `${day} in ${zone}`,
			expected: expectedForDate(midnight, zone, now),
		};
	}
	const withSeconds = random() < 0.7;
	const { text: fractionText, millis } = withSeconds ? fraction(random) : { text: '', millis: 0 };
	if (!withSeconds) wall = Math.floor(wall / MINUTE) * MINUTE;
	const extended = wallTextOf(wall, random() < 0.5 ? 'T' : ' ', withSeconds, fractionText);
	// ISO's basic form, with T or as 12 or 14 digits alone (yyyyMMddHHmm[ss])
	const spelling = random();
	const value =
		spelling < 0.7
			? extended
			: spelling < 0.85 || fractionText !== ''
				? basicText(extended)
				: basicText(extended).replace('T', '');
	return {
		kind: 'wall-clock text',
		value,
		zone,
		shown: `${value} in ${zone}`,
		// midnight without an offset is read as the date alone (what a date picker gives)
		expected:
			(wall + millis) % DAY === 0
				? expectedForDate(wall, zone, now)
				: expectedForWall(wall + millis, zone, now),
	};
}
