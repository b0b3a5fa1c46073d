// Schedule Time on the nodes that take one: any n8n date, sent to CallKaro as IST
// (nodes/shared/schedule.ts); read in India time without an offset, and never "now" by accident.
import { Settings } from 'luxon';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { formatIst, parseScheduleAt } from '../../../sandbox/sandbox.mjs';
import { NODE_NAME, apiRequests, failedItemJson, refusedItemJson, runnerFor } from '../../fixtures';
import type { ActionNodeRow, SandboxOf } from '../contract';
import { arranged } from './support';

const HOUR_MS = 60 * 60 * 1000;

/** A node's schedule parameters with more of its Options. */
function withOptions(parameters: INodeParameters, options: INodeParameters): INodeParameters {
	return { ...parameters, options: { ...(parameters.options as INodeParameters), ...options } };
}

const START_NOW = { longPastSchedule: 'startNow' };
const FAR_AHEAD_AS_FOUND = { farAheadSchedule: 'fail' };
const EMPTY_MESSAGE =
	'"Schedule Time" is empty. Use a date and time such as 2026-11-22T09:30:00 (read in India time, or in Time Zone) or 2026-11-22T09:30:00+05:30. An empty Schedule Time never means now: to start now, set none. [item 0]';

/**
 * Schedule Time read as any n8n date and sent to CallKaro as IST: [what, the value, the workflow's
 * time zone, the Time Zone option, schedule_at sent, scheduledForUtc].
 */
const SCHEDULE_READS: Array<[string, string, string, string | undefined, string, string]> = [
	[
		'an ISO string with Z',
		'2030-01-02T10:00:00Z',
		'America/New_York',
		undefined,
		'2030-01-02T15:30:00',
		'2030-01-02T10:00:00.000Z',
	],
	[
		'an ISO string with +02:00',
		'2030-01-02T10:00:00+02:00',
		'America/New_York',
		undefined,
		'2030-01-02T13:30:00',
		'2030-01-02T08:00:00.000Z',
	],
	[
		"an offset-less string in India time, not the workflow's zone (winter)",
		'2030-01-02T10:00:00',
		'America/New_York',
		undefined,
		'2030-01-02T10:00:00',
		'2030-01-02T04:30:00.000Z',
	],
	[
		"an offset-less string in India time, not the workflow's zone (summer time)",
		'2030-07-01 10:00',
		'America/New_York',
		undefined,
		'2030-07-01T10:00:00',
		'2030-07-01T04:30:00.000Z',
	],
	[
		'epoch milliseconds as text, as HubSpot sends them',
		'1893466800000',
		'America/New_York',
		undefined,
		'2030-01-01T08:30:00',
		'2030-01-01T03:00:00.000Z',
	],
	[
		'an offset-less string in the Time Zone option',
		'2030-07-01T10:00:00',
		'America/New_York',
		'Europe/London',
		'2030-07-01T14:30:00',
		'2030-07-01T09:00:00.000Z',
	],
	[
		'an offset-less string with the workflow in IST',
		'2030-07-01T10:00:00',
		'Asia/Kolkata',
		undefined,
		'2030-07-01T10:00:00',
		'2030-07-01T04:30:00.000Z',
	],
];

// The clock the workflow runs under (winter, then summer) must not change what is sent.
const NOWS: Array<[string, number]> = [
	['January', Date.parse('2030-01-15T12:00:00Z')],
	['July', Date.parse('2030-07-15T12:00:00Z')],
];

