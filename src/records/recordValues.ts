import { invalidInput } from '../input/inputError';
import type { Advice } from '../input/inputError';
import { listEntries, readJsonObject } from '../input/input';
import { expressionOf, recordOfList, refuseSeveralPeople } from './onePerson';
import {
	isDateObject,
	isPlainObject,
	namedValuePairs,
	unwrapValue,
	withDatesAsText,
} from './recordShapes';
import type { SourceNodeRules } from './sourceNodes';

/**
 * The values of a record (a CRM contact, a form answer, a payment event) that can be sent as
 * attributes or metadata, which take only text, numbers and true/false. Real records hold nulls,
 * empty fields, nested objects and lists; by default those are left out and reported, so that a
 * whole record can be mapped with {{ $json }}.
 */

/** What to do with a value that cannot be sent as it is. */
export type UnsendableValueHandling = 'leaveOut' | 'jsonText' | 'fail';

export type SendableValue = string | number | boolean;

/** A key that was not sent, and why: 'missing', 'empty', 'an object', 'in "…Keys to Leave Out"'… */
export interface LeftOutValue {
	key: string;
	reason: string;
}

export interface ValueRules {
	/** The field named in errors, e.g. 'Attributes' or 'Metadata'. */
	field: string;
	/** The option that chooses the handling, named in the fixes. */
	handlingOption: string;
	handling: UnsendableValueHandling;
	maxTextLength?: number;
	/** Only these keys are sent (when given); matched as CallKaro matches attribute keys. */
	keysToSend?: { option: string; keys: string[] };
	/** These keys are never sent. */
	keysToLeaveOut?: { option: string; keys: string[] };
	/**
	 * The field the whole record is mapped in (its display name, e.g. 'Metadata (JSON)') and the
	 * expression it holds (`$json.payload`), from which a fix names an object of the record.
	 */
	recordField?: { name: string; expression?: string };
}

/** A record's entries as read from its shape, with the keys dropped on the way and what was assumed. */
export interface RecordReading {
	entries: Array<[string, unknown]>;
	/** The key the record was read from, where the source node puts it (HubSpot's `properties`). */
	readFrom?: string;
	leftOut: LeftOutValue[];
	/** What was assumed from the node the item came from, for the output and a hint. */
	assumed: string[];
}

/**
 * A record given as an object, as JSON text of one, as a list of named values, or as a list of
 * one record; its date objects as ISO text.
 */
function recordObject(given: unknown, field: string): Record<string, unknown> {
	const parsed =
		typeof given === 'string' && given.trim().startsWith('[') ? safeJson(given) : given;
	const pairs = namedValuePairs(parsed);
	const record = pairs
		? Object.fromEntries(pairs)
		: readJsonObject(recordOfList(parsed, field), field);
	return withDatesAsText(record) as Record<string, unknown>;
}

function safeJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

/**
 * Reads a mapped record into [key, value] entries the way the node it came from shapes it:
 * values in a wrapper that holds exactly one value are unwrapped (see recordShapes.ts), a list
 * of named values under a key adds its names as keys, and what the source node is known to do
 * (its record under one key, false for an empty field) is applied and said in `assumed`.
 */
export function readRecord(given: unknown, field: string, source?: SourceNodeRules): RecordReading {
	const assumed: string[] = [];
	let record = recordObject(given, field);
	const nested = source?.recordUnder === undefined ? undefined : record[source.recordUnder];
	const readFrom =
		source?.recordUnder !== undefined && (isPlainObject(nested) || namedValuePairs(nested))
			? source.recordUnder
			: undefined;
	if (readFrom !== undefined) {
		record = recordObject(nested, field);
		assumed.push(
			`${field}: the values under "${readFrom}", where ${source?.displayName} puts the record`,
		);
	}
	const entries: Array<[string, unknown]> = [];
	const leftOut: LeftOutValue[] = [];
	const seen = new Set<string>();
	const add = (key: string, value: unknown, from?: string) => {
		if (seen.has(key)) {
			leftOut.push({ key, reason: `given twice${from ? ` (again in "${from}")` : ''}` });
			return;
		}
		seen.add(key);
		entries.push([key, value]);
	};
	let falseLeftOut = false;
	const moreFields = source?.moreFieldsUnder;
	for (const [key, value] of Object.entries(record)) {
		const merged = key === moreFields && isPlainObject(value);
		if (merged) {
			assumed.push(
				`${field}: the values under "${key}" as fields of the record, as ${source?.displayName} gives them`,
			);
		}
		const pairs = merged ? Object.entries(value) : namedValuePairs(value);
		for (const [name, inner] of pairs ?? [[key, value]]) {
			let unwrapped = unwrapValue(inner).value;
			if (unwrapped === false && source?.falseMeansEmpty) {
				unwrapped = '';
				falseLeftOut = true;
			}
			add(name, unwrapped, pairs ? key : undefined);
		}
	}
	if (falseLeftOut && source) {
		assumed.push(`${field}: false is an empty field, as ${source.displayName} writes it`);
	}
	return { entries, leftOut, assumed, readFrom };
}

