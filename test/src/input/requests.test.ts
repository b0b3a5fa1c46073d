import {
	assignRequestSchema,
	checkedRequest,
	outboundRequestSchema,
	prepareAssign,
	prepareCampaign,
	prepareDelete,
	prepareOutbound,
} from '../../../src/input/requests';
import type { OutboundOptions } from '../../../src/input/requests';
import { inputErrorOf } from '../helpers';

const NOW = new Date('2026-11-01T00:00:00Z');
const PHONE = { e164: '+919876543210', masked: '+91******3210' };

describe('prepareAssign', () => {
	test('builds the smallest request', () => {
		const prepared = prepareAssign({
			phoneNumber: '98765 43210',
			workflowId: ' wf_1 ',
			defaultCountryCode: '91',
		});
		expect(prepared).toEqual({
			request: { to_number: '+919876543210', workflow_id: 'wf_1' },
			phone: PHONE,
			attributesLeftOut: [],
			assumed: [],
			schedule: undefined,
		});
		expect(Object.keys(prepared.request)).toEqual(['to_number', 'workflow_id']);
	});

	test('adds attributes and the schedule in IST', () => {
		const prepared = prepareAssign({
			phoneNumber: '+91 98765 43210',
			workflowId: 'wf_1',
			attributes: {
				rows: [
					{ key: ' city ', value: 'Pune' },
					{ key: 'State', value: null },
				],
			},
			schedule: { value: '2026-11-22T04:00:00', zone: 'UTC' },
			now: NOW,
		});
		expect(prepared.request).toEqual({
			to_number: '+919876543210',
			workflow_id: 'wf_1',
			attributes: [{ key: 'city', value: 'Pune', replace: false }],
			schedule_at: '2026-11-22T09:30:00',
		});
		expect(prepared.attributesLeftOut).toEqual([{ key: 'State', reason: 'missing' }]);
		expect(prepared.schedule).toEqual({
			scheduleAt: '2026-11-22T09:30:00',
			utc: '2026-11-22T04:00:00.000Z',
			isPast: false,
			wallClockZone: 'UTC',
		});
		expect(assignRequestSchema().parse(prepared.request)).toEqual(prepared.request);
	});

	test('a schedule long past fails by default, and is sent and flagged with Start Now: CallKaro then starts the run now', () => {
		const input = {
			phoneNumber: '+919876543210',
			workflowId: 'wf_1',
			schedule: { value: '2026-10-01T09:30:00+05:30', zone: 'UTC' },
			now: NOW,
		};
		expect(inputErrorOf(() => prepareAssign(input)).message).toMatch(
			/^"Schedule Time" is 2026-10-01T09:30:00 in India time .*, more than an hour in the past\./,
		);
		const prepared = prepareAssign({
			...input,
			schedule: { ...input.schedule, longPast: 'startNow' },
		});
		expect(prepared.request.schedule_at).toBe('2026-10-01T09:30:00');
		expect(prepared.schedule?.isPast).toBe(true);
	});

	test.each([
		['Phone Number', { phoneNumber: '9876543210' }],
		['Workflow ID', { workflowId: '  ' }],
		['Workflow ID', { workflowId: undefined }],
		[
			'Attributes',
			{
				attributes: {
					rows: [
						{ key: 'a', value: 'x' },
						{ key: 'A', value: 'y' },
					],
				},
			},
		],
		['Schedule Time', { schedule: { value: '2026-02-30T09:00', zone: 'UTC' } }],
		['Time Zone', { schedule: { value: '2026-11-22T09:00', zone: 'Nowhere/City' } }],
	])('rejects a bad %s', (field, override) => {
		const input = { phoneNumber: '+919876543210', workflowId: 'wf_1', ...override };
		expect(inputErrorOf(() => prepareAssign(input)).field).toBe(field);
	});
});

