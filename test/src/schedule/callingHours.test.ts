import {
	applyCallingHours,
	isWithinCallingHours,
	nextAllowedTime,
	readCallingHours,
} from '../../../src/schedule/callingHours';
import type { CallingHours } from '../../../src/schedule/callingHours';
import { toIstSchedule } from '../../../src/schedule/schedule';
import { inputErrorOf } from '../helpers';

const MONDAY_TO_SATURDAY: CallingHours['days'] = [
	'monday',
	'tuesday',
	'wednesday',
	'thursday',
	'friday',
	'saturday',
];
const EVERY_DAY: CallingHours['days'] = [...MONDAY_TO_SATURDAY, 'sunday'];

/** 09:00-21:00 in India, Monday to Saturday: the common reading of the rules for commercial calls. */
const DAYTIME_IN_INDIA: CallingHours = {
	start: '09:00',
	end: '21:00',
	zone: 'Asia/Kolkata',
	days: MONDAY_TO_SATURDAY,
	onOutside: 'move',
};

const at = (iso: string) => Date.parse(iso);
const iso = (instant: number) => new Date(instant).toISOString();

describe('readCallingHours', () => {
	test('defaults: Asia/Kolkata, move to the next allowed time', () => {
		expect(readCallingHours({ start: ' 09:00 ', end: '21:00', days: ['monday'] })).toEqual({
			start: '09:00',
			end: '21:00',
			zone: 'Asia/Kolkata',
			days: ['monday'],
			onOutside: 'move',
		});
	});

	test.each([
		[
			{ start: '9:00' },
			'Calling Hours Start',
			'"Calling Hours Start" is not a time of day: "9:00"',
		],
		[{ end: '24:00' }, 'Calling Hours End', '"Calling Hours End" is not a time of day: "24:00"'],
		[{ start: '' }, 'Calling Hours Start', '"Calling Hours Start" is not a time of day: empty'],
		[
			{ end: '09:00' },
			'Calling Hours',
			'"Calling Hours" start and end at the same time (09:00), which leaves no time to call',
		],
		[
			{ zone: 'Mars/Olympus' },
			'Calling Hours Time Zone',
			'"Calling Hours Time Zone" is not a known time zone: "Mars/Olympus"',
		],
		[
			{ days: [] },
			'Calling Hours Days',
			'"Calling Hours Days" must be one or more days of the week, but is []',
		],
		[
			{ days: ['monday', 'someday'] },
			'Calling Hours Days',
			'"Calling Hours Days" must be one or more days of the week, but is [monday, someday]',
		],
	])('refuses %p', (change, field, message) => {
		const error = inputErrorOf(() =>
			readCallingHours({ start: '09:00', end: '21:00', days: ['monday'], ...change }),
		);
		expect(error.field).toBe(field);
		expect(error.message).toContain(message);
	});
});

describe('isWithinCallingHours', () => {
	test.each([
		['Monday 09:00, the opening', '2026-11-23T09:00:00+05:30', true],
		['Monday 08:59:59', '2026-11-23T08:59:59+05:30', false],
		['Monday 20:59:59', '2026-11-23T20:59:59+05:30', true],
		['Monday 21:00, the end is not included', '2026-11-23T21:00:00+05:30', false],
		['Sunday noon, not a chosen day', '2026-11-22T12:00:00+05:30', false],
		['Saturday noon', '2026-11-28T12:00:00+05:30', true],
	])('09:00-21:00 Monday to Saturday in India: %s', (_case, time, allowed) => {
		expect(isWithinCallingHours(at(time), DAYTIME_IN_INDIA)).toBe(allowed);
	});

	// 22:00-02:00 on Fridays: the window opens Friday evening and ends Saturday morning.
	const FRIDAY_NIGHT: CallingHours = {
		...DAYTIME_IN_INDIA,
		start: '22:00',
		end: '02:00',
		days: ['friday'],
	};
	test.each([
		['Friday 23:00', '2026-11-27T23:00:00+05:30', true],
		['Saturday 01:59, still Friday night', '2026-11-28T01:59:00+05:30', true],
		['Saturday 02:00', '2026-11-28T02:00:00+05:30', false],
		['Friday 01:00, which belongs to Thursday night', '2026-11-27T01:00:00+05:30', false],
		['Saturday 23:00', '2026-11-28T23:00:00+05:30', false],
	])('across midnight, 22:00-02:00 on Fridays: %s', (_case, time, allowed) => {
		expect(isWithinCallingHours(at(time), FRIDAY_NIGHT)).toBe(allowed);
	});
});

