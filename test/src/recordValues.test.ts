import { keyList, looseKey, sendableValues } from '../../src/recordValues';
import type { ValueRules } from '../../src/recordValues';
import { inputErrorOf } from './helpers';

const RULES: ValueRules = {
	field: 'Metadata',
	handlingOption: 'Metadata Values That Cannot Be Sent',
	handling: 'leaveOut',
};

describe('looseKey: keys match as CallKaro matches attribute keys', () => {
	test.each([
		['First Name', 'firstname'],
		['first_name', 'firstname'],
		['first-name', 'firstname'],
		['FIRSTNAME', 'firstname'],
		[' First\tName ', 'firstname'],
	])('%p -> %p', (key, loose) => {
		expect(looseKey(key)).toBe(loose);
	});
});

describe('keyList', () => {
	test.each([
		['First Name, city ,, Lead Score', ['First Name', 'city', 'Lead Score']],
		['', []],
		[undefined, []],
		[
			['a ', ' b'],
			['a', 'b'],
		],
	])('%p -> %p', (value, keys) => {
		expect(keyList(value)).toEqual(keys);
	});
});

describe('sendableValues', () => {
	const record = {
		name: 'Asha',
		amount: 49900,
		captured: true,
		email: null,
		notes: '',
		notes_2: undefined,
		card: { last4: '4242' },
		tags: ['vip'],
	};

	test('sends text, numbers and true/false; leaves out the rest and says why', () => {
		expect(sendableValues(Object.entries(record), RULES)).toEqual({
			values: [
				['name', 'Asha'],
				['amount', 49900],
				['captured', true],
			],
			leftOut: [
				{ key: 'email', reason: 'missing' },
				{ key: 'notes', reason: 'empty' },
				{ key: 'notes_2', reason: 'missing' },
				{ key: 'card', reason: 'an object' },
				{ key: 'tags', reason: 'a list' },
			],
		});
	});

	test('no length limit unless the rules set one', () => {
		const long = 'x'.repeat(5000);
		expect(sendableValues([['story', long]], RULES).values).toEqual([['story', long]]);
	});

	test('with Fail the Item, the first value that cannot be sent fails, named by its key', () => {
		const error = inputErrorOf(() =>
			sendableValues(Object.entries(record), { ...RULES, handling: 'fail' }),
		);
		expect(error.field).toBe('Metadata');
		expect(error.message).toBe(
			'"Metadata" has no value for "email": it is missing or null. Map a field that has a value, or set "Metadata Values That Cannot Be Sent" to Leave Out and Report.',
		);
	});

	test('JSON text that is too long is left out', () => {
		const rules = { ...RULES, handling: 'jsonText' as const, maxTextLength: 10 };
		expect(sendableValues([['card', { last4: '4242', brand: 'visa' }]], rules)).toEqual({
			values: [],
			leftOut: [{ key: 'card', reason: 'longer than 10 characters as JSON text' }],
		});
	});
});
