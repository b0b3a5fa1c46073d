import { invalidInput } from '../input/inputError';
import { describeValue } from '../input/input';
import { maskPhoneNumbersInText } from '../phone/mask';
import { unwrapValue } from './recordShapes';
import { keyList, looseKey, readRecord, recordEntries, sendableValues } from './recordValues';
import type { LeftOutValue, UnsendableValueHandling, ValueRules } from './recordValues';
import { MAX_ATTRIBUTE_ROWS, MAX_ATTRIBUTE_VALUE_LENGTH } from '../client/schemas';
import type { AttributeReport, AttributeRow } from '../client/schemas';
import type { SourceNodeRules } from './sourceNodes';

const FIELD = 'Attributes';

/** The node options that shape which attributes are sent, as the fixes name them. */
export const ATTRIBUTE_OPTION_NAMES = {
	handling: 'Attribute Values That Cannot Be Sent',
	keysToSend: 'Attribute Keys to Send',
	keysToLeaveOut: 'Attribute Keys to Leave Out',
	/** The field a whole record is mapped in. */
	record: 'Attributes (JSON)',
} as const;

/** Where the attributes come from: rows of key, value and replace, or one object of values. */
export type AttributeSource = { rows: unknown[] } | { object: unknown; replace: boolean };

export interface AttributeRules {
	handling: UnsendableValueHandling;
	keysToSend?: string[];
	keysToLeaveOut?: string[];
	/** The expression Attributes (JSON) holds (`$json.payload`), from which fixes name an object. */
	recordExpression?: string;
}

/** The attributes to send, and the keys left out with the reason. */
export interface CheckedAttributes {
	rows: AttributeRow[];
	leftOut: LeftOutValue[];
	/** What was assumed from the node the record came from. */
	assumed: string[];
}

/** Leave out what cannot be sent, send everything else: a whole CRM record goes in as it is. */
export const DEFAULT_ATTRIBUTE_RULES: AttributeRules = { handling: 'leaveOut' };

function valueRules(rules: AttributeRules): ValueRules {
	const { keysToSend, keysToLeaveOut } = ATTRIBUTE_OPTION_NAMES;
	return {
		field: FIELD,
		handlingOption: ATTRIBUTE_OPTION_NAMES.handling,
		handling: rules.handling,
		maxTextLength: MAX_ATTRIBUTE_VALUE_LENGTH,
		keysToSend: rules.keysToSend && { option: keysToSend, keys: rules.keysToSend },
		keysToLeaveOut: { option: keysToLeaveOut, keys: rules.keysToLeaveOut ?? [] },
		recordField: { name: ATTRIBUTE_OPTION_NAMES.record, expression: rules.recordExpression },
	};
}

interface KeyedRow {
	key: string;
	value: unknown;
	replace: boolean;
}

function keyedRow(row: unknown, position: number): KeyedRow {
	if (typeof row !== 'object' || row === null || Array.isArray(row)) {
		throw invalidInput(
			FIELD,
			`row ${position} is ${describeValue(row)}`,
			'Give every row a key and a value',
		);
	}
	const { key, value, replace = false } = row as Record<string, unknown>;
	if (typeof key !== 'string' || key.trim() === '') {
		throw invalidInput(
			FIELD,
			`row ${position} has no key`,
			'Enter the name of a CRM attribute, or remove the row',
		);
	}
	const name = key.trim();
	if (typeof replace !== 'boolean') {
		throw invalidInput(
			FIELD,
			`has a "replace" for "${name}" that is ${describeValue(replace)}`,
			'Use true or false',
		);
	}
	return { key: name, value, replace };
}

function keyedRows(
	source: AttributeSource,
	rules: ValueRules,
	sourceNode: SourceNodeRules | undefined,
): { given: KeyedRow[]; leftOut: LeftOutValue[]; assumed: string[] } {
	if ('rows' in source) {
		// A mapped value in a wrapper that holds only it (HubSpot's { value }) is taken out.
		const given = source.rows
			.map((row, index) => keyedRow(row, index + 1))
			.map((row) => ({ ...row, value: unwrapValue(row.value).value }));
		return {
			given,
			leftOut: [],
			assumed: [],
		};
	}
	const { entries, leftOut, assumed, readFrom } = readRecord(source.object, FIELD, sourceNode);
	const given = recordEntries(entries, rules, sourceNode, readFrom).map(([key, value], index) =>
		keyedRow({ key, value, replace: source.replace }, index + 1),
	);
	return { given, leftOut, assumed };
}

/** A key spread from a nested value (`owner.calendar_url`), not one the builder or the record named. */
function isSpreadKey(key: string): boolean {
	return key.includes('.') || key.includes('[');
}

/**
 * Two sent keys that CallKaro would read as one attribute are refused: which value wins is
 * unclear. Among keys spread from one nested object (Agile CRM's owner has `calendar_url` and
 * `calendarURL`), the later is left out and reported instead: the record, not the builder, named both.
 */