/**
 * The fix that maps an object of the record in place of the whole: an expression written from the
 * field's own (`$json.payload` and `message.from` give `$json.payload.message.from`), with the
 * advice that sets it; without an expression when the field holds none to extend.
 */
function mapObjectFix(
	rules: ValueRules,
	readFrom: string | undefined,
	path: ReadonlyArray<string>,
): { fix: string; advice?: Advice } {
	const mapped = rules.recordField?.expression;
	if (rules.recordField === undefined || mapped === undefined) {
		return { fix: `Map the object "${path.join('.')}" instead` };
	}
	const base = /^\$json(\.[A-Za-z_$][\w$]*|\[[^\]]+\])*$/.test(mapped) ? mapped : `(${mapped})`;
	const expression = `${base}${expressionOf(readFrom === undefined ? path : [readFrom, ...path])}`;
	return {
		fix: `Map that object instead: {{ ${expression} }} in place of {{ ${mapped} }}`,
		advice: { field: rules.recordField.name, set: `{{ ${expression} }}` },
	};
}

/** CallKaro matches attribute keys ignoring case, spaces, underscores and hyphens; so do the key lists. */
export function looseKey(key: string): string {
	return key.toLowerCase().replace(/[\s_-]/g, '');
}

/** 'City, lead_score ;Plan' or one key per line -> ['City', 'lead_score', 'Plan'] (listEntries). */
export function keyList(value: unknown): string[] {
	return listEntries(value).map(String);
}

type Verdict =
	| { send: SendableValue }
	| { leaveOut: string; problem: string; fix: (rules: ValueRules) => string };

const mapAnother = (rules: ValueRules) =>
	`Map a field that has a value, or set "${rules.handlingOption}" to Leave Out and Report`;
const asJsonText = (rules: ValueRules) =>
	`Map one of its fields, or set "${rules.handlingOption}" to Send Objects and Lists as JSON Text`;
const shorten = () => 'Shorten the value, or leave the key out';

function textVerdict(key: string, text: string, rules: ValueRules, asJson = false): Verdict {
	const max = rules.maxTextLength;
	if (max === undefined || text.length <= max) return { send: text };
	const written = asJson ? ' as JSON text' : '';
	return {
		leaveOut: `longer than ${max} characters${written}`,
		problem: `has a value for "${key}" with ${text.length} characters${written}, more than the ${max} CallKaro accepts`,
		fix: shorten,
	};
}

function verdictOf(key: string, value: unknown, rules: ValueRules): Verdict {
	if (value === undefined || value === null) {
		return {
			leaveOut: 'missing',
			problem: `has no value for "${key}": it is missing or null`,
			fix: mapAnother,
		};
	}
	if (typeof value === 'boolean') return { send: value };
	if (typeof value === 'number' && Number.isFinite(value)) return { send: value };
	if (typeof value === 'string') {
		// A blank CRM field means "no value": sent, it would erase a value the contact has.
		if (value.trim() === '') {
			return { leaveOut: 'empty', problem: `has an empty value for "${key}"`, fix: mapAnother };
		}
		return textVerdict(key, value, rules);
	}
	if (typeof value !== 'object') {
		return {
			leaveOut: `not text, a number or true/false`,
			problem: `has a value for "${key}" that is not text, a number or true/false`,
			fix: mapAnother,
		};
	}
	if (isDateObject(value)) {
		return {
			leaveOut: 'an invalid date',
			problem: `has an invalid date for "${key}"`,
			fix: mapAnother,
		};
	}
	const kind = Array.isArray(value) ? 'list' : 'object';
	if (Object.keys(value).length === 0) {
		return {
			leaveOut: `an empty ${kind}`,
			problem: `has an empty ${kind} for "${key}"`,
			fix: mapAnother,
		};
	}
	if (rules.handling === 'jsonText') return textVerdict(key, JSON.stringify(value), rules, true);
	const shown = kind === 'list' ? 'a list' : 'an object';
	return {
		leaveOut: shown,
		problem: `has a value for "${key}" that is ${shown}; only text, numbers and true/false can be sent`,
		fix: asJsonText,
	};
}