/** [what, Schedule Time, the error of the item]. */
const REFUSED: Array<[string, string, string]> = [
	[
		'an offset out of range, with a long fraction cut, never masked like a phone number',
		'2030-12-01T09:30:45.123456789012+24:00',
		'"Schedule Time" has an offset that is not -23:59 to +23:59: "2030-12-01T09:30:45.123456…+24:00". Write the offset as +HH:MM or -HH:MM, hours 00-23 and minutes 00-59, such as +05:30. [item 0]',
	],
	[
		'a year past 9999 in India',
		'9999-12-31T23:59:59Z',
		`"Schedule Time" is outside the years 0001 to 9999 in India time: "9999-12-31T23:59:59Z". CallKaro's schedule format has a four-digit year; pick a time in that range. [item 0]`,
	],
	[
		'a time more than an hour in the past',
		'2020-01-01T04:00:00Z',
		'"Schedule Time" is 2020-01-01T09:30:00 in India time (given as "2020-01-01T04:00:00Z"), more than an hour in the past. Such a time is usually the wrong field (a created date, say): map the time the call should start, or set Options → Schedule Time Long Past to Start Now. [item 0]',
	],
	[
		'a spreadsheet serial date',
		'46000',
		'"Schedule Time" is a number that looks like a spreadsheet serial date, 2025-12-09 (days since 1899-12-30, the time as the fraction), not a date and time. To read it so, set Options → Schedule Time Numbers → Spreadsheet Serial Dates; or give a date and time such as 2026-11-22T09:30:00+05:30. [item 0]',
	],
	[
		'a date without a time, without Calling Hours',
		'2030-12-05',
		'"Schedule Time" has a date but no time: "2030-12-05". Add the time, such as 2030-12-05T10:00:00+05:30, or add Options → Calling Hours to start when they open that day. [item 0]',
	],
	['an empty value', '', EMPTY_MESSAGE],
	[
		'a mobile number mapped by mistake, read as epoch seconds',
		'9876543210',
		'"Schedule Time" is 2282-12-23T01:43:30 in India time (a number of 10 digits read as epoch seconds; it looks like a phone number), more than 366 days ahead. Such a time is usually the wrong field or a mistyped year: map the time the call should start, or set Options → Schedule Time Far Ahead to Send It. [item 0]',
	],
	[
		'a mistyped year',
		'2206-12-01T10:00',
		'"Schedule Time" is 2206-12-01T10:00:00 in India time (given as "2206-12-01T10:00"), more than 366 days ahead. Such a time is usually the wrong field or a mistyped year: map the time the call should start, or set Options → Schedule Time Far Ahead to Send It. [item 0]',
	],
];

