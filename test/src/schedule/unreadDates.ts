// Dates written in forms the nodes do not read but can name, with the instant each names: a
// numeric date whose day and month cannot be swapped, or an English month name without a zone;
// a 24- or 12-hour time; sometimes a zone or an offset after a numeric date. Written by luxon from
// the DateTime they name, so the expected instant is that DateTime's, and checked against the
// Intl oracle to be no repeated or skipped wall time (which names no single instant).
import fc from 'fast-check';
import { DateTime } from 'luxon';

import { ORACLE_ZONES, oracleWall } from './scheduleOracle';

export interface UnreadDate {
	/** The text, as a builder's data gives it. */
	text: string;
	/** The zone the node reads wall-clock times in (Options → Time Zone). */
	zone: string;
	/** The instant the text names, read in `zone` when it has no zone of its own. */
	instant: number;
	/** The tokens it was written with, for a failure report. */
	tokens: string;
	/** A date alone: its instant is when Calling Hours open that day, at DATE_ALONE_START. */
	dateAlone: boolean;
}

/** When the Calling Hours a date alone is read with open. */
export const DATE_ALONE_START = '10:00';

const DAY = 24 * 60 * 60 * 1000;

const numericDate = fc
	.record({
		order: fc.constantFrom('dmy', 'mdy', 'ymd'),
		separator: fc.constantFrom('/', '.', '-'),
		padded: fc.boolean(),
	})
	.filter(({ order, separator, padded }) => !(order === 'ymd' && separator === '-' && padded))
	.map(({ order, separator, padded }) => {
		const [day, month] = padded ? ['dd', 'MM'] : ['d', 'M'];
		const parts = {
			dmy: [day, month, 'yyyy'],
			mdy: [month, day, 'yyyy'],
			ymd: ['yyyy', month, day],
		};
		return { tokens: parts[order as keyof typeof parts].join(separator), numeric: true };
	});

const namedDate = fc
	.constantFrom(
		'd MMMM yyyy',
		'MMMM d, yyyy',
		'd MMM yyyy',
		'MMM d yyyy',
		'EEE, d MMM yyyy',
		'EEEE d MMMM yyyy',
	)
	.map((tokens) => ({ tokens, numeric: false }));

const time = fc.constantFrom('H:mm', 'HH:mm:ss', 'h:mm a', 'hh:mm:ss a');
const joiner = fc.constantFrom(' ', ', ', " 'at' ");
/** A zone after a numeric date, as luxon writes it, and the zone the DateTime is in. */
const zoneSuffix = fc.constantFrom(
	{ tokens: '', zone: undefined },
	{ tokens: '', zone: undefined },
	{ tokens: " 'UTC'", zone: 'UTC' },
	{ tokens: ' ZZ', zone: 'UTC+5:30' },
	{ tokens: ' ZZZ', zone: 'UTC-3' },
	{ tokens: " 'GMT'Z", zone: 'UTC+2' },
);

// After the tests' now (2026-11-25) and within a year of it: neither long past nor far ahead
const FIRST = Date.UTC(2026, 11, 1);

export const unreadDateArb: fc.Arbitrary<UnreadDate> = fc
	.record({
		date: fc.oneof(numericDate, namedDate),
		time,
		joiner,
		suffix: zoneSuffix,
		zone: fc.constantFrom('Asia/Kolkata', 'UTC', ...ORACLE_ZONES),
		// days ahead of FIRST, and a day of the month above 12 so that no day and month swap
		days: fc.integer({ min: 0, max: 300 }),
		day: fc.integer({ min: 13, max: 28 }),
		minutes: fc.integer({ min: 0, max: 24 * 60 - 1 }),
		second: fc.integer({ min: 0, max: 59 }),
		// a date alone with its month named, one in five
		alone: fc.integer({ min: 0, max: 4 }),
	})
	.map(
		({ date, time: someTime, joiner: join, suffix, zone, days, day, minutes, second, alone }) => {
			const month = new Date(FIRST + days * DAY);
			const dateAlone = !date.numeric && alone === 0;
			const [hour, minute] = dateAlone
				? DATE_ALONE_START.split(':').map(Number)
				: [Math.floor(minutes / 60), minutes % 60];
			const timeTokens = dateAlone ? '' : someTime;
			const fields = {
				year: month.getUTCFullYear(),
				month: month.getUTCMonth() + 1,
				day,
				hour,
				minute,
				second: timeTokens.includes('ss') ? second : 0,
			};
			const withZone = date.numeric && suffix.zone !== undefined;
			const valueZone = withZone ? suffix.zone : zone;
			const written = DateTime.fromObject(fields, { zone: valueZone, locale: 'en-US' });
			const tokens = dateAlone
				? date.tokens
				: `${date.tokens}${join}${timeTokens}${withZone ? suffix.tokens : ''}`;
			return {
				dateAlone,
				text: written.toFormat(tokens),
				zone,
				instant: written.toMillis(),
				tokens,
				wall: Date.UTC(
					fields.year,
					fields.month - 1,
					fields.day,
					fields.hour,
					fields.minute,
					fields.second,
				),
				wallZone: withZone ? undefined : zone,
			};
		},
	)
	// ISO 8601's own text is read, not refused
	.filter(({ text }) => !/^\d{4}-\d{2}-\d{2}/.test(text))
	// a wall-clock time names one instant only when its zone's clocks show it once
	.filter(({ wall, wallZone }) => {
		if (wallZone === undefined) return true;
		const reading = oracleWall(wall, wallZone);
		return reading.kind === 'instants' && reading.instants.length === 1;
	})
	.map(({ text, zone, instant, tokens, dateAlone }) => ({
		text,
		zone,
		instant,
		tokens,
		dateAlone,
	}));

// The advice's expression, as the node writes it for a field `{{ $json.when }}`.
const ADVICE =
	/^\{\{ DateTime\.fromFormat\((\$json\.when|String\(\$json\.when\)\.trim\(\)), (?:'([^']*)'|"([^"]*)"), \{ zone: '([^']+)'(, locale: 'en-US')? \}\)(\.toISODate\(\))? \}\}$/;

/**
 * What the advice's expression gives for an item, as n8n hands it to the node (a DateTime as ISO
 * text with its offset), read part by part and called as n8n's expression would (the engine test, test/nodes/scheduleAdvice.cases.ts, has n8n evaluate it).
 */
export function evaluateAdvice(set: string, json: { when: string }): string | null {
	const [, value, single, double, zone, english, isoDate] = ADVICE.exec(set) ?? [];
	if (value === undefined) throw new Error(`not the advice's expression: ${set}`);
	const text = value.startsWith('String') ? json.when.trim() : json.when;
	const read = DateTime.fromFormat(text, single ?? double, {
		zone,
		...(english ? { locale: 'en-US' } : {}),
	});
	return isoDate ? read.toISODate() : read.toISO();
}
