import { DateTime, Settings } from 'luxon';

import { knownZone, toIstSchedule } from '../../../src/schedule/schedule';
import { inputErrorOf } from '../helpers';

const NOW = new Date('2026-01-01T00:00:00Z');
// Runs in winter and in summer (north): the reading of a time must not depend on the day it runs.
const JANUARY = new Date('2026-01-15T12:00:00Z');
const JULY = new Date('2026-07-15T12:00:00Z');
const AT_0930_IST = {
	scheduleAt: '2026-11-22T09:30:00',
	utc: '2026-11-22T04:00:00.000Z',
	isPast: false,
};

/** `wallClockZone` when the value is date-and-time text without an offset, read in `zone`. */
function readIn(value: unknown, zone: string): { wallClockZone?: string } {
	const offsetLess = typeof value === 'string' && !/(?:Z|[+-]\d{2}(?::?\d{2})?)\s*$/.test(value);
	return offsetLess ? { wallClockZone: zone } : {};
}

/** Sets luxon's clock (which n8n's $now also reads) for every test of a block. */
function runsAt(now: Date): void {
	const luxonNow = Settings.now;
	beforeEach(() => {
		Settings.now = () => now.getTime();
	});
	afterEach(() => {
		Settings.now = luxonNow;
	});
}

describe('toIstSchedule', () => {
	runsAt(NOW);

	test.each([
		['IST offset', '2026-11-22T09:30:00+05:30', 'UTC'],
		['offset without colon', '2026-11-22T09:30:00+0530', 'UTC'],
		['Z', '2026-11-22T04:00:00Z', 'Asia/Kolkata'],
		['Z with milliseconds', '2026-11-22T04:00:00.000Z', 'America/New_York'],
		['negative offset', '2026-11-21T23:00:00-05:00', 'Asia/Kolkata'],
		['offset-less, Asia/Kolkata', '2026-11-22T09:30', 'Asia/Kolkata'],
		['offset-less with a space, Asia/Kolkata', '2026-11-22 09:30:00', 'Asia/Kolkata'],
		['offset-less, UTC', '2026-11-22T04:00:00', 'UTC'],
		['offset-less, America/New_York in winter', '2026-11-21 23:00', 'America/New_York'],
		['offset-less, Europe/London in winter', '2026-11-22T04:00:00.000', 'Europe/London'],
		['surrounding whitespace', ' 2026-11-22T09:30:00+05:30 ', 'UTC'],
		[
			'luxon DateTime in IST',
			DateTime.fromISO('2026-11-22T09:30', { zone: 'Asia/Kolkata' }),
			'UTC',
		],
		[
			'luxon DateTime in Los Angeles',
			DateTime.fromISO('2026-11-21T20:00', { zone: 'America/Los_Angeles' }),
			'UTC',
		],
		[
			'luxon DateTime in Tokyo',
			DateTime.fromISO('2026-11-22T13:00', { zone: 'Asia/Tokyo' }),
			'Asia/Kolkata',
		],
		[
			'DateTime from another luxon copy',
			{ isValid: true, toMillis: () => Date.UTC(2026, 10, 22, 4) },
			'UTC',
		],
		['object with toJSDate', { toJSDate: () => new Date('2026-11-22T04:00:00Z') }, 'UTC'],
		['JS Date', new Date('2026-11-22T04:00:00Z'), 'America/New_York'],
		['epoch milliseconds', Date.UTC(2026, 10, 22, 4), 'Europe/London'],
	])('%s', (_case, value, zone) => {
		expect(toIstSchedule(value, { zone, now: NOW })).toEqual({
			...AT_0930_IST,
			...readIn(value, zone),
		});
	});

	test.each([
		[
			'New York, daylight saving',
			'2026-07-01T12:00',
			'America/New_York',
			'2026-07-01T21:30:00',
			'2026-07-01T16:00:00.000Z',
		],
		[
			'London, last day of GMT',
			'2026-03-28T12:00',
			'Europe/London',
			'2026-03-28T17:30:00',
			'2026-03-28T12:00:00.000Z',
		],
		[
			'London, first day of BST',
			'2026-03-30T12:00',
			'Europe/London',
			'2026-03-30T16:30:00',
			'2026-03-30T11:00:00.000Z',
		],
		[
			'a UTC evening is the next day in IST',
			'2026-11-22T20:00:00Z',
			'UTC',
			'2026-11-23T01:30:00',
			'2026-11-22T20:00:00.000Z',
		],
		[
			'New York evening is the next day in IST',
			'2026-12-31T22:00',
			'America/New_York',
			'2027-01-01T08:30:00',
			'2027-01-01T03:00:00.000Z',
		],
		[
			'seconds are truncated, not rounded',
			'2026-11-22T09:30:45.999+05:30',
			'UTC',
			'2026-11-22T09:30:45',
			'2026-11-22T04:00:45.999Z',
		],
		[
			'microseconds',
			'2026-11-22T04:00:00.123456Z',
			'UTC',
			'2026-11-22T09:30:00',
			'2026-11-22T04:00:00.123Z',
		],
		[
			'any number of fraction digits, kept to the millisecond',
			'2026-11-22T09:30:45.123456789012345678901Z',
			'UTC',
			'2026-11-22T15:00:45',
			'2026-11-22T09:30:45.123Z',
		],
		[
			'the largest offset ISO 8601 allows',
			'2026-12-01T09:30:00+23:59',
			'UTC',
			'2026-11-30T15:01:00',
			'2026-11-30T09:31:00.000Z',
		],
		[
			'offset -00:00',
			'2026-12-01T09:30:00-00:00',
			'UTC',
			'2026-12-01T15:00:00',
			'2026-12-01T09:30:00.000Z',
		],
		[
			'offset in hours only',
			'2026-12-01T09:30:00+02',
			'UTC',
			'2026-12-01T13:00:00',
			'2026-12-01T07:30:00.000Z',
		],
		[
			'the last second of year 9999 in IST',
			'9999-12-31T23:59:59',
			'Asia/Kolkata',
			'9999-12-31T23:59:59',
			'9999-12-31T18:29:59.000Z',
		],
	])('%s: %p in %s', (_case, value, zone, scheduleAt, utc) => {
		expect(toIstSchedule(value, { zone, now: NOW, farAhead: 'send' })).toEqual({
			scheduleAt,
			utc,
			isPast: false,
			...readIn(value, zone),
		});
	});

	test.each([
		['impossible day', '2026-02-30', 'is not a real date or time: "2026-02-30"'],
		['impossible month', '2026-13-01', 'is not a real date or time: "2026-13-01"'],
		['hour 25', '2026-11-22T25:00', 'is not a date and time: "2026-11-22T25:00"'],
		['hour 24', '2026-11-22T24:00', 'is not a date and time'],
		['time only', '25:00', 'is not a date and time: "25:00"'],
		['garbage', 'next tuesday', 'is not a date and time: "next tuesday"'],
		['empty', '', 'is empty'],
		['blank', '   ', 'is empty'],
		['undefined', undefined, 'is empty'],
		[
			'zone name suffix',
			'2026-11-22T09:30:00 IST',
			'is a date in a form this node does not read: "2026-11-22T09:30:00 IST"',
		],
		['offset without time', '2026-11-22+05:30', 'is not a date and time'],
		['NaN', Number.NaN, 'is not a valid date: NaN'],
		['Infinity', Number.POSITIVE_INFINITY, 'is not a valid date: Infinity'],
		['invalid JS Date', new Date('nonsense'), 'is not a valid date'],
		['invalid luxon DateTime', DateTime.invalid('test'), 'is not a valid date'],
		['a boolean', true, 'must be a date and time, but is true'],
		['a plain object', { when: 'soon' }, 'must be a date and time, but is an object'],
		['null', null, 'is empty'],
	])('rejects %s', (_case, value, problem) => {
		const error = inputErrorOf(() => toIstSchedule(value, { zone: 'Asia/Kolkata', now: NOW }));
		expect(error.field).toBe('Schedule Time');
		expect(error.message).toContain(`"Schedule Time" ${problem}`);
		expect(error.message).toContain('2026-11-22T09:30:00+05:30');
	});

	test.each([
		[
			'offset minutes 75',
			'2026-12-01T09:30:00+05:75',
			'has an offset that is not -23:59 to +23:59: "2026-12-01T09:30:00+05:75"',
		],
		[
			'offset +99',
			'2026-12-01T09:30:00+99',
			'has an offset that is not -23:59 to +23:59: "2026-12-01T09:30:00+99"',
		],
		[
			'offset +24:00',
			'2026-12-01T09:30:00+24:00',
			'has an offset that is not -23:59 to +23:59: "2026-12-01T09:30:00+24:00"',
		],
		[
			'a long fraction, cut to 6 digits, never masked like a phone number',
			'2026-11-22T09:30:45.123456789012345678901-24:00',
			'has an offset that is not -23:59 to +23:59: "2026-11-22T09:30:45.123456…-24:00"',
		],
		[
			'year 10000 in IST',
			'9999-12-31T23:59:59Z',
			'is outside the years 0001 to 9999 in India time: "9999-12-31T23:59:59Z"',
		],
		[
			'one second before year 0001 in IST',
			'0000-12-31T18:06:31Z',
			'is outside the years 0001 to 9999 in India time: "0000-12-31T18:06:31Z"',
		],
		[
			'a number of 14 digits past the last epoch millisecond',
			99999999999999,
			'is a number of 14 digits, which is neither epoch seconds (9 to 11 digits), milliseconds (13), microseconds (16) or nanoseconds (19) nor a basic ISO date and time (yyyyMMddHHmmss): it may be a phone number or an ID',
		],
		[
			'a number of 17 digits, in no unit',
			8.64e16,
			'is a number of 17 digits, which is none of epoch seconds (9 to 11 digits), milliseconds (13), microseconds (16) or nanoseconds (19)',
		],
		[
			'a negative number',
			-8.64e15,
			'is a negative number of 16 digits, which is none of epoch seconds (9 to 11 digits), milliseconds (13), microseconds (16) or nanoseconds (19), nor a spreadsheet serial date (below 100000)',
		],
	])('rejects %s, before anything is sent', (_case, value, problem) => {
		const error = inputErrorOf(() => toIstSchedule(value, { zone: 'UTC', now: NOW }));
		expect(error.field).toBe('Schedule Time');
		expect(error.message).toContain(`"Schedule Time" ${problem}. `);
	});

	test('a second into year 0001 in IST is accepted, with Start Now', () => {
		expect(
			toIstSchedule('0001-01-01T00:00:01', {
				zone: 'Asia/Kolkata',
				now: NOW,
				longPast: 'startNow',
			}),
		).toEqual({
			scheduleAt: '0001-01-01T00:00:01',
			// India's local mean time then was +05:53:28.
			utc: '0000-12-31T18:06:33.000Z',
			isPast: true,
			wallClockZone: 'Asia/Kolkata',
		});
	});

	test.each([
		['IST', 'Asia/Kolkata'],
		['asia/kolkata', 'Asia/Kolkata'],
		['Asia/Calcutta', 'Asia/Kolkata'],
		['europe/london', 'Europe/London'],
		['Japan', 'Asia/Tokyo'],
		['UTC', 'UTC'],
	])('the zone %p is compared as the zone %p', (zone, name) => {
		expect(knownZone(zone).name).toBe(name);
	});

	test.each(['EST', 'PST', 'CEST', 'bst'])(
		'refuses the abbreviation %p, which names no single zone',
		(zone) => {
			const error = inputErrorOf(() => toIstSchedule('2026-11-22T09:30', { zone }));
			expect(error.message).toBe(
				`"Time Zone" is an abbreviation, "${zone}", which names no single time zone. Use an IANA time zone name such as Asia/Kolkata or America/New_York.`,
			);
		},
	);

	test.each(['Mars/Olympus', '', 'GMT+25'])('rejects the time zone %p', (zone) => {
		const error = inputErrorOf(() => toIstSchedule('2026-11-22T09:30', { zone }));
		expect(error.field).toBe('Time Zone');
		expect(error.message).toMatch(/^"Time Zone" is not a known time zone/);
	});

	test.each([
		['a minute and a millisecond before now', '2026-11-22T03:58:59.999Z', true],
		['a minute before now: now', '2026-11-22T03:59:00Z', false],
		['one second before now: now', '2026-11-22T03:59:59Z', false],
		['exactly now', '2026-11-22T04:00:00Z', false],
		['after now', '2026-11-22T04:00:01Z', false],
	])('isPast: %s', (_case, value, isPast) => {
		expect(
			toIstSchedule(value, { zone: 'UTC', now: new Date('2026-11-22T04:00:00Z') }).isPast,
		).toBe(isPast);
	});

	test('the field option names the field', () => {
		const error = inputErrorOf(() =>
			toIstSchedule('2026-03-08T02:30', { zone: 'America/New_York', field: 'Call Time' }),
		);
		expect(error.field).toBe('Call Time');
		expect(error.message).toMatch(/^"Call Time" does not exist in the time zone America\/New_York/);
	});

	test("isPast defaults to luxon's clock", () => {
		expect(toIstSchedule('2025-12-31T23:58:59Z', { zone: 'UTC' }).isPast).toBe(true);
		expect(toIstSchedule('2026-01-01T00:00:01Z', { zone: 'UTC' }).isPast).toBe(false);
	});

	describe('when the host changed luxon defaults, as n8n does', () => {
		const { defaultZone, defaultLocale, defaultNumberingSystem } = Settings;
		beforeAll(() => {
			Settings.defaultZone = 'America/New_York';
			Settings.defaultLocale = 'ar-EG';
			Settings.defaultNumberingSystem = 'arab';
		});
		afterAll(() => {
			Settings.defaultZone = defaultZone;
			Settings.defaultLocale = defaultLocale;
			Settings.defaultNumberingSystem = defaultNumberingSystem;
		});

		test.each([
			['offset-less text', '2026-11-22T09:30', 'Asia/Kolkata'],
			['epoch milliseconds', Date.UTC(2026, 10, 22, 4), 'UTC'],
		])('%s is unaffected', (_case, value, zone) => {
			expect(toIstSchedule(value, { zone, now: NOW })).toEqual({
				...AT_0930_IST,
				...readIn(value, zone),
			});
		});
	});
});