/** A listed key names the key itself or, as `billing`, every key under it: `billing.city`, `billing[0]`. */
function listedKeyMatches(listed: string, key: string): boolean {
	const [loose, name] = [looseKey(key), looseKey(listed)];
	return loose === name || loose.startsWith(`${name}.`) || loose.startsWith(`${name}[`);
}

function keyFilterReason(key: string, rules: ValueRules): string | undefined {
	const { keysToSend, keysToLeaveOut } = rules;
	if (keysToLeaveOut?.keys.some((listed) => listedKeyMatches(listed, key))) {
		return `in "${keysToLeaveOut.option}"`;
	}
	if (
		keysToSend &&
		keysToSend.keys.length > 0 &&
		!keysToSend.keys.some((listed) => listedKeyMatches(listed, key))
	) {
		return `not in "${keysToSend.option}"`;
	}
	return undefined;
}

/** Whether `key` is an object or list above a listed key (`scheduled_event` above `scheduled_event.event_guests`). */
function holdsListedKey(listed: string, key: string): boolean {
	const [loose, name] = [looseKey(key), looseKey(listed)];
	return name.startsWith(`${loose}.`) || name.startsWith(`${loose}[`);
}

const LEFT_OUT = Symbol('left out');

/**
 * The part of a value at `path` that the key lists keep, at any depth: what is sent, and so what
 * the checks judge. Paths are named as the spread keys are (`scheduled_event.event_guests`).
 */
function keptPart(path: string, value: unknown, rules: ValueRules, sent: boolean): unknown {
	const leaveOut = rules.keysToLeaveOut?.keys ?? [];
	const send = rules.keysToSend?.keys ?? [];
	if (leaveOut.some((listed) => listedKeyMatches(listed, path))) return LEFT_OUT;
	const sending = sent || send.some((listed) => listedKeyMatches(listed, path));
	const above = (listed: string) => holdsListedKey(listed, path);
	const descend = leaveOut.some(above) || (!sending && send.some(above));
	if (!descend) return sending ? value : LEFT_OUT;
	const inner = unwrapValue(value).value;
	if (Array.isArray(inner)) {
		return inner
			.map((entry, index) => keptPart(`${path}[${index}]`, entry, rules, sending))
			.filter((entry) => entry !== LEFT_OUT);
	}
	if (!isPlainObject(inner)) return sending ? value : LEFT_OUT;
	const kept = Object.entries(inner)
		.map(([name, entry]) => [name, keptPart(`${path}.${name}`, entry, rules, sending)] as const)
		.filter(([, entry]) => entry !== LEFT_OUT);
	return Object.fromEntries(kept);
}

/** A record's entries as the key lists keep them, nested paths included: what the checks judge. */
function keptEntries(
	entries: ReadonlyArray<readonly [string, unknown]>,
	rules: ValueRules,
): Array<[string, unknown]> {
	const sendAll = (rules.keysToSend?.keys ?? []).length === 0;
	return entries
		.map(([key, value]): [string, unknown] => [key, keptPart(key, value, rules, sendAll)])
		.filter(([, value]) => value !== LEFT_OUT);
}

