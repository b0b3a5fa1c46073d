import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readCallingHours } from '../../src/callingHours';
import type { CallingHours } from '../../src/callingHours';
import type { CallingHoursReport } from '../../src/requests';
import type { IstSchedule } from '../../src/schedule';

/** The zone a schedule time without an offset is read in: the first zone given, else the workflow's. */
export function scheduleZone(
	context: IExecuteFunctions,
	...timeZoneOptions: Array<string | undefined>
): string {
	return timeZoneOptions.find((zone) => zone?.trim())?.trim() ?? context.getTimezone();
}

/** `scheduleNote` in the output, only when a rule decided what a wall-clock time meant. */
export function scheduleNote(schedule: IstSchedule | undefined): IDataObject {
	return schedule?.note === undefined ? {} : { scheduleNote: schedule.note };
}

/**
 * How every node echoes its schedule: the IST text sent, the same instant in UTC, whether it was
 * already past (CallKaro then starts at once), and the zone a time without an offset was read
 * in (the Time Zone option, else the workflow's, which n8n defaults to its instance zone).
 */
export function scheduleOutput(
	schedule: IstSchedule | undefined,
	zone: string | undefined,
): IDataObject {
	return {
		scheduleAt: schedule?.scheduleAt ?? null,
		scheduledForUtc: schedule?.utc ?? null,
		scheduleInPast: schedule?.isPast ?? false,
		scheduleTimeZone: schedule ? (zone ?? null) : null,
		...scheduleNote(schedule),
	};
}

/** Options → Calling Hours as n8n gives it: a window once the builder adds one. */
export interface CallingHoursOptionValue {
	window?: Parameters<typeof readCallingHours>[0];
}

/** The calling hours to apply, or undefined when the option was not added (off by default). */
export function callingHoursFrom(
	option: CallingHoursOptionValue | undefined,
): CallingHours | undefined {
	return option?.window ? readCallingHours(option.window) : undefined;
}

/** `scheduleMovedFrom` and `outsideCallingHours` in the output, when the node has calling hours. */
export function callingHoursOutput(report: CallingHoursReport | undefined): IDataObject {
	return report ? { ...report } : {};
}
