// How the shapes of n8n's own nodes read back into the values a builder means.
import { likelySubField, namedValuePairs, unwrapValue } from '../../../src/records/recordShapes';

describe('unwrapValue: a wrapper that holds exactly one value gives that value', () => {
	test.each([
		[
			'HubSpot v1 property',
			{ value: 'Asha', versions: [{ value: 'Asha', timestamp: 1 }] },
			'Asha',
			'.value',
		],
		['a bare value wrapper', { value: '+919820012345' }, '+919820012345', '.value'],
		[
			'one Pipedrive phone entry',
			[{ label: 'mobile', value: '+919820012345', primary: true }],
			'+919820012345',
			'[0].value',
		],
		["Meta's one-element answer", ['Asha Rao'], 'Asha Rao', '[0]'],
		[
			'Notion phone_number',
			{ id: 'a%3Db', type: 'phone_number', phone_number: '+91 98200 12345' },
			'+91 98200 12345',
			'.phone_number',
		],
		[
			'Notion title',
			{ id: 'title', type: 'title', title: [{ plain_text: 'Asha ' }, { plain_text: 'Rao' }] },
			'Asha Rao',
			'.title',
		],
		[
			'Notion select',
			{ id: 'x', type: 'select', select: { id: '1', name: 'Hot', color: 'red' } },
			'Hot',
			'.select.name',
		],
		['Notion number', { id: 'x', type: 'number', number: 42 }, 42, '.number'],
		['Notion checkbox', { id: 'x', type: 'checkbox', checkbox: false }, false, '.checkbox'],
		['Notion empty email', { id: 'x', type: 'email', email: null }, null, '.email'],
		[
			'Notion date alone',
			{ id: 'x', type: 'date', date: { start: '2026-12-05', end: null, time_zone: null } },
			'2026-12-05',
			'.date.start',
		],
		[
			'Notion formula',
			{ id: 'x', type: 'formula', formula: { type: 'string', string: 'Gold' } },
			'Gold',
			'.formula.string',
		],
		[
			'Notion one multi_select',
			{ id: 'x', type: 'multi_select', multi_select: [{ id: '1', name: 'VIP' }] },
			'VIP',
			'.multi_select[0].name',
		],
		[
			'Typeform answer',
			{
				field: { id: 'f1', type: 'phone_number' },
				type: 'phone_number',
				phone_number: '+919820012345',
			},
			'+919820012345',
			'.phone_number',
		],
	])('%s', (_case, given, value, path) => {
		expect(unwrapValue(given)).toEqual({ value, path });
	});

	test.each([
		['text', 'Asha'],
		['a lookup with an id and a name', { id: '55', name: 'Ravi', email: 'ravi@example.com' }],
		['two phone entries', [{ value: '+919820012345' }, { value: '+919820012346' }]],
		['two answers', ['Morning', 'Evening']],
		['a value beside unrelated keys', { value: 499, currency: 'INR' }],
		[
			'a date range',
			{ start: '2026-12-05T10:00:00+05:30', end: '2026-12-05T11:00:00+05:30', time_zone: null },
		],
		['an empty list', []],
	])('%s stays as it is', (_case, given) => {
		expect(unwrapValue(given)).toEqual({ value: given, path: '' });
	});

	test('a typed property of several values gives the list inside it', () => {
		const tags = [{ name: 'A' }, { name: 'B' }];
		expect(unwrapValue({ id: 'x', type: 'multi_select', multi_select: tags })).toEqual({
			value: tags,
			path: '.multi_select',
		});
	});
});

describe('likelySubField: the field to map when an object arrives where text is expected', () => {
	test.each([
		[{ area: '98200', phone: '12345', full: '(98200) 12345' }, '.full'],
		[{ start: '2026-12-05T10:30:00.000+05:30', end: '2026-12-05T11:00:00.000+05:30' }, '.start'],
		[{ id: 'phone_1', title: 'Phone', text: '+91 98200 12345', type: 'phone' }, '.text'],
		[[{ value: '+919820012345', primary: true }, { value: '+919820012346' }], '[0].value'],
		[['+919820012345', '+919820012346'], '[0]'],
		[{ id: 7, owner: { id: 1 } }, undefined],
		['text', undefined],
	])('%p -> %p', (given, subField) => {
		expect(likelySubField(given)).toBe(subField);
	});
});

describe('namedValuePairs: a list of named values, as entries', () => {
	test.each([
		[
			'Agile CRM properties',
			[
				{ type: 'SYSTEM', name: 'first_name', value: 'Asha' },
				{ type: 'SYSTEM', name: 'phone', value: '+919820012345', subtype: 'work' },
			],
			[
				['first_name', 'Asha'],
				['phone', '+919820012345'],
			],
		],
		[
			'monday.com column values (the text shown, not the raw value)',
			[
				{
					id: 'phone',
					title: 'Phone',
					text: '+91 98200 12345',
					value: '{"phone":"+919820012345"}',
					type: 'phone',
				},
			],
			[['Phone', '+91 98200 12345']],
		],
		[
			'Meta lead answers',
			[{ name: 'full_name', values: ['Asha Rao'] }],
			[['full_name', ['Asha Rao']]],
		],
		['key and value rows', [{ key: 'City', value: 'Pune' }], [['City', 'Pune']]],
	])('%s', (_case, given, entries) => {
		expect(namedValuePairs(given)).toEqual(entries);
	});

	test.each([
		['an empty list', []],
		['a list of texts', ['a', 'b']],
		['a list where one entry has no name', [{ name: 'a', value: 1 }, { value: 2 }]],
		['an object', { name: 'a', value: 1 }],
	])('%s is no such list', (_case, given) => {
		expect(namedValuePairs(given)).toBeUndefined();
	});
});