function isSendable(value: unknown): boolean {
	if (typeof value === 'string') return value.trim() !== '';
	return typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

// A list is joined into one value with this, as a person would write it.
const LIST_SEPARATOR = ', ';

/** The values of a list as one text: a list of values, or of objects that each hold one value. */
function joinedList(list: unknown[]): string | undefined {
	const values: unknown[] = [];
	for (const entry of list) {
		const inner = unwrapValue(entry).value;
		if (isPlainObject(inner) || Array.isArray(inner)) {
			const leaves = flattenEntries([['', inner]]).filter(([, leaf]) => isSendable(leaf));
			if (leaves.length !== 1) return undefined;
			values.push(leaves[0][1]);
		} else if (isSendable(inner)) values.push(inner);
	}
	return values.length > 0 ? values.join(LIST_SEPARATOR) : undefined;
}

function flattenInto(key: string, value: unknown, into: Array<[string, unknown]>): void {
	const inner = unwrapValue(value).value;
	if (Array.isArray(inner) && inner.length > 0) {
		const joined = joinedList(inner);
		if (joined !== undefined) into.push([key, joined]);
		else inner.forEach((entry, index) => flattenInto(`${key}[${index}]`, entry, into));
		return;
	}
	if (isPlainObject(inner) && Object.keys(inner).length > 0) {
		for (const [name, entry] of Object.entries(inner)) {
			flattenInto(key === '' ? name : `${key}.${name}`, entry, into);
		}
		return;
	}
	into.push([key, inner]);
}

/**
 * A record's nested values as keys of their own, named by the path an expression would use, so
 * that a whole record carries the person's values: an object's values are `billing.first_name`,
 * a list of values (or of objects that each hold one value) is one text joined with ", ", and
 * any other list names its entries by place, `names[0].givenName`. Wrappers are unwrapped first.
 */
export function flattenEntries(
	entries: ReadonlyArray<readonly [string, unknown]>,
): Array<[string, unknown]> {
	const into: Array<[string, unknown]> = [];
	for (const [key, value] of entries) flattenInto(key, value, into);
	return into;
}

/**
 * How many values a value's shape holds, whatever they are: every key counts, empty or not, and a
 * list counts as its largest entry, whatever its length. Records of one shape count alike.
 */
function shapeSize(value: unknown): number {
	const inner = unwrapValue(value).value;
	const sizes =
		isPlainObject(inner) || Array.isArray(inner) ? Object.values(inner).map(shapeSize) : [];
	if (sizes.length === 0) return 1;
	return Array.isArray(inner) ? Math.max(...sizes) : sizes.reduce((sum, size) => sum + size, 0);
}

/** How many keys an object holds directly (not in objects of its own), once unwrapped. */
function directValues(value: Record<string, unknown>): number {
	return Object.values(value).filter((inner) => !isPlainObject(unwrapValue(inner).value)).length;
}

function objectsIn(path: string[], value: Record<string, unknown>, into: ObjectAtPath[]): void {
	into.push({ path, count: directValues(value) });
	const children = Object.entries(value)
		.map(([name, inner]) => [name, unwrapValue(inner).value] as const)
		.filter((child): child is readonly [string, Record<string, unknown>] =>
			isPlainObject(child[1]),
		);
	const shapes = children.map(([, child]) => Object.keys(child).sort().join('\n'));
	children.forEach(([name, child], index) => {
		// Objects shaped alike side by side are entries of a collection (Mautic's typed fields), not a record.
		if (shapes.some((shape, other) => other !== index && shape === shapes[index])) return;
		objectsIn([...path, name], child, into);
	});
}

interface ObjectAtPath {
	path: string[];
	count: number;
}

/**
 * The object inside `value` (or `value` itself) that holds the most values directly, by path:
 * Mautic's `fields` holds its typed `core` groups beside `all`, the record itself.
 */
function recordPathIn(key: string, value: Record<string, unknown>): string[] {
	const objects: ObjectAtPath[] = [];
	objectsIn([key], value, objects);
	return objects.reduce((best, object) => (object.count > best.count ? object : best)).path;
}

/**
 * A record nested under one key (Airtable's `fields`, a lead under `data`, Mautic's
 * `fields.all`): mapped whole, it would send a few incidental keys beside the person's values
 * spread under long paths. Refused, naming the object that holds the record, when one key holds
 * at least twice as many keys as the rest of the record, counted at every depth by shape (empty
 * ones too), so that records of one shape get one verdict whatever values they have.
 */
function refuseNestedRecord(
	entries: ReadonlyArray<readonly [string, unknown]>,
	rules: ValueRules,
	readFrom: string | undefined,
): void {
	const kept = entries.map(([key, value]) => ({ key, value: unwrapValue(value).value }));
	const leaves = kept.map(({ value }) => shapeSize(value));
	const total = leaves.reduce((sum, count) => sum + count, 0);
	kept.forEach(({ key, value }, index) => {
		if (!isPlainObject(value)) return;
		const inside = leaves[index];
		const outside = total - inside;
		// A customer with an address object keeps its own values beside it: not a wrapper.
		if (inside < 2 || inside < 2 * outside) return;
		const path = recordPathIn(key, value);
		const { fix, advice } = mapObjectFix(rules, readFrom, path);
		const keysOption = rules.keysToSend
			? `, or list the keys to send in Options > ${rules.keysToSend.option}`
			: '';
		throw invalidInput(
			rules.field,
			`holds the record inside "${path.join('.')}" (${inside} keys under "${key}", ${outside} outside it)`,
			`${fix}${keysOption}`,
			advice,
		);
	});
}

/**
 * A whole record's entries as they are sent: refused when the record sits inside one object,
 * else its nested values spread into keys of their own (see flattenEntries). With the handling
 * 'jsonText' objects and lists stay whole, to be sent as JSON text.
 */
export function recordEntries(
	entries: ReadonlyArray<readonly [string, unknown]>,
	rules: ValueRules,
	source?: SourceNodeRules,
	readFrom?: string,
): Array<[string, unknown]> {
	const kept = keptEntries(entries, rules);
	refuseSeveralPeople(kept, rules.field, {
		leaveOutOption: rules.keysToLeaveOut?.option,
		source,
		record: entries,
	});
	if (rules.handling === 'jsonText') {
		// Sent whole, without the nested keys left out; a key left out whole is reported below.
		const keptByKey = new Map(kept);
		return entries.map(([key, value]) => [key, keptByKey.has(key) ? keptByKey.get(key) : value]);
	}
	// Keys the builder chose to send are theirs: no envelope is guessed around them.
	if ((rules.keysToSend?.keys ?? []).length === 0) refuseNestedRecord(kept, rules, readFrom);
	const spread = flattenEntries(entries);
	refuseKeysToSendNotFound(spread, rules, readFrom);
	return spread;
}

/**
 * Keys to Send of which the record has none would start a call with none of the values the
 * builder listed (HubSpot's properties behind an Edit Fields node): refused, naming the object
 * that holds them when a spread key ends in one (`properties.firstname`).
 */
function refuseKeysToSendNotFound(
	entries: Array<[string, unknown]>,
	rules: ValueRules,
	readFrom: string | undefined,
): void {
	const listed = rules.keysToSend?.keys ?? [];
	const matches = (key: string) => listed.some((name) => listedKeyMatches(name, key));
	if (listed.length === 0 || entries.some(([key]) => matches(key))) return;
	const nested = entries.find(([key]) =>
		listed.some((name) => looseKey(key).endsWith(`.${looseKey(name)}`)),
	)?.[0];
	const parent = nested?.slice(0, nested.lastIndexOf('.'));
	const problem = `has none of the keys listed in "${rules.keysToSend?.option}" (${listed.join(', ')})`;
	// A spread key's path through objects only (`properties`), as an expression can name it.
	if (parent === undefined || parent.includes('[')) {
		throw invalidInput(
			rules.field,
			problem,
			'List keys the record has, or map the object that holds them',
		);
	}
	const { fix, advice } = mapObjectFix(rules, readFrom, parent.split('.'));
	throw invalidInput(rules.field, problem, `They are inside "${parent}". ${fix}`, advice);
}

/**
 * Splits a record's entries into the values to send and those left out, in the record's order.
 * With the handling 'fail', a value that cannot be sent fails instead, naming its key; keys the
 * key lists exclude are the builder's choice and never fail.
 */
export function sendableValues(
	entries: ReadonlyArray<readonly [string, unknown]>,
	rules: ValueRules,
): { values: Array<[string, SendableValue]>; leftOut: LeftOutValue[] } {
	// Key/value rows reach here unspread: a row given a list of people is refused as a record is.
	refuseSeveralPeople(keptEntries(entries, rules), rules.field, {
		leaveOutOption: rules.keysToLeaveOut?.option,
		record: entries,
	});
	const values: Array<[string, SendableValue]> = [];
	const leftOut: LeftOutValue[] = [];
	for (const [key, given] of entries) {
		const value = withDatesAsText(given);
		const filtered = keyFilterReason(key, rules);
		if (filtered !== undefined) {
			leftOut.push({ key, reason: filtered });
			continue;
		}
		const verdict = verdictOf(key, value, rules);
		if ('send' in verdict) values.push([key, verdict.send]);
		else if (rules.handling === 'fail') {
			throw invalidInput(rules.field, verdict.problem, verdict.fix(rules));
		} else leftOut.push({ key, reason: verdict.leaveOut });
	}
	return { values, leftOut };
}