describe('checkedRequest: the last guard before sending', () => {
	const request = {
		to_number: '+919876543210',
		workflow_id: 'wf_1',
		schedule_at: '2030-01-02T10:00:00',
	};

	test('passes a request of the documented shape on as built, key order kept', () => {
		expect(checkedRequest(assignRequestSchema(), request)).toBe(request);
	});

	test('fails the item, naming the field sent, when a mapping let a value through', () => {
		const error = inputErrorOf(() =>
			checkedRequest(assignRequestSchema(), { ...request, schedule_at: '2030-01-02 10:00' }),
		);
		expect(error.field).toBe('schedule_at');
		expect(error.message).toBe(
			'"schedule_at" would be sent as "2030-01-02 10:00", which CallKaro does not accept. Check the values of this item; nothing was sent.',
		);
	});
});

describe('prepareDelete', () => {
	test('sends the canonical + form and a trimmed agent ID', () => {
		expect(prepareDelete({ agentId: ' agent_1 ', phoneNumber: '919876543210' })).toEqual({
			agentId: 'agent_1',
			toNumber: '+919876543210',
			phone: PHONE,
		});
	});

	test.each([
		['Agent ID', { agentId: '' }, '"Agent ID" is empty. Enter the ID of the CallKaro agent.'],
		[
			'Agent ID',
			{ agentId: { id: 'x' } },
			'"Agent ID" must be text, but is an object. Enter the ID of the CallKaro agent.',
		],
		['Phone Number', { phoneNumber: '' }, '"Phone Number" is empty.'],
		[
			'Default Country Code',
			{ phoneNumber: '9876543210', defaultCountryCode: 'IND' },
			'"Default Country Code" must be a calling code such as 91 or +91',
		],
	])('rejects a bad %s', (field, override, message) => {
		const error = inputErrorOf(() =>
			prepareDelete({ agentId: 'agent_1', phoneNumber: '+919876543210', ...override }),
		);
		expect(error.field).toBe(field);
		expect(error.message).toContain(message);
	});
});

