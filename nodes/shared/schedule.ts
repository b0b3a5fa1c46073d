import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

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
