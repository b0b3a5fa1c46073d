// An instant is an instant (issue 46): booking systems' midnight UTC, and the date forms that
// databases and warehouses give by default, each read as the instant it names; only a DATE column
// that its driver gives as midnight is the date alone.
import { toIstSchedule } from '../../../src/schedule/schedule';
import type { DateColumn } from '../../../src/schedule/schedule';
import { inputErrorOf } from '../helpers';

const NOW = new Date('2026-01-01T00:00:00Z');
const IN_INDIA = { zone: 'Asia/Kolkata', now: NOW };
const DAY_START = { zone: 'Asia/Kolkata', time: '09:00' };
const SECONDS_NOTE = 'number read as epoch seconds, not milliseconds';

describe('a booking at midnight UTC is that instant', () => {
	test.each([
		["Calendly's event start (4 PM Pacific)", '2026-12-02T00:00:00.000000Z'],
		["Cal.com's booking start (7 PM Eastern)", '2026-12-02T00:00:00Z'],
		['a JS Date', new Date('2026-12-02T00:00:00Z')],
		['epoch milliseconds', Date.parse('2026-12-02T00:00:00Z')],
	])('%s: 05:30 in India, never moved or refused as a date', (_case, value) => {
		for (const options of [IN_INDIA, { ...IN_INDIA, dayStart: DAY_START }]) {
			expect(toIstSchedule(value, options)).toMatchObject({
				scheduleAt: '2026-12-02T05:30:00',
				utc: '2026-12-02T00:00:00.000Z',
			});
		}
	});
});

describe('warehouses and databases, as their n8n nodes give a time by default', () => {
	test.each([
		['BigQuery TIMESTAMP (node 2.0): decimal epoch seconds, exponent', '1.7682813E9', SECONDS_NOTE],
		['BigQuery TIMESTAMP with microseconds', '1.768281300123456E9', SECONDS_NOTE],
		[
			'BigQuery TIMESTAMP (node 2.1): ISO with the offset',
			'2026-01-13T05:15:00.000+00:00',
			undefined,
		],
		["Snowflake's default TIMESTAMP_TZ text", '2026-01-13 05:15:00.000 +0000', undefined],
		["Snowflake's TIMESTAMP_LTZ text (Los Angeles)", '2026-01-12 21:15:00.000 -0800', undefined],
		['Postgres timestamptz text', '2026-01-13 05:15:00+00', undefined],
		['Postgres timestamptz text with microseconds', '2026-01-13 10:45:00.123456+05:30', undefined],
		['Supabase (PostgREST) timestamptz', '2026-01-13T05:15:00+00:00', undefined],
		["BigQuery's console", '2026-01-13 05:15:00 UTC', undefined],
		['lower-case t and z (RFC 3339)', '2026-01-13t05:15:00z', undefined],
		['a comma before the fraction (ISO 8601)', '2026-01-13T05:15:00,5Z', undefined],
		['Microsoft SQL, Oracle, MongoDB: a JS Date', new Date('2026-01-13T05:15:00Z'), undefined],
		['MongoDB 1.4+: the Date as ISO text', '2026-01-13T05:15:00.000Z', undefined],
	])('%s: %p', (_case, value, note) => {
		const schedule = toIstSchedule(value, IN_INDIA);
		expect(schedule.scheduleAt).toBe('2026-01-13T10:45:00');
		expect(schedule.note).toBe(note);
	});

	test('decimal epoch seconds are read exactly, the fraction cut to the millisecond as ISO text is', () => {
		expect(toIstSchedule('1768281300.9999999999', IN_INDIA).utc).toBe('2026-01-13T05:15:00.999Z');
		expect(toIstSchedule('17682813009999999999E-10', IN_INDIA).utc).toBe(
			'2026-01-13T05:15:00.999Z',
		);
		expect(toIstSchedule(1768281300.123, IN_INDIA).utc).toBe('2026-01-13T05:15:00.123Z');
	});

	test('a refused BigQuery time is said by its size, never masked like a phone number', () => {
		const error = inputErrorOf(() =>
			toIstSchedule('1.7682813E9', { ...IN_INDIA, now: new Date('2026-02-01T00:00:00Z') }),
		);
		expect(error.message).toBe(
			'"Schedule Time" is 2026-01-13T10:45:00 in India time (a number of 10 digits read as epoch seconds), more than an hour in the past. Such a time is usually the wrong field (a created date, say): map the time the call should start, or set Options → Schedule Time Long Past to Start Now.',
		);
	});
});