describe('prepareOutbound', () => {
	const prepare = (options: OutboundOptions) =>
		prepareOutbound({ agentId: 'agent_1', phoneNumber: '+919876543210', now: NOW, options });

	test('builds the smallest request', () => {
		expect(prepare({})).toEqual({
			request: { to_number: '+919876543210', agent_id: 'agent_1' },
			phone: PHONE,
			metadataLeftOut: [],
			assumed: [],
			schedule: undefined,
		});
	});

	test.each<[string, unknown, string]>([
		[
			"Google Calendar's start, with its offset",
			{ dateTime: '2026-11-22T09:30:00+05:30', timeZone: 'Asia/Kolkata' },
			'2026-11-22T09:30:00',
		],
		[
			"Microsoft's start in a Windows zone",
			{ dateTime: '2026-11-22T09:30:00.0000000', timeZone: 'India Standard Time' },
			'2026-11-22T09:30:00',
		],
		[
			"Microsoft's start in UTC",
			{ dateTime: '2026-11-22T04:00:00.0000000', timeZone: 'UTC' },
			'2026-11-22T09:30:00',
		],
		[
			'a start in New York, by its Windows name',
			{ dateTime: '2026-11-21T23:00:00', timeZone: 'Eastern Standard Time' },
			'2026-11-22T09:30:00',
		],
	])("a calendar's time: %s", (_case, value, scheduleAt) => {
		const prepared = prepare({ schedule: { value, zone: 'Asia/Kolkata' } });
		expect(prepared.request.schedule_at).toBe(scheduleAt);
	});

	test.each<[string, unknown, string]>([
		[
			'an all-day event',
			{ date: '2026-11-22' },
			'"Schedule Time" has a date but no time: "2026-11-22"',
		],
		[
			'a whole event',
			{ id: 'e1', start: { dateTime: '2026-11-22T09:30:00', timeZone: 'UTC', x: 1 }, end: {} },
			'add .start.dateTime to the end of the expression',
		],
		[
			'a start with more beside it',
			{ dateTime: '2026-11-22T09:30:00', timeZone: 'UTC', label: 'x' },
			'add .dateTime to the end of the expression',
		],
	])("a calendar's time: %s is refused, naming what to do", (_case, value, message) => {
		const error = inputErrorOf(() => prepare({ schedule: { value, zone: 'Asia/Kolkata' } }));
		expect(error.message).toContain(message);
	});

	test('sends every option that is set', () => {
		const prepared = prepare({
			batchId: ' batch_1 ',
			metadata: { name: 'Asha', orderTotal: 1200 },
			schedule: { value: '2026-11-22 09:30', zone: 'Asia/Kolkata' },
			minTriggerTime: '09:00',
			maxTriggerTime: '18:30',
			carryOver: true,
			numberOfRetries: 2,
			gapBetweenRetries: '30, 60',
			priority: -100,
			language: 'HI',
		});
		expect(prepared.request).toEqual({
			to_number: '+919876543210',
			agent_id: 'agent_1',
			batch_id: 'batch_1',
			metadata: { name: 'Asha', orderTotal: 1200 },
			schedule_at: '2026-11-22T09:30:00',
			min_trigger_time: '09:00',
			max_trigger_time: '18:30',
			carry_over: true,
			number_of_retries: 2,
			gap_between_retries: [30, 60],
			priority: -100,
			language: 'hi',
		});
		expect(outboundRequestSchema().parse(prepared.request)).toEqual(prepared.request);
	});

	test.each<[string, OutboundOptions, Record<string, unknown>]>([
		[
			'empty texts are left out',
			{ batchId: ' ', minTriggerTime: '', language: '', gapBetweenRetries: ' ' },
			{},
		],
		['metadata as JSON text', { metadata: '{" key ": "v"}' }, { metadata: { key: 'v' } }],
		['empty metadata', { metadata: {} }, { metadata: {} }],
		['one gap as text', { gapBetweenRetries: ' 45 ' }, { gap_between_retries: 45 }],
		['one gap as a number', { gapBetweenRetries: 0 }, { gap_between_retries: 0 }],
		['gaps as a list', { gapBetweenRetries: [10, 20, 30] }, { gap_between_retries: [10, 20, 30] }],
		[
			'limits of the ranges',
			{ numberOfRetries: 10, priority: 100 },
			{ number_of_retries: 10, priority: 100 },
		],
		[
			'zero retries',
			{ numberOfRetries: 0, carryOver: false },
			{ number_of_retries: 0, carry_over: false },
		],
		[
			'metadata rows',
			{ metadataRows: [{ key: ' name ', value: 'Asha' }] },
			{ metadata: { name: 'Asha' } },
		],
		[
			'metadata object and rows together',
			{ metadata: { constructor: 'x' }, metadataRows: [{ key: 'total', value: 12 }] },
			{ metadata: { constructor: 'x', total: 12 } },
		],
		[
			'metadata true/false as text, as the prompt reads them',
			{ metadata: { vip: true }, metadataRows: [{ key: 'paid', value: false }] },
			{ metadata: { vip: 'true', paid: 'false' } },
		],
		[
			'a whole payment event as metadata: what cannot be sent is left out',
			{ metadata: { amount: 49900, email: null, notes: {}, card: { last4: '4242' } } },
			{ metadata: { amount: 49900, 'card.last4': '4242' } },
		],
		[
			'nested metadata as JSON text when asked',
			{ metadata: { card: { last4: '4242' } }, metadataHandling: 'jsonText' },
			{ metadata: { card: '{"last4":"4242"}' } },
		],
		[
			'midnight to 23:59',
			{ minTriggerTime: '00:00', maxTriggerTime: '23:59' },
			{ min_trigger_time: '00:00', max_trigger_time: '23:59' },
		],
	])('%s', (_case, options, fields) => {
		expect(prepare(options).request).toEqual({
			to_number: '+919876543210',
			agent_id: 'agent_1',
			...fields,
		});
	});

	test.each<[string, OutboundOptions, string]>([
		['Campaign ID', { batchId: 42 as unknown as string }, '"Campaign ID" must be text, but is 42'],
		[
			'Metadata',
			{ metadataRows: [{ key: 'address', value: { city: 'Pune' } }], metadataHandling: 'fail' },
			'"Metadata" has a value for "address" that is an object',
		],
		[
			'Metadata',
			{
				metadata: { name: 'Asha', plan: 'Gold', address: { city: 'Pune', zip: null } },
				metadataHandling: 'fail',
			},
			'"Metadata" has no value for "address.zip": it is missing or null',
		],
		['Metadata', { metadata: { ' ': 'x' } }, '"Metadata" has an entry without a key'],
		[
			'Metadata',
			{ metadata: '[1]' },
			'"Metadata" must be an object of keys and values, but is a list',
		],
		['Metadata', { metadata: '{oops' }, '"Metadata" is not valid JSON'],
		[
			'Metadata',
			{ metadataRows: [{ key: '', value: 'x' }] },
			'"Metadata" has an entry without a key',
		],
		[
			'Metadata',
			{ metadataRows: [{ key: 'a', value: null }], metadataHandling: 'fail' },
			'"Metadata" has no value for "a": it is missing or null',
		],
		[
			'Metadata',
			{ metadata: { name: 'A' }, metadataRows: [{ key: 'name ', value: 'B' }] },
			'"Metadata" has the key "name" twice. Keep only one of them.',
		],
		[
			'Schedule Time',
			{ schedule: { value: 'tomorrow', zone: 'UTC' } },
			'"Schedule Time" is not a date and time: "tomorrow"',
		],
		[
			'Earliest Call Time',
			{ minTriggerTime: '9:00' },
			'"Earliest Call Time" must be a time of day as HH:MM (24-hour), such as 09:30, but is "9:00"',
		],
		[
			'Latest Call Time',
			{ maxTriggerTime: '24:00' },
			'"Latest Call Time" must be a time of day as HH:MM (24-hour), such as 09:30, but is "24:00"',
		],
		['Latest Call Time', { maxTriggerTime: '18:30:00' }, 'but is "18:30:00"'],
		[
			'Carry Over',
			{ carryOver: 'yes' as unknown as boolean },
			'"Carry Over" must be true or false, but is "yes"',
		],
		[
			'Number of Retries',
			{ numberOfRetries: 11 },
			'"Number of Retries" must be a whole number from 0 to 10, but is 11',
		],
		['Number of Retries', { numberOfRetries: -1 }, 'but is -1'],
		['Number of Retries', { numberOfRetries: 1.5 }, 'but is 1.5'],
		[
			'Gap Between Retries',
			{ gapBetweenRetries: '30, soon' },
			'"Gap Between Retries" must be whole minutes, one number or a comma-separated list such as 30, 60, but is "30, soon"',
		],
		['Gap Between Retries', { gapBetweenRetries: '30,,60' }, 'but is "30,,60"'],
		['Gap Between Retries', { gapBetweenRetries: -5 }, 'but is -5'],
		['Gap Between Retries', { gapBetweenRetries: [] }, 'but is a list'],
		[
			'Priority',
			{ priority: 101 },
			'"Priority" must be a whole number from -100 to 100, but is 101',
		],
		['Priority', { priority: -101 }, 'but is -101'],
		[
			'Language',
			{ language: 'fr' },
			'"Language" must be one of hi, en, kn, mr, ta, te, bn, gu, ml, but is "fr"',
		],
	])('rejects a bad %s: %p', (field, options, message) => {
		const error = inputErrorOf(() => prepare(options));
		expect(error.field).toBe(field);
		expect(error.message).toContain(message);
	});

	test.each([
		['Agent ID', { agentId: ' ' }],
		['Phone Number', { phoneNumber: 'call me' }],
	])('rejects a bad %s', (field, override) => {
		const input = { agentId: 'agent_1', phoneNumber: '+919876543210', options: {}, ...override };
		expect(inputErrorOf(() => prepareOutbound(input)).field).toBe(field);
	});
});

