// Items exactly as n8n's own nodes output them (test/fixtures/node-outputs, each with its source
// in n8n's repository), run through the CallKaro nodes in n8n's engine behind a stand-in of that
// node's type, with the recipe of docs/mapping-crm-records.md and with the whole item
// ({{ $json }}): the body sent, or the refusal, is asserted.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { readNodeOutput } from '../fixtures/node-outputs/nodeOutputs.mjs';
import { inTurn } from '../support/testScale.mjs';
import { adviceOf, followAdvice } from './advice';
import { NODE_NAME, apiRequests, reasonCounts, runNode } from './fixtures';
import type { UpstreamNode } from './fixtures';
import {
	DEFAULTS,
	INDEX,
	RECORDS_CORPUS_FILES,
	TYPES,
	assignRecord,
	outboundRecord,
	sourceOf,
	useNodeOutputSandbox,
} from './nodeOutputRuns';
import type { NodeKind } from './nodeOutputRuns';

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const CALLING_HOURS: INodeParameters = {
	callingHours: { window: { days: WEEKDAYS, start: '10:00', end: '18:00' } },
};

type Outcome =
	| {
			/** A subset of the body sent. */
			sent: IDataObject;
			/** The attribute or metadata keys sent, in order; or only how many, for a large record. */
			keys?: string[];
			keyCount?: number;
			/** How many keys were left out, by reason (attributes or metadata). */
			leftOut?: Record<string, number>;
			/** What the node assumed from the source node, as readAs.assumed says it. */
			assumed?: string[];
	  }
	| { refused: string };

interface NodeOutputRun {
	file: string;
	/** How the builder mapped the item. */
	mapping: string;
	node: NodeKind;
	parameters: INodeParameters;
	/** An Edit Fields node stands between the source node and CallKaro: nothing is known of the shape. */
	afterEditFields?: boolean;
	outcome: Outcome;
	/** Run again behind an Edit Fields node: the same outcome (true), or this one. */
	withoutSource?: true | Outcome;
}

function at(scheduleAt: string, options: INodeParameters = {}): INodeParameters {
	return { schedule: 'at', scheduleAt: `={{ ${scheduleAt} }}`, options };
}

/** The columns of the PostgreSQL and Microsoft SQL rows, as the queries select them. */
const SQL_ROW_KEYS = [
	'id',
	'full_name',
	'mobile',
	'city',
	'plan',
	'follow_up_on',
	'last_called_at',
	'created_at',
];

