import type { IExecuteFunctions } from 'n8n-workflow';

/** The zone a schedule time without an offset is read in: the first zone given, else the workflow's. */
export function scheduleZone(
	context: IExecuteFunctions,
	...timeZoneOptions: Array<string | undefined>
): string {
	return timeZoneOptions.find((zone) => zone?.trim())?.trim() ?? context.getTimezone();
}
