import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import { WEEKDAYS } from '../../src/schedule/callingHours';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../../src/run/runOptions';
import { FAR_AHEAD_DAYS } from '../../src/schedule/schedule';
import { CREDENTIAL_TYPE } from './transport';

/** A link to a page of the package's docs/, for a field description (n8n shows simple HTML links). */
export function docsLink(page: string, text: string, heading = ''): string {
	const anchor = heading ? `#${heading}` : '';
	return `<a href="https://github.com/callkaro/n8n-nodes-callkaro/blob/main/docs/${page}.md${anchor}">${text}</a>`;
}

export const callKaroCredentials: INodeCredentialDescription[] = [
	{ name: CREDENTIAL_TYPE, required: true },
];

export const phoneNumberProperty: INodeProperties = {
	displayName: 'Phone Number',
	name: 'phoneNumber',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. +91 98765 43210',
	description:
		"Include the country code, e.g. +91 98765 43210. The number is read as Google's libphonenumber reads it, in every country: spaces, dashes, dots and brackets are ignored, 00 counts as +, a trunk prefix after the country code ((0) or 0) is dropped, tel: links are read. Only a number libphonenumber calls valid is called; a number too short or too long for its country, not in use there, with an extension, or premium-rate is refused, saying why. For numbers without a country code, set Options > Default Country Code. A value n8n's nodes wrap alone (HubSpot's { value }, Notion's phone property, a one-element list) is read; another object is refused, naming the field inside it to map, e.g. .full.",
};

/** How a record mapped into Attributes (JSON) or Metadata (JSON) is read, in both fields' descriptions. */
export const RECORD_SHAPE_RULES = `A record is read as n8n's nodes give it: values wrapped alone (HubSpot's { value }, Notion properties, one-element lists) are unwrapped, lists of { name, value } or { title, text } add their names, and from Airtable, HubSpot, ActiveCampaign, Facebook Lead Ads and Odoo the node's own shape is applied and listed in readAs. A record nested under one key (e.g. fields) is refused with the key to map.`;

export const agentIdProperty: INodeProperties = {
	displayName: 'Agent ID',
	name: 'agentId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 67a1c0ffee0123456789abcd',
	description: 'ID of the voice agent, from the agent page of the CallKaro dashboard',
};

export const defaultCountryCodeOption: INodeProperties = {
	displayName: 'Default Country Code',
	name: 'defaultCountryCode',
	type: 'string',
	default: '',
	placeholder: 'e.g. 91 or IN',
	description: `The country in which numbers without a country code are read, as libphonenumber reads them there: 9876543210 or 09876543210 becomes +919876543210 with 91 or IN, 030 123456 becomes +4930123456 with 49 or DE, 06 6988 4857 becomes +390669884857 with IT (Italy keeps its 0). Any calling code (text or a number) or ISO code of a country or region (so a CRM's country field can be mapped); a number written with its country code, with or without +, is not completed twice. With 91 or IN, a number without +, 91 or 0 must be a mobile (starting 6-9), so a US (312) 345-6789 is refused, not dialled in India. Once added, an expression that gives nothing for an item fails that item's numbers without a country code, naming this option. See ${docsLink('phone-numbers', 'how numbers are read')}.`,
};

export const timeZoneOption: INodeProperties = {
	displayName: 'Time Zone',
	name: 'timeZone',
	type: 'string',
	default: '',
	placeholder: 'e.g. Europe/London',
	description: `IANA zone in which a Schedule Time without an offset is read, in any case; IST is India time, other abbreviations (EST, CET) are refused. Empty means India time (Asia/Kolkata), as for Calling Hours and the guard's day: not the workflow's zone, which n8n defaults to America/New_York. CallKaro itself is always sent Indian time (IST). See ${docsLink('scheduling', 'scheduling and time zones')}.`,
};

/** What a Schedule Time more than an hour in the past does. */
export const longPastScheduleOption: INodeProperties = {
	displayName: 'Schedule Time Long Past',
	name: 'longPastSchedule',
	type: 'options',
	options: [
		{
			name: 'Fail the Item',
			value: 'fail',
			description: 'Send nothing for the item and give an error naming the time',
		},
		{
			name: 'Start Now',
			value: 'startNow',
			description: 'Send the time as it is; CallKaro starts at once (scheduleInPast: true)',
		},
	],
	default: 'fail',
	description:
		'What happens when Schedule Time is more than an hour in the past, which is almost always a wrong mapping (a created date, seconds read as milliseconds). A time less than an hour past always starts now.',
};

/** How a Schedule Time that is a number below 100000 is read. */
export const scheduleNumbersOption: INodeProperties = {
	displayName: 'Schedule Time Numbers',
	name: 'scheduleNumbers',
	type: 'options',
	options: [
		{
			name: 'Epoch Seconds or Milliseconds',
			value: 'epoch',
			description: 'Read a number as epoch time; a small number (a serial date) fails the item',
		},
		{
			name: 'Spreadsheet Serial Dates',
			value: 'serialDates',
			description:
				'Read a number below 100000 as days since 1899-12-30, its fraction the time of day, on the clocks of Time Zone',
		},
	],
	default: 'epoch',
	description:
		'How a Schedule Time given as a number is read. Items from Microsoft Excel 365 and Google Sheets are read as serial dates in any case.',
};

