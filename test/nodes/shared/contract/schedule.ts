// Schedule Time on the nodes that take one: any n8n date, sent to CallKaro as IST
// (nodes/shared/schedule.ts).
import { Settings } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { formatIst, parseScheduleAt } from '../../../sandbox/sandbox.mjs';
import { NODE_NAME, apiRequests, failedItemJson, refusedItemJson, runnerFor } from '../../fixtures';
import type { ActionNodeRow, SandboxOf } from '../contract';
import { arranged } from './support';

const HOUR_MS = 60 * 60 * 1000;

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
		'an offset-less string in the workflow zone (winter)',
		'2030-01-02T10:00:00',
		'America/New_York',
		undefined,
		'2030-01-02T20:30:00',
		'2030-01-02T15:00:00.000Z',
	],
	[
		'an offset-less string in the workflow zone (summer time)',
		'2030-07-01 10:00',
		'America/New_York',
		undefined,
		'2030-07-01T19:30:00',
		'2030-07-01T14:00:00.000Z',
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
		'an offset out of range, with a long fraction shown unmasked',
		'2030-12-01T09:30:45.123456789012+24:00',
		'"Schedule Time" has an offset that is not -23:59 to +23:59: "2030-12-01T09:30:45.123456789012+24:00". Write the offset as +HH:MM or -HH:MM, hours 00-23 and minutes 00-59, such as +05:30. [item 0]',
	],
	[
		'a year past 9999 in India',
		'9999-12-31T23:59:59Z',
		`"Schedule Time" is outside the years 0001 to 9999 in India time: "9999-12-31T23:59:59Z". CallKaro's schedule format has a four-digit year; pick a time in that range. [item 0]`,
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
			['2020-01-01T00:00:00Z', '2020-01-01T05:30:00', '2020-01-01T00:00:00.000Z'],
			['2020-01-06T10:00:00+05:30', '2020-01-06T10:00:00', '2020-01-06T04:30:00.000Z'],
		])(
			'sends a time in the past (%s) as it is, flags it, and CallKaro starts it now',
			async (value, ist, utc) => {
				const [key] = await arranged(row, sandbox(), 1);
				const result = await run(sandbox(), row.parameters(parameters(value)), {
					items: [row.item(key)],
				});

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

		it.each([
			[
				"the workflow's time zone when the option is empty",
				undefined,
				{
					scheduleAt: '2030-12-01T20:00:00',
					scheduledForUtc: '2030-12-01T14:30:00.000Z',
					scheduleInPast: false,
					scheduleTimeZone: 'America/New_York',
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
				return await run(sandbox(), row.parameters(parameters('={{ $json.when }}')), {
					items: [{ ...row.item(key), when }],
					timezone: 'Europe/London',
				});
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
				const result = await runAt('2030-07-01T09:00:00');

				expect(result.json(NODE_NAME)[0]).not.toHaveProperty('scheduleNote');
			});
		});

		it.each(REFUSED)('refuses %s before sending', async (_, when, message) => {
			const [key] = await arranged(row, sandbox(), 1);
			const result = await run(sandbox(), row.parameters(parameters('={{ $json.when }}')), {
				items: [{ ...row.item(key), when }],
				settings: { continueOnFail: true },
			});

			expect(failedItemJson(result.outputOf(NODE_NAME)[0][0])).toEqual(refusedItemJson(message));
			expect(apiRequests(sandbox(), row.path)).toEqual([]);
		});
	});
}
