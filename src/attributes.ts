import { invalidInput } from './errors';
import { describeValue, readJsonObject } from './input';
import { maskPhoneNumbersInText } from './mask';
import { MAX_ATTRIBUTE_ROWS, MAX_ATTRIBUTE_VALUE_LENGTH } from './schemas';
import type { AttributeReport, AttributeRow } from './schemas';

const FIELD = 'Attributes';

/** CallKaro matches attribute keys ignoring case, spaces, underscores and hyphens. */
export function attributeMatchKey(key: string): string {
	return key.toLowerCase().replace(/[\s_-]/g, '');
}

function isAttributeValue(value: unknown): value is AttributeRow['value'] {
	return (
		typeof value === 'string' ||
		typeof value === 'boolean' ||
		(typeof value === 'number' && Number.isFinite(value))
	);
}

function validateAttributeRow(row: unknown, position: number, field: string): AttributeRow {
	if (typeof row !== 'object' || row === null || Array.isArray(row)) {
		throw invalidInput(
			field,
			`row ${position} is ${describeValue(row)}`,
			'Give every row a key and a value',
		);
	}
	const { key, value, replace = false } = row as Record<string, unknown>;
	if (typeof key !== 'string' || key.trim() === '') {
		throw invalidInput(
			field,
			`row ${position} has no key`,
			'Enter the name of a CRM attribute, or remove the row',
		);
	}
	const name = key.trim();
	if (!isAttributeValue(value)) {
		throw invalidInput(
			field,
			`has a value for "${name}" that is ${describeValue(value)}; only text, numbers and true/false are accepted`,
			'Turn the value into text, or remove the key',
		);
	}
	if (String(value).length > MAX_ATTRIBUTE_VALUE_LENGTH) {
		throw invalidInput(
			field,
			`has a value for "${name}" with ${String(value).length} characters, more than the ${MAX_ATTRIBUTE_VALUE_LENGTH} CallKaro accepts`,
			'Shorten the value',
		);
	}
	if (typeof replace !== 'boolean') {
		throw invalidInput(
			field,
			`has a "replace" for "${name}" that is ${describeValue(replace)}`,
			'Use true or false',
		);
	}
	return { key: name, value, replace };
}

/** Checks attribute rows against CallKaro's limits before anything is sent. */
export function validateAttributeRows(rows: unknown[], field = FIELD): AttributeRow[] {
	if (rows.length > MAX_ATTRIBUTE_ROWS) {
		throw invalidInput(
			field,
			`has ${rows.length} rows, but CallKaro accepts at most ${MAX_ATTRIBUTE_ROWS}`,
			'Remove the rows the workflow does not need',
		);
	}
	const keysByMatchKey = new Map<string, string>();
	return rows.map((row, index) => {
		const attribute = validateAttributeRow(row, index + 1, field);
		const earlierKey = keysByMatchKey.get(attributeMatchKey(attribute.key));
		if (earlierKey !== undefined) {
			throw invalidInput(
				field,
				`has the keys "${earlierKey}" and "${attribute.key}", which CallKaro treats as the same attribute`,
				'Keep only one of them',
			);
		}
		keysByMatchKey.set(attributeMatchKey(attribute.key), attribute.key);
		return attribute;
	});
}

/** A JSON object (or JSON text of one) of attribute values, as rows that share one replace setting. */
export function attributeRowsFromObject(
	value: unknown,
	replace: boolean,
	field = FIELD,
): AttributeRow[] {
	const entries = Object.entries(readJsonObject(value, field));
	return validateAttributeRows(
		entries.map(([key, entryValue]) => ({ key, value: entryValue, replace })),
		field,
	);
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