function keysThatMatch(rows: AttributeRow[]): { rows: AttributeRow[]; leftOut: LeftOutValue[] } {
	const keysByMatchKey = new Map<string, string>();
	const kept: AttributeRow[] = [];
	const leftOut: LeftOutValue[] = [];
	for (const row of rows) {
		const { key } = row;
		const earlierKey = keysByMatchKey.get(looseKey(key));
		if (earlierKey !== undefined && isSpreadKey(key) && isSpreadKey(earlierKey)) {
			leftOut.push({ key, reason: `the same attribute as "${earlierKey}"` });
			continue;
		}
		if (earlierKey !== undefined) {
			throw invalidInput(
				FIELD,
				`has the keys "${earlierKey}" and "${key}", which CallKaro treats as the same attribute`,
				'Keep only one of them',
			);
		}
		keysByMatchKey.set(looseKey(key), key);
		kept.push(row);
	}
	return { rows: kept, leftOut };
}

/**
 * The attributes to send from rows or a record, checked against CallKaro's limits before
 * anything is sent. A record's nested values are spread into keys of their own; missing and
 * empty values are left out and reported by default (see recordValues.ts); the limit of 50
 * counts what is left.
 */
export function checkAttributes(
	source: AttributeSource,
	rules: AttributeRules = DEFAULT_ATTRIBUTE_RULES,
	sourceNode?: SourceNodeRules,
): CheckedAttributes {
	const checks = valueRules(rules);
	const { given, leftOut: droppedWhileReading, assumed } = keyedRows(source, checks, sourceNode);
	const replaceOf = new Map(given.map(({ key, replace }) => [key, replace]));
	const { values, leftOut: notSendable } = sendableValues(
		given.map(({ key, value }) => [key, value] as const),
		checks,
	);
	const matched = keysThatMatch(
		values.map(([key, value]) => ({ key, value, replace: replaceOf.get(key) ?? false })),
	);
	const { rows } = matched;
	const leftOut = [...droppedWhileReading, ...notSendable, ...matched.leftOut];
	if (rows.length > MAX_ATTRIBUTE_ROWS) {
		const { keysToSend, keysToLeaveOut } = ATTRIBUTE_OPTION_NAMES;
		// Keys spread from nested objects first (an owner's, a copy of an address), the last
		// first: leaving them out sends the record's own fields.
		const byPreference = rows
			.map((row, index) => ({ key: row.key, index, spread: isSpreadKey(row.key) }))
			.sort((a, b) => Number(b.spread) - Number(a.spread) || b.index - a.index);
		const over = byPreference
			.slice(0, rows.length - MAX_ATTRIBUTE_ROWS)
			.sort((a, b) => a.index - b.index)
			.map(({ key }) => key);
		const nameable = keyList(over.join(', ')).join() === over.join();
		throw invalidInput(
			FIELD,
			`has ${rows.length} values to send${leftOut.length ? ` (after leaving out ${leftOut.length})` : ''}, ${rows.length - MAX_ATTRIBUTE_ROWS} more than the ${MAX_ATTRIBUTE_ROWS} CallKaro accepts`,
			`List the keys to send in Options > ${keysToSend}, or the keys to drop in Options > ${keysToLeaveOut}${nameable ? `, e.g. the last ${over.length > 10 ? `${over.length}, as the advice lists them` : `${over.length}: ${over.join(', ')}`}` : ''}`,
			nameable ? { field: keysToLeaveOut, add: over.join(', ') } : undefined,
		);
	}
	return { rows, leftOut, assumed };
}

export interface AttributeSummary {
	updated: string[];
	keptExisting: string[];
	ignored: string[];
	invalid: Array<{ key: string; reason: string }>;
	counts: { updated: number; keptExisting: number; ignored: number; invalid: number };
	/** Some rows were not saved: unknown keys or values that did not fit. */
	hasProblems: boolean;
}

export function summarizeAttributeReport(report: AttributeReport | undefined): AttributeSummary {
	const updated = report?.updated ?? [];
	const keptExisting = report?.kept_existing ?? [];
	const ignored = report?.ignored ?? [];
	const invalid = (report?.invalid ?? []).map(({ key, reason }) => ({ key, reason }));
	return {
		updated,
		keptExisting,
		ignored,
		invalid,
		counts: {
			updated: updated.length,
			keptExisting: keptExisting.length,
			ignored: ignored.length,
			invalid: invalid.length,
		},
		hasProblems: ignored.length > 0 || invalid.length > 0,
	};
}

/** 'ignored (no such CRM attribute): Foo; invalid: Age (must be a number)', phone numbers masked. */
export function describeAttributeProblems({ ignored, invalid }: AttributeSummary): string {
	const parts = [
		ignored.length ? `ignored (no such CRM attribute): ${ignored.join(', ')}` : '',
		invalid.length
			? `invalid: ${invalid.map(({ key, reason }) => `${key} (${reason})`).join(', ')}`
			: '',
	];
	return maskPhoneNumbersInText(parts.filter(Boolean).join('; '));
}
