import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readCallingHours } from '../../src/schedule/callingHours';
import type { CallingHours } from '../../src/schedule/callingHours';
import type { CallingHoursReport } from '../../src/input/requests';
import { IST_ZONE } from '../../src/schedule/schedule';
import type { IstSchedule } from '../../src/schedule/schedule';

/**
 * The zone a schedule time without an offset is read in: the first zone given, else India's.
 * Not the workflow's: n8n defaults it to America/New_York, and an Indian CRM's 09:30 is IST.
 */
export function scheduleZone(...timeZoneOptions: Array<string | undefined>): string {
	return timeZoneOptions.find((zone) => zone?.trim())?.trim() ?? IST_ZONE;
}

// The zones a hint was given for, per node run (the context), so each is said once.
const hintedZones = new WeakMap<IExecuteFunctions, Set<string>>();

/**
 * Schedule Time's value as an expression, from the field as the builder wrote it: the inside of
 * `={{ $json.when }}`, or a typed text in quotes; undefined for anything else (text around an
 * expression, several expressions), which advice could not wrap.
 */
export function fieldExpression(raw: unknown): string | undefined {
	if (typeof raw !== 'string') return undefined;
	const [, inside] = /^=\s*\{\{([\s\S]*)\}\}\s*$/.exec(raw) ?? [];
	if (inside !== undefined) return /\{\{|\}\}/.test(inside) ? undefined : inside.trim();
	return raw.startsWith('=') || /\{\{|\}\}/.test(raw) ? undefined : JSON.stringify(raw);
}

/** A hint under the output when a time without an offset was read in a zone other than India's. */
export function hintScheduleZone(context: IExecuteFunctions, schedule: IstSchedule | undefined) {
	const zone = schedule?.wallClockZone;
	if (zone === undefined || zone === IST_ZONE) return;
	const hinted = hintedZones.get(context) ?? new Set<string>();
	hintedZones.set(context, hinted);
	if (hinted.has(zone)) return;
	hinted.add(zone);
	context.addExecutionHints({
		type: 'info',
		location: 'outputPane',
		message: `A Schedule Time without an offset was read in ${zone} (Options → Time Zone), not in India time (${IST_ZONE}): scheduleTimeZone says so per item. Give times with an offset, or clear Time Zone, if that is not what you meant.`,
	});
}

/** `scheduleNote` in the output, only when a rule decided what a wall-clock time meant. */
export function scheduleNote(schedule: IstSchedule | undefined): IDataObject {
	return schedule?.note === undefined ? {} : { scheduleNote: schedule.note };
}

/**
 * How every node echoes its schedule: the IST text sent, the same instant in UTC, whether it was
 * already past (CallKaro then starts at once), and the zone a date and time without an offset
 * was read in (null for a value that carries its instant).
 */
export function scheduleOutput(schedule: IstSchedule | undefined): IDataObject {
	return {
		scheduleAt: schedule?.scheduleAt ?? null,
		scheduledForUtc: schedule?.utc ?? null,
		scheduleInPast: schedule?.isPast ?? false,
		scheduleTimeZone: schedule?.wallClockZone ?? null,
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
