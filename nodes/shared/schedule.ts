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
