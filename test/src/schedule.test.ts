import { DateTime, Settings } from 'luxon';

import { toIstSchedule } from '../../src/schedule';
import { inputErrorOf } from './helpers';

const NOW = new Date('2026-01-01T00:00:00Z');
const AT_0930_IST = {
	scheduleAt: '2026-11-22T09:30:00',
	utc: '2026-11-22T04:00:00.000Z',
	isPast: false,
};

describe('toIstSchedule', () => {
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
		expect(toIstSchedule(value, { zone, now: NOW })).toEqual(AT_0930_IST);
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
			'London, a repeated hour is read as GMT',
			'2026-10-25T01:30',
			'Europe/London',
			'2026-10-25T07:00:00',
			'2026-10-25T01:30:00.000Z',
		],
		[
			'date only is midnight in IST',
			'2026-11-22',
			'Asia/Kolkata',
			'2026-11-22T00:00:00',
			'2026-11-21T18:30:00.000Z',
		],
		[
			'date only is midnight in UTC',
			'2026-11-22',
			'UTC',
			'2026-11-22T05:30:00',
			'2026-11-22T00:00:00.000Z',
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
	])('%s: %p in %s', (_case, value, zone, scheduleAt, utc) => {
		expect(toIstSchedule(value, { zone, now: NOW })).toEqual({ scheduleAt, utc, isPast: false });
	});

	test.each([
		['impossible day', '2026-02-30', 'is not a real date or time: "2026-02-30"'],
		['impossible month', '2026-13-01', 'is not a real date or time: "2026-13-01"'],
		['hour 25', '2026-11-22T25:00', 'is not a date and time: "2026-11-22T25:00"'],
		['hour 24', '2026-11-22T24:00', 'is not a date and time'],
		['time only', '25:00', 'is not a date and time: "25:00"'],
		['garbage', 'next tuesday', 'is not a date and time: "next tuesday"'],
		['empty', '', 'is not a date and time: empty'],
		['blank', '   ', 'is not a date and time: empty'],
		['zone name suffix', '2026-11-22T09:30:00 IST', 'is not a date and time'],
		['offset without time', '2026-11-22+05:30', 'is not a date and time'],
		['NaN', Number.NaN, 'is not a valid date: NaN'],
		['Infinity', Number.POSITIVE_INFINITY, 'is not a valid date: Infinity'],
		['invalid JS Date', new Date('nonsense'), 'is not a valid date'],
		['invalid luxon DateTime', DateTime.invalid('test'), 'is not a valid date'],
		['a boolean', true, 'must be a date and time, but is true'],
		['a plain object', { when: 'soon' }, 'must be a date and time, but is an object'],
		['null', null, 'must be a date and time, but is null'],
	])('rejects %s', (_case, value, problem) => {
		const error = inputErrorOf(() => toIstSchedule(value, { zone: 'Asia/Kolkata', now: NOW }));
		expect(error.field).toBe('Schedule Time');
		expect(error.message).toContain(`"Schedule Time" ${problem}`);
		expect(error.message).toContain('2026-11-22T09:30:00+05:30');
	});

	test('rejects a wall-clock time the clocks skip', () => {
		const error = inputErrorOf(() =>
			toIstSchedule('2026-03-08T02:30', { zone: 'America/New_York', field: 'Call Time' }),
		);
		expect(error.field).toBe('Call Time');
		expect(error.message).toBe(
			'"Call Time" does not exist in the time zone America/New_York, because the clocks skip it: "2026-03-08T02:30". Pick a time outside the daylight-saving change.',
		);
	});

	test.each(['Mars/Olympus', '', 'GMT+25'])('rejects the time zone %p', (zone) => {
		const error = inputErrorOf(() => toIstSchedule('2026-11-22T09:30', { zone }));
		expect(error.field).toBe('Time Zone');
		expect(error.message).toMatch(/^"Time Zone" is not a known time zone/);
	});

	test.each([
		['one second before now', '2026-11-22T03:59:59Z', true],
		['one millisecond before now', '2026-11-22T03:59:59.999Z', true],
		['exactly now', '2026-11-22T04:00:00Z', false],
		['after now', '2026-11-22T04:00:01Z', false],
	])('isPast: %s', (_case, value, isPast) => {
		expect(
			toIstSchedule(value, { zone: 'UTC', now: new Date('2026-11-22T04:00:00Z') }).isPast,
		).toBe(isPast);
	});

	test('isPast defaults to the current time', () => {
		expect(toIstSchedule('2000-01-01T00:00:00Z', { zone: 'UTC' }).isPast).toBe(true);
		expect(toIstSchedule('2999-01-01T00:00:00Z', { zone: 'UTC' }).isPast).toBe(false);
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
			expect(toIstSchedule(value, { zone, now: NOW })).toEqual(AT_0930_IST);
		});
	});
});