describe('prepareCampaign', () => {
	test.each([
		[
			'v1',
			{ name: ' Diwali ', agentId: ' agent_1 ', version: 'v1' as const },
			'/call/campaign',
			{ name: 'Diwali', agent_id: 'agent_1' },
		],
		['v2', { name: 'Diwali', version: 'v2' as const }, '/v2/call/campaign', { name: 'Diwali' }],
		[
			'v2 ignores an agent ID',
			{ name: 'Diwali', agentId: 'agent_1', version: 'v2' as const },
			'/v2/call/campaign',
			{ name: 'Diwali' },
		],
	])('%s', (_case, input, path, request) => {
		expect(prepareCampaign(input)).toEqual({ path, request });
	});

	test.each([
		['Campaign Name', { name: '', version: 'v2' as const }],
		['Agent ID', { name: 'Diwali', version: 'v1' as const }],
		['Agent ID', { name: 'Diwali', agentId: '  ', version: 'v1' as const }],
	])('rejects a missing %s', (field, input) => {
		expect(inputErrorOf(() => prepareCampaign(input)).field).toBe(field);
	});
});

describe('prepareOutbound: the call window', () => {
	const base = { agentId: 'agent_1', phoneNumber: '+919876543210' };

	it('refuses an Earliest Call Time later than the Latest, naming both fields', () => {
		expect(
			inputErrorOf(() =>
				prepareOutbound({ ...base, options: { minTriggerTime: '18:00', maxTriggerTime: '09:30' } }),
			).message,
		).toBe(
			'"Earliest Call Time" (18:00) is later than "Latest Call Time" (09:30). Swap the two times, or clear one of them.',
		);
	});

	it.each([
		['09:30', '18:00'],
		['09:30', '09:30'],
		['09:30', undefined],
	])('sends %s to %s', (minTriggerTime, maxTriggerTime) => {
		const { request } = prepareOutbound({ ...base, options: { minTriggerTime, maxTriggerTime } });
		expect(request.min_trigger_time).toBe(minTriggerTime);
		expect(request.max_trigger_time).toBe(maxTriggerTime);
	});
});

