// An instant is an instant (issue 46): one instant written in any form that names it (ISO with Z
// or any offset, Snowflake's and Postgres's text, epoch seconds or milliseconds as numbers or
// text, decimal and exponent epoch seconds, a JS Date or its text, a mail date (RFC 2822), a
// luxon DateTime in any zone) gives the same schedule_at, or every form is refused; in any Time
// Zone, with or without Calling Hours. A date alone, in every form that gives one, is never a call
// at midnight. No refusal of a date shows a run of a phone number's digits, nor masks it like one.
import fc from 'fast-check';
import { DateTime, FixedOffsetZone } from 'luxon';

import { CallKaroInputError } from '../../../src/input/inputError';
import { applyCallingHours } from '../../../src/schedule/callingHours';
import type { CallingHours } from '../../../src/schedule/callingHours';
import { toIstSchedule } from '../../../src/schedule/schedule';
import type { DateColumn, ScheduleOptions } from '../../../src/schedule/schedule';
import { propertyRuns } from '../../support/property.mjs';
import { ORACLE_ZONES, clockChanges, offsetAt, oracleWall, wallText } from './scheduleOracle';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;
const FIRST = Date.UTC(1990, 0, 1);
const LAST = Date.UTC(2060, 0, 1);
const ZONES = ['UTC', 'Asia/Kolkata', ...ORACLE_ZONES];

const zoneArb = fc.constantFrom(...ZONES);

/** Instants biased to where readings go wrong: midnight UTC, clock changes, whole seconds. */
const instantArb = fc.oneof(
	fc.integer({ min: FIRST / DAY, max: LAST / DAY - 1 }).map((day) => day * DAY),
	fc
		.tuple(fc.constantFrom(...ORACLE_ZONES), fc.integer({ min: 1990, max: 2059 }), fc.nat())
		.chain(([zone, year, pick]) => {
			const changes = clockChanges(zone, year);
			const change = changes.length ? changes[pick % changes.length] : Date.UTC(year, 5, 1);
			return fc.integer({ min: -3 * 60, max: 3 * 60 }).map((minutes) => change + minutes * MINUTE);
		}),
	fc.integer({ min: FIRST / SECOND, max: LAST / SECOND }).map((seconds) => seconds * SECOND),
	fc.integer({ min: FIRST, max: LAST }),
);

const pad = (value: number, width = 2) => String(Math.abs(value)).padStart(width, '0');

/** The fraction of a second as text of 0 to 9 digits that still names the millisecond. */
function fractionText(millis: number, digits: number, more: string): string {
	const places = millis === 0 ? digits : Math.max(digits, 3);
	if (places === 0) return '';
	return `.${(pad(millis, 3) + more).slice(0, places).padEnd(places, '0')}`;
}

function offsetText(minutes: number, style: number): string {
	const sign = minutes < 0 ? '-' : '+';
	const [hours, rest] = [pad(Math.trunc(minutes / 60)), pad(minutes % 60)];
	if (style === 0) return `${sign}${hours}:${rest}`;
	if (style === 1) return `${sign}${hours}${rest}`;
	return rest === '00' ? `${sign}${hours}` : `${sign}${hours}:${rest}`;
}

/** The instant as date text on a clock `minutes` east of UTC. */
function isoText(instant: number, minutes: number, shape: Shape): string {
	const wall = new Date(instant + minutes * MINUTE).toISOString();
	const fraction = fractionText(instant % SECOND, shape.digits, shape.more);
	const zero = ['Z', 'z', 'UTC', '+00:00', '+0000', '+00'][shape.style % 6];
	const offset = minutes === 0 && shape.zeroAsName ? zero : offsetText(minutes, shape.style % 3);
	return `${wall.slice(0, 10)}${shape.separator}${wall.slice(11, 19)}${fraction}${shape.space}${offset}`;
}

