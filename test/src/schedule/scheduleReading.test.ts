// How toIstSchedule reads what CRMs, forms and payment systems send (issue 24, point 2): numbers
// by their size, empty values, dates without a time, and times far in the past.
import { toIstSchedule } from '../../../src/schedule/schedule';
import { inputErrorOf } from '../helpers';

const NOW = new Date('2026-11-22T04:00:00Z'); // 09:30 in India
const IN_INDIA = { zone: 'Asia/Kolkata', now: NOW };
const SECONDS_NOTE = 'number read as epoch seconds, not milliseconds';

describe('numbers and numeric text are read by their size', () => {
	test.each([
		['epoch milliseconds', 1795413600000, '2026-11-23T11:30:00', undefined],
		["HubSpot's epoch milliseconds as text", '1795413600000', '2026-11-23T11:30:00', undefined],
		['epoch seconds (a follow-up start_time)', 1795413600, '2026-11-23T11:30:00', SECONDS_NOTE],
		['epoch seconds as text', ' 1795413600 ', '2026-11-23T11:30:00', SECONDS_NOTE],
		['epoch seconds with a fraction', 1795413600.5, '2026-11-23T11:30:00', SECONDS_NOTE],
		['the first epoch second read as such (1973)', 1e8, '1973-03-03T15:16:40', SECONDS_NOTE],
		['the first epoch millisecond of 13 digits (2001)', 1e12, '2001-09-09T07:16:40', undefined],
		[
			'epoch microseconds',
			'1795413600000123',
			'2026-11-23T11:30:00',
			'number read as epoch microseconds',
		],
		[
			'epoch nanoseconds',
			'1795413600000123456',
			'2026-11-23T11:30:00',
			'number read as epoch nanoseconds',
		],
	])('%s: %p', (_case, value, scheduleAt, note) => {
		const schedule = toIstSchedule(value, { ...IN_INDIA, longPast: 'startNow' });
		expect(schedule.scheduleAt).toBe(scheduleAt);
		expect(schedule.note).toBe(note);
		expect(schedule).not.toHaveProperty('wallClockZone');
	});

	test("Razorpay's created_at in epoch seconds is December 2024, not January 1970: refused as long past", () => {
		const error = inputErrorOf(() => toIstSchedule(1733395800, IN_INDIA));
		expect(error.message).toBe(
			'"Schedule Time" is 2024-12-05T16:20:00 in India time (a number of 10 digits read as epoch seconds), more than an hour in the past. Such a time is usually the wrong field (a created date, say): map the time the call should start, or set Options → Schedule Time Long Past to Start Now.',
		);
	});

	test.each([
		[
			'a spreadsheet serial date',
			46000,
			'"Schedule Time" is a number that looks like a spreadsheet serial date, 2025-12-09 (days since 1899-12-30, the time as the fraction), not a date and time. To read it so, set Options → Schedule Time Numbers → Spreadsheet Serial Dates; or give a date and time such as 2026-11-22T09:30:00+05:30.',
		],
		[
			'a serial date and time, as text',
			'46348.75',
			'"Schedule Time" is a number that looks like a spreadsheet serial date, 2026-11-22 18:00 (days since 1899-12-30, the time as the fraction), not a date and time. To read it so, set Options → Schedule Time Numbers → Spreadsheet Serial Dates; or give a date and time such as 2026-11-22T09:30:00+05:30.',
		],
		[
			'a number of neither size',
			5000000,
			'"Schedule Time" is a number of 7 digits, which is none of epoch seconds (9 to 11 digits), milliseconds (13), microseconds (16) or nanoseconds (19), nor a spreadsheet serial date (below 100000). Use a date and time such as 2026-11-22T09:30:00 (read in India time, or in Time Zone) or 2026-11-22T09:30:00+05:30.',
		],
		[
			'zero',
			0,
			'"Schedule Time" is 0, which is none of epoch seconds (9 to 11 digits), milliseconds (13), microseconds (16) or nanoseconds (19), nor a spreadsheet serial date (below 100000). Use a date and time such as 2026-11-22T09:30:00 (read in India time, or in Time Zone) or 2026-11-22T09:30:00+05:30.',
		],
		[
			'a negative number',
			-1795413600000,
			'"Schedule Time" is a negative number of 13 digits, which is none of epoch seconds (9 to 11 digits), milliseconds (13), microseconds (16) or nanoseconds (19), nor a spreadsheet serial date (below 100000). Use a date and time such as 2026-11-22T09:30:00 (read in India time, or in Time Zone) or 2026-11-22T09:30:00+05:30.',
		],
	])('refuses %s, saying what it looks like', (_case, value, message) => {
		const error = inputErrorOf(() => toIstSchedule(value, IN_INDIA));
		expect(error.field).toBe('Schedule Time');
		expect(error.message).toBe(message);
	});

	test('a serial is read as its date and time when asked, on the clocks of the zone', () => {
		const read = (value: unknown, more = {}) =>
			toIstSchedule(value, { ...IN_INDIA, serialDates: true, ...more });
		expect(read(46348.4375)).toMatchObject({
			scheduleAt: '2026-11-22T10:30:00',
			note: 'spreadsheet serial date read as 2026-11-22 10:30',
		});
		expect(read('46348.4375', { zone: 'UTC' }).scheduleAt).toBe('2026-11-22T16:00:00');
		// A whole day is a date alone: refused without Calling Hours, never a midnight call.
		expect(inputErrorOf(() => read(46348)).message).toMatch(
			/^"Schedule Time" has a date but no time: "2026-11-22"/,
		);
		expect(read(46348, { dayStart: { zone: 'Asia/Kolkata', time: '10:00' } }).scheduleAt).toBe(
			'2026-11-22T10:00:00',
		);
	});

	test('a serial refused is shown as a date, never masked as a phone number', () => {
		const error = inputErrorOf(() => toIstSchedule(46035.4375, IN_INDIA));
		expect(error.message).toContain('serial date, 2026-01-13 10:30 (days since');
		expect(error.message).not.toMatch(/\*|46035/);
	});

	test('a date given as digits is shown as the date it stands for, never as its digits', () => {
		const error = inputErrorOf(() => toIstSchedule('1671820531742', IN_INDIA));
		expect(error.message).toBe(
			'"Schedule Time" is 2022-12-24T00:05:31 in India time (a number of 13 digits read as epoch milliseconds), more than an hour in the past. Such a time is usually the wrong field (a created date, say): map the time the call should start, or set Options → Schedule Time Long Past to Start Now.',
		);
	});

	test.each([
		[
			'a mobile number read as epoch seconds',
			9876543210,
			'2282-12-23T01:43:30',
			'a number of 10 digits read as epoch seconds; it looks like a phone number',
		],
		[
			'a US number as text',
			'4155552671',
			'2101-09-07T21:41:11',
			'a number of 10 digits read as epoch seconds; it looks like a phone number',
		],
		['a mistyped year', '2206-12-01T10:00', '2206-12-01T10:00:00', 'given as "2206-12-01T10:00"'],
	])('%s is refused as far ahead', (_case, value, scheduleAt, givenAs) => {
		const error = inputErrorOf(() => toIstSchedule(value, IN_INDIA));
		expect(error.message).toBe(
			`"Schedule Time" is ${scheduleAt} in India time (${givenAs}), more than 366 days ahead. Such a time is usually the wrong field or a mistyped year: map the time the call should start, or set Options → Schedule Time Far Ahead to Send It.`,
		);
		expect(error.message).not.toMatch(/9876543210|4155552671/);
	});

	test('a mobile number with 91, 12 digits, is no basic ISO date and time, and may be a phone number', () => {
		const error = inputErrorOf(() => toIstSchedule(919876543210, IN_INDIA));
		expect(error.message).toContain(
			'is a number of 12 digits, which is neither epoch seconds (9 to 11 digits), milliseconds (13), microseconds (16) or nanoseconds (19) nor a basic ISO date and time (yyyyMMddHHmm): it may be a phone number or an ID',
		);
		expect(error.message).not.toContain('9876543210');
	});

	test('366 days ahead is sent; a day more is refused, and sent with Send It', () => {
		const now = new Date('2026-11-22T04:00:00Z');
		const inAYear = new Date(now.getTime() + 366 * 86_400_000);
		expect(toIstSchedule(inAYear.toISOString(), { ...IN_INDIA, now }).scheduleAt).toBe(
			'2027-11-23T09:30:00',
		);
		const further = new Date(inAYear.getTime() + 1000).toISOString();
		expect(inputErrorOf(() => toIstSchedule(further, { ...IN_INDIA, now })).message).toContain(
			'more than 366 days ahead',
		);
		expect(toIstSchedule(further, { ...IN_INDIA, now, farAhead: 'send' }).scheduleAt).toBe(
			'2027-11-23T09:30:01',
		);
	});

	test('text that is no date may be a phone number, and is masked', () => {
		const error = inputErrorOf(() => toIstSchedule('+919876543210 call', IN_INDIA));
		expect(error.message).toContain('"+91******3210 call"');
	});
});

