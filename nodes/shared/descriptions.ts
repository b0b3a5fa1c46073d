import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './transport';

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
		'Include the country code, e.g. +91 98765 43210. Spaces, dashes, dots and brackets are ignored; a leading 00 counts as +. For numbers without a country code, set Options > Default Country Code.',
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
	placeholder: 'e.g. 91',
	description:
		'Completes phone numbers given without a country code, e.g. 9876543210 becomes +919876543210 with 91',
};

export const timeZoneOption: INodeProperties = {
	displayName: 'Time Zone',
	name: 'timeZone',
	type: 'string',
	default: '',
	placeholder: 'e.g. Europe/London',
	description:
		"IANA zone in which a schedule time without an offset is read. Empty means the workflow's time zone. CallKaro itself is always sent Indian time (IST).",
};

export const DEFAULT_CONCURRENCY = 5;

/** Options that pace a whole run of a node (read once per run, see executeForEachItem). */
export const concurrencyOption: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 50 },
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