describe('nextAllowedTime', () => {
	test.each([
		['inside the hours: unchanged', '2026-11-23T10:15:30+05:30', '2026-11-23T04:45:30.000Z'],
		[
			'Monday 22:30: across midnight to Tuesday 09:00',
			'2026-11-23T22:30:00+05:30',
			'2026-11-24T03:30:00.000Z',
		],
		['Monday 03:00: later the same day', '2026-11-23T03:00:00+05:30', '2026-11-23T03:30:00.000Z'],
		[
			'Saturday 21:00: over Sunday to Monday 09:00',
			'2026-11-28T21:00:00+05:30',
			'2026-11-30T03:30:00.000Z',
		],
		['Sunday noon: Monday 09:00', '2026-11-29T12:00:00+05:30', '2026-11-30T03:30:00.000Z'],
	])('09:00-21:00 Monday to Saturday in India, %s', (_case, time, next) => {
		expect(iso(nextAllowedTime(at(time), DAYTIME_IN_INDIA))).toBe(next);
	});

	test('across midnight, 22:00-02:00 on Fridays: Saturday 03:00 waits for the next Friday 22:00', () => {
		const fridayNight: CallingHours = {
			...DAYTIME_IN_INDIA,
			start: '22:00',
			end: '02:00',
			days: ['friday'],
		};
		expect(iso(nextAllowedTime(at('2026-11-28T03:00:00+05:30'), fridayNight))).toBe(
			'2026-12-04T16:30:00.000Z',
		);
	});

	describe('across a clock change in the chosen zone', () => {
		const london: CallingHours = { ...DAYTIME_IN_INDIA, zone: 'Europe/London', days: EVERY_DAY };
		test.each([
			[
				'clocks go forward overnight: 09:00 BST',
				'2026-03-28T22:00:00Z',
				'2026-03-29T08:00:00.000Z',
			],
			['clocks go back overnight: 09:00 GMT', '2026-10-24T21:30:00Z', '2026-10-25T09:00:00.000Z'],
		])('Europe/London 09:00-21:00, %s', (_case, time, next) => {
			expect(iso(nextAllowedTime(at(time), london))).toBe(next);
		});

		test('an opening inside the skipped hour is where the clocks resume', () => {
			const newYork: CallingHours = {
				...DAYTIME_IN_INDIA,
				start: '02:30',
				end: '05:00',
				zone: 'America/New_York',
				days: EVERY_DAY,
			};
			// 01:00 EST on 2026-03-08; 02:30 does not exist that night, the clocks go from 02:00 to 03:00 EDT
			expect(iso(nextAllowedTime(at('2026-03-08T06:00:00Z'), newYork))).toBe(
				'2026-03-08T07:00:00.000Z',
			);
		});
	});
});

