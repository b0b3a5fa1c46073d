// Real payloads, as CRMs, forms and payment systems deliver them (test/fixtures/payloads, each
// with its source in index.json), run through the nodes in n8n's engine against the sandbox with
// the mapping a builder would most plausibly write: the body sent, or the refusal, is asserted.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ASSIGN_WORKFLOW, OUTBOUND_CALL } from '../engine/callKaroNodes';
import { readPayload } from '../fixtures/payloads/payloads.mjs';
import { NODE_NAME, apiRequests, reasonCounts, runNode } from './fixtures';
import { useNodeOutputSandbox } from './nodeOutputRuns';

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

function payload(file: string): IDataObject {
	return readPayload(file) as IDataObject;
}

interface LeftOut {
	key: string;
	reason: string;
}

interface PayloadRun {
	/** How the builder mapped the payload. */
	mapping: string;
	file: string;
	node: 'assign' | 'outbound';
	parameters: INodeParameters;
	/** The workflow's time zone (n8n's default is America/New_York). */
	timezone?: string;
	/** The body sent (a subset), or the item's error. */
	outcome: { sent: IDataObject } | { refused: string };
	/** How many attributes were sent, and how many keys were left out for each reason. */
	attributes?: { sent: number; leftOut: Record<string, number> };
	/** Fields of the output item. */
	output?: IDataObject;
}

const ASSIGN_DEFAULTS: INodeParameters = { workflowId: 'wf_welcome', schedule: 'now' };
const OUTBOUND_DEFAULTS: INodeParameters = { agentId: 'agent_sales_01' };

