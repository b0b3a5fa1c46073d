import type { IDisplayOptions, INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import { WEEKDAYS } from '../../src/schedule/callingHours';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../../src/run/runOptions';
import { FAR_AHEAD_DAYS, IST_ZONE } from '../../src/schedule/schedule';
import { TIME_ZONE_OPTIONS } from './timeZones';
import { CREDENTIAL_TYPE } from './transport';

/** Fields of version 1 only: workflows saved then keep them, a new node never offers them. */
export const ONLY_VERSION_1: IDisplayOptions = { show: { '@version': [1] } };
/** Fields from version 2 on. */
export const FROM_VERSION_2: IDisplayOptions = { show: { '@version': [{ _cnd: { gte: 2 } }] } };

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
	description: `With its country code, e.g. +91 98765 43210, or set Options › Default Country Code (${docsLink('phone-numbers', 'how numbers are read')})`,
};

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
	description: `Country code (91) or ISO code (IN) for numbers written without one (${docsLink('phone-numbers', 'rules', 'default-country-code')})`,
};

/** Version 1's Time Zone, free text under Options; version 2 has one Time Zone field per node. */
export const timeZoneOption: INodeProperties = {
	displayName: 'Time Zone',
	name: 'timeZone',
	type: 'string',
	default: '',
	placeholder: 'e.g. Asia/Kolkata',
	description: `IANA zone of a Schedule Time without an offset; empty means India (${docsLink('scheduling', 'time zones', 'time-zones')})`,
};

/** The node's one zone (version 2): Schedule Time without an offset, Calling Hours, the guard's day. */
export const timeZoneProperty: INodeProperties = {
	displayName: 'Time Zone',
	name: 'timeZone',
	type: 'options',
	options: TIME_ZONE_OPTIONS,
	default: IST_ZONE,
	displayOptions: FROM_VERSION_2,
	description: `The clock of a Schedule Time without an offset, of Calling Hours and of a day (${docsLink('scheduling', 'time zones', 'time-zones')})`,
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
		'What a Schedule Time more than an hour past does; such a time is usually a wrong mapping, while less than an hour past starts now',
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
		'How a Schedule Time given as a number is read; items from Microsoft Excel 365 and Google Sheets are read as serial dates in any case',
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
	description: `What a Schedule Time more than ${FAR_AHEAD_DAYS} days ahead does; such a time is usually a wrong mapping or a mistyped year`,
};

/** Where every Schedule Time's help sends the builder for the rules. */
export const SCHEDULE_TIME_LINK = docsLink('scheduling', 'how times are read');

/** Options that pace a whole run of a node (read once per run, see executeForEachItem). */
export const concurrencyOption: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
	default: DEFAULT_CONCURRENCY,
	description:
		'How many requests this node keeps in flight at once; output items stay in input order',
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
		'Whether to check every item as it would be sent and output its request instead: nothing is sent or recorded',
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
			description: `Whether to skip numbers already ${wording.verb} with ${wording.pairedWith}, also in earlier executions (${docsLink('duplicate-calls', 'rules')})`,
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
			// Version 2 reads the node's Time Zone.
			displayOptions: {
				show: { skipBefore: [true], guardWindow: ['day'], ...ONLY_VERSION_1.show },
			},
			default: '',
			placeholder: 'e.g. Asia/Kolkata',
			description: 'IANA zone in which a day starts; empty means India time (Asia/Kolkata)',
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
				'Whether manual runs from the editor check and record numbers too; off, they neither skip nor record',
		},
	];
}

const WEEKDAY_OPTIONS = [
	'friday',
	'monday',
	'saturday',
	'sunday',
	'thursday',
	'tuesday',
	'wednesday',
];

/** A window's fields, each once; each version lists them in its own order. */
const WINDOW_FIELD: Record<'days' | 'start' | 'end' | 'onOutside' | 'zone', INodeProperties> = {
	days: {
		displayName: 'Days',
		name: 'days',
		type: 'multiOptions',
		options: WEEKDAY_OPTIONS.map((day) => ({
			name: day.charAt(0).toUpperCase() + day.slice(1),
			value: day,
		})),
		default: [...WEEKDAYS],
		description:
			'Days on which the window opens; a window past midnight belongs to the day it opens on',
	},
	start: {
		displayName: 'Start',
		name: 'start',
		type: 'string',
		default: '09:00',
		placeholder: 'e.g. 09:00',
		description: 'Time of day (HH:MM, 24 h) from which calls may start',
	},
	end: {
		displayName: 'End',
		name: 'end',
		type: 'string',
		default: '21:00',
		placeholder: 'e.g. 21:00',
		description:
			'Time of day (HH:MM, 24 h) from which calls may no longer start; before Start, the window runs past midnight',
	},
	onOutside: {
		displayName: 'Outside Calling Hours',
		name: 'onOutside',
		type: 'options',
		options: [
			{
				name: 'Move to the Next Allowed Time',
				value: 'move',
				description: 'Schedule the call at the next opening; the output shows scheduleMovedFrom',
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
	zone: {
		displayName: 'Time Zone',
		name: 'zone',
		type: 'string',
		default: 'Asia/Kolkata',
		placeholder: 'e.g. Asia/Kolkata',
		description: 'IANA zone whose clock the window follows; empty means India time (Asia/Kolkata)',
	},
};

/** Calling Hours: a window of the day (and days of the week) in which a call may start. Off until added. */
function callingHoursOf(values: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Calling Hours',
		name: 'callingHours',
		type: 'fixedCollection',
		placeholder: 'Add Calling Hours',
		default: {},
		description: `A window of the day in which a call may start, now or at its Schedule Time (${docsLink('scheduling', 'calling hours', 'calling-hours')})`,
		options: [{ name: 'window', displayName: 'Window', values }],
	};
}

/** Version 1's Calling Hours, with a zone of its own. */
export const callingHoursOption = callingHoursOf([
	WINDOW_FIELD.days,
	WINDOW_FIELD.end,
	WINDOW_FIELD.onOutside,
	WINDOW_FIELD.start,
	WINDOW_FIELD.zone,
]);

/** Version 2's Calling Hours: Start before End, on the clock of the node's Time Zone. */
export const callingHoursOptionV2 = callingHoursOf([
	WINDOW_FIELD.start,
	WINDOW_FIELD.end,
	WINDOW_FIELD.days,
	WINDOW_FIELD.onOutside,
]);

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
		description: `What happens to a missing, empty or nested value, which cannot be sent as it is (${docsLink('mapping-crm-records', 'rules')})`,
	};
}

/** Version 1's fields that version 2 drops: its zones (one Time Zone now) and Outbound's call window. */
const DROPPED_IN_VERSION_2 = ['timeZone', 'carryOver', 'minTriggerTime', 'maxTriggerTime'];

/**
 * A node's fields for versions 1 and 2: each collection shown only on version 1 is followed by its
 * version 2, without the fields version 2 drops and with version 2's Calling Hours.
 */
export function withVersion2(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		if (property.displayOptions !== ONLY_VERSION_1) return [property];
		const options = (property.options ?? []) as INodeProperties[];
		const version2: INodeProperties = {
			...property,
			displayOptions: FROM_VERSION_2,
			options: options
				.filter((option) => !DROPPED_IN_VERSION_2.includes(option.name))
				.map((option) => (option === callingHoursOption ? callingHoursOptionV2 : option)),
		};
		return [property, version2];
	});
}
