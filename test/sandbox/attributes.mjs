// @ts-check
/**
 * Attribute rules of workflow assign (spec §2.2, §4.1): key matching, type checks, replace,
 * hand-typed (manual) values, and the four result lists. Pure functions over plain objects.
 */

export const ATTRIBUTE_TYPES = Object.freeze(['text', 'number', 'date', 'enum', 'boolean']);
export const MAX_ATTRIBUTE_ROWS = 50;
export const MAX_VALUE_LENGTH = 1000;

/**
 * @typedef {'text' | 'number' | 'date' | 'enum' | 'boolean'} AttributeType
 * @typedef {{ name: string, type: AttributeType, options?: string[] }} AttributeDef
 * @typedef {string | number | boolean} AttributeValue
 * @typedef {{ key: string, value: AttributeValue, replace?: boolean }} AttributeRow
 * @typedef {{ updated: string[], kept_existing: string[], ignored: string[], invalid: { key: string, reason: string }[] }} AttributeResult
 * @typedef {{ values: Record<string, AttributeValue>, manual: string[] }} ContactLike
 */

/**
 * Matching key: case, spaces (any white space), underscores and hyphens are ignored.
 * @param {string} key
 */
export function normaliseKey(key) {
	return key.toLowerCase().replace(/[\s_-]+/g, '');
}

/**
 * Check the shape of the attributes field before anything is saved. A wrong shape is a 400.
 * @param {unknown} rows
 * @returns {string | null} the error message, or null when the shape is fine
 */
export function checkAttributeRows(rows) {
	if (!Array.isArray(rows)) return 'attributes must be an array';
	if (rows.length > MAX_ATTRIBUTE_ROWS) {
		return `attributes must have at most ${MAX_ATTRIBUTE_ROWS} items`;
	}
	for (let i = 0; i < rows.length; i++) {
		const row = rows[i];
		const at = `attributes[${i}]`;
		if (typeof row !== 'object' || row === null || Array.isArray(row)) {
			return `${at} must be an object with key and value`;
		}
		const { key, value, replace } = /** @type {Record<string, unknown>} */ (row);
		if (key === undefined || key === null || key === '') return `Missing required field: ${at}.key`;
		if (typeof key !== 'string') return `${at}.key must be a string`;
		if (value === undefined || value === null) return `Missing required field: ${at}.value`;
		if (typeof value !== 'string' && typeof value !== 'boolean' && typeof value !== 'number') {
			return `${at}.value must be a string, number or boolean`;
		}
		if (typeof value === 'number' && !Number.isFinite(value)) {
			return `${at}.value must be a finite number`;
		}
		if (String(value).length > MAX_VALUE_LENGTH) {
			return `${at}.value must be at most ${MAX_VALUE_LENGTH} characters`;
		}
		if (replace !== undefined && replace !== null && typeof replace !== 'boolean') {
			return `${at}.replace must be a boolean`;
		}
	}
	return null;
}

const ISO_DATE_RE =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A parseable date: an ISO 8601 date or date-time with a real calendar day, or any other string
 * that Date.parse understands and that names a four-digit year (e.g. "12 March 2026").
 * Bare numbers are refused: Date.parse("1") is a valid date in V8, which is not what a CRM means.
 * @param {string} text
 */
export function isParseableDate(text) {
	const s = text.trim();
	const iso = ISO_DATE_RE.exec(s);
	if (iso) {
		const [y, mo, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
		if (mo < 1 || mo > 12 || d < 1) return false;
		if (d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return false;
		if (iso[4] !== undefined && (Number(iso[4]) > 23 || Number(iso[5]) > 59)) return false;
		if (iso[6] !== undefined && Number(iso[6]) > 59) return false;
		return true;
	}
	if (/^[+-]?\d+(\.\d+)?$/.test(s)) return false;
	return /\d{4}/.test(s) && Number.isFinite(Date.parse(s));
}

/**
 * Check a value against an attribute's type. On success, the value to store.
 * @param {AttributeDef} def
 * @param {AttributeValue} value
 * @returns {{ ok: true, value: AttributeValue } | { ok: false, reason: string }}
 */
export function checkValue(def, value) {
	switch (def.type) {
		case 'text':
			return { ok: true, value: String(value) };
		case 'number': {
			if (typeof value === 'number') return { ok: true, value };
			if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
				return { ok: true, value: Number(value) };
			}
			return { ok: false, reason: `${def.name} needs a number` };
		}
		case 'date':
			if (typeof value === 'string' && isParseableDate(value)) return { ok: true, value };
			return { ok: false, reason: `${def.name} needs a date` };
		case 'boolean':
			if (typeof value === 'boolean') return { ok: true, value };
			if (value === 'true' || value === 'false') return { ok: true, value: value === 'true' };
			return { ok: false, reason: `${def.name} needs true or false` };
		case 'enum': {
			const options = def.options ?? [];
			const text = String(value);
			if (typeof value !== 'boolean' && options.includes(text)) return { ok: true, value: text };
			return { ok: false, reason: `${def.name} must be one of: ${options.join(', ')}` };
		}
		default:
			return { ok: false, reason: `${def.name} has an unknown type` };
	}
}

/**
 * Is a stored value empty?
 * @param {unknown} value
 */
export function isEmptyValue(value) {
	return value === undefined || value === null || value === '';
}

/**
 * Apply rows (already shape-checked) to a contact, in order. Mutates contact.values.
 * Every row lands in exactly one list; the lists name the key as it was submitted.
 * @param {ContactLike} contact
 * @param {AttributeRow[]} rows
 * @param {Map<string, AttributeDef>} index attribute definitions by normaliseKey(name)
 * @returns {AttributeResult}
 */
export function applyAttributes(contact, rows, index) {
	/** @type {AttributeResult} */
	const result = { updated: [], kept_existing: [], ignored: [], invalid: [] };
	for (const row of rows) {
		const def = index.get(normaliseKey(row.key));
		if (!def) {
			result.ignored.push(row.key);
			continue;
		}
		const checked = checkValue(def, row.value);
		if (!checked.ok) {
			result.invalid.push({ key: row.key, reason: checked.reason });
			continue;
		}
		const current = contact.values[def.name];
		const hasValue = !isEmptyValue(current);
		if (hasValue && contact.manual.includes(def.name)) {
			// Typed by a person in the CRM: never overwritten, even with replace true.
			result.kept_existing.push(row.key);
			continue;
		}
		if (hasValue && row.replace !== true) {
			result.kept_existing.push(row.key);
			continue;
		}
		contact.values[def.name] = checked.value;
		// A value saved through the API is no longer one a person typed by hand.
		const manualAt = contact.manual.indexOf(def.name);
		if (manualAt !== -1) contact.manual.splice(manualAt, 1);
		result.updated.push(row.key);
	}
	return result;
}
