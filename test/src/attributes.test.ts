import {
	attributeMatchKey,
	attributeRowsFromObject,
	summarizeAttributeReport,
	validateAttributeRows,
} from '../../src/attributes';
import { attributeReportSchema } from '../../src/schemas';
import { inputErrorOf } from './helpers';

function rows(count: number): Array<{ key: string; value: string }> {
	return Array.from({ length: count }, (_, index) => ({ key: `key ${index}`, value: 'x' }));
}

describe('attributeMatchKey', () => {
	test.each([
		['First Name', 'firstname'],
		['first_name', 'firstname'],
		['first-name', 'firstname'],
		['FIRSTNAME', 'firstname'],
		[' First\tName ', 'firstname'],
	])('%p -> %p', (key, matchKey) => {
		expect(attributeMatchKey(key)).toBe(matchKey);
	});
});

describe('validateAttributeRows', () => {
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
		['an empty text value', [{ key: 'note', value: '' }]],
		['no rows', []],
	])('accepts %s, with replace false by default', (_case, input) => {
		expect(validateAttributeRows(input)).toEqual(input.map((row) => ({ ...row, replace: false })));
	});

	test('trims keys and keeps replace', () => {
		expect(validateAttributeRows([{ key: '  city ', value: 'Pune', replace: true }])).toEqual([
			{ key: 'city', value: 'Pune', replace: true },
		]);
	});

	test.each([
		['51 rows', rows(51), 'has 51 rows, but CallKaro accepts at most 50'],
		[
			'a value of 1001 characters',
			[{ key: 'note', value: 'x'.repeat(1001) }],
			'has a value for "note" with 1001 characters, more than the 1000',
		],
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
			'a nested object',
			[{ key: 'address', value: { city: 'Pune' } }],
			'has a value for "address" that is an object',
		],
		['a list', [{ key: 'tags', value: ['a'] }], 'has a value for "tags" that is a list'],
		['null', [{ key: 'city', value: null }], 'has a value for "city" that is null'],
		['a missing value', [{ key: 'city' }], 'has a value for "city" that is empty'],
		['NaN', [{ key: 'age', value: Number.NaN }], 'has a value for "age" that is NaN'],
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
	])('rejects %s', (_case, input, problem) => {
		const error = inputErrorOf(() => validateAttributeRows(input));
		expect(error.field).toBe('Attributes');
		expect(error.message).toContain(`"Attributes" ${problem}`);
	});

	test('does not echo a long value, and masks phone numbers in values', () => {
		const long = inputErrorOf(() =>
			validateAttributeRows([{ key: 'note', value: 'y'.repeat(1001) }]),
		);
		expect(long.message).not.toContain('yyyy');
		const nested = inputErrorOf(() =>
			validateAttributeRows([{ key: 'phones', value: ['+919876543210'] }]),
		);
		expect(nested.message).not.toContain('9876543210');
	});
});

describe('attributeRowsFromObject', () => {
	test.each([
		['an object', { city: 'Pune', age: 42 }],
		['JSON text', '{"city": "Pune", "age": 42}'],
	])('reads %s', (_case, value) => {
		expect(attributeRowsFromObject(value, true)).toEqual([
			{ key: 'city', value: 'Pune', replace: true },
			{ key: 'age', value: 42, replace: true },
		]);
	});

	test.each([undefined, '', '  ', {}, '{}'])('reads %p as no attributes', (value) => {
		expect(attributeRowsFromObject(value, false)).toEqual([]);
	});

	test.each([
		['invalid JSON', '{city: Pune}', 'is not valid JSON: "{city: Pune}"'],
		[
			'invalid JSON with a phone number',
			'{"phone": +919876543210',
			'is not valid JSON: "{"phone": +91******3210"',
		],
		['a JSON list', '[1, 2]', 'must be an object of keys and values, but is a list'],
		['JSON text of a string', '"Pune"', 'must be an object of keys and values, but is "Pune"'],
		['null', null, 'must be an object of keys and values, but is null'],
		[
			'a nested object',
			{ address: { city: 'Pune' } },
			'has a value for "address" that is an object',
		],
		['a nested list in JSON text', '{"tags": ["a"]}', 'has a value for "tags" that is a list'],
		['a null value', { city: null }, 'has a value for "city" that is null'],
		[
			'keys that CallKaro matches as one',
			{ 'First Name': 'A', first_name: 'B' },
			'has the keys "First Name" and "first_name"',
		],
		['51 keys', Object.fromEntries(rows(51).map(({ key, value }) => [key, value])), 'has 51 rows'],
	])('rejects %s', (_case, value, problem) => {
		const error = inputErrorOf(() => attributeRowsFromObject(value, false, 'Attributes JSON'));
		expect(error.field).toBe('Attributes JSON');
		expect(error.message).toContain(`"Attributes JSON" ${problem}`);
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
