import { checkAttributes, summarizeAttributeReport } from '../../../src/records/attributes';
import type { AttributeRules } from '../../../src/records/attributes';
import { attributeReportSchema } from '../../../src/client/schemas';
import { inputErrorOf } from '../helpers';

function rows(count: number): Array<{ key: string; value: string }> {
	return Array.from({ length: count }, (_, index) => ({ key: `key ${index}`, value: 'x' }));
}

function record(count: number): Record<string, string> {
	return Object.fromEntries(rows(count).map(({ key, value }) => [key, value]));
}

const FAIL: AttributeRules = { handling: 'fail' };

describe('checkAttributes: rows', () => {
	test.each([
		[
			'text, number and boolean values',
			[
				{ key: 'city', value: 'Pune' },
				{ key: 'age', value: 42 },
				{ key: 'vip', value: false },
			],
		],
		['50 rows', rows(50)],
		['a value of 1000 characters', [{ key: 'note', value: 'x'.repeat(1000) }]],
		['no rows', []],
	])('sends %s, with replace false by default', (_case, input) => {
		expect(checkAttributes({ rows: input })).toEqual({
			rows: input.map((row) => ({ ...row, replace: false })),
			leftOut: [],
			assumed: [],
		});
	});

	test('trims keys and keeps replace', () => {
		expect(
			checkAttributes({ rows: [{ key: '  city ', value: 'Pune', replace: true }] }).rows,
		).toEqual([{ key: 'city', value: 'Pune', replace: true }]);
	});

	test('leaves out what cannot be sent, and says why, in the order given', () => {
		const checked = checkAttributes({
			rows: [
				{ key: 'City' }, // an expression that found no field
				{ key: 'Name', value: null },
				{ key: 'Notes', value: '  ' },
				{ key: 'Owner', value: { name: 'R', id: 7 } },
				{ key: 'Tags', value: [] },
				{ key: 'Story', value: 'y'.repeat(1001) },
				{ key: 'Plan', value: 'Pro', replace: true },
			],
		});
		expect(checked).toEqual({
			rows: [{ key: 'Plan', value: 'Pro', replace: true }],
			leftOut: [
				{ key: 'City', reason: 'missing' },
				{ key: 'Name', reason: 'missing' },
				{ key: 'Notes', reason: 'empty' },
				{ key: 'Owner', reason: 'an object' },
				{ key: 'Tags', reason: 'an empty list' },
				{ key: 'Story', reason: 'longer than 1000 characters' },
			],
			assumed: [],
		});
	});

	test.each([
		['51 rows', rows(51), 'has 51 values to send, 1 more than the 50 CallKaro accepts'],
		[
			'an empty key',
			[
				{ key: 'city', value: 'Pune' },
				{ key: '  ', value: 'x' },
			],
			'row 2 has no key',
		],
		['a missing key', [{ value: 'x' }], 'row 1 has no key'],
		['a row that is not an object', ['city=Pune'], 'row 1 is "city=Pune"'],
		[
			'a replace that is not boolean',
			[{ key: 'city', value: 'Pune', replace: 'yes' }],
			'has a "replace" for "city" that is "yes"',
		],
		[
			'keys that CallKaro matches as one',
			[
				{ key: 'First Name', value: 'A' },
				{ key: 'city', value: 'Pune' },
				{ key: 'first_name', value: 'B' },
			],
			'has the keys "First Name" and "first_name", which CallKaro treats as the same attribute',
		],
		[
			'the same key twice',
			[
				{ key: 'city', value: 'A' },
				{ key: 'city ', value: 'B' },
			],
			'has the keys "city" and "city"',
		],
	])('refuses %s', (_case, input, problem) => {
		const error = inputErrorOf(() => checkAttributes({ rows: input }));
		expect(error.field).toBe('Attributes');
		expect(error.message).toContain(`"Attributes" ${problem}`);
	});

	test.each([
		[
			'a missing value',
			[{ key: 'City' }],
			'"Attributes" has no value for "City": it is missing or null. Map a field that has a value, or set "Attribute Values That Cannot Be Sent" to Leave Out and Report.',
		],
		[
			'a nested object',
			[{ key: 'address', value: { city: 'Pune' } }],
			'"Attributes" has a value for "address" that is an object; only text, numbers and true/false can be sent. Map one of its fields, or set "Attribute Values That Cannot Be Sent" to Send Objects and Lists as JSON Text.',
		],
		['empty text', [{ key: 'note', value: '' }], '"Attributes" has an empty value for "note"'],
		[
			'a value of 1001 characters',
			[{ key: 'note', value: 'y'.repeat(1001) }],
			'"Attributes" has a value for "note" with 1001 characters, more than the 1000 CallKaro accepts. Shorten the value, or leave the key out.',
		],
	])('with Fail the Item, refuses %s, naming the key', (_case, input, message) => {
		const error = inputErrorOf(() => checkAttributes({ rows: input }, FAIL));
		expect(error.field).toBe('Attributes');
		expect(error.message).toContain(message);
		expect(error.message).not.toContain('yyyy');
	});

	test('a key left out by the key lists never fails the item', () => {
		expect(
			checkAttributes(
				{
					rows: [
						{ key: 'Owner', value: { id: 1 } },
						{ key: 'City', value: 'Pune' },
					],
				},
				{ ...FAIL, keysToLeaveOut: ['owner'] },
			),
		).toEqual({
			rows: [{ key: 'City', value: 'Pune', replace: false }],
			leftOut: [{ key: 'Owner', reason: 'in "Attribute Keys to Leave Out"' }],
			assumed: [],
		});
	});
});

