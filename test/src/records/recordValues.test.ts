import {
	flattenEntries,
	keyList,
	looseKey,
	readRecord,
	recordEntries,
	sendableValues,
} from '../../../src/records/recordValues';
import type { ValueRules } from '../../../src/records/recordValues';
import { inputErrorOf } from '../helpers';

const RULES: ValueRules = {
	field: 'Metadata',
	handlingOption: 'Metadata Values That Cannot Be Sent',
	handling: 'leaveOut',
	keysToLeaveOut: { option: 'Metadata Keys to Leave Out', keys: [] },
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

describe('readRecord: a record as n8n nodes shape it', () => {
	const ODOO = { displayName: 'Odoo', falseMeansEmpty: true, timesWithoutOffsetIn: 'UTC' };
	const AIRTABLE = { displayName: 'Airtable', recordUnder: 'fields' };

	test('values in one-value wrappers are taken out; other objects stay for the rules', () => {
		const hubspotProperties = {
			firstname: { value: 'Asha', versions: [] },
			phone: { value: '+919820012345', versions: [] },
			owner: { id: '55', name: 'Ravi' },
		};
		expect(readRecord(hubspotProperties, 'Attributes')).toEqual({
			entries: [
				['firstname', 'Asha'],
				['phone', '+919820012345'],
				['owner', { id: '55', name: 'Ravi' }],
			],
			leftOut: [],
			assumed: [],
		});
	});

	test('a list of named values under a key adds its names; a name given twice keeps the first', () => {
		const agileContact = {
			id: 5,
			properties: [
				{ type: 'SYSTEM', name: 'first_name', value: 'Asha' },
				{ type: 'SYSTEM', name: 'phone', value: '+919820012345', subtype: 'work' },
				{ type: 'SYSTEM', name: 'phone', value: '+919820012346', subtype: 'home' },
			],
		};
		expect(readRecord(agileContact, 'Attributes')).toEqual({
			entries: [
				['id', 5],
				['first_name', 'Asha'],
				['phone', '+919820012345'],
			],
			leftOut: [{ key: 'phone', reason: 'given twice (again in "properties")' }],
			assumed: [],
		});
	});

	test('a list of named values, mapped itself, is the record', () => {
		expect(readRecord([{ title: 'City', text: 'Pune' }], 'Attributes').entries).toEqual([
			['City', 'Pune'],
		]);
		expect(readRecord('[{"name":"City","value":"Pune"}]', 'Metadata').entries).toEqual([
			['City', 'Pune'],
		]);
	});

	test('from Odoo, false is an empty field, and the output says it was assumed', () => {
		expect(
			readRecord({ name: 'Asha', mobile: false, is_company: false }, 'Attributes', ODOO),
		).toEqual({
			entries: [
				['name', 'Asha'],
				['mobile', ''],
				['is_company', ''],
			],
			leftOut: [],
			assumed: ['Attributes: false is an empty field, as Odoo writes it'],
		});
	});

	test('from elsewhere, false is a value', () => {
		expect(readRecord({ opted_in: false }, 'Attributes').entries).toEqual([['opted_in', false]]);
	});

	test('from Airtable, the whole item is read from fields, and the output says so', () => {
		const item = {
			id: 'rec1',
			createdTime: '2026-11-20T04:35:03.000Z',
			fields: { Name: 'Asha', City: 'Pune' },
		};
		expect(readRecord(item, 'Attributes', AIRTABLE)).toEqual({
			entries: [
				['Name', 'Asha'],
				['City', 'Pune'],
			],
			leftOut: [],
			assumed: ['Attributes: the values under "fields", where Airtable puts the record'],
			readFrom: 'fields',
		});
		// Mapped as {{ $json.fields }}, there is nothing to assume.
		expect(readRecord(item.fields, 'Attributes', AIRTABLE).assumed).toEqual([]);
	});
});

describe('recordEntries: a record nested under one key', () => {
	const airtableItem = {
		id: 'rec1',
		createdTime: '2026-11-20T04:35:03.000Z',
		fields: { Name: 'Asha', Phone: '+919820012345', City: 'Pune', Plan: 'Gold' },
	};

	const mappedAs = (expression: string): ValueRules => ({
		...RULES,
		recordField: { name: 'Metadata (JSON)', expression },
	});

	test("mapped whole, it is refused, naming the object to map from the field's own expression", () => {
		const error = inputErrorOf(() =>
			recordEntries(Object.entries(airtableItem), mappedAs('$json')),
		);
		expect(error.message).toBe(
			'"Metadata" holds the record inside "fields" (4 keys under "fields", 2 outside it). Map that object instead: {{ $json.fields }} in place of {{ $json }}.',
		);
		expect(error.advice).toEqual({ field: 'Metadata (JSON)', set: '{{ $json.fields }}' });
		// An expression that is no plain path is extended in brackets.
		expect(
			inputErrorOf(() =>
				recordEntries(Object.entries(airtableItem), mappedAs('$json.item ?? $json')),
			).advice,
		).toEqual({ field: 'Metadata (JSON)', set: '{{ ($json.item ?? $json).fields }}' });
		// Where the source node's record was read from a key, the expression goes through it.
		expect(
			inputErrorOf(() =>
				recordEntries(Object.entries(airtableItem), mappedAs('$json'), undefined, 'properties'),
			).advice,
		).toEqual({ field: 'Metadata (JSON)', set: '{{ $json.properties.fields }}' });
	});

	test('without an expression in the field, the object is named, and no expression is offered', () => {
		const error = inputErrorOf(() =>
			recordEntries(Object.entries(airtableItem), { ...RULES, handling: 'fail' }),
		);
		expect(error.message).toContain('Map the object "fields" instead.');
		expect(error.advice).toBeUndefined();
	});

	test('records of one shape get one verdict, however many of their values are empty', () => {
		const empty = { ...airtableItem, fields: { Name: '', Phone: null, City: null, Plan: 'Gold' } };
		expect(() => recordEntries(Object.entries(empty), RULES)).toThrow(
			'holds the record inside "fields" (4 keys under "fields", 2 outside it)',
		);
	});

	const sent = (record: object, rules: ValueRules = RULES) =>
		sendableValues(recordEntries(Object.entries(record), rules), rules);

	test('keys chosen by the builder are their choice', () => {
		const rules = { ...RULES, keysToSend: { option: 'Attribute Keys to Send', keys: ['id'] } };
		expect(sent(airtableItem, rules).values).toEqual([['id', 'rec1']]);
	});

	test('sent as JSON text when the builder asks for it', () => {
		const { values } = sent(airtableItem, { ...RULES, handling: 'jsonText' });
		expect(values.map(([key]) => key)).toEqual(['id', 'createdTime', 'fields']);
	});

	test('a customer beside its address object is no nested record: its values are spread', () => {
		const customer = {
			first_name: 'Asha',
			last_name: 'Rao',
			email: 'asha@example.com',
			address: { city: 'Pune', zip: '411001', country: 'IN', phone: '+919820012345' },
		};
		expect(sent(customer).values.map(([key]) => key)).toEqual([
			'first_name',
			'last_name',
			'email',
			'address.city',
			'address.zip',
			'address.country',
			'address.phone',
		]);
	});

	test("a form's Name { first, last } counts beside its Address: not refused", () => {
		const answer = {
			Name: { first: 'Asha', last: 'Rao' },
			Address: { addr_line1: '12 MG Road', city: 'Pune', state: 'MH', postal: '411001' },
			Email: 'asha@example.com',
		};
		expect(sent(answer).values).toHaveLength(7);
	});

	test('a record two levels down is named by its path (Mautic keeps it in fields.all)', () => {
		const typed = (value: string) => ({ id: 1, label: 'L', alias: 'a', type: 'text', value });
		const contact = {
			id: 7,
			points: 0,
			dateAdded: '2026-11-20T04:35:03+00:00',
			fields: {
				core: { firstname: typed('Asha'), lastname: typed('Rao'), city: typed('Pune') },
				all: { id: 7, firstname: 'Asha', lastname: 'Rao', city: 'Pune' },
			},
		};
		expect(inputErrorOf(() => sent(contact)).message).toContain(
			'holds the record inside "fields.all"',
		);
	});

	test('a key that is no identifier is named in brackets', () => {
		const answer = { 'Form Answers': { Name: 'Asha', City: 'Pune', Plan: 'Gold' }, id: 1 };
		expect(inputErrorOf(() => sent(answer, mappedAs('$json'))).message).toContain(
			"Map that object instead: {{ $json['Form Answers'] }} in place of {{ $json }}",
		);
	});

	test('Keys to Leave Out names a nested key by its path, in every check', () => {
		const booking = {
			name: 'Meera Iyer',
			email: 'meera@example.com',
			scheduled_event: {
				name: 'Discovery Call',
				start_time: '2026-12-14T08:30:00Z',
				event_guests: [
					{ email: 'arjun@example.com', created_at: '2026-11-30T09:12:43Z' },
					{ email: 'kavya@example.com', created_at: '2026-11-30T09:12:43Z' },
				],
			},
		};
		const refusal = inputErrorOf(() => sent(booking));
		expect(refusal.advice).toEqual({
			field: 'Metadata Keys to Leave Out',
			add: 'scheduled_event.event_guests',
		});
		const rules = {
			...RULES,
			keysToLeaveOut: {
				option: 'Metadata Keys to Leave Out',
				keys: ['Scheduled Event.Event Guests'],
			},
		};
		const { values, leftOut } = sent(booking, rules);
		expect(values.map(([key]) => key)).toEqual([
			'name',
			'email',
			'scheduled_event.name',
			'scheduled_event.start_time',
		]);
		expect(leftOut.map(({ key }) => key)).toContain('scheduled_event.event_guests[0].email');
		// Sent as JSON text, the object goes without the key left out.
		const asJson = sent(booking, { ...rules, handling: 'jsonText' }).values;
		expect(JSON.stringify(asJson)).not.toContain('arjun');
		expect(JSON.stringify(asJson)).toContain('Discovery Call');
	});

	test('key lists name a nested object by its key', () => {
		const order = { id: 5, billing: { first_name: 'Asha', city: 'Pune' }, total: '10.00' };
		const rules = { ...RULES, keysToLeaveOut: { option: 'Metadata Keys', keys: ['billing'] } };
		expect(sent(order, rules).values).toEqual([
			['id', 5],
			['total', '10.00'],
		]);
	});
});

describe('flattenEntries: nested values as keys of their own', () => {
	test.each<[string, unknown, Array<[string, unknown]>]>([
		['an object by path', { billing: { first_name: 'Asha' } }, [['billing.first_name', 'Asha']]],
		['a list of values, joined', { tags: ['vip', 'renewal'] }, [['tags', 'vip, renewal']]],
		[
			'a list of one-value objects, as its values',
			{ emails: [{ email: 'a@x.in' }, { email: 'b@x.in' }] },
			[['emails', 'a@x.in, b@x.in']],
		],
		[
			'Google Contacts: a list of entries with their metadata, by place',
			{ names: [{ metadata: { primary: true }, givenName: 'Asha' }] },
			[
				['names[0].metadata.primary', true],
				['names[0].givenName', 'Asha'],
			],
		],
		[
			'a wrapper unwrapped first',
			{ phone: { value: '+919820012345', label: 'work' } },
			[['phone', '+919820012345']],
		],
		['an empty object stays, to be reported', { notes: {} }, [['notes', {}]]],
		['a list of nulls stays, by place', { x: [null] }, [['x[0]', null]]],
	])('%s', (_case, record, entries) => {
		expect(flattenEntries(Object.entries(record as object))).toEqual(entries);
	});
});