describe('an empty Schedule Time never means now', () => {
	test.each([
		['empty text', ''],
		['blank text', '  '],
		['undefined', undefined],
		['null', null],
	])('%s fails', (_case, value) => {
		const error = inputErrorOf(() => toIstSchedule(value, IN_INDIA));
		expect(error.message).toBe(
			'"Schedule Time" is empty. Use a date and time such as 2026-11-22T09:30:00 (read in India time, or in Time Zone) or 2026-11-22T09:30:00+05:30. An empty Schedule Time never means now: to start now, set none.',
		);
	});
});

describe('a time far in the past fails unless Start Now is chosen', () => {
	test.each([
		['59 minutes ago', '2026-11-22T08:31:00+05:30', true],
		['exactly an hour ago', '2026-11-22T08:30:00+05:30', true],
		['now', '2026-11-22T09:30:00+05:30', false],
	])('%s starts now, flagged as past', (_case, value, isPast) => {
		expect(toIstSchedule(value, IN_INDIA).isPast).toBe(isPast);
	});

	test('an hour and a second ago fails, naming the time in India', () => {
		const error = inputErrorOf(() => toIstSchedule('2026-11-22T02:59:59Z', IN_INDIA));
		expect(error.message).toBe(
			'"Schedule Time" is 2026-11-22T08:29:59 in India time (given as "2026-11-22T02:59:59Z"), more than an hour in the past. Such a time is usually the wrong field (a created date, say): map the time the call should start, or set Options → Schedule Time Long Past to Start Now.',
		);
	});

	test('a luxon DateTime or Date is named by its time only', () => {
		const error = inputErrorOf(() => toIstSchedule(new Date('2020-01-01T04:00:00Z'), IN_INDIA));
		expect(error.message).toMatch(
			/^"Schedule Time" is 2020-01-01T09:30:00 in India time, more than an hour in the past\./,
		);
	});

	test('a time without an offset that would be now read as UTC is said to be probably UTC', () => {
		// NOW is 04:00 UTC; 04:00 read in India is 22:30 UTC the day before.
		const error = inputErrorOf(() => toIstSchedule('2026-11-22T03:59:30', IN_INDIA));
		expect(error.message).toBe(
			'"Schedule Time" is 2026-11-22T03:59:30 in India time (given as "2026-11-22T03:59:30"), more than an hour in the past; read as UTC it is 2026-11-22T09:29:30 in India time, so it is probably UTC. Set Time Zone to UTC, or give the time with its offset (Z or +00:00).',
		);
		// Long past read as UTC too: the usual refusal, no hint.
		expect(inputErrorOf(() => toIstSchedule('2026-11-20T03:59:30', IN_INDIA)).message).toMatch(
			/more than an hour in the past\. Such a time is usually the wrong field/,
		);
	});

	test('Start Now sends it as it is, flagged as past', () => {
		expect(toIstSchedule('2020-01-01T04:00:00Z', { ...IN_INDIA, longPast: 'startNow' })).toEqual({
			scheduleAt: '2020-01-01T09:30:00',
			utc: '2020-01-01T04:00:00.000Z',
			isPast: true,
		});
	});
});