const RUNS: NodeOutputRun[] = [
	{
		file: 'hubspot-contact-get.json',
		mapping: 'recipe: properties as attributes, callback_time.value as Schedule Time',
		node: 'assign',
		parameters: assignRecord(
			'$json.properties.phone.value',
			'$json.properties',
			at('$json.properties.callback_time.value', {
				attributeKeysToSend: 'firstname, lastname, email, company, city, jobtitle, lifecyclestage',
			}),
		),
		outcome: {
			sent: { to_number: '+919820017307', schedule_at: '2026-12-03T11:00:00' },
			keys: ['city', 'company', 'email', 'firstname', 'jobtitle', 'lastname', 'lifecyclestage'],
			leftOut: { 'not in "Attribute Keys to Send"': 44 },
		},
		withoutSource: true,
	},
	{
		file: 'hubspot-contact-get.json',
		mapping:
			'the whole item, read from properties; Phone Number as properties.phone ({ value, versions })',
		node: 'assign',
		parameters: assignRecord('$json.properties.phone', '$json', {
			options: {
				attributeKeysToSend: 'firstname, lastname, email, company, city, jobtitle, lifecyclestage',
			},
		}),
		outcome: {
			sent: { to_number: '+919820017307' },
			keys: ['city', 'company', 'email', 'firstname', 'jobtitle', 'lastname', 'lifecyclestage'],
			leftOut: { 'not in "Attribute Keys to Send"': 44 },
			assumed: ['Attributes: the values under "properties", where HubSpot puts the record'],
		},
		withoutSource: {
			refused:
				'"Attributes" has none of the keys listed in "Attribute Keys to Send" (firstname, lastname, email, company, city, jobtitle, lifecyclestage). They are inside "properties". Map that object instead: {{ $json.properties }} in place of {{ $json }}. [item 0]',
		},
	},
	{
		file: 'hubspot-contact-get.json',
		mapping: 'the whole item after an Edit Fields node: refused, naming properties',
		node: 'assign',
		parameters: assignRecord('$json.properties.phone', '$json'),
		afterEditFields: true,
		outcome: {
			refused:
				'"Attributes" holds the record inside "properties" (51 keys under "properties", 15 outside it). Map that object instead: {{ $json.properties }} in place of {{ $json }}, or list the keys to send in Options > Attribute Keys to Send. [item 0]',
		},
	},
	{
		file: 'hubspot-contact-getall.json',
		mapping: 'recipe: properties (value-only mode) as attributes',
		node: 'assign',
		parameters: assignRecord('$json.properties.phone.value', '$json.properties'),
		outcome: {
			sent: { to_number: '+919820017318' },
			keys: ['firstname', 'lastmodifieddate', 'company', 'lastname', 'phone'],
		},
		withoutSource: true,
	},
	{
		file: 'hubspot-trigger-contact-property-change.json',
		mapping: 'recipe: the new phone, the event as metadata',
		node: 'outbound',
		parameters: outboundRecord('$json.propertyValue', '$json'),
		outcome: {
			sent: { to_number: '+919820017329' },
			keys: [
				'eventId',
				'subscriptionId',
				'portalId',
				'appId',
				'occurredAt',
				'subscriptionType',
				'attemptNumber',
				'changeSource',
				'propertyName',
				'propertyValue',
				'contactId',
			],
		},
		withoutSource: true,
	},
	{
		file: 'pipedrive-person-get.json',
		mapping:
			'recipe: the whole person (custom_fields read as its fields), the Callback Date with Calling Hours',
		node: 'assign',
		parameters: assignRecord(
			'$json.phones[0].value',
			'$json',
			at("$json.custom_fields['Callback Date']", CALLING_HOURS),
		),
		outcome: {
			sent: { to_number: '+919820017331', schedule_at: '2026-12-07T10:00:00' },
			keyCount: 14,
			leftOut: { missing: 2, 'an empty list': 1 },
			assumed: [
				'Attributes: the values under "custom_fields" as fields of the record, as Pipedrive gives them',
			],
		},
		withoutSource: {
			sent: { to_number: '+919820017331', schedule_at: '2026-12-07T10:00:00' },
			keyCount: 14,
			leftOut: { missing: 2, 'an empty list': 1 },
		},
	},
	{
		file: 'pipedrive-person-get.json',
		mapping: 'Phone Number as the phones list of one entry',
		node: 'outbound',
		parameters: { phoneNumber: '={{ $json.phones }}' },
		outcome: { sent: { to_number: '+919820017331' } },
		withoutSource: true,
	},
	{
		file: 'pipedrive-person-get-v1.json',
		mapping:
			'recipe: a national number with Default Country Code IN, the keys the workflow reads, the next activity in UTC',
		node: 'assign',
		parameters: assignRecord(
			'$json.phone[0].value',
			'$json',
			at("$json.next_activity_date + ' ' + $json.next_activity_time", {
				defaultCountryCode: 'IN',
				timeZone: 'UTC',
				attributeKeysToSend: 'first_name, last_name, org_name, email',
			}),
		),
		outcome: {
			sent: { to_number: '+919820017344', schedule_at: '2026-12-08T10:00:00' },
			keys: ['first_name', 'last_name', 'email', 'org_name'],
			leftOut: { 'not in "Attribute Keys to Send"': 75 },
		},
		withoutSource: true,
	},
	{
		file: 'pipedrive-person-get-v1.json',
		mapping:
			'the whole person: its org and owner objects spread into keys, over 50 values, refused with the options that choose',
		node: 'assign',
		parameters: assignRecord('$json.phone[0].value', '$json', {
			options: { defaultCountryCode: 'IN' },
		}),
		outcome: {
			refused:
				'"Attributes" has 55 values to send (after leaving out 24), 5 more than the 50 CallKaro accepts. List the keys to send in Options > Attribute Keys to Send, or the keys to drop in Options > Attribute Keys to Leave Out, e.g. the last 5: org_id.address, org_id.active_flag, org_id.cc_email, org_id.owner_name, org_id.value. [item 0]',
		},
		withoutSource: true,
	},
	{
		file: 'salesforce-lead-get.json',
		mapping: 'recipe: MobilePhone, the lead as attributes, Callback_Time__c (+0000)',
		node: 'assign',
		parameters: assignRecord(
			'$json.MobilePhone',
			'$json',
			at('$json.Callback_Time__c', { attributeKeysToLeaveOut: 'attributes' }),
		),
		outcome: {
			sent: { to_number: '+919820017353', schedule_at: '2026-12-09T10:00:00' },
			keyCount: 46,
			leftOut: { 'in "Attribute Keys to Leave Out"': 2, missing: 28 },
		},
		withoutSource: true,
	},
	{
		file: 'salesforce-contact-get.json',
		mapping: 'recipe: MobilePhone, the contact as metadata',
		node: 'outbound',
		parameters: outboundRecord('$json.MobilePhone', '$json'),
		outcome: {
			sent: { to_number: '+919820017366' },
			keyCount: 42,
			leftOut: { missing: 42, empty: 1 },
		},
		withoutSource: true,
	},
	{
		file: 'zoho-crm-lead-get.json',
		mapping: 'recipe: Phone, the lead as attributes, Callback_Time (+05:30)',
		node: 'assign',
		parameters: assignRecord('$json.Phone', '$json', at('$json.Callback_Time')),
		outcome: {
			sent: { to_number: '+919820017375', schedule_at: '2026-12-11T11:00:00' },
			keyCount: 49,
			leftOut: { missing: 16, 'an empty object': 1, 'an empty list': 1 },
		},
		withoutSource: true,
	},
	{
		file: 'activecampaign-contact-get.json',
		mapping: 'recipe: contact.phone, contact as attributes',
		node: 'assign',
		parameters: assignRecord('$json.contact.phone', '$json.contact'),
		outcome: {
			sent: { to_number: '+919820017388' },
			keyCount: 41,
			leftOut: { empty: 4, missing: 13, 'an empty list': 4 },
		},
		withoutSource: true,
	},
	{
		file: 'activecampaign-contact-get.json',
		mapping: 'the whole item: read from contact',
		node: 'assign',
		parameters: assignRecord('$json.contact.phone', '$json'),
		outcome: {
			sent: { to_number: '+919820017388' },
			keyCount: 41,
			leftOut: { empty: 4, missing: 13, 'an empty list': 4 },
			assumed: ['Attributes: the values under "contact", where ActiveCampaign puts the record'],
		},
		withoutSource: {
			refused:
				'"Attributes" has 83 values to send (after leaving out 40), 33 more than the 50 CallKaro accepts. List the keys to send in Options > Attribute Keys to Send, or the keys to drop in Options > Attribute Keys to Leave Out, e.g. the last 33, as the advice lists them. [item 0]',
		},
	},
	{
		file: 'odoo-contact-get.json',
		mapping: 'recipe: mobile, the keys the workflow reads, the callback time in UTC',
		node: 'assign',
		parameters: assignRecord(
			'$json.mobile',
			'$json',
			at('$json.x_studio_callback_time', {
				attributeKeysToSend: 'name, email, city, function, phone, x_studio_callback_time',
			}),
		),
		outcome: {
			sent: { to_number: '+919820017402', schedule_at: '2026-12-05T10:30:00' },
			keys: ['name', 'function', 'city', 'email', 'x_studio_callback_time'],
			leftOut: { 'not in "Attribute Keys to Send"': 146, empty: 1 },
			assumed: [
				'Attributes: false is an empty field, as Odoo writes it',
				'Schedule Time: a time without an offset is UTC, as Odoo gives it',
			],
		},
		withoutSource: {
			sent: { to_number: '+919820017402', schedule_at: '2026-12-05T05:00:00' },
			keys: ['name', 'function', 'city', 'email', 'phone', 'x_studio_callback_time'],
			leftOut: { 'not in "Attribute Keys to Send"': 146 },
		},
	},
	{
		file: 'odoo-contact-get.json',
		mapping: 'the whole contact: over 50 values, refused with the options that choose',
		node: 'assign',
		parameters: assignRecord('$json.mobile', '$json'),
		outcome: {
			refused:
				'"Attributes" has 86 values to send (after leaving out 66), 36 more than the 50 CallKaro accepts. List the keys to send in Options > Attribute Keys to Send, or the keys to drop in Options > Attribute Keys to Leave Out, e.g. the last 36, as the advice lists them. [item 0]',
		},
		withoutSource: {
			refused:
				'"Attributes" has 140 values to send (after leaving out 12), 90 more than the 50 CallKaro accepts. List the keys to send in Options > Attribute Keys to Send, or the keys to drop in Options > Attribute Keys to Leave Out, e.g. the last 90, as the advice lists them. [item 0]',
		},
	},
	{
		file: 'odoo-contact-get.json',
		mapping: 'Phone Number as phone, which Odoo gives as false',
		node: 'outbound',
		parameters: { phoneNumber: '={{ $json.phone }}' },
		outcome: {
			refused:
				'"Phone Number" has no value for this item: Odoo gives an empty field as false. Map a field that holds the number, or leave items without one out with a Filter node. [item 0]',
		},
		withoutSource: {
			refused:
				'"Phone Number" must be text, but is false. Enter a phone number with country code, e.g. +919876543210. [item 0]',
		},
	},
	{
		file: 'odoo-custom-crm-lead-get.json',
		mapping: 'recipe: phone, the contact fields as metadata, the callback time in UTC',
		node: 'outbound',
		parameters: outboundRecord(
			'$json.phone',
			'{ contact_name: $json.contact_name, email: $json.email_from, city: $json.city, title: $json.title }',
			{ scheduleAt: '={{ $json.x_studio_callback_time }}' },
		),
		outcome: {
			sent: { to_number: '+919820017415', schedule_at: '2026-12-04T14:00:00' },
			keys: ['contact_name', 'email', 'city'],
			leftOut: { empty: 1 },
			assumed: [
				'Metadata: false is an empty field, as Odoo writes it',
				'Schedule Time: a time without an offset is UTC, as Odoo gives it',
			],
		},
		withoutSource: {
			sent: { to_number: '+919820017415', schedule_at: '2026-12-04T08:30:00' },
			keys: ['contact_name', 'email', 'city', 'title'],
		},
	},
	{
		file: 'agile-crm-contact-get.json',
		mapping:
			'recipe: the phone property, the whole contact as attributes (properties add their names)',
		node: 'assign',
		parameters: assignRecord("$json.properties.find(p => p.name === 'phone').value", '$json'),
		outcome: {
			sent: { to_number: '+919820017396' },
			keyCount: 47,
			leftOut: { empty: 2, 'an empty list': 4, 'the same attribute as "owner.calendar_url"': 1 },
		},
		withoutSource: true,
	},
	{
		file: 'airtable-record-get.json',
		mapping: 'recipe: fields.Phone, fields as attributes, Callback Time',
		node: 'assign',
		parameters: assignRecord(
			'$json.fields.Phone',
			'$json.fields',
			at("$json.fields['Callback Time']"),
		),
		outcome: {
			sent: { to_number: '+919820017427', schedule_at: '2026-12-06T11:00:00' },
			keys: [
				'Name',
				'Phone',
				'Email',
				'City',
				'Status',
				'Callback Time',
				'Consent to call',
				'Notes',
			],
		},
		withoutSource: true,
	},
	{
		file: 'airtable-record-get.json',
		mapping: 'the whole item: read from fields',
		node: 'assign',
		parameters: assignRecord('$json.fields.Phone', '$json'),
		outcome: {
			sent: { to_number: '+919820017427' },
			keys: [
				'Name',
				'Phone',
				'Email',
				'City',
				'Status',
				'Callback Time',
				'Consent to call',
				'Notes',
			],
			assumed: ['Attributes: the values under "fields", where Airtable puts the record'],
		},
		withoutSource: {
			refused:
				'"Attributes" holds the record inside "fields" (8 keys under "fields", 2 outside it). Map that object instead: {{ $json.fields }} in place of {{ $json }}, or list the keys to send in Options > Attribute Keys to Send. [item 0]',
		},
	},
	{
		file: 'airtable-record-get.json',
		mapping: 'the whole item after an Edit Fields node: refused, naming fields',
		node: 'assign',
		parameters: assignRecord('$json.fields.Phone', '$json'),
		afterEditFields: true,
		outcome: {
			refused:
				'"Attributes" holds the record inside "fields" (8 keys under "fields", 2 outside it). Map that object instead: {{ $json.fields }} in place of {{ $json }}, or list the keys to send in Options > Attribute Keys to Send. [item 0]',
		},
	},
	{
		file: 'airtable-record-search-flat.json',
		mapping: 'recipe: a national number with Default Country Code IN, the record as attributes',
		node: 'assign',
		parameters: assignRecord(
			'$json.Phone',
			'$json',
			at("$json['Callback Time']", { defaultCountryCode: 'IN' }),
		),
		outcome: {
			sent: { to_number: '+919820017438', schedule_at: '2026-12-13T14:30:00' },
			keys: [
				'id',
				'createdTime',
				'Name',
				'Phone',
				'Email',
				'City',
				'Status',
				'Callback Time',
				'Attempts',
			],
		},
		withoutSource: true,
	},
	{
		file: 'google-sheets-row-read.json',
		mapping:
			'recipe: the phone column (a national number as a number) with Default Country Code IN, the row as metadata, the DD/MM time read with DateTime.fromFormat',
		node: 'outbound',
		parameters: {
			...outboundRecord('$json.Phone', '$json', {
				scheduleAt:
					"={{ DateTime.fromFormat($json['Callback Time'], 'dd/MM/yyyy HH:mm:ss', { zone: 'Asia/Kolkata' }) }}",
			}),
			options: { defaultCountryCode: 'IN' },
		},
		outcome: {
			sent: { to_number: '+919820017449', schedule_at: '2026-12-14T16:00:00' },
			keys: [
				'row_number',
				'Name',
				'Phone',
				'Email',
				'City',
				'Callback Time',
				'Status',
				'Attempts',
				'Consent',
			],
			leftOut: { empty: 1 },
		},
		withoutSource: true,
	},
	{
		file: 'google-sheets-row-read.json',
		mapping: 'the DD/MM time as it is: refused, with the advice that reads it (the recipe above)',
		node: 'outbound',
		parameters: {
			phoneNumber: '={{ $json.Phone }}',
			additionalFields: { scheduleAt: "={{ $json['Callback Time'] }}" },
			options: { defaultCountryCode: 'IN' },
		},
		outcome: {
			refused:
				"\"Schedule Time\" is a date in a form this node does not read: \"14/12/2026 16:00:00\". Read it with its tokens: set it to {{ DateTime.fromFormat($json['Callback Time'], 'd/M/yyyy H:mm:ss', { zone: 'Asia/Kolkata' }) }}. [item 0]",
		},
		withoutSource: true,
	},
	{
		file: 'notion-database-page-get-simplified.json',
		mapping: 'recipe: property_phone, the page as attributes, the date property as Schedule Time',
		node: 'assign',
		parameters: assignRecord('$json.property_phone', '$json', at('$json.property_callback_time')),
		outcome: {
			sent: { to_number: '+919820017451', schedule_at: '2026-12-15T10:30:00' },
			keys: [
				'id',
				'name',
				'url',
				'property_status',
				'property_city',
				'property_email',
				'property_callback_time',
				'property_tags',
				'property_phone',
				'property_created',
				'property_name',
			],
		},
		withoutSource: true,
	},
	{
		file: 'notion-database-page-get-raw.json',
		mapping: 'recipe: properties as attributes, typed phone and date properties',
		node: 'assign',
		parameters: assignRecord(
			'$json.properties.Phone',
			'$json.properties',
			at("$json.properties['Callback Time']"),
		),
		outcome: {
			sent: { to_number: '+919820017464', schedule_at: '2026-12-16T15:00:00' },
			keys: ['Status', 'City', 'Email', 'Callback Time', 'Tags', 'Phone', 'Created', 'Name'],
			leftOut: { missing: 1 },
		},
		withoutSource: true,
	},
	{
		file: 'notion-database-page-get-raw.json',
		mapping: 'the whole page: read from properties',
		node: 'assign',
		parameters: assignRecord('$json.properties.Phone', '$json'),
		outcome: {
			sent: { to_number: '+919820017464' },
			keys: ['Status', 'City', 'Email', 'Callback Time', 'Tags', 'Phone', 'Created', 'Name'],
			leftOut: { missing: 1 },
			assumed: ['Attributes: the values under "properties", where Notion puts the record'],
		},
		withoutSource: { sent: { to_number: '+919820017464' }, keyCount: 21, leftOut: { missing: 4 } },
	},
	{
		file: 'monday-board-item-get.json',
		mapping: 'recipe: the phone column text, the columns as attributes',
		node: 'assign',
		parameters: assignRecord("$json.column_values.find(c => c.type === 'phone').text", '$json'),
		outcome: {
			sent: { to_number: '+919820017473' },
			keys: [
				'id',
				'name',
				'created_at',
				'state',
				'Owner',
				'Status',
				'Phone',
				'Email',
				'City',
				'Callback',
			],
			leftOut: { empty: 1 },
		},
		withoutSource: true,
	},
	{
		file: 'monday-board-item-get.json',
		mapping: 'Phone Number as the phone column: its one number read',
		node: 'outbound',
		parameters: { phoneNumber: "={{ $json.column_values.find(c => c.type === 'phone') }}" },
		outcome: { sent: { to_number: '+919820017473' } },
		withoutSource: true,
	},
	{
		file: 'baserow-row-get.json',
		mapping: 'recipe: Phone, the row as attributes, Callback At',
		node: 'assign',
		parameters: assignRecord('$json.Phone', '$json', at("$json['Callback At']")),
		outcome: {
			sent: { to_number: '+919820017486', schedule_at: '2026-12-19T14:00:00' },
			keys: ['id', 'order', 'Name', 'Phone', 'Email', 'City', 'Status', 'Callback At', 'Called'],
			leftOut: { missing: 1 },
		},
		withoutSource: true,
	},
	{
		file: 'form-trigger-submission.json',
		mapping:
			'recipe: a national number with Default Country Code IN, the answers as metadata, the date with Calling Hours',
		node: 'outbound',
		parameters: {
			...outboundRecord("$json['Phone Number']", '$json', {
				scheduleAt: "={{ $json['Preferred Call Date'] }}",
			}),
			options: { defaultCountryCode: 'IN', ...CALLING_HOURS },
		},
		outcome: {
			sent: { to_number: '+919820017495', schedule_at: '2026-12-19T10:00:00' },
			keys: [
				'Full Name',
				'Phone Number',
				'Email',
				'City',
				'Preferred Call Date',
				'Preferred Time Slot',
				'Number of Family Members',
				'submittedAt',
				'formMode',
			],
			leftOut: { missing: 1 },
		},
		withoutSource: true,
	},
	{
		file: 'typeform-trigger-simplified.json',
		mapping:
			'recipe: the phone answer by its question, the answers as attributes, the day with Calling Hours',
		node: 'assign',
		parameters: assignRecord(
			"$json['Thanks [field:Hq8kU7bP1cQa], what is your mobile number?']",
			'$json',
			at("$json['Which day should we call you?']", CALLING_HOURS),
		),
		outcome: {
			sent: { to_number: '+919820017508', schedule_at: '2026-12-17T10:00:00' },
			keys: [
				"What's your full name?",
				'Thanks [field:Hq8kU7bP1cQa], what is your mobile number?',
				'And your email?',
				'Which city are you in?',
				'Which day should we call you?',
				'Preferred time?',
				'Do you agree to be contacted by phone?',
			],
		},
		withoutSource: true,
	},
	{
		file: 'typeform-trigger-raw-answers.json',
		mapping: 'recipe: the phone answer (typed), the date answer with Calling Hours',
		node: 'outbound',
		parameters: {
			phoneNumber: '={{ $json.k2WvRt9Xy3Lm }}',
			additionalFields: { scheduleAt: '={{ $json.Tf3hJ5kL7mNa }}' },
			options: CALLING_HOURS,
		},
		outcome: { sent: { to_number: '+919820017512', schedule_at: '2026-12-20T10:00:00' } },
		withoutSource: true,
	},
	{
		file: 'jotform-trigger-answers.json',
		mapping: 'recipe: the phone answer .full, the answers as metadata',
		node: 'outbound',
		parameters: outboundRecord("$json['Phone Number'].full", '$json'),
		outcome: {
			sent: { to_number: '+919820017523' },
			keys: [
				'Full Name.first',
				'Full Name.last',
				'E-mail',
				'Phone Number.full',
				'City',
				'Preferred Call Date.month',
				'Preferred Call Date.day',
				'Preferred Call Date.year',
				'Preferred Call Time.hourSelect',
				'Preferred Call Time.minuteSelect',
				'Preferred Call Time.ampm',
				'What would you like to discuss?',
			],
		},
		withoutSource: true,
	},
	{
		file: 'jotform-trigger-answers.json',
		mapping: 'Phone Number as the phone answer { area, phone, full }: its one whole number read',
		node: 'delete',
		parameters: { phoneNumber: "={{ $json['Phone Number'] }}" },
		outcome: { sent: { to_number: '+919820017523' } },
		withoutSource: true,
	},
	{
		file: 'facebook-lead-ads-trigger-simplified.json',
		mapping: 'recipe: data.phone_number, data as attributes',
		node: 'assign',
		parameters: assignRecord('$json.data.phone_number', '$json.data'),
		outcome: {
			sent: { to_number: '+919820017534' },
			keys: ['full_name', 'email', 'phone_number', 'city', 'when_is_the_best_time_to_call_you?'],
		},
		withoutSource: true,
	},
	{
		file: 'facebook-lead-ads-trigger-simplified.json',
		mapping: 'the whole lead: read from data',
		node: 'assign',
		parameters: assignRecord('$json.data.phone_number', '$json'),
		outcome: {
			sent: { to_number: '+919820017534' },
			keys: ['full_name', 'email', 'phone_number', 'city', 'when_is_the_best_time_to_call_you?'],
			assumed: [
				'Attributes: the values under "data", where Facebook Lead Ads Trigger puts the record',
			],
		},
		withoutSource: { sent: { to_number: '+919820017534' }, keyCount: 17 },
	},
	{
		file: 'facebook-lead-ads-trigger-raw.json',
		mapping:
			'recipe (Simplify off): the answers list as attributes, each one-element answer as its value',
		node: 'assign',
		parameters: assignRecord(
			"$json.field_data.find(f => f.name === 'phone_number').values",
			'$json.field_data',
		),
		outcome: {
			sent: { to_number: '+919820017547' },
			keys: ['full_name', 'email', 'phone_number', 'city', 'when_is_the_best_time_to_call_you?'],
		},
		withoutSource: true,
	},
	{
		file: 'cal-trigger-booking-created.json',
		mapping: "recipe: the attendee's phone answer, the answers as metadata, the booking's start",
		node: 'outbound',
		parameters: outboundRecord('$json.responses.attendeePhoneNumber.value', '$json.responses', {
			scheduleAt: '={{ $json.startTime }}',
		}),
		outcome: {
			sent: { to_number: '+919820017556', schedule_at: '2026-12-01T11:30:00' },
			keys: [
				'name',
				'email',
				'attendeePhoneNumber',
				'location.optionValue',
				'location.value',
				'notes',
				'rescheduleReason.label',
			],
			leftOut: { 'an empty list': 1 },
		},
		withoutSource: true,
	},
	{
		file: 'cal-trigger-booking-created.json',
		mapping: 'Phone Number as the answer object ({ label, value })',
		node: 'delete',
		parameters: { phoneNumber: '={{ $json.responses.attendeePhoneNumber }}' },
		outcome: { sent: { to_number: '+919820017556' } },
		withoutSource: true,
	},
	{
		file: 'calendly-trigger-invitee-created.json',
		mapping: "recipe: the event's phone location, the invitee as metadata, the event's start",
		node: 'outbound',
		parameters: {
			...outboundRecord('$json.payload.scheduled_event.location.location', '$json.payload', {
				scheduleAt: '={{ $json.payload.scheduled_event.start_time }}',
			}),
			// The guests and the host are other people than the invitee called.
			options: {
				metadataKeysToLeaveOut: 'scheduled_event.event_guests, scheduled_event.event_memberships',
			},
		},
		outcome: {
			sent: { to_number: '+919820017569', schedule_at: '2026-12-11T11:00:00' },
			keyCount: 29,
			leftOut: { missing: 17, 'in "Metadata Keys to Leave Out"': 4 },
		},
		withoutSource: true,
	},
	// The wide corpus (issue 40): each item mapped as a new user would (the whole item, the
	// obvious field) and by its recipe, after its own node and behind an Edit Fields node.
	{
		file: 'woocommerce-order-get.json',
		mapping: 'naive: the whole order as metadata, billing.phone',
		node: 'outbound',
		parameters: outboundRecord('$json.billing.phone', '$json'),
		outcome: {
			sent: { to_number: '+919820017601' },
			keyCount: 61,
			leftOut: { empty: 8, missing: 2, 'an empty list': 6 },
		},
		withoutSource: true,
	},
	{
		file: 'woocommerce-order-get.json',
		mapping: "recipe: the billing person, the order's number and note as metadata",
		node: 'outbound',
		parameters: outboundRecord(
			'$json.billing.phone',
			'{ ...$json.billing, order: $json.number, note: $json.customer_note }',
		),
		outcome: {
			sent: { to_number: '+919820017601' },
			keys: [
				'first_name',
				'last_name',
				'address_1',
				'city',
				'state',
				'postcode',
				'country',
				'email',
				'phone',
				'order',
				'note',
			],
			leftOut: { empty: 2 },
		},
		withoutSource: true,
	},
	{
		file: 'stripe-customer-get.json',
		mapping: 'naive: the whole customer as attributes, metadata.callback_at',
		node: 'assign',
		parameters: assignRecord('$json.phone', '$json', at('$json.metadata.callback_at')),
		outcome: {
			sent: { to_number: '+919820017602', schedule_at: '2026-12-03T11:00:00' },
			keyCount: 22,
			leftOut: { missing: 9 },
		},
		withoutSource: true,
	},
	{
		file: 'stripe-customer-get.json',
		mapping: 'recipe: the keys the workflow reads (metadata by its key)',
		node: 'assign',
		parameters: assignRecord(
			'$json.phone',
			'$json',
			at('$json.metadata.callback_at', { attributeKeysToSend: 'name, email, metadata' }),
		),
		outcome: {
			sent: { to_number: '+919820017602', schedule_at: '2026-12-03T11:00:00' },
			keys: ['email', 'metadata.plan', 'metadata.callback_at', 'name'],
			leftOut: { 'not in "Attribute Keys to Send"': 27 },
		},
		withoutSource: true,
	},
	{
		file: 'stripe-trigger-customer-created.json',
		mapping: 'naive: the whole event as metadata',
		node: 'outbound',
		parameters: outboundRecord('$json.data.object.phone', '$json'),
		outcome: {
			refused:
				'"Metadata" holds the record inside "data.object" (31 keys under "data", 9 outside it). Map that object instead: {{ $json.data.object }} in place of {{ $json }}. [item 0]',
		},
		withoutSource: true,
	},
	{
		file: 'stripe-trigger-customer-created.json',
		mapping: 'recipe: data.object as metadata',
		node: 'outbound',
		parameters: outboundRecord('$json.data.object.phone', '$json.data.object', {
			scheduleAt: '={{ $json.data.object.metadata.callback_at }}',
		}),
		outcome: {
			sent: { to_number: '+919820017603', schedule_at: '2026-12-03T11:00:00' },
			keyCount: 22,
			leftOut: { missing: 9 },
		},
		withoutSource: true,
	},
	{
		file: 'zendesk-user-get.json',
		mapping: 'naive: the whole user as metadata, user_fields.callback_time',
		node: 'outbound',
		parameters: outboundRecord('$json.phone', '$json', {
			scheduleAt: '={{ $json.user_fields.callback_time }}',
		}),
		outcome: {
			sent: { to_number: '+919820017604', schedule_at: '2026-12-04T10:00:00' },
			keyCount: 27,
			leftOut: { missing: 8, empty: 3 },
		},
		withoutSource: true,
	},
	{
		file: 'zendesk-user-get.json',
		mapping: 'recipe: name, email and the user fields as attributes',
		node: 'assign',
		parameters: assignRecord(
			'$json.phone',
			'$json',
			at('$json.user_fields.callback_time', { attributeKeysToSend: 'name, email, user_fields' }),
		),
		outcome: {
			sent: { to_number: '+919820017604', schedule_at: '2026-12-04T10:00:00' },
			keys: ['name', 'email', 'user_fields.plan', 'user_fields.callback_time'],
			leftOut: { 'not in "Attribute Keys to Send"': 34 },
		},
		withoutSource: true,
	},
	{
		file: 'freshdesk-contact-getall.json',
		mapping: 'naive: the whole contact as attributes, the date field as Schedule Time',
		node: 'assign',
		parameters: assignRecord(
			'$json.mobile',
			'$json',
			at('$json.custom_fields.preferred_call_time'),
		),
		outcome: {
			refused:
				'"Schedule Time" has a date but no time: "2026-12-04". Add the time, such as 2026-12-04T10:00:00+05:30, or add Options → Calling Hours to start when they open that day. [item 0]',
		},
		withoutSource: true,
	},
	{
		file: 'freshdesk-contact-getall.json',
		mapping: 'recipe: the date with Calling Hours',
		node: 'assign',
		parameters: assignRecord(
			'$json.mobile',
			'$json',
			at('$json.custom_fields.preferred_call_time', CALLING_HOURS),
		),
		outcome: {
			sent: { to_number: '+919820017605', schedule_at: '2026-12-04T10:00:00' },
			keyCount: 14,
			leftOut: { missing: 8, 'an empty list': 1 },
		},
		withoutSource: true,
	},
	{
		file: 'mailchimp-member-get.json',
		mapping: 'naive: the whole member as metadata',
		node: 'outbound',
		parameters: outboundRecord('$json.merge_fields.PHONE', '$json'),
		outcome: { sent: { to_number: '+919820017606' }, keyCount: 43, leftOut: { empty: 12 } },
		withoutSource: true,
	},
	{
		file: 'mailchimp-member-get.json',
		mapping: 'recipe: merge_fields as attributes (ADDRESS spread)',
		node: 'assign',
		parameters: assignRecord('$json.merge_fields.PHONE', '$json.merge_fields'),
		outcome: {
			sent: { to_number: '+919820017606' },
			keys: [
				'FNAME',
				'LNAME',
				'ADDRESS.addr1',
				'ADDRESS.city',
				'ADDRESS.state',
				'ADDRESS.zip',
				'ADDRESS.country',
				'PHONE',
			],
			leftOut: { empty: 2 },
		},
		withoutSource: true,
	},
	{
		file: 'mailchimp-trigger-subscribe.json',
		mapping: 'naive: the whole event as metadata',
		node: 'outbound',
		parameters: outboundRecord('$json.data.merges.PHONE', '$json'),
		outcome: {
			refused:
				'"Metadata" holds the record inside "data" (10 keys under "data", 2 outside it). Map that object instead: {{ $json.data }} in place of {{ $json }}. [item 0]',
		},
		withoutSource: true,
	},
	{
		file: 'mailchimp-trigger-subscribe.json',
		mapping: 'recipe: data.merges as metadata',
		node: 'outbound',
		parameters: outboundRecord('$json.data.merges.PHONE', '$json.data.merges'),
		outcome: { sent: { to_number: '+919820017621' }, keys: ['EMAIL', 'FNAME', 'LNAME', 'PHONE'] },
		withoutSource: true,
	},
	{
		file: 'mautic-contact-get-raw.json',
		mapping: 'naive: the whole contact as attributes: refused, naming fields.all',
		node: 'assign',
		parameters: assignRecord('$json.fields.all.mobile', '$json'),
		outcome: {
			refused:
				'"Attributes" holds the record inside "fields.all" (109 keys under "fields", 20 outside it). Map that object instead: {{ $json.fields.all }} in place of {{ $json }}, or list the keys to send in Options > Attribute Keys to Send. [item 0]',
		},
		withoutSource: true,
	},
	{
		file: 'mautic-contact-get-raw.json',
		mapping: 'recipe: fields.all as attributes',
		node: 'assign',
		parameters: assignRecord('$json.fields.all.mobile', '$json.fields.all'),
		outcome: {
			sent: { to_number: '+919820017607' },
			keys: [
				'id',
				'firstname',
				'lastname',
				'email',
				'mobile',
				'points',
				'address1',
				'city',
				'state',
				'zipcode',
				'country',
				'plan',
			],
			leftOut: { missing: 18 },
		},
		withoutSource: true,
	},
	{
		file: 'google-contacts-get.json',
		mapping: 'naive: Phone Number as phoneNumbers (two types filled): refused, naming .mobile[0]',
		node: 'outbound',
		parameters: outboundRecord('$json.phoneNumbers', '$json'),
		outcome: {
			refused:
				'"Phone Number" must be one phone number, but is an object holding 2. Map the one meant: set Phone Number to {{ ($json.phoneNumbers).mobile[0] }}. [item 0]',
		},
		withoutSource: true,
	},
	{
		file: 'google-contacts-get.json',
		mapping: 'recipe: phoneNumbers.mobile[0], the contact as metadata',
		node: 'outbound',
		parameters: outboundRecord('$json.phoneNumbers.mobile[0]', '$json'),
		outcome: { sent: { to_number: '+919820017608' }, keyCount: 18 },
		withoutSource: true,
	},
	{
		file: 'google-calendar-event-get.json',
		mapping:
			'naive: location, start as it is ({ dateTime, timeZone }), the event as metadata: its attendee refused',
		node: 'outbound',
		parameters: outboundRecord('$json.location', '$json', { scheduleAt: '={{ $json.start }}' }),
		// Its attendees are other people than the one called.
		outcome: {
			refused: `"Metadata" holds a list of another person's record in "attendees": a call carries one person's values. Leave "attendees" out in Options > Metadata Keys to Leave Out: it holds other people than the one called. [item 0]`,
		},
		withoutSource: true,
	},
	{
		file: 'google-calendar-event-get.json',
		mapping: 'recipe: start.dateTime, the summary as metadata',
		node: 'outbound',
		parameters: outboundRecord('$json.location', '{ summary: $json.summary }', {
			scheduleAt: '={{ $json.start.dateTime }}',
		}),
		outcome: {
			sent: { to_number: '+919820017609', schedule_at: '2026-12-02T15:30:00' },
			keys: ['summary'],
		},
		withoutSource: true,
	},
	{
		file: 'google-calendar-trigger-all-day.json',
		mapping: 'naive: start ({ date }) as it is: a date alone, refused without Calling Hours',
		node: 'outbound',
		parameters: outboundRecord('$json.location', '$json', { scheduleAt: '={{ $json.start }}' }),
		outcome: {
			refused:
				'"Schedule Time" has a date but no time: "2026-12-03". Add the time, such as 2026-12-03T10:00:00+05:30, or add Options → Calling Hours to start when they open that day. [item 0]',
		},
		withoutSource: true,
	},
	{
		file: 'google-calendar-trigger-all-day.json',
		mapping: 'recipe: start with Calling Hours',
		node: 'outbound',
		parameters: {
			...outboundRecord('$json.location', '{ summary: $json.summary }', {
				scheduleAt: '={{ $json.start }}',
			}),
			options: CALLING_HOURS,
		},
		outcome: {
			sent: { to_number: '+919820017610', schedule_at: '2026-12-03T10:00:00' },
			keys: ['summary'],
		},
		withoutSource: true,
	},
	{
		file: 'microsoft-outlook-event-get.json',
		mapping:
			'naive: location, start as it is (a Windows zone), the event as metadata: its attendee refused',
		node: 'outbound',
		parameters: outboundRecord('$json.location', '$json', { scheduleAt: '={{ $json.start }}' }),
		// Its attendees are other people than the one called.
		outcome: {
			refused: `"Metadata" holds a list of another person's record in "attendees": a call carries one person's values. Leave "attendees" out in Options > Metadata Keys to Leave Out: it holds other people than the one called. [item 0]`,
		},
		withoutSource: true,
	},
	{
		file: 'microsoft-outlook-event-get.json',
		mapping: 'recipe: location.displayName, start, the subject as metadata',
		node: 'outbound',
		parameters: outboundRecord('$json.location.displayName', '{ subject: $json.subject }', {
			scheduleAt: '={{ $json.start }}',
		}),
		outcome: {
			sent: { to_number: '+919820017611', schedule_at: '2026-12-02T11:00:00' },
			keys: ['subject'],
		},
		withoutSource: true,
	},
	{
		file: 'microsoft-excel-worksheet-row.json',
		mapping: 'naive: the row as attributes, the serial Callback At',
		node: 'assign',
		parameters: assignRecord(
			'$json.Phone',
			'$json',
			at("$json['Callback At']", { defaultCountryCode: 'IN' }),
		),
		outcome: {
			sent: { to_number: '+919820017612', schedule_at: '2026-12-03T10:30:00' },
			keys: ['Name', 'Phone', 'City', 'Plan', 'Callback At'],
			assumed: [
				'Schedule Time: a number is a spreadsheet serial date, as Microsoft Excel 365 gives it',
			],
		},
		withoutSource: {
			refused:
				'"Schedule Time" is a number that looks like a spreadsheet serial date, 2026-12-03 10:30 (days since 1899-12-30, the time as the fraction), not a date and time. To read it so, set Options → Schedule Time Numbers → Spreadsheet Serial Dates; or give a date and time such as 2026-11-22T09:30:00+05:30. [item 0]',
		},
	},
	{
		file: 'microsoft-excel-worksheet-row.json',
		mapping: 'recipe: Schedule Time Numbers = Spreadsheet Serial Dates, wherever the row came from',
		node: 'assign',
		parameters: assignRecord(
			'$json.Phone',
			'$json',
			at("$json['Callback At']", { defaultCountryCode: 'IN', scheduleNumbers: 'serialDates' }),
		),
		outcome: {
			sent: { to_number: '+919820017612', schedule_at: '2026-12-03T10:30:00' },
			keys: ['Name', 'Phone', 'City', 'Plan', 'Callback At'],
		},
		withoutSource: true,
	},
	{
		file: 'postgres-select-row.json',
		mapping: 'naive: the row as attributes, the DATE column as Schedule Time',
		node: 'assign',
		parameters: assignRecord('$json.mobile', '$json', at('$json.follow_up_on')),
		outcome: {
			refused:
				'"Schedule Time" is midnight on the n8n server\'s clock (UTC), as Postgres gives a DATE column, so a date alone: "2026-12-04T00:00:00.000Z". Add the time, such as 2026-12-04T10:00:00+05:30, or add Options → Calling Hours to start when they open that day; if the column holds a time of day, map {{ $json.follow_up_on.toDateTime() }}, which is read as that instant. [item 0]',
		},
		// from a node that is no database, midnight UTC is that instant
		withoutSource: { sent: { to_number: '+919820017613', schedule_at: '2026-12-04T05:30:00' } },
	},
	{
		file: 'postgres-select-row.json',
		mapping: 'recipe: the DATE column with Calling Hours',
		node: 'assign',
		parameters: assignRecord('$json.mobile', '$json', at('$json.follow_up_on', CALLING_HOURS)),
		outcome: {
			sent: { to_number: '+919820017613', schedule_at: '2026-12-04T10:00:00' },
			assumed: ['Schedule Time: midnight read as a date alone, as Postgres gives a DATE column'],
			keys: SQL_ROW_KEYS,
		},
		// from a node that is no database, 05:30 in India, moved to when Calling Hours open
		withoutSource: { sent: { to_number: '+919820017613', schedule_at: '2026-12-04T10:00:00' } },
	},
	{
		file: 'mysql-select-row.json',
		mapping: 'naive: a UTC DATETIME without an offset, 30 s old: refused as probably UTC',
		node: 'outbound',
		parameters: {
			...outboundRecord('$json.phone', '$json', { scheduleAt: '={{ $json.callback_at }}' }),
			options: { defaultCountryCode: 'IN' },
		},
		outcome: {
			refused:
				'"Schedule Time" is 2026-11-25T05:59:30 in India time (given as "2026-11-25 05:59:30"), more than an hour in the past; read as UTC it is 2026-11-25T11:29:30 in India time, so it is probably UTC. Set Time Zone to UTC, or give the time with its offset (Z or +00:00). [item 0]',
		},
		withoutSource: true,
	},
	{
		file: 'mysql-select-row.json',
		mapping: 'recipe: Options → Time Zone → UTC',
		node: 'outbound',
		parameters: {
			...outboundRecord('$json.phone', '$json', { scheduleAt: '={{ $json.callback_at }}' }),
			options: { defaultCountryCode: 'IN', timeZone: 'UTC' },
		},
		outcome: {
			sent: { to_number: '+919820017614', schedule_at: '2026-11-25T11:29:30' },
			keys: ['id', 'name', 'phone', 'city', 'callback_at', 'status'],
		},
		withoutSource: true,
	},
	{
		file: 'twilio-trigger-inbound-sms.json',
		mapping: 'naive: the whole event as metadata (the text in data.body)',
		node: 'outbound',
		parameters: outboundRecord('$json.data.from', '$json'),
		outcome: { sent: { to_number: '+919820017615' }, keyCount: 16 },
		withoutSource: true,
	},
	{
		file: 'twilio-trigger-inbound-sms.json',
		mapping: 'recipe: the message text as metadata',
		node: 'outbound',
		parameters: outboundRecord('$json.data.from', '{ message: $json.data.body }'),
		outcome: { sent: { to_number: '+919820017615' }, keys: ['message'] },
		withoutSource: true,
	},
	{
		file: 'shopify-trigger-customer-create.json',
		mapping: 'naive: the whole customer as attributes',
		node: 'assign',
		parameters: assignRecord('$json.phone', '$json'),
		outcome: {
			refused:
				'"Attributes" has 52 values to send (after leaving out 9), 2 more than the 50 CallKaro accepts. List the keys to send in Options > Attribute Keys to Send, or the keys to drop in Options > Attribute Keys to Leave Out, e.g. the last 2: default_address.country_name, default_address.default. [item 0]',
		},
		withoutSource: true,
	},
	{
		file: 'shopify-trigger-customer-create.json',
		mapping: 'recipe: leave out the repeated addresses and consents',
		node: 'assign',
		parameters: assignRecord('$json.phone', '$json', {
			options: {
				attributeKeysToLeaveOut:
					'addresses, default_address, email_marketing_consent, sms_marketing_consent, admin_graphql_api_id',
			},
		}),
		outcome: {
			sent: { to_number: '+919820017616' },
			keyCount: 15,
			leftOut: { missing: 3, 'in "Attribute Keys to Leave Out"': 42, 'an empty list': 1 },
		},
		withoutSource: true,
	},
	{
		file: 'formio-trigger-submission.json',
		mapping: 'naive: the whole submission as metadata (Name and Address objects spread)',
		node: 'outbound',
		parameters: outboundRecord('$json.data.phoneNumber', '$json', {
			scheduleAt: '={{ $json.data.preferredTime }}',
		}),
		outcome: {
			sent: { to_number: '+919820017617', schedule_at: '2026-12-05T16:00:00' },
			keyCount: 21,
			leftOut: { empty: 2, missing: 1 },
		},
		withoutSource: true,
	},
	{
		file: 'formio-trigger-submission.json',
		mapping: 'recipe: the answers (data) as metadata',
		node: 'outbound',
		parameters: outboundRecord('$json.data.phoneNumber', '$json.data', {
			scheduleAt: '={{ $json.data.preferredTime }}',
		}),
		outcome: {
			sent: { to_number: '+919820017617', schedule_at: '2026-12-05T16:00:00' },
			keys: [
				'fullName.first',
				'fullName.last',
				'email',
				'phoneNumber',
				'address.address1',
				'address.city',
				'address.state',
				'address.country',
				'address.zip',
				'preferredTime',
				'consent',
				'submit',
			],
			leftOut: { empty: 1 },
		},
		withoutSource: true,
	},
	{
		file: 'brevo-contact-get.json',
		mapping: 'naive: the whole contact as attributes, attributes.SMS (91 and 10 digits)',
		node: 'assign',
		parameters: assignRecord('$json.attributes.SMS', '$json'),
		outcome: {
			sent: { to_number: '+919820017618' },
			keys: [
				'email',
				'id',
				'emailBlacklisted',
				'smsBlacklisted',
				'createdAt',
				'modifiedAt',
				'attributes.FIRSTNAME',
				'attributes.LASTNAME',
				'attributes.SMS',
				'attributes.PLAN',
				'listIds',
			],
			leftOut: { 'an empty object': 1 },
		},
		withoutSource: true,
	},
	{
		file: 'brevo-contact-get.json',
		mapping: 'recipe: attributes as attributes',
		node: 'assign',
		parameters: assignRecord('$json.attributes.SMS', '$json.attributes'),
		outcome: {
			sent: { to_number: '+919820017618' },
			keys: ['FIRSTNAME', 'LASTNAME', 'SMS', 'PLAN'],
		},
		withoutSource: true,
	},
	{
		file: 'keap-contact-get.json',
		mapping: 'naive: Phone Number as phone_numbers, the contact as metadata',
		node: 'outbound',
		parameters: outboundRecord('$json.phone_numbers', '$json'),
		outcome: {
			sent: { to_number: '+919820017619' },
			keyCount: 21,
			leftOut: { empty: 1, missing: 2 },
		},
		withoutSource: true,
	},
	{
		file: 'keap-contact-get.json',
		mapping: 'recipe: phone_numbers[0].number, the names and email as metadata',
		node: 'outbound',
		parameters: outboundRecord(
			'$json.phone_numbers[0].number',
			'{ given_name: $json.given_name, family_name: $json.family_name, email: $json.email_addresses[0].email }',
		),
		outcome: { sent: { to_number: '+919820017619' }, keys: ['given_name', 'family_name', 'email'] },
		withoutSource: true,
	},
	{
		file: 'intercom-user-get.json',
		mapping: 'naive: the whole user as metadata, custom_attributes.callback_at',
		node: 'outbound',
		parameters: outboundRecord('$json.phone', '$json', {
			scheduleAt: '={{ $json.custom_attributes.callback_at }}',
		}),
		outcome: {
			sent: { to_number: '+919820017620', schedule_at: '2026-12-05T11:00:00' },
			keyCount: 28,
			leftOut: { missing: 6, 'an empty list': 4 },
		},
		withoutSource: true,
	},
	{
		file: 'intercom-user-get.json',
		mapping: 'recipe: name, email and custom_attributes as attributes',
		node: 'assign',
		parameters: assignRecord(
			'$json.phone',
			'$json',
			at('$json.custom_attributes.callback_at', {
				attributeKeysToSend: 'name, email, custom_attributes',
			}),
		),
		outcome: {
			sent: { to_number: '+919820017620', schedule_at: '2026-12-05T11:00:00' },
			keys: ['email', 'name', 'custom_attributes.plan', 'custom_attributes.callback_at'],
			leftOut: { 'not in "Attribute Keys to Send"': 34 },
		},
		withoutSource: true,
	},
	{
		file: 'aggregate-all-item-data.json',
		mapping:
			'naive (issue 46): Phone Number {{ $json.data[0].Phone }}, the whole item as metadata: three people, refused',
		node: 'outbound',
		parameters: outboundRecord('$json.data[0].Phone', '$json'),
		outcome: {
			refused: `"Metadata" holds a list of 3 people's records in "data": a call carries one person's values. Make one item per person with n8n's Split Out node (Fields To Split Out: data). [item 0]`,
		},
		withoutSource: true,
	},
	{
		file: 'aggregate-all-item-data.json',
		mapping: 'naive: the list itself as attributes: refused, how many records, Split Out',
		node: 'assign',
		parameters: assignRecord('$json.data[0].Phone', '$json.data'),
		outcome: {
			refused: `"Attributes" is a list of 3 records, not one record: a call carries one person's values. Make one item per record with n8n's Split Out node before this node. [item 0]`,
		},
		withoutSource: true,
	},
	{
		file: 'aggregate-all-item-data.json',
		mapping: 'recipe: one record, {{ $json.data[0] }}, as metadata',
		node: 'outbound',
		parameters: outboundRecord('$json.data[0].Phone', '$json.data[0]'),
		outcome: {
			sent: {
				to_number: '+919820017621',
				metadata: { row_number: 2, Name: 'Asha Rao', City: 'Pune', Plan: 'Gold' },
			},
			keys: ['row_number', 'Name', 'Phone', 'City', 'Plan'],
		},
		withoutSource: true,
	},
	{
		file: 'aggregate-individual-fields.json',
		mapping: 'naive: Individual Fields, the whole item as attributes: three numbers, refused',
		node: 'assign',
		parameters: assignRecord('$json.Phone[0]', '$json'),
		outcome: {
			refused: `"Attributes" holds a list of 3 phone numbers or email addresses in "Phone": a call carries one person's values. Make one item per person with n8n's Split Out node (Fields To Split Out: Phone). [item 0]`,
		},
		withoutSource: true,
	},
	{
		file: 'aggregate-individual-fields.json',
		mapping: 'naive: the names and cities only: after Aggregate, several items all the same',
		node: 'outbound',
		parameters: outboundRecord('$json.Phone[0]', '{ Name: $json.Name, City: $json.City }'),
		outcome: {
			refused: `"Metadata" holds a list of 3 items' values (Aggregate puts several items in one) in "Name": a call carries one person's values. Make one item per person with n8n's Split Out node (Fields To Split Out: Name). [item 0]`,
		},
		withoutSource: {
			sent: { to_number: '+919820017621', metadata: { Name: 'Asha Rao, Ravi Kumar, Meera Iyer' } },
			keys: ['Name', 'City'],
		},
	},
	{
		file: 'bigquery-row-get.json',
		mapping:
			'recipe: phone, the row as metadata (every scalar as BigQuery text, TIMESTAMP as epoch text)',
		node: 'outbound',
		parameters: outboundRecord('$json.phone', '$json'),
		outcome: {
			sent: {
				to_number: '+919820017631',
				metadata: {
					id: '17',
					follow_up_at: '1.7682813E9',
					tags: 'vip, renewal',
					'address.state': 'Kerala',
				},
			},
			keyCount: 12,
		},
		withoutSource: true,
	},
	{
		file: 'snowflake-select-row.json',
		mapping: 'recipe: PHONE, the row as attributes (upper-case columns, TIMESTAMP_TZ text)',
		node: 'assign',
		parameters: assignRecord('$json.PHONE', '$json'),
		outcome: {
			sent: { to_number: '+919820017632' },
			keys: ['ID', 'FULL_NAME', 'PHONE', 'CITY', 'PLAN', 'CALLBACK_AT', 'CREATED_AT'],
		},
		withoutSource: true,
	},
	{
		file: 'microsoft-sql-select-row.json',
		mapping: 'recipe: mobile, the row as metadata: its Date values as ISO text',
		node: 'outbound',
		parameters: outboundRecord('$json.mobile', '$json'),
		outcome: {
			sent: {
				to_number: '+919820017633',
				metadata: {
					follow_up_on: '2026-12-04T00:00:00.000Z',
					last_called_at: '2026-11-20T09:15:00.000Z',
					created_at: '2025-10-01T06:45:30.000Z',
				},
			},
			keys: SQL_ROW_KEYS,
		},
		withoutSource: {
			sent: { to_number: '+919820017633', metadata: { follow_up_on: '2026-12-04T00:00:00.000Z' } },
			keyCount: 8,
		},
	},
	{
		file: 'microsoft-sql-select-row.json',
		mapping: 'recipe: the row as attributes: its Date values as ISO text, none left out',
		node: 'assign',
		parameters: assignRecord('$json.mobile', '$json'),
		outcome: {
			sent: { to_number: '+919820017633' },
			keys: SQL_ROW_KEYS,
		},
		withoutSource: true,
	},
	{
		file: 'oracle-select-row.json',
		mapping: 'recipe: MOBILE, the row as metadata: its Date values as ISO text',
		node: 'outbound',
		parameters: outboundRecord('$json.MOBILE', '$json'),
		outcome: {
			sent: {
				to_number: '+919820017634',
				metadata: {
					ID: 41,
					FOLLOW_UP_ON: '2026-12-04T00:00:00.000Z',
					CREATED_AT: '2025-09-15T11:20:00.000Z',
				},
			},
			keyCount: 7,
		},
		withoutSource: true,
	},
	{
		file: 'mongodb-find-document.json',
		mapping: 'recipe: phone, the document as metadata (address spread, BSON dates as ISO text)',
		node: 'outbound',
		parameters: outboundRecord('$json.phone', '$json'),
		outcome: {
			sent: {
				to_number: '+919820017635',
				metadata: {
					_id: '6751a2c4e13f1b2a9c0d4e71',
					'address.pin': '700016',
					follow_up_at: '2026-12-03T05:30:00.000Z',
				},
			},
			keyCount: 11,
		},
		withoutSource: true,
	},
	{
		file: 'supabase-row-get.json',
		mapping: 'recipe: phone, the row as attributes',
		node: 'assign',
		parameters: assignRecord('$json.phone', '$json'),
		outcome: {
			sent: { to_number: '+919820017636' },
			keys: ['id', 'created_at', 'full_name', 'phone', 'city', 'plan', 'follow_up_on', 'consent'],
		},
		withoutSource: true,
	},
];

