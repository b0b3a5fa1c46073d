import { DateTime } from 'luxon';

import { invalidInput } from './errors';
import { describeValue } from './input';

/** CallKaro reads schedule times as wall-clock time in India. */
export const IST_ZONE = 'Asia/Kolkata';

const IST_FORMAT = "yyyy-LL-dd'T'HH:mm:ss";

export interface IstSchedule {
	/** '2026-11-22T09:30:00': the time in Asia/Kolkata, in CallKaro's format. */
	scheduleAt: string;
	/** '2026-11-22T04:00:00.000Z' */
	utc: string;
	isPast: boolean;
}

// 'YYYY-MM-DD', 'YYYY-MM-DDTHH:mm[:ss[.SSS]]' or with a space instead of T, optionally with Z or an offset.
const DATE_TEXT =
	/^\d{4}-\d{2}-\d{2}(?:[T ]([01]\d|2[0-3]):([0-5]\d)(?::[0-5]\d(?:\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
const FORMAT_HINT =
	'Use a date and time such as 2026-11-22T09:30:00 (read in the workflow time zone) or 2026-11-22T09:30:00+05:30';

interface DateTimeLike {
	isValid: boolean;
	toMillis(): number;
}

// The host's luxon copy may differ from ours, so DateTime.isDateTime cannot be trusted.
function isDateTimeLike(value: object): value is DateTimeLike {
	const candidate = value as Partial<Record<keyof DateTimeLike, unknown>>;
	return typeof candidate.toMillis === 'function' && typeof candidate.isValid === 'boolean';
}

function isJsDateLike(value: object): value is { toJSDate(): Date } {
	return typeof (value as { toJSDate?: unknown }).toJSDate === 'function';
}

function isJsDate(value: object): value is Date {
	return Object.prototype.toString.call(value) === '[object Date]';
}

function millisOf(value: unknown, field: string): number {
	if (typeof value === 'number') return value;
	if (typeof value === 'object' && value !== null) {
		if (isDateTimeLike(value)) return value.isValid ? value.toMillis() : Number.NaN;
		if (isJsDateLike(value)) return value.toJSDate().getTime();
		if (isJsDate(value)) return value.getTime();
	}
	throw invalidInput(field, `must be a date and time, but is ${describeValue(value)}`, FORMAT_HINT);
}

function parseDateText(text: string, zone: string, field: string): DateTime<true> {
	const match = DATE_TEXT.exec(text);
	if (!match)
		throw invalidInput(field, `is not a date and time: ${describeValue(text)}`, FORMAT_HINT);
	const [, hour = '0', minute = '0', offset] = match;
	// Text without an offset is wall-clock time in the workflow's zone.
	const parsed = DateTime.fromISO(text.replace(' ', 'T'), { zone });
	if (!parsed.isValid) {
		throw invalidInput(field, `is not a real date or time: ${describeValue(text)}`, FORMAT_HINT);
	}
	// Luxon moves a time inside a daylight-saving gap forward instead of failing.
	if (offset === undefined && (parsed.hour !== Number(hour) || parsed.minute !== Number(minute))) {
		throw invalidInput(
			field,
			`does not exist in the time zone ${zone}, because the clocks skip it: ${describeValue(text)}`,
			'Pick a time outside the daylight-saving change',
		);
	}
	return parsed;
}

function toDateTime(value: unknown, zone: string, field: string): DateTime<true> {
	if (typeof value === 'string') return parseDateText(value.trim(), zone, field);
	const instant = DateTime.fromMillis(millisOf(value, field), { zone: 'utc' });
	if (!instant.isValid)
		throw invalidInput(field, `is not a valid date: ${describeValue(value)}`, FORMAT_HINT);
	return instant;
}

function assertValidZone(zone: string): void {
	if (zone.trim() === '' || !DateTime.fromMillis(0, { zone }).isValid) {
		throw invalidInput(
			'Time Zone',
			`is not a known time zone: ${describeValue(zone)}`,
			'Use an IANA time zone name such as Asia/Kolkata',
		);
	}
}

/** Converts a date input (luxon DateTime, JS Date, epoch ms, ISO text) into CallKaro's IST schedule format. */
export function toIstSchedule(
	value: unknown,
	options: { zone: string; now?: Date; field?: string },
): IstSchedule {
	assertValidZone(options.zone);
	const instant = toDateTime(value, options.zone, options.field ?? 'Schedule Time');
	const now = options.now ?? new Date();
	return {
		// A fixed locale and digits: the host may have changed luxon's defaults.
		scheduleAt: instant
			.setZone(IST_ZONE)
			.toFormat(IST_FORMAT, { locale: 'en-US', numberingSystem: 'latn' }),
		utc: instant.toUTC().toISO(),
		isPast: instant.toMillis() < now.getTime(),
	};
}
