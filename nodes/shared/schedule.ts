import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readCallingHours } from '../../src/schedule/callingHours';
import type { CallingHours } from '../../src/schedule/callingHours';
import type { CallingHoursReport } from '../../src/input/requests';
import { IST_ZONE, knownZone } from '../../src/schedule/schedule';
import type { IstSchedule } from '../../src/schedule/schedule';

/**
 * The zone a schedule time without an offset is read in: the first zone given, else India's.
 * Not the workflow's: n8n defaults it to America/New_York, and an Indian CRM's 09:30 is IST.
 */
export function scheduleZone(...timeZoneOptions: Array<string | undefined>): string {
	return timeZoneOptions.find((zone) => zone?.trim())?.trim() ?? IST_ZONE;
}

/**
 * The node's Time Zone (version 2 on), which every time setting reads; undefined on version 1,
 * whose zones are fields of their own.
 */
export function nodeTimeZone(context: IExecuteFunctions, itemIndex: number): string | undefined {
	if (context.getNode().typeVersion < 2) return undefined;
	// An expression may give any text: a zone luxon does not know fails here, naming the field.
	return knownZone(String(context.getNodeParameter('timeZone', itemIndex, IST_ZONE)), 'Time Zone')
		.name;
}

// The zones a hint was given for, per node run (the context), so each is said once.
const hintedZones = new WeakMap<IExecuteFunctions, Set<string>>();

/** A hint under the output when a time without an offset was read in a zone other than India's. */
export function hintScheduleZone(context: IExecuteFunctions, schedule: IstSchedule | undefined) {
	const zone = schedule?.wallClockZone;
	if (zone === undefined || zone === IST_ZONE) return;
	const hinted = hintedZones.get(context) ?? new Set<string>();
	hintedZones.set(context, hinted);
	if (hinted.has(zone)) return;
	hinted.add(zone);
	const [field, otherwise] =
		context.getNode().typeVersion < 2
			? ['Options → Time Zone', 'clear Time Zone']
			: ['Time Zone', `choose India (${IST_ZONE}) in Time Zone`];
	context.addExecutionHints({
		type: 'info',
		location: 'outputPane',
		message: `A Schedule Time without an offset was read in ${zone} (${field}), not in India time (${IST_ZONE}): scheduleTimeZone says so per item. Give times with an offset, or ${otherwise}, if that is not what you meant.`,
	});
}

/** `scheduleNote` in the output, only when a rule decided what a wall-clock time meant. */
export function scheduleNote(schedule: IstSchedule | undefined): IDataObject {
	return schedule?.note === undefined ? {} : { scheduleNote: schedule.note };
}

/**
 * How every node echoes its schedule: the IST text sent, the same instant in UTC, whether it was
 * already past (CallKaro then starts at once) or is now (within a minute), and the zone a date and time without an offset
 * was read in (null for a value that carries its instant).
 */
export function scheduleOutput(schedule: IstSchedule | undefined): IDataObject {
	return {
		scheduleAt: schedule?.scheduleAt ?? null,
		scheduledForUtc: schedule?.utc ?? null,
		scheduleInPast: schedule?.isPast ?? false,
		...(schedule?.startsNow ? { scheduleStartsNow: true } : {}),
		scheduleTimeZone: schedule?.wallClockZone ?? null,
		...scheduleNote(schedule),
	};
}

/** Options → Calling Hours as n8n gives it: a window once the builder adds one. */
export interface CallingHoursOptionValue {
	window?: Parameters<typeof readCallingHours>[0];
}

/**
 * The calling hours to apply, or undefined when the option was not added (off by default); from
 * version 2 on, on the clock of the node's Time Zone.
 */
export function callingHoursFrom(
	option: CallingHoursOptionValue | undefined,
	zone?: string,
): CallingHours | undefined {
	if (!option?.window) return undefined;
	return readCallingHours(zone === undefined ? option.window : { ...option.window, zone });
}

/** `scheduleMovedFrom` and `outsideCallingHours` in the output, when the node has calling hours. */
export function callingHoursOutput(report: CallingHoursReport | undefined): IDataObject {
	return report ? { ...report } : {};
}