const RUNS: PayloadRun[] = [
	{
		mapping:
			'HubSpot contact: properties as attributes, callback_time (epoch ms as text) as Schedule Time',
		file: 'hubspot-contact.json',
		node: 'assign',
		parameters: {
			phoneNumber: '={{ $json.properties.phone }}',
			attributeSource: 'json',
			attributesJson: '={{ $json.properties }}',
			schedule: 'at',
			scheduleAt: '={{ $json.properties.callback_time }}',
		},
		outcome: { sent: { to_number: '+919820014523', schedule_at: '2026-12-05T10:30:00' } },
		attributes: { sent: 30, leftOut: { missing: 22 } },
	},
	{
		mapping: 'HubSpot US contact, Default Country Code 91: refused, never dialled in India',
		file: 'hubspot-contact-us.json',
		node: 'outbound',
		parameters: {
			phoneNumber: '={{ $json.properties.phone }}',
			options: { defaultCountryCode: '91' },
		},
		outcome: {
			refused:
				'"Phone Number" cannot be a number in India (+91), the Default Country Code: "31****6789". Without + or a leading 0, an Indian number is a mobile number, 10 digits starting with 6, 7, 8 or 9. Write a landline with its 0 STD code, such as 022 6600 1234, or write a number of another country with + and its country code, such as +1 415 555 0100. [item 0]',
		},
	},
	{
		mapping: "HubSpot US contact, Default Country Code from the contact's country (US)",
		file: 'hubspot-contact-us.json',
		node: 'outbound',
		parameters: {
			phoneNumber: '={{ $json.properties.phone }}',
			options: { defaultCountryCode: '={{ $json.properties.country }}' },
		},
		outcome: { sent: { to_number: '+13123456789' } },
	},
	{
		mapping: 'HubSpot property-change event: the new phone, the whole event as metadata',
		file: 'hubspot-trigger-contact-propertychange.json',
		node: 'outbound',
		parameters: {
			phoneNumber: '={{ $json.propertyValue }}',
			additionalFields: { metadataJson: '={{ $json }}' },
		},
		outcome: {
			sent: {
				to_number: '+919820016034',
				metadata: expect.objectContaining({ propertyName: 'phone', occurredAt: 1795149401207 }),
			},
		},
		output: { metadataLeftOut: [] },
	},
	{
		mapping:
			'Zoho CRM lead: the whole record as attributes, Callback_Time (+05:30) as Schedule Time',
		file: 'zoho-crm-lead.json',
		node: 'assign',
		parameters: {
			phoneNumber: '={{ $json.Mobile }}',
			attributeSource: 'json',
			attributesJson: '={{ $json }}',
			schedule: 'at',
			scheduleAt: '={{ $json.Callback_Time }}',
		},
		outcome: { sent: { to_number: '+919820017342', schedule_at: '2026-12-05T10:30:00' } },
		// Owner, Created_By, Modified_By, $approval spread into keys; $converted_detail {}; Tag []
		attributes: {
			sent: 45,
			leftOut: { missing: 23, 'an empty object': 1, 'an empty list': 1 },
		},
	},
	{
		mapping: 'Zoho CRM lead, objects and lists sent as JSON text (the Owner lookup)',
		file: 'zoho-crm-lead.json',
		node: 'assign',
		parameters: {
			phoneNumber: '={{ $json.Mobile }}',
			attributeSource: 'json',
			attributesJson: '={{ $json }}',
			options: { unsendableValues: 'jsonText' },
		},
		outcome: {
			sent: {
				to_number: '+919820017342',
				attributes: expect.arrayContaining([
					{
						key: 'Owner',
						value:
							'{"name":"Rohan Deshpande","id":"6184920000000472001","email":"rohan.deshpande@kalpataru-sales.example"}',
						replace: false,
					},
				]),
			},
		},
	},
	{
		mapping: 'Zoho CRM lead, date-only Follow_Up_Date with Calling Hours 10:00-19:00 IST',
		file: 'zoho-crm-lead.json',
		node: 'assign',
		parameters: {
			phoneNumber: '={{ $json.Mobile }}',
			schedule: 'at',
			scheduleAt: '={{ $json.Follow_Up_Date }}',
			options: {
				callingHours: { window: { days: WEEKDAYS, start: '10:00', end: '19:00' } },
			},
		},
		outcome: { sent: { to_number: '+919820017342', schedule_at: '2026-12-05T10:00:00' } },
	},
	{
		mapping: 'Zoho CRM lead, date-only Follow_Up_Date without Calling Hours',
		file: 'zoho-crm-lead.json',
		node: 'assign',
		parameters: {
			phoneNumber: '={{ $json.Mobile }}',
			schedule: 'at',
			scheduleAt: '={{ $json.Follow_Up_Date }}',
		},
		outcome: {
			refused:
				'"Schedule Time" has a date but no time: "2026-12-05". Add the time, such as 2026-12-05T10:00:00+05:30, or add Options → Calling Hours to start when they open that day. [item 0]',
		},
	},
	{
		mapping: 'Zoho CRM contact in the UK: +44 (0)20 … drops the trunk 0',
		file: 'zoho-crm-contact-uk.json',
		node: 'outbound',
		parameters: { phoneNumber: '={{ $json.Phone }}' },
		outcome: { sent: { to_number: '+442079460958' } },
	},
	{
		mapping: 'Pipedrive person (84 keys): the whole record as attributes',
		file: 'pipedrive-person.json',
		node: 'assign',
		parameters: {
			phoneNumber: '={{ $json.phone[0].value }}',
			attributeSource: 'json',
			attributesJson: '={{ $json }}',
		},
		outcome: {
			refused:
				'"Attributes" has 74 values to send (after leaving out 24), 24 more than the 50 CallKaro accepts. List the keys to send in Options > Attribute Keys to Send, or the keys to drop in Options > Attribute Keys to Leave Out, e.g. the last 24, as the advice lists them. [item 0]',
		},
	},
	{
		mapping: 'Pipedrive person, Attribute Keys to Send picks the fields the workflow reads',
		file: 'pipedrive-person.json',
		node: 'assign',
		parameters: {
			phoneNumber: '={{ $json.phone[0].value }}',
			attributeSource: 'json',
			attributesJson: '={{ $json }}',
			options: { attributeKeysToSend: 'first_name, last_name, org_name, label' },
		},
		outcome: {
			sent: {
				to_number: '+919876541234',
				attributes: expect.arrayContaining([
					expect.objectContaining({ key: 'first_name' }),
					expect.objectContaining({ key: 'org_name' }),
				]),
			},
		},
	},
	{
		mapping:
			'Salesforce lead: the whole record as attributes, Callback_Time__c (+0000) as Schedule Time',
		file: 'salesforce-lead.json',
		node: 'assign',
		parameters: {
			phoneNumber: '={{ $json.MobilePhone }}',
			attributeSource: 'json',
			attributesJson: '={{ $json }}',
			schedule: 'at',
			scheduleAt: '={{ $json.Callback_Time__c }}',
		},
		outcome: { sent: { to_number: '+919876545501', schedule_at: '2026-12-05T10:30:00' } },
		// attributes {type, url} and the compound Address, spread into keys
		attributes: { sent: 36, leftOut: { missing: 30 } },
	},
	{
		mapping: 'LeadSquared lead: mx_Follow_Up_Date (UTC, no offset) with Time Zone UTC',
		file: 'leadsquared-lead-created.json',
		node: 'assign',
		parameters: {
			phoneNumber: '={{ $json.Mobile }}',
			attributeSource: 'json',
			attributesJson: '={{ $json }}',
			schedule: 'at',
			scheduleAt: '={{ $json.mx_Follow_Up_Date }}',
			options: { timeZone: 'UTC' },
		},
		outcome: { sent: { to_number: '+919820012876', schedule_at: '2026-12-05T16:00:00' } },
		attributes: { sent: 41, leftOut: { missing: 11, empty: 1 } },
		output: { scheduleTimeZone: 'UTC' },
	},
	{
		mapping: 'LeadSquared activity: follow-up in the workflow zone Asia/Kolkata',
		file: 'leadsquared-activity.json',
		node: 'outbound',
		timezone: 'Asia/Kolkata',
		parameters: {
			phoneNumber: '={{ $json.Phone }}',
			additionalFields: { scheduleAt: '={{ $json.mx_Custom_1 }}' },
		},
		outcome: { sent: { to_number: '+919876547710', schedule_at: '2026-12-05T10:30:00' } },
	},
	{
		mapping: 'IndiaMART lead: RESPONSE as attributes, call now',
		file: 'indiamart-lead.json',
		node: 'assign',
		parameters: {
			phoneNumber: '={{ $json.RESPONSE.SENDER_MOBILE }}',
			attributeSource: 'json',
			attributesJson: '={{ $json.RESPONSE }}',
		},
		outcome: { sent: { to_number: '+919876543210' } },
		// IndiaMART sends "" for what the buyer did not give
		attributes: { sent: 16, leftOut: { empty: 6 } },
	},
	{
		mapping:
			'Razorpay payment.captured: the payment as metadata, created_at (epoch seconds) as Schedule Time',
		file: 'razorpay-payment-captured.json',
		node: 'outbound',
		parameters: {
			phoneNumber: '={{ $json.payload.payment.entity.contact }}',
			additionalFields: {
				metadataJson: '={{ $json.payload.payment.entity }}',
				scheduleAt: '={{ $json.created_at }}',
			},
		},
		// read as seconds: the payment's own time, days before the run, not January 1970
		outcome: {
			refused:
				'"Schedule Time" is 2026-11-20T10:20:11 in India time (a number of 10 digits read as epoch seconds), more than an hour in the past. Such a time is usually the wrong field (a created date, say): map the time the call should start, or set Options → Schedule Time Long Past to Start Now. [item 0]',
		},
	},
	{
		mapping:
			'Razorpay payment.captured: an hour after the payment (created_at + 3600), Schedule Time Long Past = Start Now',
		file: 'razorpay-payment-captured.json',
		node: 'outbound',
		parameters: {
			phoneNumber: '={{ $json.payload.payment.entity.contact }}',
			additionalFields: {
				metadataJson: '={{ $json.payload.payment.entity }}',
				scheduleAt: '={{ $json.created_at + 3600 }}',
			},
			options: { longPastSchedule: 'startNow' },
		},
		outcome: {
			sent: {
				to_number: '+919820019045',
				schedule_at: '2026-11-20T11:20:11',
				metadata: expect.objectContaining({ amount: 149900, captured: 'true' }),
			},
		},
		output: { scheduleInPast: true },
	},
	{
		mapping:
			"Razorpay order.paid: the buyer's callback_time note, read in the workflow zone Asia/Kolkata",
		file: 'razorpay-order-paid.json',
		node: 'outbound',
		timezone: 'Asia/Kolkata',
		parameters: {
			phoneNumber: '={{ $json.payload.payment.entity.contact }}',
			additionalFields: {
				metadataJson: '={{ $json.payload.order.entity }}',
				scheduleAt: '={{ $json.payload.payment.entity.notes.callback_time }}',
			},
		},
		outcome: { sent: { to_number: '+919876548123', schedule_at: '2026-12-05T10:30:00' } },
	},
	{
		mapping: 'Shopify customer: the whole customer as attributes',
		file: 'shopify-customer-create.json',
		node: 'assign',
		parameters: {
			phoneNumber: '={{ $json.phone }}',
			attributeSource: 'json',
			attributesJson: '={{ $json }}',
		},
		outcome: { sent: { to_number: '+919820013377' } },
		// addresses, default_address, email_marketing_consent, sms_marketing_consent spread; tags ""
		attributes: {
			sent: 49,
			leftOut: { missing: 10, empty: 1, 'an empty list': 1 },
		},
	},
	{
		mapping: 'Shopify order without a phone on the order: refused, naming the expression',
		file: 'shopify-order-create.json',
		node: 'outbound',
		parameters: { phoneNumber: '={{ $json.phone }}' },
		outcome: {
			refused:
				'"Phone Number" is empty. Enter a phone number with country code, e.g. +919876543210. Its expression {{ $json.phone }} gave an empty value for this item: check that the input item has the field it reads. [item 0]',
		},
	},
	{
		mapping: 'Shopify order, the shipping address phone',
		file: 'shopify-order-create.json',
		node: 'outbound',
		parameters: { phoneNumber: '={{ $json.shipping_address.phone }}' },
		outcome: { sent: { to_number: '+919876546620' } },
	},
	{
		mapping: 'Typeform response: the phone answer; the date answer with Calling Hours',
		file: 'typeform-form-response.json',
		node: 'outbound',
		parameters: {
			phoneNumber:
				"={{ $json.form_response.answers.find(a => a.type === 'phone_number').phone_number }}",
			additionalFields: {
				scheduleAt: "={{ $json.form_response.answers.find(a => a.type === 'date').date }}",
			},
			options: { callingHours: { window: { days: WEEKDAYS, start: '09:00', end: '21:00' } } },
		},
		outcome: { sent: { to_number: '+919820015124', schedule_at: '2026-12-05T09:00:00' } },
	},
	{
		mapping: 'Tally response: date and time answers joined, in the workflow zone Asia/Kolkata',
		file: 'tally-form-response.json',
		node: 'assign',
		timezone: 'Asia/Kolkata',
		parameters: {
			phoneNumber: "={{ $json.data.fields.find(f => f.type === 'INPUT_PHONE_NUMBER').value }}",
			schedule: 'at',
			scheduleAt:
				"={{ $json.data.fields.find(f => f.type === 'INPUT_DATE').value + 'T' + $json.data.fields.find(f => f.type === 'INPUT_TIME').value }}",
		},
		outcome: { sent: { to_number: '+919876542390', schedule_at: '2026-12-05T10:30:00' } },
	},
	{
		mapping:
			'Google Forms row: a national number with Default Country Code IN; a US-style date refused',
		file: 'google-forms-sheets-row.json',
		node: 'outbound',
		parameters: {
			phoneNumber: "={{ $json['Mobile number'] }}",
			additionalFields: { scheduleAt: "={{ $json['Preferred callback date'] }}" },
			options: { defaultCountryCode: 'IN' },
		},
		// 5 December or 12 May: only the builder knows
		outcome: {
			refused:
				'"Schedule Time" is not a date and time: "12/5/2026". Use a date and time such as 2026-11-22T09:30:00 (read in India time, or in Time Zone) or 2026-11-22T09:30:00+05:30. [item 0]',
		},
	},
	{
		mapping:
			'Google Forms (Apps Script event): namedValues (one-element lists) as attributes, each as its answer',
		file: 'google-forms-apps-script.json',
		node: 'assign',
		parameters: {
			phoneNumber: "={{ $json.namedValues['Mobile number'][0] }}",
			attributeSource: 'json',
			attributesJson: '={{ $json.namedValues }}',
			options: { defaultCountryCode: '91' },
		},
		outcome: {
			sent: {
				to_number: '+919876544321',
				attributes: expect.arrayContaining([
					{ key: 'Full name', value: 'Gurpreet Singh', replace: false },
					{ key: 'Preferred callback date', value: '12/5/2026', replace: false },
				]),
			},
		},
	},
	{
		mapping: 'n8n Form Trigger: the answers as attributes, the date answer with Calling Hours',
		file: 'n8n-form-trigger.json',
		node: 'assign',
		parameters: {
			phoneNumber: "={{ $json['Phone number'] }}",
			attributeSource: 'json',
			attributesJson: '={{ $json }}',
			schedule: 'at',
			scheduleAt: "={{ $json['Callback date'] }}",
			options: {
				callingHours: { window: { days: WEEKDAYS, start: '10:00', end: '18:00' } },
			},
		},
		outcome: { sent: { to_number: '+919820018850', schedule_at: '2026-12-05T10:00:00' } },
		attributes: { sent: 7, leftOut: { empty: 1 } },
	},
];

