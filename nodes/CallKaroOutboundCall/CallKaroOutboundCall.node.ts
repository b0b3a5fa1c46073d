import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	agentIdProperty,
	callKaroCredentials,
	concurrencyOption,
	defaultCountryCodeOption,
	maxRequestsPerSecondOption,
	phoneNumberProperty,
	timeZoneOption,
} from '../shared/descriptions';
import { executeForEachItem } from '../shared/executeForEachItem';
import { prepareOutboundCall } from './outboundCall.operation';
import type { CallsInThisRun } from './outboundCall.operation';

const LANGUAGES = [
	{ name: 'Bengali', value: 'bn' },
	{ name: 'English', value: 'en' },
	{ name: 'Gujarati', value: 'gu' },
	{ name: 'Hindi', value: 'hi' },
	{ name: 'Kannada', value: 'kn' },
	{ name: 'Malayalam', value: 'ml' },
	{ name: 'Marathi', value: 'mr' },
	{ name: 'Tamil', value: 'ta' },
	{ name: 'Telugu', value: 'te' },
];

export class CallKaroOutboundCall implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CallKaro Outbound Call',
		name: 'callKaroOutboundCall',
		icon: { light: 'file:../../icons/callkaro.svg', dark: 'file:../../icons/callkaro.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["additionalFields"].scheduleAt ? "Call at a set time" : "Call now"}}',
		description: 'Place one phone call with a CallKaro voice agent, now or at a set time',
		documentationUrl: 'https://github.com/callkaro/n8n-nodes-callkaro#callkaro-outbound-call',
		defaults: { name: 'CallKaro Outbound Call' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: callKaroCredentials,
		properties: [
			{
				...phoneNumberProperty,
				description: `The number to call. ${phoneNumberProperty.description}`,
			},
			agentIdProperty,
			{
				displayName: 'Additional Fields',
				name: 'additionalFields',
				type: 'collection',
				placeholder: 'Add Field',
				default: {},
				options: [
					{
						displayName: 'Campaign ID',
						name: 'batchId',
						type: 'string',
						default: '',
						description:
							'The batch_id of the campaign this call belongs to, from the campaign endpoints',
					},
					{
						displayName: 'Carry Over',
						name: 'carryOver',
						type: 'boolean',
						default: false,
						description:
							'Whether a call not placed by the end of the trigger window moves to the next day',
					},
					{
						displayName: 'Earliest Call Time',
						name: 'minTriggerTime',
						type: 'string',
						default: '',
						placeholder: 'e.g. 09:30',
						description: 'Earliest time of day (HH:MM, 24 h) at which CallKaro may start the call',
					},
					{
						displayName: 'Gap Between Retries',
						name: 'gapBetweenRetries',
						type: 'string',
						default: '',
						placeholder: 'e.g. 30 or 30, 60',
						description:
							'Minutes between redials: one gap for every retry, or a comma-separated gap per retry',
					},
					{
						displayName: 'Language',
						name: 'language',
						type: 'options',
						options: LANGUAGES,
						default: 'en',
						description: 'Language of the call',
					},
					{
						displayName: 'Latest Call Time',
						name: 'maxTriggerTime',
						type: 'string',
						default: '',
						placeholder: 'e.g. 19:00',
						description: 'Latest time of day (HH:MM, 24 h) at which CallKaro may start the call',
					},
					{
						displayName: 'Metadata',
						name: 'metadata',
						type: 'fixedCollection',
						typeOptions: { multipleValues: true },
						placeholder: 'Add Metadata',
						default: {},
						description: "Values the agent's prompt reads as {{metadata.key}}",
						options: [
							{
								name: 'entry',
								displayName: 'Entry',
								values: [
									{ displayName: 'Key', name: 'key', type: 'string', default: '' },
									{ displayName: 'Value', name: 'value', type: 'string', default: '' },
								],
							},
						],
					},
					{
						displayName: 'Number of Retries',
						name: 'numberOfRetries',
						type: 'number',
						typeOptions: { minValue: 0, maxValue: 10 },
						default: 0,
						description: 'How often CallKaro redials when the call does not connect (0 to 10)',
					},
					{
						displayName: 'Priority',
						name: 'priority',
						type: 'number',
						typeOptions: { minValue: -100, maxValue: 100 },
						default: 0,
						description: 'From -100 to 100; higher is placed earlier in the queue',
					},
					{
						displayName: 'Schedule Time',
						name: 'scheduleAt',
						type: 'dateTime',
						default: '',
						description:
							'Place the call later. Any date works; it is sent as Indian time (IST), which the public docs imply for this field.',
					},
					timeZoneOption,
				],
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Allow Duplicate Calls',
						name: 'allowDuplicateCalls',
						type: 'boolean',
						default: false,
						description:
							'Whether to place every call even when an earlier item of this run calls the same number with the same agent at the same time. Off: only the first is placed, and the others are reported with status "duplicate".',
					},
					concurrencyOption,
					defaultCountryCodeOption,
					maxRequestsPerSecondOption,
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const callsInThisRun: CallsInThisRun = new Map();
		return await executeForEachItem(this, 1, (client, itemIndex) =>
			prepareOutboundCall(this, client, itemIndex, callsInThisRun),
		);
	}
}