interface Shape {
	digits: number;
	more: string;
	style: number;
	separator: string;
	space: string;
	zeroAsName: boolean;
}

const shapeArb: fc.Arbitrary<Shape> = fc.record({
	digits: fc.integer({ min: 0, max: 9 }),
	more: fc.stringMatching(/^\d{6}$/),
	style: fc.nat({ max: 5 }),
	separator: fc.constantFrom('T', ' ', 't'),
	space: fc.constantFrom('', ' '),
	zeroAsName: fc.boolean(),
});

/** ISO text in the basic form: '20260328T233000.5+0530'. */
function basicText(text: string): string {
	const [, date, time, zone] = /^(\S{10})T([^+Zz-]+)(.*)$/.exec(text) ?? [];
	return `${date.replaceAll('-', '')}T${time.replaceAll(':', '')}${zone.replaceAll(':', '')}`;
}

/** Epoch seconds of an instant as exact decimal digits, e.g. '1768281300.123'. */
function epochSecondsText(instant: number): string {
	const millis = instant % SECOND;
	return `${Math.floor(instant / SECOND)}${millis ? `.${pad(millis, 3).replace(/0+$/, '')}` : ''}`;
}

/** '1.7682813E9': the same digits in exponent notation, as BigQuery gives a TIMESTAMP. */
function exponentText(decimal: string, upper: boolean): string {
	const [whole, fraction = ''] = decimal.split('.');
	const mantissa = `${whole[0]}.${whole.slice(1)}${fraction}`.replace(/\.?0*$/, '');
	return `${mantissa}${upper ? 'E' : 'e'}${whole.length - 1}`;
}

/** Every form that names the instant, each labelled for the failure report. */
function forms(
	instant: number,
	shape: Shape,
	minutes: number,
	zone: string,
): Array<[string, unknown]> {
	const seconds = epochSecondsText(instant);
	const zoneMinutes = Math.round(offsetAt(instant, zone) / MINUTE);
	return [
		['ISO Z', isoText(instant, 0, shape)],
		['ISO with an offset', isoText(instant, minutes, shape)],
		[
			"the zone's own offset",
			isoText(instant, Math.round(offsetAt(instant, zone) / MINUTE), shape),
		],
		[
			"Snowflake's text",
			isoText(instant, minutes, {
				...shape,
				separator: ' ',
				space: ' ',
				style: 1,
				digits: 3,
				zeroAsName: false,
			}),
		],
		['toISOString', new Date(instant).toISOString()],
		// ISO's basic form (iCalendar's), and RFC 9557's zone in brackets with the offset it has then
		['ISO basic', basicText(isoText(instant, minutes, { ...shape, separator: 'T', space: '' }))],
		['RFC 9557', `${isoText(instant, zoneMinutes, { ...shape, zeroAsName: false })}[${zone}]`],
		// 13 digits are milliseconds (12 are a basic ISO date and time), 16 microseconds, 19 nanoseconds
		...(instant >= 1e12
			? [
					['epoch ms', instant] as [string, unknown],
					['epoch ms text', String(instant)] as [string, unknown],
					['epoch µs text', `${instant}${shape.more.slice(0, 3)}`] as [string, unknown],
					['epoch ns text', `${instant}${shape.more}`] as [string, unknown],
				]
			: []),
		['epoch seconds', Number(seconds)],
		['epoch seconds text', seconds],
		['exponent epoch seconds', exponentText(seconds, shape.style % 2 === 0)],
		['JS Date', new Date(instant)],
		['luxon DateTime', DateTime.fromMillis(instant, { zone })],
		['luxon ISO text', DateTime.fromMillis(instant, { zone }).toISO()],
		// whole seconds only: a mail date and a JS Date's text have no fraction
		...(instant % SECOND === 0 ? writtenForms(instant, minutes) : []),
	];
}