describe('real payloads through the nodes', () => {
	const sandbox = useNodeOutputSandbox();

	test('the corpus names a source for every payload, and every payload is run', () => {
		const index = payload('index.json') as unknown as Array<{ file: string; source: string }>;
		expect(index.length).toBeGreaterThanOrEqual(15);
		for (const entry of index) expect(entry.source).toMatch(/^https:\/\//);
		expect(new Set(RUNS.map((run) => run.file))).toEqual(new Set(index.map((entry) => entry.file)));
	});

	test.each(RUNS.map((run) => [run.mapping, run] as const))('%s', async (_mapping, run) => {
		const result = await runNode(sandbox(), {
			type: run.node === 'assign' ? ASSIGN_WORKFLOW : OUTBOUND_CALL,
			parameters: {
				...(run.node === 'assign' ? ASSIGN_DEFAULTS : OUTBOUND_DEFAULTS),
				...run.parameters,
			},
			items: [payload(run.file)],
			timezone: run.timezone,
			settings: { continueOnFail: true },
		});
		const [item] = result.json(NODE_NAME);
		const requests = apiRequests(sandbox());
		if ('refused' in run.outcome) {
			expect(requests).toEqual([]);
			expect(item.error).toBe(run.outcome.refused);
			return;
		}
		expect(item.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0].body).toMatchObject(run.outcome.sent);
		if (run.attributes) {
			const sent = (requests[0].body as IDataObject).attributes as unknown[] | undefined;
			const attributes = item.attributes as { leftOut: LeftOut[] };
			expect({
				sent: sent?.length ?? 0,
				leftOut: reasonCounts(attributes.leftOut),
			}).toEqual(run.attributes);
		}
		if (run.output) expect(item).toMatchObject(run.output);
	});
});
