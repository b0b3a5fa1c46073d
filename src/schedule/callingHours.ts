import { DateTime, Settings } from 'luxon';
import type { Zone } from 'luxon';
import { z } from 'zod/v4';

import { invalidInput } from '../input/inputError';
import { onFirstUse } from '../firstUse';
import { describeValue } from '../input/input';
import {
	IST_ZONE,
	firstInstantAtOrAfter,
	formatWall,
	knownZone,
	minutesOfDay,
	toIstSchedule,
} from './schedule';
import type { IstSchedule } from './schedule';

export const WEEKDAYS = [
	'monday',
	'tuesday',
	'wednesday',
	'thursday',
	'friday',
	'saturday',
	'sunday',
] as const;

/** What happens to a start time outside the calling hours. */
export const OUTSIDE_CALLING_HOURS = ['move', 'fail', 'send'] as const;

const FIELD = 'Calling Hours';
const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DAY_MS = 24 * 60 * 60 * 1000;

// Built on first use (see onFirstUse): n8n loads every node at start-up.
export const callingHoursSchema = onFirstUse(() =>
	z.object({
		/** 'HH:MM', 24 h: the window opens at this wall-clock time. */
		start: z.string().regex(TIME_OF_DAY),
		/** 'HH:MM', 24 h, not included; before start means the window runs past midnight. */
		end: z.string().regex(TIME_OF_DAY),
		/** IANA zone of the window's clock. */
		zone: z.string(),
		/** The days on which the window opens. */
		days: z.array(z.enum(WEEKDAYS)).min(1),
		onOutside: z.enum(OUTSIDE_CALLING_HOURS),
	}),
);
export type CallingHours = z.infer<ReturnType<typeof callingHoursSchema>>;

/** The calling hours as the node's fields give them, checked; each problem names its field. */
export function readCallingHours(raw: {
	start?: unknown;
	end?: unknown;
	zone?: unknown;
	days?: unknown;
	onOutside?: unknown;
}): CallingHours {
	const text = (value: unknown) => (typeof value === 'string' ? value.trim() : value);
	const hours = {
		start: text(raw.start),
		end: text(raw.end),
		zone: text(raw.zone) || IST_ZONE,
		days: raw.days,
		onOutside: raw.onOutside ?? 'move',
	};
	for (const [key, field] of [
		['start', 'Calling Hours Start'],
		['end', 'Calling Hours End'],
	] as const) {
		if (!callingHoursSchema().shape[key].safeParse(hours[key]).success) {
			throw invalidInput(
				field,
				`is not a time of day: ${describeValue(hours[key])}`,
				'Use HH:MM on a 24-hour clock, such as 09:00 or 21:00',
			);
		}
	}
	if (hours.start === hours.end) {
		throw invalidInput(
			FIELD,
			`start and end at the same time (${String(hours.start)}), which leaves no time to call`,
			'Set an end after the start, or an end before the start for hours that run past midnight',
		);
	}
	if (typeof hours.zone !== 'string') {
		throw invalidInput(
			'Calling Hours Time Zone',
			`must be text, but is ${describeValue(hours.zone)}`,
			'Use an IANA time zone name such as Asia/Kolkata',
		);
	}
	knownZone(hours.zone, 'Calling Hours Time Zone');
	if (!callingHoursSchema().shape.days.safeParse(hours.days).success) {
		throw invalidInput(
			'Calling Hours Days',
			`must be one or more days of the week, but is ${Array.isArray(hours.days) ? `[${hours.days.join(', ')}]` : describeValue(hours.days)}`,
			'Pick the days on which calls may start',
		);
	}
	return callingHoursSchema().parse(hours);
}

function isOpenOn(hours: CallingHours, weekday: number): boolean {
	return hours.days.includes(WEEKDAYS[(weekday + 6) % 7]);
}

