import { describeValue, optionalText, readJsonObject, requireText } from '../../../src/input/input';
import { inputErrorOf } from '../helpers';

describe('describeValue', () => {
	test.each([
		['', 'empty'],
		[undefined, 'empty'],
		['Pune', '"Pune"'],
		['call +919876543210 now', '"call +91******3210 now"'],
		['x'.repeat(61), `"${'x'.repeat(60)}..."`],
		[42, '42'],
		[false, 'false'],
		[null, 'null'],
		[[1], 'a list'],
		[{ a: 1 }, 'an object'],
		[() => 1, 'function'],
	])('%p -> %s', (value, shown) => {
		expect(describeValue(value)).toBe(shown);
	});
});

describe('requireText', () => {
	test.each([
		[' wf_1 ', 'wf_1'],
		[12345, '12345'],
		// as n8n's nodes wrap one value: HubSpot's { value }, a one-element list
		[{ value: 'wf_1', versions: [] }, 'wf_1'],
		[['wf_1'], 'wf_1'],
	])('%p -> %p', (value, text) => {
		expect(requireText(value, 'Workflow ID', 'Enter it')).toBe(text);
	});

	test.each([
		['', '"Workflow ID" is empty. Enter it.'],
		[' ', '"Workflow ID" is empty. Enter it.'],
		[undefined, '"Workflow ID" is empty. Enter it.'],
		[null, '"Workflow ID" is empty. Enter it.'],
		[Number.NaN, '"Workflow ID" must be text, but is NaN. Enter it.'],
		[
			['wf_1', 'wf_2'],
			'"Workflow ID" must be text, but is a list. Map the value inside it: add [0] to the end of the expression.',
		],
		[{ id: 7 }, '"Workflow ID" must be text, but is an object. Enter it.'],
		[
			{ full: 'wf_1', area: '' },
			'"Workflow ID" must be text, but is an object. Map the value inside it: add .full to the end of the expression.',
		],
	])('rejects %p', (value, message) => {
		expect(inputErrorOf(() => requireText(value, 'Workflow ID', 'Enter it')).message).toBe(message);
	});
});

describe('optionalText', () => {
	test.each([
		[undefined, undefined],
		[null, undefined],
		['', undefined],
		['  ', undefined],
		[' batch_1 ', 'batch_1'],
	])('%p -> %p', (value, text) => {
		expect(optionalText(value, 'Campaign ID')).toBe(text);
	});

	test('rejects a value that is not text', () => {
		expect(inputErrorOf(() => optionalText(7, 'Campaign ID')).message).toBe(
			'"Campaign ID" must be text, but is 7. Enter text, or remove the option.',
		);
	});
});

describe('readJsonObject', () => {
	test.each([
		[undefined, {}],
		['', {}],
		['{"a": 1}', { a: 1 }],
		[{ a: 1 }, { a: 1 }],
	])('%p -> %p', (value, object) => {
		expect(readJsonObject(value, 'Metadata')).toEqual(object);
	});

	test.each([
		['{"a": ', 'is not valid JSON: "{"a":"'],
		['null', 'must be an object of keys and values, but is null'],
		[[], 'must be an object of keys and values, but is a list'],
		[3, 'must be an object of keys and values, but is 3'],
	])('rejects %p', (value, problem) => {
		const error = inputErrorOf(() => readJsonObject(value, 'Metadata'));
		expect(error.field).toBe('Metadata');
		expect(error.message).toContain(`"Metadata" ${problem}`);
	});
});
