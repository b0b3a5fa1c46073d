/**
 * The shapes n8n's own nodes give values in, read back into the values a builder means: HubSpot's
 * `{ value, versions }`, Notion's typed properties, monday.com's `{ title, text }` columns, Agile
 * CRM's `{ name, value }` properties, Meta's one-element answer lists, Notion's dates. Only what is unambiguous
 * is unwrapped; everything else stays as it is, for the caller to report or refuse.
 */

export type PlainObject = Record<string, unknown>;

/** A value taken out of its wrapper, and the path it was found at, e.g. '.value' or '[0]'. */
export interface Unwrapped {
	value: unknown;
	/** '' when the value was not wrapped. */
	path: string;
}

/** Keys that may stand beside `value` in a wrapper without making it ambiguous (Baserow's option: id, color). */
const VALUE_WRAPPER_DETAILS = new Set([
	'versions',
	'label',
	'primary',
	'timestamp',
	'source',
	'id',
	'color',
]);
/** Keys that may stand beside `type` and the value named by it in a typed property. */
const TYPED_PROPERTY_DETAILS = new Set(['id', 'type', 'field']);

export function isPlainObject(value: unknown): value is PlainObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface DateObject {
	toISO?: () => string | null;
	toISOString?: () => string;
}

/** An object that says it is a date: it has toISO (luxon) or toISOString (Date, moment, dayjs). */
export function isDateObject(value: unknown): value is DateObject {
	if (typeof value !== 'object' || value === null) return false;
	const { toISO, toISOString } = value as DateObject;
	return typeof toISO === 'function' || typeof toISOString === 'function';
}

/**
 * A date object as ISO text: a JS Date (Microsoft SQL's and Oracle's drivers give them), a luxon
 * DateTime (n8n's expressions give them), or any other with toISO or toISOString (moment, dayjs).
 * Undefined for any other value, or for an invalid date, which has no text.
 */
export function dateObjectText(value: unknown): string | undefined {
	if (!isDateObject(value)) return undefined;
	const { toISO, toISOString } = value;
	// luxon's toISO keeps the offset it was given; Date's toISOString is in UTC.
	if (typeof toISO === 'function') return toISO.call(value) ?? undefined;
	try {
		return toISOString?.call(value);
	} catch {
		// An invalid Date throws: it names no instant.
		return undefined;
	}
}

/**
 * A record with its date objects as ISO text, at any depth, so that a date is carried as the
 * instant it is and never read as an empty object; any other object with a JSON form of its own
 * (MongoDB's ObjectId) as that form, as n8n stores it. The record itself when it holds none.
 */
export function withDatesAsText(value: unknown): unknown {
	const text = dateObjectText(value);
	if (text !== undefined) return text;
	const { toJSON } = (value ?? {}) as { toJSON?: unknown };
	if (typeof toJSON === 'function' && !isDateObject(value)) {
		return withDatesAsText(toJSON.call(value));
	}
	if (Array.isArray(value)) {
		const entries = value.map(withDatesAsText);
		return entries.some((entry, index) => entry !== value[index]) ? entries : value;
	}
	if (!isPlainObject(value)) return value;
	const entries = Object.entries(value).map(
		([key, inner]) => [key, withDatesAsText(inner)] as const,
	);
	return entries.some(([key, inner]) => inner !== value[key]) ? Object.fromEntries(entries) : value;
}

