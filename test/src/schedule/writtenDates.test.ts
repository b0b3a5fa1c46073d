// Dates as written (issue 52): each form that names its instant is read; a date in another form
// is shown as written and named as a form the node does not read, with its fromFormat tokens;
// text that could be a phone number stays masked.
import type { CallKaroInputError } from '../../../src/input/inputError';
import { toIstSchedule } from '../../../src/schedule/schedule';
import { inputErrorOf } from '../helpers';

const NOW = new Date('2026-03-20T00:00:00Z');
const IN_INDIA = { zone: 'Asia/Kolkata', now: NOW };

function refusalOf(value: unknown, options: object = {}): CallKaroInputError {
	return inputErrorOf(() => toIstSchedule(value, { ...IN_INDIA, ...options }));
}

describe('every form that names its instant is read', () => {
	test.each([
		["iCalendar's basic form", '20260328T233000Z', '2026-03-29T05:00:00'],
		['ISO basic with an offset', '20260328T233000-0230', '2026-03-29T07:30:00'],
		['ISO basic without seconds, with an offset', '20260328T2330+05:30', '2026-03-28T23:30:00'],
		['RFC 9557', '2026-03-28T23:30:00-02:30[America/St_Johns]', '2026-03-29T07:30:00'],
		[
			'RFC 9557, Java without seconds',
			'2026-03-28T23:30-02:30[America/St_Johns]',
			'2026-03-29T07:30:00',
		],
		[
			'RFC 9557 with Z and a calendar',
			'2026-03-28T23:30:00Z[Europe/London][u-ca=iso8601]',
			'2026-03-29T05:00:00',
		],
		['GMT', '2026-03-28 23:30:00 GMT', '2026-03-29T05:00:00'],
		["RFC 2822's UT", 'Sat, 28 Mar 2026 23:30:00 UT', '2026-03-29T05:00:00'],
		['GMT+02:00', '2026-03-28 23:30:00 GMT+02:00', '2026-03-29T03:00:00'],
		['an English month name in UTC', '13 January 2027 05:15 UTC', '2027-01-13T10:45:00'],
		['Unix date in UTC', 'Wed Jan 13 05:15:00 UTC 2027', '2027-01-13T10:45:00'],
		["HTTP's RFC 850 date", 'Wednesday, 13-Jan-27 05:15:00 GMT', '2027-01-13T10:45:00'],
		['12 digits, a basic ISO wall time in the zone', '202603290500', '2026-03-29T05:00:00'],
		['14 digits, with seconds', '20260329050030', '2026-03-29T05:00:30'],
		['epoch microseconds', 1774762200000000, '2026-03-29T11:00:00'],
		['epoch nanoseconds as text', '1774762200000000999', '2026-03-29T11:00:00'],
		['ISO text in Telugu digits', '౨౦౨౬-౦౩-౨౮ ౧౭:౩౦', '2026-03-28T17:30:00'],
	])('%s: %p', (_case, value, scheduleAt) => {
		expect(toIstSchedule(value, IN_INDIA).scheduleAt).toBe(scheduleAt);
	});

	test('a serial keeps its seconds', () => {
		// 2026-01-13 10:30:15 is 46035 days and 37815 seconds
		const schedule = toIstSchedule(46035 + 37815 / 86400, {
			...IN_INDIA,
			now: new Date('2026-01-01T00:00:00Z'),
			serialDates: true,
		});
		expect(schedule).toMatchObject({
			scheduleAt: '2026-01-13T10:30:15',
			note: 'spreadsheet serial date read as 2026-01-13 10:30:15',
		});
	});

	test('a zone in brackets whose offset is another then is refused: the text contradicts itself', () => {
		expect(refusalOf('2026-03-28T23:30:00-03:30[America/St_Johns]').message).toBe(
			'"Schedule Time" has the offset -03:30, but the time zone America/St_Johns in its brackets is -02:30 at that time: "2026-03-28T23:30:00-03:30[America/St_Johns]". Give the offset the zone has at that time, or the time without the offset (it is then read in the zone).',
		);
	});

	test('12 digits that are no date and time are refused by their size, never shown', () => {
		const { message } = refusalOf('919820017613');
		expect(message).toContain('is a number of 12 digits, which is neither');
		expect(message).not.toMatch(/9820017613/);
	});
});

describe('a date in a form the node does not read is shown as written and named', () => {
	test.each([
		['a day-first date with a time', '10.03.2026 17:30'],
		['a locale short date in Telugu digits', '౨౮-౦౩-౨౬ ౧౧:౩౦:౦౦ PM'],
		['an Arabic date', '٢٨\u200f/٣\u200f/٢٠٢٦، ١١:٣٠:٠٠ م'],
		['a Japanese date', '2026年3月28日土曜日 23:30'],
	])('%s: %p', (_case, value) => {
		const { message } = refusalOf(value);
		expect(message).toContain(`is a date in a form this node does not read: "${value}". `);
		expect(message).not.toContain('*');
	});

	test("with its tokens, and, without the field's expression, the call to write", () => {
		expect(refusalOf('28/03/2026 23:30').message).toBe(
			`"Schedule Time" is a date in a form this node does not read: "28/03/2026 23:30". Read it with its tokens, as {{ DateTime.fromFormat(the value, 'd/M/yyyy H:mm', { zone: 'Asia/Kolkata' }) }}; or give a date and time such as 2026-11-22T09:30:00+05:30.`,
		);
	});

	test('a day and month that can be swapped: both tokens named, and no advice', () => {
		const error = refusalOf('03/04/2026 17:30', { expression: '$json.when' });
		expect(error.message).toContain(
			"It can be read in 2 ways: read it with DateTime.fromFormat and the tokens 'd/M/yyyy H:mm' or 'M/d/yyyy H:mm', as your data writes dates",
		);
		expect(error.advice).toBeUndefined();
	});

	test('a zone abbreviation is never left out of the tokens: no tokens', () => {
		const error = refusalOf('28/03/2026 23:30 IST', { expression: '$json.when' });
		expect(error.message).toContain('"28/03/2026 23:30 IST". Give a date and time');
		expect(error.advice).toBeUndefined();
	});

	test.each([
		'+91 98200 17613',
		'98.20.01.76.13',
		'Tel 98200 17613 at 17:30',
		'28/03/2026 9820017613',
	])('text that could be a phone number stays masked: %p', (value) => {
		const { message } = refusalOf(value);
		expect(message).toContain('is not a date and time: "');
		expect(message).toContain('*');
		expect(message).not.toMatch(/98200|00176|17613|820017/);
	});
});