describe('checkAttributes: a record', () => {
	test.each([
		['an object', { city: 'Pune', age: 42 }],
		['JSON text', '{"city": "Pune", "age": 42}'],
	])('reads %s', (_case, value) => {
		expect(checkAttributes({ object: value, replace: true }).rows).toEqual([
			{ key: 'city', value: 'Pune', replace: true },
			{ key: 'age', value: 42, replace: true },
		]);
	});

	test.each([undefined, '', '  ', {}, '{}'])('reads %p as no attributes', (value) => {
		expect(checkAttributes({ object: value, replace: false })).toEqual({
			rows: [],
			leftOut: [],
			assumed: [],
		});
	});

	test('keys whose values are left out no longer clash with the keys sent', () => {
		expect(
			checkAttributes({ object: { first_name: null, 'First Name': 'Asha' }, replace: false }),
		).toEqual({
			rows: [{ key: 'First Name', value: 'Asha', replace: false }],
			leftOut: [{ key: 'first_name', reason: 'missing' }],
			assumed: [],
		});
	});

	test('counts the limit of 50 after leaving out', () => {
		const nulls = Object.fromEntries(rows(20).map(({ key }) => [`empty ${key}`, null]));
		const checked = checkAttributes({ object: { ...record(50), ...nulls }, replace: false });
		expect(checked.rows).toHaveLength(50);
		expect(checked.leftOut).toHaveLength(20);
	});

	test('over 50 values to send: says how many, and how to choose', () => {
		const error = inputErrorOf(() =>
			checkAttributes({ object: { ...record(61), owner: null }, replace: false }),
		);
		expect(error.message).toBe(
			'"Attributes" has 61 values to send (after leaving out 1), 11 more than the 50 CallKaro accepts. List the keys to send in Options > Attribute Keys to Send, or the keys to drop in Options > Attribute Keys to Leave Out, e.g. the last 11, as the advice lists them.',
		);
		// Followed, the advice leaves out the last 11 keys, and the rest is sent.
		const advice = error.advice as { field: string; add: string };
		expect(advice.field).toBe('Attribute Keys to Leave Out');
		const checked = checkAttributes(
			{ object: { ...record(61), owner: null }, replace: false },
			{ handling: 'leaveOut', keysToLeaveOut: advice.add.split(', ') },
		);
		expect(checked.rows).toHaveLength(50);
		expect(
			inputErrorOf(() => checkAttributes({ object: record(52), replace: false })).message,
		).toMatch(/, e\.g\. the last 2: key 50, key 51\.$/);
	});

	test('Attribute Keys to Send picks the keys of a large record, matched as CallKaro matches them', () => {
		const checked = checkAttributes(
			{ object: { ...record(61), first_name: 'Asha', City: 'Pune' }, replace: false },
			{ handling: 'leaveOut', keysToSend: ['First Name', 'city'] },
		);
		expect(checked.rows.map(({ key }) => key)).toEqual(['first_name', 'City']);
		expect(checked.leftOut).toHaveLength(61);
		expect(checked.leftOut[0]).toEqual({
			key: 'key 0',
			reason: 'not in "Attribute Keys to Send"',
		});
	});

	test('Send Objects and Lists as JSON Text', () => {
		expect(
			checkAttributes(
				{ object: { Owner: { name: 'R', id: 7 }, Tags: ['a', 'b'], Empty: {} }, replace: false },
				{ handling: 'jsonText' },
			),
		).toEqual({
			rows: [
				{ key: 'Owner', value: '{"name":"R","id":7}', replace: false },
				{ key: 'Tags', value: '["a","b"]', replace: false },
			],
			leftOut: [{ key: 'Empty', reason: 'an empty object' }],
			assumed: [],
		});
	});

	test.each([
		['invalid JSON', '{city: Pune}', 'is not valid JSON: "{city: Pune}"'],
		[
			'invalid JSON with a phone number',
			'{"phone": +919876543210',
			'is not valid JSON: "{"phone": +91******3210"',
		],
		['a JSON list', '[1, 2]', 'is a list of 2 values, not one record'],
		['JSON text of a string', '"Pune"', 'must be an object of keys and values, but is "Pune"'],
		['null', null, 'must be an object of keys and values, but is null'],
		[
			'keys that CallKaro matches as one',
			{ 'First Name': 'A', first_name: 'B' },
			'has the keys "First Name" and "first_name"',
		],
	])('refuses %s', (_case, value, problem) => {
		const error = inputErrorOf(() => checkAttributes({ object: value, replace: false }));
		expect(error.field).toBe('Attributes');
		expect(error.message).toContain(`"Attributes" ${problem}`);
	});
});