/** What a Schedule Time more than FAR_AHEAD_DAYS ahead does. */
export const farAheadScheduleOption: INodeProperties = {
	displayName: 'Schedule Time Far Ahead',
	name: 'farAheadSchedule',
	type: 'options',
	options: [
		{
			name: 'Fail the Item',
			value: 'fail',
			description: 'Send nothing for the item and give an error naming the time',
		},
		{
			name: 'Send It',
			value: 'send',
			description: 'Send the time as it is: the call waits until then',
		},
	],
	default: 'fail',
	description: `What happens when Schedule Time is more than ${FAR_AHEAD_DAYS} days ahead, which is almost always a wrong mapping (a phone number read as epoch seconds) or a mistyped year. A yearly renewal on the same date next year is within the limit.`,
};

/** How every Schedule Time reads its value; each node adds what the time is for. */
export const SCHEDULE_TIME_RULES = `Without an offset it is read in India time (or Options > Time Zone); a time taken from an Odoo item is read in UTC, as Odoo gives it, and readAs says so. A date range (Notion's { start, end }) starts at its start. More than ${FAR_AHEAD_DAYS} days ahead fails the item (a phone number read as a date, a mistyped year) unless Options > Schedule Time Far Ahead says Send It. A date alone (or midnight without an offset, as a date picker gives it) starts when Calling Hours open that day, and is refused without them. Numbers are epoch milliseconds, or epoch seconds below 100000000000; a spreadsheet serial date is refused. It is sent as Indian time (IST). See ${docsLink('scheduling', 'scheduling and time zones')}.`;

/** Options that pace a whole run of a node (read once per run, see executeForEachItem). */
export const concurrencyOption: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
	default: DEFAULT_CONCURRENCY,
	description:
		'How many requests this node keeps in flight at once. Output items stay in input order.',
};

export const maxRequestsPerSecondOption: INodeProperties = {
	displayName: 'Max Requests per Second',
	name: 'maxRequestsPerSecond',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 0,
	description:
		'Upper limit on requests started per second by this node, across all items; 0 means no limit',
};

export const previewOnlyOption: INodeProperties = {
	displayName: 'Preview Only (Send Nothing)',
	name: 'previewOnly',
	type: 'boolean',
	default: false,
	description:
		'Whether to check and convert every item exactly as it would be sent, and output the request instead of sending it. Nothing is sent and nothing is recorded.',
};

/** How a node words its duplicate guard: 'Skip Numbers Called Before', 'called'. */
export interface DuplicateGuardWording {
	displayName: string;
	/** What the node does to a number: 'called', 'enrolled'. */
	verb: string;
	/** With whom the number is paired in the key: 'this agent', 'this workflow'. */
	pairedWith: string;
	/** The status of a skipped item: 'calledBefore'. */
	skippedStatus: string;
}

const showWithGuard = { show: { skipBefore: [true] } };

/** The duplicate guard's fields: off by default; the rest shows once it is turned on. */
export function duplicateGuardProperties(wording: DuplicateGuardWording): INodeProperties[] {
	return [
		{
			displayName: wording.displayName,
			name: 'skipBefore',
			type: 'boolean',
			default: false,
			description: `Whether to skip numbers this node has already ${wording.verb} with ${wording.pairedWith}, also in earlier executions (n8n keeps the history in its database). Skipped items are output with status "${wording.skippedStatus}". Turn it on when the same lead can arrive twice (a CRM that fires twice, a form sent twice, a failed execution run again): each is a new execution, and without it the number is ${wording.verb} again. See ${docsLink('duplicate-calls', 'duplicate calls')}.`,
		},
		{
			displayName: 'Skip Window',
			name: 'guardWindow',
			type: 'options',
			displayOptions: showWithGuard,
			options: [
				{
					name: 'Ever (Within History Size)',
					value: 'ever',
					description: `A number is ${wording.verb} once, as long as it is among the last History Size numbers`,
				},
				{
					name: 'Once per Calendar Day',
					value: 'day',
					description: `A number is ${wording.verb} at most once per day (the day of its schedule time, else of the run)`,
				},
			],
			default: 'ever',
		},
		{
			displayName: 'Day Time Zone',
			name: 'guardTimeZone',
			type: 'string',
			displayOptions: { show: { skipBefore: [true], guardWindow: ['day'] } },
			default: '',
			placeholder: 'e.g. Asia/Kolkata',
			description:
				"IANA zone in which a day starts. Empty means India time (Asia/Kolkata), as for Schedule Time and Calling Hours, not the workflow's zone.",
		},
		{
			displayName: 'History Size',
			name: 'guardHistorySize',
			type: 'number',
			displayOptions: showWithGuard,
			typeOptions: { minValue: 1 },
			default: 10000,
			description:
				'How many numbers the history keeps; beyond that the oldest are forgotten (with Once per Calendar Day, earlier days count too)',
		},
		{
			displayName: 'History Name',
			name: 'guardHistoryName',
			type: 'string',
			displayOptions: showWithGuard,
			default: '',
			placeholder: 'e.g. spring-campaign',
			description: `Change it to start a fresh history: numbers recorded under another name are ${wording.verb} again`,
		},
		{
			displayName: 'Apply in Editor Runs',
			name: 'guardInEditorRuns',
			type: 'boolean',
			displayOptions: showWithGuard,
			default: false,
			description:
				'Whether manual runs from the editor check and record numbers too. Off: they neither skip nor record, and the output says so.',
		},
	];
}