/** Whether a call may start at this instant. The window belongs to the day it opens on. */
export function isWithinCallingHours(instant: number, hours: CallingHours): boolean {
	const local = DateTime.fromMillis(instant, { zone: knownZone(hours.zone) });
	const minute = local.hour * 60 + local.minute + local.second / 60;
	const [start, end] = [minutesOfDay(hours.start), minutesOfDay(hours.end)];
	const previousDay = ((local.weekday + 5) % 7) + 1;
	if (start < end) return isOpenOn(hours, local.weekday) && minute >= start && minute < end;
	// The window runs past midnight: its evening part opens today, its morning part opened yesterday.
	return (
		(isOpenOn(hours, local.weekday) && minute >= start) ||
		(isOpenOn(hours, previousDay) && minute < end)
	);
}

/**
 * The first instant at or after `instant` at which a call may start: the instant itself when it
 * is inside the window, else the next opening, found on the zone's clocks (so an opening after a
 * clock change is at its wall-clock time, and one inside a skipped hour is where the clocks resume).
 */
export function nextAllowedTime(instant: number, hours: CallingHours): number {
	if (isWithinCallingHours(instant, hours)) return instant;
	const zone: Zone = knownZone(hours.zone);
	const local = DateTime.fromMillis(instant, { zone });
	const day = DateTime.utc(local.year, local.month, local.day).toMillis();
	const start = minutesOfDay(hours.start) * 60 * 1000;
	// Every weekday within eight days, so one chosen day is always reached.
	for (let offset = 0; offset <= 7; offset += 1) {
		const weekday = ((local.weekday - 1 + offset) % 7) + 1;
		const opening = firstInstantAtOrAfter(day + offset * DAY_MS + start, zone);
		if (isOpenOn(hours, weekday) && opening > instant) return opening;
	}
	throw new Error('Calling hours without any day'); // readCallingHours requires a day
}

export interface CallingHoursOutcome {
	/** The schedule to send: moved when the start was outside the hours and the choice is move. */
	schedule: IstSchedule | undefined;
	/** The IST time it was moved from ('YYYY-MM-DDTHH:mm:ss'). */
	movedFrom?: string;
	/** True when the call is sent outside the hours as it is. */
	outside: boolean;
}

function describeHours(hours: CallingHours): string {
	const days =
		hours.days.length === WEEKDAYS.length
			? 'every day'
			: WEEKDAYS.filter((day) => hours.days.includes(day))
					.map((day) => day[0].toUpperCase() + day.slice(1, 3))
					.join(', ');
	return `${hours.start}-${hours.end} ${days} in ${hours.zone}`;
}

/**
 * Applies the calling hours to a start time: the schedule, or now when there is none. Outside
 * the hours the call is moved to the next allowed time, refused, or flagged, as the builder chose.
 */
export function applyCallingHours(
	schedule: IstSchedule | undefined,
	hours: CallingHours | undefined,
	nowDate?: Date,
): CallingHoursOutcome {
	// Settings.now is luxon's clock, which tests (and hosts) may set.
	const now = nowDate?.getTime() ?? Settings.now();
	// CallKaro starts a time in the past at once, so that call starts now.
	const start = schedule && !schedule.isPast ? Date.parse(schedule.utc) : now;
	if (!hours || isWithinCallingHours(start, hours)) return { schedule, outside: false };
	const zone = knownZone(hours.zone);
	const next = nextAllowedTime(start, hours);
	if (hours.onOutside === 'fail') {
		throw invalidInput(
			FIELD,
			`are ${describeHours(hours)}, and the call would start at ${formatWall(start, zone)} there${schedule ? '' : ' (now)'}`,
			`The next allowed time is ${formatWall(next, zone)} in ${hours.zone}; start the call then, or choose Move to the Next Allowed Time`,
		);
	}
	if (hours.onOutside === 'send') return { schedule, outside: true };
	const movedFrom =
		schedule?.scheduleAt ?? toIstSchedule(now, { zone: IST_ZONE, now: new Date(now) }).scheduleAt;
	return {
		// How the given time was read (note, wallClockZone) still holds for the moved one.
		// The time given passed the far-ahead check; the move adds at most a week to it.
		schedule: {
			...schedule,
			...toIstSchedule(next, { zone: IST_ZONE, now: new Date(now), farAhead: 'send' }),
			// Moved to the next allowed time: no longer now.
			startsNow: undefined,
		},
		movedFrom,
		outside: false,
	};
}