/** The rules of the README's table "Scheduling and time zones", one block per row. */
describe.each([
	['January', JANUARY],
	['July', JULY],
])('wall-clock text near clock changes, run in %s', (_month, now) => {
	runsAt(now);
	const isPast = (utc: string) => Date.parse(utc) < now.getTime();
	// Some of these times are long past when the block runs.
	const read = (value: string, zone: string) =>
		toIstSchedule(value, { zone, longPast: 'startNow' });

	describe('a repeated wall time is its first occurrence', () => {
		test.each([
			[
				'London, clocks go back',
				'2026-10-25T01:30',
				'Europe/London',
				'2026-10-25T00:30:00.000Z',
				'+01:00',
			],
			[
				'New York, clocks go back',
				'2026-11-01 01:15:30',
				'America/New_York',
				'2026-11-01T05:15:30.000Z',
				'-04:00',
			],
			[
				'Lord Howe, 30 minutes back',
				'2026-04-05T01:45',
				'Australia/Lord_Howe',
				'2026-04-04T14:45:00.000Z',
				'+11:00',
			],
			[
				'Sao Paulo, midnight repeated (1990s rules)',
				'1999-02-20T23:30',
				'America/Sao_Paulo',
				'1999-02-21T01:30:00.000Z',
				'-02:00',
			],
		])('%s: %p in %s', (_case, value, zone, utc, offset) => {
			expect(read(value, zone)).toEqual({
				scheduleAt: DateTime.fromISO(utc).setZone('Asia/Kolkata').toFormat("yyyy-LL-dd'T'HH:mm:ss"),
				utc,
				isPast: isPast(utc),
				note: `repeated wall time read as its first occurrence (${offset})`,
				wallClockZone: zone,
			});
		});

		test('the hour after the repeat is read once, with no note', () => {
			expect(read('2026-10-25T02:30', 'Europe/London')).toEqual({
				scheduleAt: '2026-10-25T08:00:00',
				utc: '2026-10-25T02:30:00.000Z',
				isPast: isPast('2026-10-25T02:30:00.000Z'),
				wallClockZone: 'Europe/London',
			});
		});
	});

	describe('a skipped wall time is an error naming the value, the zone and the times around the gap', () => {
		test.each([
			[
				'New York, one hour',
				'2026-03-08T02:30',
				'America/New_York',
				'2026-03-08T01:59:59',
				'2026-03-08T03:00:00',
			],
			[
				'Apia, the whole of 2011-12-30',
				'2011-12-30T12:00',
				'Pacific/Apia',
				'2011-12-29T23:59:59',
				'2011-12-31T00:00:00',
			],
			[
				'Lord Howe, 30 minutes',
				'2026-10-04T02:15',
				'Australia/Lord_Howe',
				'2026-10-04T01:59:59',
				'2026-10-04T02:30:00',
			],
			[
				'Chatham, at 02:45',
				'2026-09-27T03:00',
				'Pacific/Chatham',
				'2026-09-27T02:44:59',
				'2026-09-27T03:45:00',
			],
		])('%s: %p in %s', (_case, value, zone, lastBefore, firstAfter) => {
			const error = inputErrorOf(() => read(value, zone));
			expect(error.field).toBe('Schedule Time');
			expect(error.message).toBe(
				`"Schedule Time" does not exist in the time zone ${zone}, because the clocks skip it: "${value}". The clocks go from ${lastBefore} straight to ${firstAfter}; pick a time outside that gap.`,
			);
		});

		test.each([
			[
				'the day after the Apia jump',
				'2011-12-31T00:30',
				'Pacific/Apia',
				'2011-12-30T10:30:00.000Z',
			],
			[
				'a day after the New York gap, same hour',
				'2026-03-09T02:30',
				'America/New_York',
				'2026-03-09T06:30:00.000Z',
			],
			[
				'just after the Chatham gap',
				'2026-09-27T03:45',
				'Pacific/Chatham',
				'2026-09-26T14:00:00.000Z',
			],
		])('but %s exists: %p in %s', (_case, value, zone, utc) => {
			expect(read(value, zone).utc).toBe(utc);
		});
	});

	describe('a date alone starts when the day starts (Calling Hours open)', () => {
		test('an ordinary day: at the opening, in its zone', () => {
			const dayStart = { zone: 'Europe/Berlin', time: '09:00' };
			expect(toIstSchedule('2026-07-01', { zone: 'UTC', dayStart, longPast: 'startNow' })).toEqual({
				scheduleAt: '2026-07-01T12:30:00',
				utc: '2026-07-01T07:00:00.000Z',
				isPast: isPast('2026-07-01T07:00:00.000Z'),
				note: 'date without a time: starts when Calling Hours open that day (09:00 in Europe/Berlin)',
			});
		});

		test('an opening the clocks skip is where they resume: Sao Paulo, 2018-11-04 at 00:00', () => {
			const dayStart = { zone: 'America/Sao_Paulo', time: '00:00' };
			expect(toIstSchedule('2018-11-04', { zone: 'UTC', dayStart, longPast: 'startNow' }).utc).toBe(
				'2018-11-04T03:00:00.000Z',
			);
		});

		test.each(['2026-12-05T00:00:00', '2026-12-05 00:00', '2026-12-05T00:00:00.000'])(
			'midnight without an offset, as a date picker gives a date alone, is that date: %p',
			(value) => {
				const dayStart = { zone: 'Asia/Kolkata', time: '10:00' };
				expect(toIstSchedule(value, { zone: 'Asia/Kolkata', dayStart, now: NOW })).toMatchObject({
					scheduleAt: '2026-12-05T10:00:00',
				});
				expect(
					inputErrorOf(() => toIstSchedule(value, { zone: 'Asia/Kolkata', now: NOW })).message,
				).toBe(
					`"Schedule Time" is midnight without an offset, as a date picker gives a date alone: "${value}". Add the time, such as 2026-12-05T10:00:00+05:30, or add Options → Calling Hours to start when they open that day; for a call at midnight, give the offset: 2026-12-05T00:00:00+05:30.`,
				);
			},
		);

		test('midnight with an offset is a call at midnight, as written', () => {
			expect(toIstSchedule('2026-12-05T00:00:00+05:30', { zone: 'UTC', now: NOW }).scheduleAt).toBe(
				'2026-12-05T00:00:00',
			);
		});

		test('a whole day skipped: the next day, Apia 2011-12-30', () => {
			const dayStart = { zone: 'Pacific/Apia', time: '09:00' };
			expect(toIstSchedule('2011-12-30', { zone: 'UTC', dayStart, longPast: 'startNow' }).utc).toBe(
				'2011-12-30T10:00:00.000Z',
			);
		});
	});
});