/** Calling Hours: a window of the day (and days of the week) in which a call may start. Off until added. */
export const callingHoursOption: INodeProperties = {
	displayName: 'Calling Hours',
	name: 'callingHours',
	type: 'fixedCollection',
	placeholder: 'Add Calling Hours',
	default: {},
	description: `Keep the start of the call inside a window of the day, e.g. 09:00-21:00 in India. Applies to a schedule time and to "now". It checks when a call starts, not when it ends; which hours apply to your calls is for you to find out. See ${docsLink('scheduling', 'calling hours', 'calling-hours')}.`,
	options: [
		{
			name: 'window',
			displayName: 'Window',
			values: [
				{
					displayName: 'Days',
					name: 'days',
					type: 'multiOptions',
					options: [
						{
							name: 'Friday',
							value: 'friday',
						},
						{
							name: 'Monday',
							value: 'monday',
						},
						{
							name: 'Saturday',
							value: 'saturday',
						},
						{
							name: 'Sunday',
							value: 'sunday',
						},
						{
							name: 'Thursday',
							value: 'thursday',
						},
						{
							name: 'Tuesday',
							value: 'tuesday',
						},
						{
							name: 'Wednesday',
							value: 'wednesday',
						},
					],
					default: [...WEEKDAYS],
					description:
						'Days on which the window opens. A window past midnight belongs to the day it opens on.',
				},
				{
					displayName: 'End',
					name: 'end',
					type: 'string',
					default: '21:00',
					placeholder: 'e.g. 21:00',
					description:
						'Time of day (HH:MM, 24 h) from which calls may no longer start. Before Start means the window runs past midnight.',
				},
				{
					displayName: 'Outside Calling Hours',
					name: 'onOutside',
					type: 'options',
					options: [
						{
							name: 'Move to the Next Allowed Time',
							value: 'move',
							description:
								'Schedule the call at the next opening; the output shows scheduleMovedFrom',
						},
						{
							name: 'Fail the Item',
							value: 'fail',
							description: 'Send nothing for the item and give an error',
						},
						{
							name: 'Send As It Is',
							value: 'send',
							description: 'Send the time unchanged; the output has outsideCallingHours: true',
						},
					],
					default: 'move',
					description: 'What happens when the start time is outside the calling hours',
				},
				{
					displayName: 'Start',
					name: 'start',
					type: 'string',
					default: '09:00',
					placeholder: 'e.g. 09:00',
					description: 'Time of day (HH:MM, 24 h) from which calls may start',
				},
				{
					displayName: 'Time Zone',
					name: 'zone',
					type: 'string',
					default: 'Asia/Kolkata',
					placeholder: 'e.g. Asia/Kolkata',
					description:
						'IANA zone whose clock the window follows, daylight saving included. Empty means India time (Asia/Kolkata), as for Schedule Time.',
				},
			],
		},
	],
};

/**
 * Keys of a record never sent (Assign's attributes, Outbound's metadata); `displayName` is the one
 * the core's messages and advice name.
 */
export function keysToLeaveOutOption(
	displayName: string,
	name: string,
	sentAs: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		default: '',
		placeholder: 'e.g. owner_id, created_at, scheduled_event.event_guests',
		description: `Comma-separated keys never sent as ${sentAs}, a nested one by its path such as scheduled_event.event_guests, ignoring case, spaces, underscores and hyphens`,
	};
}

/**
 * What happens to record values that cannot be sent (Assign's attributes, Outbound's metadata).
 * `displayName` is the one the core's messages name as the fix.
 */
export function unsendableValuesOption(displayName: string, outputField: string): INodeProperties {
	return {
		displayName,
		name: 'unsendableValues',
		type: 'options',
		options: [
			{
				name: 'Leave Out and Report',
				value: 'leaveOut',
				description: `Send the rest; list each key left out, with why, in ${outputField}`,
			},
			{
				name: 'Send Objects and Lists as JSON Text',
				value: 'jsonText',
				description:
					'Send nested values such as {"name": "Asha", "city": "Pune"} as their JSON text; leave out missing and empty ones',
			},
			{
				name: 'Fail the Item',
				value: 'fail',
				description: 'Send nothing for the item and name the first key that cannot be sent',
			},
		],
		default: 'leaveOut',
		description:
			'Values may be text, numbers or true/false. A missing (null) or empty value is left out, so a blank CRM field never erases a value CallKaro has; objects and lists are left out unless sent as JSON text.',
	};
}