describe('a mail date and a JS Date as text name their instant', () => {
	test.each([
		['Gmail, IMAP, RSS (RFC 2822)', 'Tue, 13 Jan 2026 10:45:00 +0530'],
		['an HTTP date', 'Tue, 13 Jan 2026 05:15:00 GMT'],
		["RFC 2822's zone names", 'Tue, 13 Jan 2026 00:15:00 EST'],
		['String(new Date()) in India', 'Tue Jan 13 2026 10:45:00 GMT+0530 (India Standard Time)'],
		['String(new Date()) in Hawaii', 'Mon Jan 12 2026 19:15:00 GMT-1000 (Hawaii Standard Time)'],
		["RFC 2822's UT", 'Tue, 13 Jan 2026 05:15:00 UT'],
		['String(new Date()) with GMT±hh:mm', 'Tue Jan 13 2026 07:15:00 GMT+02:00'],
		['an English month name in UTC', '13 January 2026 05:15 UTC'],
		['an English month name with GMT+h:mm', 'January 13, 2026 10:45 AM GMT+5:30'],
		["Unix date's UTC", 'Tue Jan 13 05:15:00 UTC 2026'],
		["HTTP's RFC 850 date", 'Tuesday, 13-Jan-26 05:15:00 GMT'],
		[
			'an abbreviated month, with the weekday and an offset',
			'Tuesday, 13 Jan 2026 at 05:15 +00:00',
		],
	])('%s: %p', (_case, value) => {
		expect(toIstSchedule(value, IN_INDIA).scheduleAt).toBe('2026-01-13T10:45:00');
	});

	test.each([
		['a weekday that is not the date', 'Wed, 13 Jan 2026 10:45:00 +0530', 'is not a date and time'],
		[
			'an offset of a day or more',
			'Tue, 13 Jan 2026 10:45:00 +2500',
			'has an offset that is not -23:59 to +23:59: "Tue, 13 Jan 2026 10:45:00 +2500"',
		],
	])('refused: %s', (_case, value, problem) => {
		expect(inputErrorOf(() => toIstSchedule(value, IN_INDIA)).message).toContain(problem);
	});
});

describe("a database's DATE column given as midnight is the date alone", () => {
	const sqlServer: DateColumn = {
		zone: 'UTC',
		source: 'Microsoft SQL',
		expression: '$json.follow_up_on',
	};

	test.each([
		['as ISO text', '2026-12-04T00:00:00.000Z'],
		['as a JS Date', new Date('2026-12-04T00:00:00.000Z')],
	])('midnight UTC from Microsoft SQL, %s: refused with the fix', (_case, value) => {
		expect(
			inputErrorOf(() => toIstSchedule(value, { ...IN_INDIA, dateColumn: sqlServer })).message,
		).toBe(
			'"Schedule Time" is midnight UTC, as Microsoft SQL gives a DATE column, so a date alone: "2026-12-04T00:00:00.000Z". Add the time, such as 2026-12-04T10:00:00+05:30, or add Options → Calling Hours to start when they open that day; if the column holds a time of day, map {{ $json.follow_up_on.toDateTime() }}, which is read as that instant.',
		);
		expect(
			toIstSchedule(value, { ...IN_INDIA, dateColumn: sqlServer, dayStart: DAY_START }),
		).toMatchObject({
			scheduleAt: '2026-12-04T09:00:00',
			note: 'midnight read as a date alone, as Microsoft SQL gives a DATE column; date without a time: starts when Calling Hours open that day (09:00 in Asia/Kolkata)',
		});
	});

	test.each([
		['a time that is not midnight', '2026-12-04T04:30:00.000Z', '2026-12-04T10:00:00'],
		[
			'midnight in another form than the driver writes',
			'2026-12-04T00:00:00Z',
			'2026-12-04T05:30:00',
		],
		['a number', Date.parse('2026-12-04T00:00:00Z'), '2026-12-04T05:30:00'],
	])('%s is its instant', (_case, value, scheduleAt) => {
		expect(toIstSchedule(value, { ...IN_INDIA, dateColumn: sqlServer }).scheduleAt).toBe(
			scheduleAt,
		);
	});

	describe("on the server's clock (node-postgres, node-oracledb), with n8n running in India", () => {
		const postgres: DateColumn = {
			zone: 'Asia/Kolkata',
			serverZone: true,
			source: 'Postgres',
			expression: '$json.due',
		};

		test("the server's midnight is its own date, 18:30 UTC the day before", () => {
			for (const value of ['2026-12-03T18:30:00.000Z', new Date('2026-12-03T18:30:00.000Z')]) {
				expect(
					toIstSchedule(value, { ...IN_INDIA, dateColumn: postgres, dayStart: DAY_START }),
				).toMatchObject({ scheduleAt: '2026-12-04T09:00:00' });
				expect(
					inputErrorOf(() => toIstSchedule(value, { ...IN_INDIA, dateColumn: postgres })).message,
				).toMatch(
					/^"Schedule Time" is midnight on the n8n server's clock \(Asia\/Kolkata\), as Postgres gives a DATE column, so a date alone: "2026-12-03T18:30:00.000Z"\. Add the time, such as 2026-12-04T10:00:00\+05:30,/,
				);
			}
		});

		test("a day whose midnight the server's clocks skip starts where they resume, as the driver's Date does", () => {
			// São Paulo went from 2018-11-03T23:59:59 to 2018-11-04T01:00:00 (03:00 UTC).
			const saoPaulo = { ...postgres, zone: 'America/Sao_Paulo' };
			const options = { zone: 'UTC', now: new Date('2018-11-01T00:00:00Z'), dateColumn: saoPaulo };
			expect(
				toIstSchedule('2018-11-04T03:00:00.000Z', { ...options, dayStart: DAY_START }),
			).toMatchObject({ scheduleAt: '2018-11-04T09:00:00' });
			expect(
				inputErrorOf(() => toIstSchedule('2018-11-04T03:00:00.000Z', options)).message,
			).toMatch(/^"Schedule Time" is midnight on the n8n server's clock \(America\/Sao_Paulo\)/);
		});

		test('midnight UTC is no midnight there: an instant', () => {
			const value = '2026-12-04T00:00:00.000Z';
			expect(toIstSchedule(value, { ...IN_INDIA, dateColumn: postgres }).scheduleAt).toBe(
				'2026-12-04T05:30:00',
			);
		});
	});
});