describe('summarizeAttributeReport', () => {
	test.each([
		[
			'a full report',
			{
				updated: ['city'],
				kept_existing: ['name'],
				ignored: ['x'],
				invalid: [{ key: 'age', reason: 'not a number', extra: 1 }],
			},
			{
				updated: ['city'],
				keptExisting: ['name'],
				ignored: ['x'],
				invalid: [{ key: 'age', reason: 'not a number' }],
				counts: { updated: 1, keptExisting: 1, ignored: 1, invalid: 1 },
				hasProblems: true,
			},
		],
		[
			'only saved keys',
			{ updated: ['city'], kept_existing: ['name'] },
			{
				updated: ['city'],
				keptExisting: ['name'],
				ignored: [],
				invalid: [],
				counts: { updated: 1, keptExisting: 1, ignored: 0, invalid: 0 },
				hasProblems: false,
			},
		],
		[
			'only ignored keys',
			{ ignored: ['x'] },
			{
				updated: [],
				keptExisting: [],
				ignored: ['x'],
				invalid: [],
				counts: { updated: 0, keptExisting: 0, ignored: 1, invalid: 0 },
				hasProblems: true,
			},
		],
	])('%s', (_case, report, summary) => {
		expect(summarizeAttributeReport(attributeReportSchema().parse(report))).toEqual(summary);
	});

	test('a missing report is empty', () => {
		expect(summarizeAttributeReport(undefined)).toEqual({
			updated: [],
			keptExisting: [],
			ignored: [],
			invalid: [],
			counts: { updated: 0, keptExisting: 0, ignored: 0, invalid: 0 },
			hasProblems: false,
		});
	});
});