describe('a schedule time as n8n nodes nest it', () => {
	const ODOO = { displayName: 'Odoo', falseMeansEmpty: true, timesWithoutOffsetIn: 'UTC' };
	const scheduled = (value: unknown, zone = 'Asia/Kolkata', sourceNode?: typeof ODOO) =>
		prepareAssign({
			phoneNumber: '+919876543210',
			workflowId: 'wf_1',
			schedule: { value, zone },
			now: NOW,
			sourceNode,
		});

	test.each([
		[
			'Notion date (simplified)',
			{ start: '2026-12-05T10:30:00.000+05:30', end: null, time_zone: null },
		],
		[
			'Notion date range: the start',
			{
				start: '2026-12-05T10:30:00.000+05:30',
				end: '2026-12-05T11:00:00.000+05:30',
				time_zone: null,
			},
		],
		[
			'Notion typed date property',
			{
				id: 'd',
				type: 'date',
				date: {
					start: '2026-12-05T10:30:00.000+05:30',
					end: '2026-12-05T11:00:00.000+05:30',
					time_zone: null,
				},
			},
		],
		[
			'Notion date in its own zone',
			{ start: '2026-12-05T09:00:00.000', end: null, time_zone: 'Asia/Dubai' },
		],
		["HubSpot's { value } of epoch ms as text", { value: '1796446800000', versions: [] }],
	])('%s', (_case, value) => {
		expect(scheduled(value).request.schedule_at).toBe('2026-12-05T10:30:00');
	});

	test("Odoo's false is an empty Schedule Time, which never means now", () => {
		expect(inputErrorOf(() => scheduled(false, 'UTC', ODOO)).message).toMatch(
			/^"Schedule Time" is empty\. .*An empty Schedule Time never means now/,
		);
	});

	test('an object without a date names the field to map', () => {
		expect(inputErrorOf(() => scheduled({ id: 9, when: 'x', text: 'tomorrow' })).message).toBe(
			'"Schedule Time" must be a date and time, but is an object. Map the value inside it: add .text to the end of the expression.',
		);
	});
});
