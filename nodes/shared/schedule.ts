import type { IExecuteFunctions } from 'n8n-workflow';

/** The zone a schedule time without an offset is read in: the option, else the workflow's. */
export function scheduleZone(
	context: IExecuteFunctions,
	timeZoneOption: string | undefined,
): string {
	return timeZoneOption?.trim() || context.getTimezone();
}