describe('applyCallingHours', () => {
	const NOW = at('2026-11-23T17:00:00Z'); // Monday 22:30 in India
	const lateEvening = toIstSchedule('2026-11-23T22:30:00', {
		zone: 'Asia/Kolkata',
		now: new Date(NOW),
	});

	test('without calling hours nothing changes', () => {
		expect(applyCallingHours(lateEvening, undefined, new Date(NOW))).toEqual({
			schedule: lateEvening,
			outside: false,
		});
	});

	test('inside the hours nothing changes', () => {
		const morning = toIstSchedule('2026-11-24T10:00:00+05:30', { zone: 'UTC', now: new Date(NOW) });
		expect(applyCallingHours(morning, DAYTIME_IN_INDIA, new Date(NOW))).toEqual({
			schedule: morning,
			outside: false,
		});
	});

	test('move: to the next allowed time, telling where from, and how the time was read', () => {
		expect(applyCallingHours(lateEvening, DAYTIME_IN_INDIA, new Date(NOW))).toEqual({
			schedule: {
				scheduleAt: '2026-11-24T09:00:00',
				utc: '2026-11-24T03:30:00.000Z',
				isPast: false,
				wallClockZone: 'Asia/Kolkata',
			},
			movedFrom: '2026-11-23T22:30:00',
			outside: false,
		});
	});

	test('move: a call for now becomes a scheduled call', () => {
		expect(applyCallingHours(undefined, DAYTIME_IN_INDIA, new Date(NOW))).toEqual({
			schedule: {
				scheduleAt: '2026-11-24T09:00:00',
				utc: '2026-11-24T03:30:00.000Z',
				isPast: false,
			},
			movedFrom: '2026-11-23T22:30:00',
			outside: false,
		});
	});

	test('fail: an error naming the hours, the time and the next allowed time', () => {
		const error = inputErrorOf(() =>
			applyCallingHours(lateEvening, { ...DAYTIME_IN_INDIA, onOutside: 'fail' }, new Date(NOW)),
		);
		expect(error.field).toBe('Calling Hours');
		expect(error.message).toBe(
			'"Calling Hours" are 09:00-21:00 Mon, Tue, Wed, Thu, Fri, Sat in Asia/Kolkata, and the call would start at 2026-11-23T22:30:00 there. The next allowed time is 2026-11-24T09:00:00 in Asia/Kolkata; start the call then, or choose Move to the Next Allowed Time.',
		);
	});

	test('fail: a call for now says so', () => {
		const error = inputErrorOf(() =>
			applyCallingHours(
				undefined,
				{ ...DAYTIME_IN_INDIA, onOutside: 'fail', days: EVERY_DAY },
				new Date(NOW),
			),
		);
		expect(error.message).toContain(
			'09:00-21:00 every day in Asia/Kolkata, and the call would start at 2026-11-23T22:30:00 there (now).',
		);
	});

	// CallKaro starts a past time at once: the hours apply to now, not to the time given.
	test('a time in the past inside the hours, run outside them, is moved from now', () => {
		const earlier = toIstSchedule('2026-11-23T22:00:00+05:30', { zone: 'UTC', now: new Date(NOW) });
		expect(earlier.isPast).toBe(true);
		expect(
			applyCallingHours(earlier, { ...DAYTIME_IN_INDIA, end: '22:15' }, new Date(NOW)),
		).toEqual({
			schedule: {
				scheduleAt: '2026-11-24T09:00:00',
				utc: '2026-11-24T03:30:00.000Z',
				isPast: false,
			},
			movedFrom: '2026-11-23T22:00:00',
			outside: false,
		});
	});

	test('a time in the past outside the hours, run inside them, starts now', () => {
		const inside = at('2026-11-24T04:30:00Z'); // Tuesday 10:00 in India
		const night = toIstSchedule('2026-11-24T09:30:00+05:30', {
			zone: 'UTC',
			now: new Date(inside),
		});
		expect(
			applyCallingHours(night, { ...DAYTIME_IN_INDIA, start: '09:45' }, new Date(inside)),
		).toEqual({
			schedule: night,
			outside: false,
		});
	});

	test('send: unchanged, flagged', () => {
		expect(
			applyCallingHours(lateEvening, { ...DAYTIME_IN_INDIA, onOutside: 'send' }, new Date(NOW)),
		).toEqual({
			schedule: lateEvening,
			outside: true,
		});
	});
});