function isScalar(value: unknown): value is string | number | boolean {
	return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** `{ value }`, `{ value, versions }` (HubSpot), `{ value, label, primary }` (Pipedrive's phones). */
function isValueWrapper(value: PlainObject): boolean {
	const keys = Object.keys(value);
	return (
		keys.includes('value') && keys.every((key) => key === 'value' || VALUE_WRAPPER_DETAILS.has(key))
	);
}

/** `{ id, type: 'phone_number', phone_number: '…' }` (Notion), `{ type: 'text', text, field }` (Typeform). */
function typedPropertyKey(value: PlainObject): string | undefined {
	const { type } = value;
	if (typeof type !== 'string' || !(type in value) || type === 'type') return undefined;
	const others = Object.keys(value).filter((key) => key !== type);
	return others.every((key) => TYPED_PROPERTY_DETAILS.has(key)) ? type : undefined;
}

/** Rich text (Notion's title and rich_text): a list of runs, each with its plain text. */
function plainTextOf(list: unknown[]): string | undefined {
	if (!list.every((run) => isPlainObject(run) && typeof run.plain_text === 'string')) {
		return undefined;
	}
	return list.map((run) => (run as { plain_text: string }).plain_text).join('');
}

/** A date range `{ start, end, time_zone }` (Notion); the start is when it begins. */
export function isDateRange(value: PlainObject): boolean {
	const keys = Object.keys(value);
	return keys.includes('start') && keys.every((key) => ['start', 'end', 'time_zone'].includes(key));
}

/** The inside of a typed property: a select's name, rich text's plain text, a date's start. */
function typedInside(inside: unknown): Unwrapped {
	if (Array.isArray(inside)) {
		const text = plainTextOf(inside);
		if (text !== undefined) return { value: text, path: '' };
		const names = inside.map((option) => (isPlainObject(option) ? option.name : undefined));
		if (names.length === 1 && typeof names[0] === 'string')
			return { value: names[0], path: '[0].name' };
		return { value: inside, path: '' };
	}
	if (isPlainObject(inside) && typeof inside.name === 'string') {
		return { value: inside.name, path: '.name' };
	}
	return { value: inside, path: '' };
}

/**
 * The value inside a wrapper that holds exactly one value: a value wrapper, a typed property,
 * a one-element list of a value. Anything else comes back as it was, with an empty path.
 */
export function unwrapValue(value: unknown): Unwrapped {
	if (Array.isArray(value)) {
		if (value.length !== 1) return { value, path: '' };
		const [only] = value;
		if (isScalar(only)) return { value: only, path: '[0]' };
		if (!isPlainObject(only)) return { value, path: '' };
		const inner = unwrapValue(only);
		return inner.path === ''
			? { value, path: '' }
			: { value: inner.value, path: `[0]${inner.path}` };
	}
	if (!isPlainObject(value)) return { value, path: '' };
	// A date without an end or a zone of its own; a range stays as it is: which time is meant?
	if (isDateRange(value) && value.end == null && value.time_zone == null) {
		return { value: value.start, path: '.start' };
	}
	if (isValueWrapper(value)) {
		const inner = unwrapValue(value.value);
		return { value: inner.value, path: `.value${inner.path}` };
	}
	const typedKey = typedPropertyKey(value);
	if (typedKey !== undefined) {
		const inside = typedInside(value[typedKey]);
		// A formula's result is itself typed: { type: 'string', string: '…' }.
		const inner = isPlainObject(inside.value)
			? unwrapValue(inside.value)
			: { value: inside.value, path: '' };
		return { value: inner.value, path: `.${typedKey}${inside.path}${inner.path}` };
	}
	return { value, path: '' };
}

/** Field names that most likely hold the value a text field wants, in the order they are tried. */
const LIKELY_SUB_FIELDS = [
	'value',
	'dateTime',
	'start',
	'full',
	'text',
	'phone',
	'number',
	'name',
	'date',
];

/** A value inside an object or list, with the path an expression adds to reach it ('.mobile[0]'). */
export interface ValueAtPath {
	path: string;
	value: unknown;
}

/**
 * The values inside an object or list that `fits` accepts (a phone number, a country code): one
 * is the value meant; several are refused by the caller, naming the first path.
 */
export function valuesThatFit(
	value: unknown,
	fits: (inner: ValueAtPath) => boolean,
): ValueAtPath[] {
	return isPlainObject(value) || Array.isArray(value) ? valuesInside(value).filter(fits) : [];
}

/** Every text, number and true/false inside a value, with its path, in order. */
export function valuesInside(value: unknown, path = ''): ValueAtPath[] {
	if (Array.isArray(value)) {
		return value.flatMap((entry, index) => valuesInside(entry, `${path}[${index}]`));
	}
	if (isPlainObject(value)) {
		return Object.entries(value).flatMap(([key, entry]) => valuesInside(entry, `${path}.${key}`));
	}
	return isScalar(value) ? [{ path, value }] : [];
}

/**
 * The sub-field to map when an object arrives where text is expected, e.g. '.full' for Jotform's
 * phone answer or '[0].value' for a list of phone entries; undefined when none stands out.
 */
export function likelySubField(value: unknown): string | undefined {
	if (Array.isArray(value)) {
		const first = value[0];
		if (isScalar(first)) return '[0]';
		const inner = likelySubField(first);
		return inner === undefined ? undefined : `[0]${inner}`;
	}
	if (!isPlainObject(value)) return undefined;
	// monday.com's `value` is the column's raw JSON: its `text` is what a person reads.
	const holdsValue = (name: string) => {
		const inner = value[name];
		return isScalar(inner) && inner !== '' && !(typeof inner === 'string' && /^[[{"]/.test(inner));
	};
	const key = LIKELY_SUB_FIELDS.find(holdsValue);
	if (key !== undefined) return `.${key}`;
	// A whole calendar event mapped: its start holds the time, `.start.dateTime`.
	for (const name of LIKELY_SUB_FIELDS) {
		const inner = isPlainObject(value[name]) ? likelySubField(value[name]) : undefined;
		if (inner !== undefined) return `.${name}${inner}`;
	}
	return undefined;
}

/** One entry of a list of named values, read as [name, value]; undefined when it is no such pair. */
function namedPair(entry: unknown): [string, unknown] | undefined {
	if (!isPlainObject(entry)) return undefined;
	// monday.com's column: `text` is what the board shows; `value` is its raw JSON.
	if (typeof entry.title === 'string' && 'text' in entry) return [entry.title, entry.text];
	// monday.com's API since 2023-10 puts the title in the column.
	const column = entry.column;
	if (isPlainObject(column) && typeof column.title === 'string' && 'text' in entry) {
		return [column.title, entry.text];
	}
	if (typeof entry.name === 'string' && 'value' in entry) return [entry.name, entry.value];
	// Meta's lead answers: { name, values: ['…'] }.
	if (typeof entry.name === 'string' && 'values' in entry) return [entry.name, entry.values];
	if (typeof entry.key === 'string' && 'value' in entry) return [entry.key, entry.value];
	return undefined;
}

/**
 * A list of named values (`[{ name, value }]`, `[{ title, text }]`, `[{ name, values }]`,
 * `[{ key, value }]`) as [name, value] entries, in list order; undefined for any other list.
 */
export function namedValuePairs(value: unknown): Array<[string, unknown]> | undefined {
	if (!Array.isArray(value) || value.length === 0) return undefined;
	const pairs = value.map(namedPair);
	return pairs.every((pair) => pair !== undefined)
		? (pairs as Array<[string, unknown]>)
		: undefined;
}

/** Keys that name a phone: under one, a bare number is a phone number, elsewhere an id or a count. */
export const PHONE_KEY = /phone|mobile|cell|tel|whatsapp/i;