describe('a date without a time is never a silent midnight call', () => {
	test('without Calling Hours it is refused, with the fix', () => {
		const error = inputErrorOf(() => toIstSchedule('2026-12-05', IN_INDIA));
		expect(error.message).toBe(
			'"Schedule Time" has a date but no time: "2026-12-05". Add the time, such as 2026-12-05T10:00:00+05:30, or add Options → Calling Hours to start when they open that day.',
		);
	});

	const dayStart = { zone: 'Asia/Kolkata', time: '09:00' };

	test.each([
		'2026-12-05T00:00:00.000Z',
		'2026-12-05 00:00:00+00:00',
		'2026-12-05T00:00:00.000000Z',
		new Date('2026-12-05T00:00:00.000Z'),
	])(
		'midnight UTC (%s) names its instant: 05:30 in India, with or without a day start',
		(value) => {
			for (const options of [IN_INDIA, { ...IN_INDIA, dayStart }]) {
				expect(toIstSchedule(value, options)).toEqual({
					scheduleAt: '2026-12-05T05:30:00',
					utc: '2026-12-05T00:00:00.000Z',
					isPast: false,
				});
			}
		},
	);

	test('with a day start, it starts then that day', () => {
		expect(toIstSchedule('2026-12-05', { ...IN_INDIA, dayStart })).toEqual({
			scheduleAt: '2026-12-05T09:00:00',
			utc: '2026-12-05T03:30:00.000Z',
			isPast: false,
			note: 'date without a time: starts when Calling Hours open that day (09:00 in Asia/Kolkata)',
		});
	});

	test('today, after the opening, is not long past: it starts now (in the past)', () => {
		const afternoon = new Date('2026-11-22T10:30:00Z'); // 16:00 in India
		const today = toIstSchedule('2026-11-22', { zone: 'UTC', now: afternoon, dayStart });
		expect(today).toMatchObject({ scheduleAt: '2026-11-22T09:00:00', isPast: true });
	});

	test('a day that ended more than an hour ago is long past', () => {
		const error = inputErrorOf(() => toIstSchedule('2026-11-20', { ...IN_INDIA, dayStart }));
		expect(error.message).toMatch(
			/^"Schedule Time" is 2026-11-20T09:00:00 in India time \(given as "2026-11-20"\), more than an hour in the past\./,
		);
	});

	test('an unknown day-start zone names the Calling Hours field', () => {
		const error = inputErrorOf(() =>
			toIstSchedule('2026-12-05', { ...IN_INDIA, dayStart: { zone: 'Mars/Base', time: '09:00' } }),
		);
		expect(error.field).toBe('Calling Hours Time Zone');
	});
});

describe('the zone of a time without an offset is reported', () => {
	test.each([
		['offset-less text', '2026-12-01T09:30', { wallClockZone: 'Europe/London' }],
		['text with an offset', '2026-12-01T09:30Z', {}],
		['a number', 1795413600000, {}],
	])('%s', (_case, value, reported) => {
		const schedule = toIstSchedule(value, { zone: 'Europe/London', now: NOW });
		expect({ wallClockZone: schedule.wallClockZone }).toEqual({
			wallClockZone: undefined,
			...reported,
		});
	});
});