/** A mail or web date (RFC 2822) and String(new Date()) on a clock `minutes` east of UTC. */
function writtenForms(instant: number, minutes: number): Array<[string, string]> {
	const time = DateTime.fromMillis(instant, {
		zone: FixedOffsetZone.instance(minutes),
		locale: 'en-US',
	});
	return [
		['RFC 2822', time.toRFC2822() ?? ''],
		['RFC 2822 in UT', time.toUTC().toRFC2822()?.replace('+0000', 'UT') ?? ''],
		['ISO text in GMT', `${time.toUTC().toFormat('yyyy-MM-dd HH:mm:ss')} GMT`],
		['ISO text with GMT±hh:mm', `${time.toFormat("yyyy-MM-dd HH:mm:ss 'GMT'ZZ")}`],
		['an English month name with a zone', time.toFormat('d MMMM yyyy HH:mm:ss ZZ')],
		['an English month name in UTC', time.toUTC().toFormat("MMMM d, yyyy h:mm:ss a 'UTC'")],
		['a JS Date as text', `${time.toFormat("EEE LLL dd yyyy HH:mm:ss 'GMT'ZZZ")} (Some Time)`],
	];
}

type Outcome =
	| { refused: string }
	| { unexpected: string }
	| { scheduleAt: string; utc: string; isPast: boolean };

function outcomeOf(value: unknown, options: ScheduleOptions, hours?: CallingHours): Outcome {
	try {
		const schedule = toIstSchedule(value, options);
		const { scheduleAt, utc, isPast } =
			applyCallingHours(schedule, hours, options.now).schedule ?? schedule;
		return { scheduleAt, utc, isPast };
	} catch (error) {
		return error instanceof CallKaroInputError
			? { refused: error.message }
			: { unexpected: String(error) };
	}
}

/**
 * Read, or refused naming the field: a refusal of a date shows the text as written (a fraction of
 * a second cut to 6 digits), and apart from it no run of 7 or more digits, nothing masked like a
 * phone number.
 */
function expectShownAsDate(outcome: Outcome, value: unknown) {
	expect(outcome).not.toHaveProperty('unexpected');
	if ('refused' in outcome) {
		const asWritten =
			typeof value === 'string' ? `"${value.replace(/([.,]\d{6})\d+/, '$1…')}"` : undefined;
		const rest = asWritten ? outcome.refused.replaceAll(asWritten, '') : outcome.refused;
		expect(rest).not.toMatch(/\d{7}/);
		expect(outcome.refused).not.toContain('*');
	}
}

const optionsArb = fc.record({
	zone: zoneArb,
	longPast: fc.constantFrom('fail', 'startNow') as fc.Arbitrary<'fail' | 'startNow'>,
	farAhead: fc.constantFrom('fail', 'send') as fc.Arbitrary<'fail' | 'send'>,
	withHours: fc.boolean(),
	hoursZone: zoneArb,
	open: fc.integer({ min: 6, max: 12 }),
});

function callingHours({ hoursZone, open }: { hoursZone: string; open: number }): CallingHours {
	const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
	return {
		start: `${pad(open)}:00`,
		end: '20:00',
		zone: hoursZone,
		days,
		onOutside: 'move',
	} as CallingHours;
}