export function schedule(row: ActionNodeRow, sandbox: SandboxOf) {
	if (!row.schedule) return;
	const { parameters, held, startedNowStatus, scheduledJson, pastJson } = row.schedule;
	const run = runnerFor(row.type);
	const scheduleAtSent = () =>
		(apiRequests(sandbox(), row.path)[0].body as IDataObject).schedule_at;

	describe('Schedule Time: any n8n date, sent to CallKaro as IST', () => {
		it('takes {{ $now.plus({ hours: 2 }) }} (a luxon DateTime) and schedules it', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			const before = Date.now();
			const result = await run(
				sandbox(),
				row.parameters(parameters('={{ $now.plus({ hours: 2 }) }}')),
				{ items: [row.item(key)], timezone: 'Europe/Berlin' },
			);
			const after = Date.now();

			const sent = scheduleAtSent();
			const candidates = new Set<string>();
			for (let ms = before + 2 * HOUR_MS; ms <= after + 2 * HOUR_MS + 1000; ms += 1000) {
				candidates.add(formatIst(ms));
			}
			expect(candidates).toContain(sent);
			const scheduled = held(sandbox(), key);
			expect(scheduled).toMatchObject({ status: 'scheduled', scheduleAt: sent });
			expect(scheduled?.scheduledFor).toBe(
				new Date(parseScheduleAt(sent as string)!).toISOString(),
			);

			const [json] = result.json(NODE_NAME);
			expect(json).toMatchObject({ ...scheduledJson, scheduleAt: sent, scheduleInPast: false });
			// the output's UTC instant keeps the milliseconds that schedule_at cannot carry
			expect(Math.floor(Date.parse(json.scheduledForUtc as string) / 1000) * 1000).toBe(
				Date.parse(scheduled!.scheduledFor!),
			);
		});

		it.each(SCHEDULE_READS)(
			'reads %s: %s',
			async (_, value, timezone, timeZoneOption, expectedIst, expectedUtc) => {
				const [key] = await arranged(row, sandbox(), 1);
				const result = await run(sandbox(), row.parameters(parameters(value, timeZoneOption)), {
					items: [row.item(key)],
					timezone,
				});

				expect(scheduleAtSent()).toBe(expectedIst);
				expect(result.json(NODE_NAME)[0]).toMatchObject({
					...scheduledJson,
					scheduleAt: expectedIst,
					scheduledForUtc: expectedUtc,
					scheduleInPast: false,
				});
				expect(held(sandbox(), key)).toMatchObject({
					status: 'scheduled',
					scheduleAt: expectedIst,
					scheduledFor: expectedUtc,
				});
			},
		);

		it.each([
			['2020-01-01T04:00:00Z', '2020-01-01T09:30:00', '2020-01-01T04:00:00.000Z'],
			['2020-01-06T10:00:00+05:30', '2020-01-06T10:00:00', '2020-01-06T04:30:00.000Z'],
		])(
			'with Schedule Time Long Past = Start Now, sends a time long past (%s) as it is, flags it, and CallKaro starts it now',
			async (value, ist, utc) => {
				const [key] = await arranged(row, sandbox(), 1);
				const result = await run(
					sandbox(),
					row.parameters(withOptions(parameters(value), START_NOW)),
					{ items: [row.item(key)] },
				);

				expect(scheduleAtSent()).toBe(ist);
				expect(result.json(NODE_NAME)[0]).toMatchObject({
					...pastJson,
					scheduleAt: ist,
					scheduledForUtc: utc,
					scheduleInPast: true,
				});
				expect(held(sandbox(), key)?.status).toBe(startedNowStatus);
			},
		);

		it('sends a time less than an hour past, flags it, and CallKaro starts it now', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			const result = await run(
				sandbox(),
				row.parameters(parameters('={{ $now.minus({ minutes: 30 }) }}')),
				{ items: [row.item(key)] },
			);

			expect(result.json(NODE_NAME)[0]).toMatchObject({ ...pastJson, scheduleInPast: true });
			expect(held(sandbox(), key)?.status).toBe(startedNowStatus);
		});

		it.each([
			[
				"India time when the option is empty, whatever the workflow's zone",
				undefined,
				{
					scheduleAt: '2030-12-01T09:30:00',
					scheduledForUtc: '2030-12-01T04:00:00.000Z',
					scheduleInPast: false,
					scheduleTimeZone: 'Asia/Kolkata',
				},
			],
			[
				'the Time Zone option when it is set',
				'Europe/London',
				{ scheduleAt: '2030-12-01T15:00:00', scheduleTimeZone: 'Europe/London' },
			],
		])('echoes the zone a time without an offset was read in: %s', async (_, timeZone, echo) => {
			const [key] = await arranged(row, sandbox(), 1);
			const result = await run(
				sandbox(),
				row.parameters(parameters('2030-12-01T09:30', timeZone)),
				{
					items: [row.item(key)],
					timezone: 'America/New_York',
				},
			);

			expect(result.json(NODE_NAME)[0]).toMatchObject(echo);
		});

		it('has no scheduleTimeZone for a time with an offset: nothing was read in a zone', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			const result = await run(
				sandbox(),
				row.parameters(parameters('2030-12-01T09:30:00Z', 'Europe/London')),
				{ items: [row.item(key)] },
			);

			expect(result.json(NODE_NAME)[0]).toMatchObject({ scheduleTimeZone: null });
			expect(result.task(NODE_NAME).hints ?? []).toEqual([]);
		});

		it('hints once which zone times without an offset were read in, when it is not India time', async () => {
			const keys = await arranged(row, sandbox(), 2);
			const result = await run(
				sandbox(),
				row.parameters(parameters('={{ $json.when }}', 'Europe/London')),
				{ items: keys.map((key) => ({ ...row.item(key), when: '2030-12-01T09:30' })) },
			);

			const zoneHints = (result.task(NODE_NAME).hints ?? []).filter((hint) =>
				hint.message.includes('without an offset'),
			);
			expect(zoneHints).toEqual([
				{
					type: 'info',
					location: 'outputPane',
					message:
						'A Schedule Time without an offset was read in Europe/London (Options → Time Zone), not in India time (Asia/Kolkata): scheduleTimeZone says so per item. Give times with an offset, or clear Time Zone, if that is not what you meant.',
				},
			]);
		});

		it.each(['IST', 'asia/kolkata', 'Asia/Calcutta'])(
			'reads Time Zone %p as India time: no hint, scheduleTimeZone Asia/Kolkata',
			async (zone) => {
				const [key] = await arranged(row, sandbox(), 1);
				const result = await run(sandbox(), row.parameters(parameters('2030-12-01T09:30', zone)), {
					items: [row.item(key)],
				});

				expect(scheduleAtSent()).toBe('2030-12-01T09:30:00');
				expect(result.json(NODE_NAME)[0]).toMatchObject({ scheduleTimeZone: 'Asia/Kolkata' });
				expect(result.task(NODE_NAME).hints ?? []).toEqual([]);
			},
		);

		it.each([
			['epoch seconds', 1893466800],
			['epoch seconds as text', '1893466800'],
		])('reads %s (Razorpay, a lead system), and says so in scheduleNote', async (_, when) => {
			const [key] = await arranged(row, sandbox(), 1);
			const result = await run(sandbox(), row.parameters(parameters('={{ $json.when }}')), {
				items: [{ ...row.item(key), when }],
			});

			expect(scheduleAtSent()).toBe('2030-01-01T08:30:00');
			expect(result.json(NODE_NAME)[0]).toMatchObject({
				scheduleAt: '2030-01-01T08:30:00',
				scheduledForUtc: '2030-01-01T03:00:00.000Z',
				scheduleTimeZone: null,
				scheduleNote: 'number read as epoch seconds, not milliseconds',
			});
		});

		it('starts a date without a time when Calling Hours open that day', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			const hours = {
				callingHours: {
					window: { start: '10:00', end: '19:00', zone: 'Asia/Kolkata', onOutside: 'move' },
				},
			};
			// n8n hands the node a dateTime parameter's date-only text as it is.
			const result = await run(
				sandbox(),
				row.parameters(withOptions(parameters('2030-12-05'), hours)),
				{ items: [row.item(key)] },
			);

			expect(scheduleAtSent()).toBe('2030-12-05T10:00:00');
			expect(result.json(NODE_NAME)[0]).toMatchObject({
				scheduleAt: '2030-12-05T10:00:00',
				outsideCallingHours: false,
				scheduleNote:
					'date without a time: starts when Calling Hours open that day (10:00 in Asia/Kolkata)',
			});
		});

		it.each([
			['an expression that gave nothing', '={{ $json.missing }}'],
			['an expression that gave null', '={{ null }}'],
			['blank text', '  '],
		])('refuses an empty Schedule Time (%s) and sends nothing: never now', async (_, value) => {
			const [key] = await arranged(row, sandbox(), 1);
			const result = await run(sandbox(), row.parameters(parameters(value)), {
				items: [row.item(key)],
				settings: { continueOnFail: true },
			});

			expect(failedItemJson(result.outputOf(NODE_NAME)[0][0])).toEqual(
				refusedItemJson(EMPTY_MESSAGE),
			);
			expect(apiRequests(sandbox(), row.path)).toEqual([]);
		});

		describe.each(NOWS)('run in %s', (_month, now) => {
			const luxonNow = Settings.now;
			beforeEach(() => {
				Settings.now = () => now;
			});
			afterEach(() => {
				Settings.now = luxonNow;
			});
			const runAt = async (when: string) => {
				const [key] = await arranged(row, sandbox(), 1);
				return await run(
					sandbox(),
					row.parameters(parameters('={{ $json.when }}', 'Europe/London')),
					{ items: [{ ...row.item(key), when }] },
				);
			};

			it('sends a repeated wall time as its first occurrence, and says so in scheduleNote', async () => {
				const result = await runAt('2030-10-27T01:30:00');

				// 01:30 BST (+01:00), the first of the two, is 06:00 in India
				expect(scheduleAtSent()).toBe('2030-10-27T06:00:00');
				expect(result.json(NODE_NAME)[0]).toMatchObject({
					scheduleAt: '2030-10-27T06:00:00',
					scheduledForUtc: '2030-10-27T00:30:00.000Z',
					scheduleNote: 'repeated wall time read as its first occurrence (+01:00)',
				});
			});

			it('has no scheduleNote for an ordinary time', async () => {
				const result = await runAt('2030-12-01T09:00:00');

				expect(result.json(NODE_NAME)[0]).not.toHaveProperty('scheduleNote');
			});
		});

		it.each(REFUSED)('refuses %s before sending', async (_, when, message) => {
			const [key] = await arranged(row, sandbox(), 1);
			// Schedule Time Far Ahead as a builder finds it: Fail the Item.
			const asFound = withOptions(parameters('={{ $json.when }}'), FAR_AHEAD_AS_FOUND);
			const result = await run(sandbox(), row.parameters(asFound), {
				items: [{ ...row.item(key), when }],
				settings: { continueOnFail: true },
			});

			expect(failedItemJson(result.outputOf(NODE_NAME)[0][0])).toEqual(refusedItemJson(message));
			expect(apiRequests(sandbox(), row.path)).toEqual([]);
		});
	});
}