describe("items as n8n's own nodes output them, through the CallKaro nodes", () => {
	const sandbox = useNodeOutputSandbox();

	test("the corpus names its source in n8n's repository for every item, and every item is run", () => {
		expect(INDEX.length).toBeGreaterThanOrEqual(48);
		expect(new Set(INDEX.map((entry) => entry.nodeType)).size).toBeGreaterThanOrEqual(40);
		for (const { source } of INDEX) {
			expect(source).toEqual({
				repo: 'n8n-io/n8n',
				path: expect.stringMatching(/^packages\//),
				commit: expect.stringMatching(/^[0-9a-f]{40}$/),
			});
		}
		expect(new Set([...RUNS.map((run) => run.file), ...RECORDS_CORPUS_FILES])).toEqual(
			new Set(INDEX.map((entry) => entry.file)),
		);
	});

	async function runOnce(
		run: NodeOutputRun,
		afterEditFields: boolean,
		parameters: INodeParameters,
	) {
		const { entry, upstream: source } = sourceOf(run.file);
		const upstream: UpstreamNode[] = [source];
		if (afterEditFields) upstream.push({ name: 'Edit Fields', type: 'n8n-nodes-base.set' });
		sandbox().reset();
		return runNode(sandbox(), {
			type: TYPES[run.node],
			parameters: { ...DEFAULTS[run.node], ...parameters },
			items: [readNodeOutput(run.file, entry.jsDates) as IDataObject],
			upstream,
			settings: { continueOnFail: true },
		});
	}

	async function check(run: NodeOutputRun, afterEditFields: boolean, outcome: Outcome) {
		const result = await runOnce(run, afterEditFields, run.parameters);
		const [item] = result.json(NODE_NAME);
		const requests = apiRequests(sandbox());
		if ('refused' in outcome) {
			expect(requests).toEqual([]);
			expect(item.error).toBe(outcome.refused);
			// A refusal's advice, followed as it is, sends the item or leads to another refusal.
			const advice = adviceOf(result, NODE_NAME);
			if (advice === undefined) return;
			const followed = followAdvice(TYPES[run.node], run.parameters, advice);
			const [again] = (await runOnce(run, afterEditFields, followed)).json(NODE_NAME);
			expect(again.error).not.toBe(item.error);
			if (again.error === undefined) expect(apiRequests(sandbox())).toHaveLength(1);
			return;
		}
		expect(item.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		const { sent, keys, keyCount, leftOut = {}, assumed } = outcome;
		const body = requests[0].body as IDataObject;
		expect(body).toMatchObject(sent);
		const values = body.attributes ?? body.metadata;
		const keysSent = Array.isArray(values)
			? values.map((row: IDataObject) => row.key)
			: Object.keys((values as IDataObject | undefined) ?? {});
		if (keys) expect(keysSent).toEqual(keys);
		if (keyCount !== undefined) expect(keysSent).toHaveLength(keyCount);
		const reported =
			(item.attributes as IDataObject | undefined)?.leftOut ?? item.metadataLeftOut ?? [];
		expect(reasonCounts(reported as Array<{ reason: string }>)).toEqual(leftOut);
		expect((item.readAs as IDataObject | undefined)?.assumed).toEqual(assumed);
	}

	// behind Edit Fields too: every run in `npm run test:deep`, every third in `npm test`
	test.each(RUNS.map((run, index) => [`${run.file}: ${run.mapping}`, run, index] as const))(
		'%s',
		async (_mapping, run, index) => {
			await check(run, run.afterEditFields ?? false, run.outcome);
			const { withoutSource } = run;
			if (withoutSource !== undefined && inTurn(index, 0)) {
				await check(run, true, withoutSource === true ? run.outcome : withoutSource);
			}
		},
	);
});