describe('an instant is an instant', () => {
	test('every form of one instant gives the same schedule_at, or all are refused', () => {
		fc.assert(
			fc.property(
				instantArb,
				shapeArb,
				fc.integer({ min: -14 * 60, max: 14 * 60 }),
				zoneArb,
				optionsArb,
				fc.integer({ min: -400 * 24, max: 2 * 24 }),
				(instant, shape, minutes, valueZone, settings, hoursFromNow) => {
					const now = new Date(instant - hoursFromNow * 60 * MINUTE);
					const hours = settings.withHours ? callingHours(settings) : undefined;
					const options: ScheduleOptions = {
						zone: settings.zone,
						now,
						longPast: settings.longPast,
						farAhead: settings.farAhead,
						dayStart: hours && { zone: hours.zone, time: hours.start },
					};
					const outcomes = forms(instant, shape, minutes, valueZone).map(
						([form, value]) => [form, value, outcomeOf(value, options, hours)] as const,
					);
					outcomes.forEach(([, value, outcome]) => expectShownAsDate(outcome, value));
					const [, , first] = outcomes[0];
					if ('refused' in first) {
						expect(outcomes.filter(([, , outcome]) => !('refused' in outcome))).toEqual([]);
					} else {
						for (const [form, value, outcome] of outcomes) {
							expect({ form, value, outcome }).toEqual({ form, value, outcome: first });
						}
						if (!hours && 'utc' in first) expect(first.utc).toBe(new Date(instant).toISOString());
					}
				},
			),
			propertyRuns(10, 3000),
		);
	});
});

describe('a date alone is never a call at midnight', () => {
	/** Every form of a date alone: text, a date picker's midnight, a database's DATE column, a serial. */
	function dateForms(
		date: string,
		column: DateColumn,
	): Array<[string, unknown, Partial<ScheduleOptions>]> {
		const midnight = Date.parse(`${date}T00:00:00Z`);
		// a driver's Date for the day: midnight on the column's clock, or where its clocks resume
		const reading = oracleWall(midnight, column.zone);
		const columnMidnight =
			reading.kind === 'instants' ? reading.instants[0] : reading.firstAfterInstant;
		const serial = (midnight - Date.UTC(1899, 11, 30)) / DAY;
		return [
			['date text', date, {}],
			["a date picker's midnight", `${date}T00:00:00`, {}],
			['midnight without seconds', `${date} 00:00`, {}],
			["ISO basic's midnight", `${date.replaceAll('-', '')}T000000`, {}],
			['midnight as 12 digits', `${date.replaceAll('-', '')}0000`, {}],
			['a DATE column as a JS Date', new Date(columnMidnight), { dateColumn: column }],
			['a DATE column as ISO text', new Date(columnMidnight).toISOString(), { dateColumn: column }],
			['a whole serial', serial, { serialDates: true }],
		];
	}

	test('every form of a date starts when Calling Hours open that day, or is refused', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: FIRST / DAY, max: LAST / DAY - 1 }),
				zoneArb,
				optionsArb,
				fc.integer({ min: -400, max: 2 }),
				(day, columnZone, settings, daysFromNow) => {
					const date = new Date(day * DAY).toISOString().slice(0, 10);
					const column: DateColumn = {
						zone: columnZone,
						source: 'Postgres',
						expression: '$json.due',
					};
					const hours = settings.withHours ? callingHours(settings) : undefined;
					const base: ScheduleOptions = {
						zone: settings.zone,
						now: new Date(day * DAY - daysFromNow * DAY),
						longPast: settings.longPast,
						farAhead: settings.farAhead,
						dayStart: hours && { zone: hours.zone, time: hours.start },
					};
					const outcomes = dateForms(date, column).map(([form, value, more]) => ({
						form,
						value,
						outcome: outcomeOf(value, { ...base, ...more }),
					}));
					for (const { form, value, outcome } of outcomes) {
						expectShownAsDate(outcome, value);
						if (!hours) {
							expect({ form, refused: 'refused' in outcome }).toEqual({ form, refused: true });
						} else if ('utc' in outcome) {
							// Calling Hours open at hh:00 in their zone, which no clock change skips.
							expect({ form, start: wallText(Date.parse(outcome.utc), hours.zone) }).toEqual({
								form,
								start: `${date}T${hours.start}:00`,
							});
						}
					}
					const shapes = new Set(
						outcomes.map(({ outcome }) =>
							'refused' in outcome ? 'refused' : JSON.stringify(outcome),
						),
					);
					if (hours) expect(shapes.size).toBe(1);
				},
			),
			propertyRuns(20, 2000),
		);
	});
});
