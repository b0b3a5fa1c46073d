import { DateTime } from 'luxon';

import { checkAttributes } from '../../../src/records/attributes';
import { refuseSeveralPeople } from '../../../src/records/onePerson';
import { sourceNodeRules } from '../../../src/records/sourceNodes';
import { prepareAssign, prepareOutbound } from '../../../src/input/requests';
import { inputErrorOf } from '../helpers';

const PEOPLE = [
	{ name: 'Asha Rao', phone: '+91 98200 11112', city: 'Pune' },
	{ name: 'Ravi Kumar', phone: '+91 98200 22223', city: 'Delhi' },
	{ name: 'Meera Iyer', phone: '+91 98200 33334', city: 'Chennai' },
];
/** n8n's Aggregate node, All Item Data, into the field `data`. */
const AGGREGATED = { data: PEOPLE };

const SPLIT_OUT_DATA =
	"Make one item per person with n8n's Split Out node (Fields To Split Out: data)";

describe('one item is one person: the issue 46 example', () => {
	test('Metadata {{ $json }} after Aggregate, Phone Number {{ $json.data[0].phone }}: refused, nothing sent', () => {
		const error = inputErrorOf(() =>
			prepareOutbound({
				agentId: 'agent_sales_01',
				phoneNumber: AGGREGATED.data[0].phone,
				options: { metadata: AGGREGATED },
			}),
		);
		expect(error.message).toBe(
			`"Metadata" holds a list of 3 people's records in "data": a call carries one person's values. ${SPLIT_OUT_DATA}.`,
		);
	});

	test('the same as attributes: the list is all the record holds, so no option can leave it out', () => {
		const error = inputErrorOf(() =>
			prepareAssign({
				phoneNumber: AGGREGATED.data[0].phone,
				workflowId: 'wf_welcome',
				attributes: { object: AGGREGATED, replace: false },
				attributeRules: { handling: 'leaveOut', keysToSend: [], keysToLeaveOut: [] },
			}),
		);
		expect(error.message).toBe(
			`"Attributes" holds a list of 3 people's records in "data": a call carries one person's values. ${SPLIT_OUT_DATA}.`,
		);
	});

	test.each([
		[
			'Metadata',
			() =>
				prepareOutbound({
					agentId: 'a',
					phoneNumber: PEOPLE[0].phone,
					options: { metadata: PEOPLE },
				}),
		],
		['Attributes', () => checkAttributes({ object: PEOPLE, replace: false })],
		['Attributes', () => checkAttributes({ object: JSON.stringify(PEOPLE), replace: false })],
	])('%s given the list itself says how many records and how to split them', (field, run) => {
		expect(inputErrorOf(run).message).toBe(
			`"${field}" is a list of 3 records, not one record: a call carries one person's values. Make one item per record with n8n's Split Out node before this node.`,
		);
	});

	test('a list of one record is that record', () => {
		expect(
			checkAttributes({ object: [PEOPLE[1]], replace: false }).rows.map((row) => row.value),
		).toEqual(['Ravi Kumar', '+91 98200 22223', 'Delhi']);
	});

	test('with Send Objects and Lists as JSON Text the list is refused as well', () => {
		expect(
			inputErrorOf(() =>
				checkAttributes({ object: AGGREGATED, replace: false }, { handling: 'jsonText' }),
			).message,
		).toMatch(/^"Attributes" holds a list of 3 people's records in "data"/);
	});

	test('a Key/Value row given the list is refused too', () => {
		expect(
			inputErrorOf(() => checkAttributes({ rows: [{ key: 'people', value: PEOPLE }] })).message,
		).toMatch(/^"Attributes" holds a list of 3 people's records in "people"/);
	});

	test('leaving the list out, or sending other keys, sends the record without it', () => {
		const record = { ...PEOPLE[0], data: PEOPLE };
		expect(
			checkAttributes(
				{ object: record, replace: false },
				{ handling: 'leaveOut', keysToLeaveOut: ['data'] },
			).rows.map((row) => row.key),
		).toEqual(['name', 'phone', 'city']);
	});
});

describe('refuseSeveralPeople: what a list of people is', () => {
	const refusal = (record: Record<string, unknown>) => {
		try {
			refuseSeveralPeople(Object.entries(record), 'Metadata');
			return undefined;
		} catch (error) {
			return (error as Error).message.replace(/: a call carries.*/, '');
		}
	};

	test.each([
		[
			"Pipedrive: one person's phones, labelled",
			{
				phone: [
					{ label: 'work', value: '+91 98200 11112', primary: true },
					{ label: 'mobile', value: '+91 98200 22223', primary: false },
				],
			},
		],
		[
			"Keap: one person's numbers { number, field, type }",
			{
				phone_numbers: [
					{ number: '+91 98200 11112', extension: '', field: 'PHONE1', type: 'Mobile' },
					{ number: '+91 98200 22223', extension: '', field: 'PHONE2', type: 'Work' },
				],
			},
		],
		[
			'HubSpot: identities of one profile',
			{
				'identity-profiles': [
					{
						vid: 101,
						'saved-at-timestamp': 1764739800000,
						identities: [
							{
								type: 'EMAIL',
								value: 'asha@example.com',
								timestamp: 1764739800000,
								'is-primary': true,
							},
							{ type: 'LEAD_GUID', value: '0f3c', timestamp: 1764739800000 },
						],
					},
				],
			},
		],
		[
			'Google People: one number written twice, with its metadata',
			{
				phoneNumbers: [
					{
						value: '098200 11112',
						canonicalForm: '+919820011112',
						type: 'mobile',
						metadata: { primary: true, source: { type: 'CONTACT', id: 'c1' } },
					},
					{
						value: '022 6600 1234',
						canonicalForm: '+912266001234',
						type: 'work',
						metadata: { source: { type: 'CONTACT', id: 'c1' } },
					},
				],
			},
		],
		[
			"a Shopify order's line items",
			{
				line_items: [
					{ id: 1001, name: 'Kettle', sku: 'K-1', quantity: 1, price: '24.00' },
					{ id: 1002, name: 'Mug', sku: 'M-2', quantity: 2, price: '6.00' },
				],
			},
		],
		[
			'tags, as text and as objects',
			{
				tags: ['vip', 'renewal'],
				labels: [
					{ id: 1, name: 'vip' },
					{ id: 2, name: 'renewal' },
				],
			},
		],
		[
			"a customer's addresses, each pointing at the customer (Shopify's customer_id)",
			{
				id: 7002,
				first_name: 'Asha',
				last_name: 'Rao',
				addresses: [
					{ customer_id: 7002, name: 'Asha Rao', phone: '+91 98200 11112', city: 'Pune' },
					{ customer_id: 7002, name: 'Asha Rao', phone: '+91 98200 22223', city: 'Mumbai' },
				],
			},
		],
		[
			"a customer's one address, pointing at the customer",
			{
				id: 7002,
				first_name: 'Asha',
				phone: '+91 98200 11112',
				addresses: [{ id: 9011, customer_id: 7002, first_name: 'Asha', phone: '+91 98200 11112' }],
			},
		],
		[
			"a document's child rows, all of one parent (ERPNext's phone_nos)",
			{
				phone_nos: [
					{
						name: '7a4e0d5c21',
						idx: 1,
						phone: '+91 98200 11112',
						is_primary_phone: 0,
						parent: 'Asha Rao-Acme',
					},
					{
						name: '7a4e0d5c22',
						idx: 2,
						phone: '+91 44 4859 0175',
						is_primary_phone: 1,
						parent: 'Asha Rao-Acme',
					},
				],
			},
		],
		[
			"Xero's Phones: each number in its parts, with its type",
			{
				Phones: [
					{
						PhoneType: 'DDI',
						PhoneNumber: '496 0388',
						PhoneAreaCode: '0113',
						PhoneCountryCode: '44',
					},
					{
						PhoneType: 'DEFAULT',
						PhoneNumber: '496 0321',
						PhoneAreaCode: '0113',
						PhoneCountryCode: '44',
					},
					{ PhoneType: 'FAX', PhoneNumber: '', PhoneAreaCode: '', PhoneCountryCode: '' },
					{
						PhoneType: 'MOBILE',
						PhoneNumber: '7400 123461',
						PhoneAreaCode: '',
						PhoneCountryCode: '44',
					},
				],
			},
		],
		[
			'flags beside each number: is_primary 0 or 1 is no number',
			{
				numbers: [
					{ phone: '+91 98200 11112', is_primary_mobile_no: 1, isWhatsApp: false },
					{ phone: '+91 98200 22223', is_primary_mobile_no: 0, isWhatsApp: true },
				],
			},
		],
		['a list of one record, all the item holds (Aggregate of one item)', { data: [PEOPLE[0]] }],
		[
			"a form's answers as named values",
			{
				answers: [
					{ key: 'phone', value: '+91 98200 11112' },
					{ key: 'alt', value: '+91 98200 22223' },
				],
			},
		],
		[
			'dates and ids of 7 to 15 digits',
			{
				events: [
					{ id: '123456789', at: '2026-12-03', zip: '1000001' },
					{ id: '987654321', at: '03/12/2026', zip: '1000002' },
				],
			},
		],
	])('accepted: %s', (_case, record) => {
		expect(refusal(record)).toBeUndefined();
	});

	test.each([
		[
			'records of people',
			{ data: PEOPLE },
			`"Metadata" holds a list of 3 people's records in "data"`,
		],
		[
			'people with their numbers as numbers, under a key that names a phone',
			{
				rows: [
					{ Name: 'A', Phone: 919820011112 },
					{ Name: 'B', Phone: 919820022223 },
				],
			},
			`"Metadata" holds a list of 2 people's records in "rows"`,
		],
		[
			'people with emails only',
			{
				attendees: [
					{ email: 'asha@example.com', responseStatus: 'accepted' },
					{ email: 'ravi@example.com', responseStatus: 'needsAction' },
				],
			},
			`"Metadata" holds a list of 2 people's records in "attendees"`,
		],
		[
			"Aggregate's individual fields: several numbers",
			{ phone: PEOPLE.map((person) => person.phone), name: PEOPLE.map((person) => person.name) },
			'"Metadata" holds a list of 3 phone numbers or email addresses in "phone"',
		],
		[
			'several numbers, each alone in an object',
			{ contacts: [{ phone: '+91 98200 11112' }, { phone: '+91 98200 22223' }] },
			`"Metadata" holds a list of 2 people's records in "contacts"`,
		],
		[
			'lists inside lists',
			{ pages: [[PEOPLE[0], PEOPLE[1]], [PEOPLE[2]]] },
			`"Metadata" holds a list of 3 people's records in "pages"`,
		],
		[
			'nested under objects and lists',
			{ response: { results: [{ people: PEOPLE }] } },
			`"Metadata" holds a list of 3 people's records in "response.results[0].people"`,
		],
		[
			'numbers in other scripts and full width',
			{
				data: [
					{ नाम: 'आशा', फ़ोन: '+९१ ९८२०० ११११२' },
					{ नाम: 'रवि', फ़ोन: '＋９１ ９８２００ ２２２２３' },
				],
			},
			`"Metadata" holds a list of 2 people's records in "data"`,
		],
		[
			"a customer's addresses that name someone else, though they point at the customer",
			{
				id: 7002,
				first_name: 'Asha',
				addresses: [
					{ customer_id: 7002, name: 'Asha Rao', phone: '+91 98200 11112' },
					{ customer_id: 7002, name: 'Ravi Kumar', phone: '+91 98200 22223' },
				],
			},
			`"Metadata" holds a list of 2 people's records in "addresses"`,
		],
		[
			"a meeting's guests: an email and when they were added",
			{
				event_guests: [
					{ email: 'arjun@example.com', created_at: '2026-11-30T09:12:43Z' },
					{ email: 'kavya@example.com', created_at: '2026-11-30T09:12:43Z' },
				],
			},
			'"Metadata" holds a list of 2 people\'s records in "event_guests"',
		],
		[
			'people of one shape, whatever values they have: a number twice, a number missing',
			{
				contacts: [
					{ name: 'Asha', phone: '+91 98200 11112' },
					{ name: 'Ravi', phone: '+91 98200 11112' },
					{ name: 'Meera', phone: null },
				],
			},
			'"Metadata" holds a list of 3 people\'s records in "contacts"',
		],
		[
			"one guest beside the invitee's own values: another person, whatever the count",
			{
				name: 'Meera Iyer',
				tags: ['vip'],
				event_guests: [{ email: 'arjun@example.com', created_at: '2026-11-30T09:12:43Z' }],
			},
			`"Metadata" holds a list of another person's record in "event_guests"`,
		],
		[
			'one associated contact beside the record, with an id of its own',
			{
				id: 7,
				name: 'Asha Rao',
				associated: [{ contact_id: 55, name: 'Ravi Kumar', phone: '+91 98200 22223' }],
			},
			`"Metadata" holds a list of another person's record in "associated"`,
		],
		[
			'a key an identifier cannot be',
			{ 'Team Members': PEOPLE },
			`"Metadata" holds a list of 3 people's records in "Team Members"`,
		],
	])('refused: %s', (_case, record, message) => {
		expect(refusal(record)).toBe(message);
	});

	test("after n8n's Aggregate node, any list of two entries or more holds several items", () => {
		const aggregate = sourceNodeRules('n8n-nodes-base.aggregate');
		expect(
			inputErrorOf(() =>
				refuseSeveralPeople(
					Object.entries({ name: ['Asha', 'Ravi'], city: ['Pune'] }),
					'Metadata',
					{
						source: aggregate,
					},
				),
			).message,
		).toBe(
			`"Metadata" holds a list of 2 items' values (Aggregate puts several items in one) in "name": a call carries one person's values. Make one item per person with n8n's Split Out node (Fields To Split Out: name).`,
		);
		expect(() =>
			refuseSeveralPeople(Object.entries({ name: ['Asha'], city: ['Pune'] }), 'Metadata', {
				source: aggregate,
			}),
		).not.toThrow();
	});
});

describe('the fix: leave out other people beside a person, Split Out where the item is several', () => {
	const adviceOf = (record: Record<string, unknown>) =>
		inputErrorOf(() =>
			refuseSeveralPeople(Object.entries(record), 'Metadata', {
				leaveOutOption: 'Metadata Keys to Leave Out',
			}),
		);

	test("guests beside the invitee's own values: leave them out by their path", () => {
		const error = adviceOf({
			name: 'Meera Iyer',
			scheduled_event: { name: 'Call', event_guests: PEOPLE.slice(0, 2) },
		});
		expect(error.advice).toEqual({
			field: 'Metadata Keys to Leave Out',
			add: 'scheduled_event.event_guests',
		});
	});

	test.each([
		['All Item Data', { data: PEOPLE }],
		[
			'Individual Fields behind Edit Fields, a field added',
			{
				contact: PEOPLE,
				city: PEOPLE.map(({ city }) => city),
				name: PEOPLE.map(({ name }) => name),
				campaign: 'Diwali',
			},
		],
	])('the columns or records of several items (%s): Split Out, no leave-out', (_case, record) => {
		const error = adviceOf(record);
		expect(error.advice).toBeUndefined();
		expect(error.message).toMatch(/Split Out node \(Fields To Split Out: (data|contact)\)\.$/);
	});
});

describe('dates inside a whole record are carried as ISO text', () => {
	test.each([
		[
			'a JS Date (Microsoft SQL, Oracle)',
			new Date('2026-12-03T05:30:00.000Z'),
			'2026-12-03T05:30:00.000Z',
		],
		[
			'a luxon DateTime, with its offset',
			DateTime.fromISO('2026-12-03T11:00:00.000+05:30', { setZone: true }),
			'2026-12-03T11:00:00.000+05:30',
		],
		[
			'another date object with toISOString',
			{ toISOString: (): string => '2026-12-03T05:30:00.000Z' },
			'2026-12-03T05:30:00.000Z',
		],
	])('%s', (_case, date, text) => {
		const record = { name: 'Asha', follow_up: date, history: { last_call: date }, calls: [date] };
		expect(
			checkAttributes({ object: record, replace: false }).rows.map(({ key, value }) => [
				key,
				value,
			]),
		).toEqual([
			['name', 'Asha'],
			['follow_up', text],
			['history.last_call', text],
			['calls', text],
		]);
		const metadata = prepareOutbound({
			agentId: 'a',
			phoneNumber: '+919820011112',
			options: { metadata: record },
		}).request.metadata;
		expect(metadata).toEqual({
			name: 'Asha',
			follow_up: text,
			'history.last_call': text,
			calls: text,
		});
		expect(checkAttributes({ rows: [{ key: 'follow_up', value: date }] }).rows[0].value).toBe(text);
	});

	test('an invalid date is left out as such', () => {
		const checked = checkAttributes({
			object: { name: 'Asha', follow_up: new Date(Number.NaN) },
			replace: false,
		});
		expect(checked.leftOut).toEqual([{ key: 'follow_up', reason: 'an invalid date' }]);
	});
});
