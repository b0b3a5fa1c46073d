// Schedule Time on the nodes that take one: any n8n date, sent to CallKaro as IST
// (nodes/shared/schedule.ts).
import type { IDataObject } from 'n8n-workflow';

import { formatIst, parseScheduleAt } from '../../../sandbox/sandbox.mjs';
import { NODE_NAME, apiRequests, runnerFor } from '../../fixtures';
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

		it('sends a time in the past as it is, flags it, and CallKaro starts it now', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			const result = await run(sandbox(), row.parameters(parameters('2020-01-01T00:00:00Z')), {
				items: [row.item(key)],
			});

			expect(scheduleAtSent()).toBe('2020-01-01T05:30:00');
			expect(result.json(NODE_NAME)[0]).toMatchObject({
				...pastJson,
				scheduleAt: '2020-01-01T05:30:00',
				scheduledForUtc: '2020-01-01T00:00:00.000Z',
				scheduleInPast: true,
			});
			expect(held(sandbox(), key)?.status).toBe(startedNowStatus);
		});
	});
}
