// @ts-check
/**
 * Pure validators shared by the sandbox endpoints: phone numbers, schedule_at (IST),
 * and the optional fields of POST /call/outbound. No I/O, no state.
 */

/** International number, optional leading +, 8 to 15 digits, no leading zero. */
export const PHONE_RE = /^\+?[1-9]\d{7,14}$/;

export const SCHEDULE_AT_MESSAGE = 'schedule_at must be YYYY-MM-DDTHH:mm:ss (IST)';
export const TO_NUMBER_MESSAGE =
	'Invalid to_number: use the international format with country code, e.g. +919876543210';

/** IST (Asia/Kolkata) is a fixed UTC+05:30 offset, with no daylight saving time. */
export const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;

export const LANGUAGES = Object.freeze(['hi', 'en', 'kn', 'mr', 'ta', 'te', 'bn', 'gu', 'ml']);

/**
 * Is the value "absent" for an optional field? undefined and null are treated as omitted.
 * @param {unknown} value
 */
export function isAbsent(value) {
	return value === undefined || value === null;
}

/**
 * Is a required field missing? undefined, null and the empty (or blank) string count as missing.
 * @param {unknown} value
 */
export function isMissing(value) {
	return isAbsent(value) || (typeof value === 'string' && value.trim() === '');
}

/**
 * The canonical form of a phone number used as a lookup key: digits only, no leading +.
 * @param {string} number
 */
export function normaliseNumber(number) {
	return number.startsWith('+') ? number.slice(1) : number;
}

/**
 * @param {unknown} value
 * @returns {value is string}
 */
export function isPhoneNumber(value) {
	return typeof value === 'string' && PHONE_RE.test(value);
}

/**
 * @param {number} year
 * @param {number} month 1-12
 */
function daysInMonth(year, month) {
	return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Parse schedule_at: exactly YYYY-MM-DDTHH:mm:ss, a real calendar date and time, read as IST.
 * @param {unknown} value
 * @returns {number | null} the instant in epoch milliseconds (UTC), or null when the shape is wrong
 */
export function parseScheduleAt(value) {
	if (typeof value !== 'string') return null;
	const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(value);
	if (!m) return null;
	const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
	if (year < 1 || month < 1 || month > 12) return null;
	if (day < 1 || day > daysInMonth(year, month)) return null;
	if (hour > 23 || minute > 59 || second > 59) return null;
	return Date.UTC(year, month - 1, day, hour, minute, second) - IST_OFFSET_MS;
}

/**
 * Format an instant as IST wall-clock time in the schedule_at shape (handy in tests and docs).
 * @param {number} epochMs
 */
export function formatIst(epochMs) {
	return new Date(epochMs + IST_OFFSET_MS).toISOString().slice(0, 19);
}

/** HH:MM, 24 hours. */
export const HHMM_RE = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * @param {unknown} value
 * @returns {value is number}
 */
function isInt(value) {
	return typeof value === 'number' && Number.isInteger(value);
}

/**
 * @typedef {object} OutboundOptions
 * @property {string} [batch_id]
 * @property {Record<string, string | number>} [metadata]
 * @property {string} [schedule_at]
 * @property {string} [min_trigger_time]
 * @property {string} [max_trigger_time]
 * @property {boolean} [carry_over]
 * @property {number} [number_of_retries]
 * @property {number | number[]} [gap_between_retries]
 * @property {number} [priority]
 * @property {string} [language]
 */

/**
 * Validate the optional fields of POST /call/outbound against the documented limits.
 * Fields set to null count as omitted. Unknown fields are ignored.
 * @param {Record<string, unknown>} body
 * @returns {{ ok: true, options: OutboundOptions, scheduleAtMs: number | null } | { ok: false, message: string }}
 */
export function validateOutboundOptions(body) {
	/** @type {OutboundOptions} */
	const options = {};
	/** @param {string} message */
	const fail = (message) => /** @type {{ ok: false, message: string }} */ ({ ok: false, message });

	const batchId = body.batch_id;
	if (!isAbsent(batchId)) {
		if (typeof batchId !== 'string' || batchId.trim() === '') {
			return fail('batch_id must be a non-empty string');
		}
		options.batch_id = batchId;
	}

	const metadata = body.metadata;
	if (!isAbsent(metadata)) {
		if (typeof metadata !== 'object' || Array.isArray(metadata)) {
			return fail('metadata must be an object of string or number values');
		}
		/** @type {Record<string, string | number>} */
		const copy = {};
		for (const [key, v] of Object.entries(/** @type {Record<string, unknown>} */ (metadata))) {
			if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) {
				copy[key] = v;
			} else {
				return fail(`metadata.${key} must be a string or a number`);
			}
		}
		options.metadata = copy;
	}

	let scheduleAtMs = null;
	if (!isAbsent(body.schedule_at)) {
		scheduleAtMs = parseScheduleAt(body.schedule_at);
		if (scheduleAtMs === null) return fail(SCHEDULE_AT_MESSAGE);
		options.schedule_at = /** @type {string} */ (body.schedule_at);
	}

	for (const field of /** @type {const} */ (['min_trigger_time', 'max_trigger_time'])) {
		const v = body[field];
		if (isAbsent(v)) continue;
		if (typeof v !== 'string' || !HHMM_RE.test(v)) return fail(`${field} must be HH:MM (24 h)`);
		options[field] = v;
	}

	if (!isAbsent(body.carry_over)) {
		if (typeof body.carry_over !== 'boolean') return fail('carry_over must be a boolean');
		options.carry_over = body.carry_over;
	}

	const retries = body.number_of_retries;
	if (!isAbsent(retries)) {
		if (!isInt(retries) || retries < 0 || retries > 10) {
			return fail('number_of_retries must be an integer from 0 to 10');
		}
		options.number_of_retries = retries;
	}

	const gap = body.gap_between_retries;
	if (!isAbsent(gap)) {
		const gapMessage =
			'gap_between_retries must be a non-negative integer or a non-empty array of non-negative integers (minutes)';
		if (Array.isArray(gap)) {
			if (gap.length === 0 || !gap.every((g) => isInt(g) && g >= 0)) return fail(gapMessage);
			options.gap_between_retries = /** @type {number[]} */ ([...gap]);
		} else if (isInt(gap) && gap >= 0) {
			options.gap_between_retries = gap;
		} else {
			return fail(gapMessage);
		}
	}

	const priority = body.priority;
	if (!isAbsent(priority)) {
		if (!isInt(priority) || priority < -100 || priority > 100) {
			return fail('priority must be an integer from -100 to 100');
		}
		options.priority = priority;
	}

	const language = body.language;
	if (!isAbsent(language)) {
		if (typeof language !== 'string' || !LANGUAGES.includes(language)) {
			return fail(`language must be one of ${LANGUAGES.join(', ')}`);
		}
		options.language = language;
	}

	return { ok: true, options, scheduleAtMs };
}
