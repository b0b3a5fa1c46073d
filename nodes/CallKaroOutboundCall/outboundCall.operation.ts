import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { CallKaroClient } from '../../src/client/client';
import { defaultCountryCodeOf } from '../../src/phone/phoneNumber';
import {
	METADATA_HANDLING_OPTION,
	METADATA_KEYS_TO_LEAVE_OUT_OPTION,
	prepareOutbound,
} from '../../src/input/requests';
import { keyList } from '../../src/records/recordValues';
import type { OutboundOptions } from '../../src/input/requests';
import type { RunVocabulary } from '../../src/run/runReport';
import { valueExpression } from '../../src/input/inputError';
import type { FarAhead, LongPast } from '../../src/schedule/schedule';
import {
	agentIdProperty,
	callingHoursOption,
	concurrencyOption,
	defaultCountryCodeOption,
	docsLink,
	duplicateGuardProperties,
	farAheadScheduleOption,
	keysToLeaveOutOption,
	longPastScheduleOption,
	scheduleNumbersOption,
	maxRequestsPerSecondOption,
	ONLY_VERSION_1,
	phoneNumberProperty,
	previewOnlyOption,
	SCHEDULE_TIME_LINK,
	timeZoneOption,
	timeZoneProperty,
	unsendableValuesOption,
	withVersion2,
} from '../shared/descriptions';
import type { DuplicateGuardWording } from '../shared/descriptions';
import type { ActionOperation } from '../shared/executeForEachItem';
import {
	callingHoursFrom,
	callingHoursOutput,
	nodeTimeZone,
	scheduleOutput,
	scheduleZone,
} from '../shared/schedule';
import type { CallingHoursOptionValue } from '../shared/schedule';
import { firstItemText } from '../shared/runState';
import type { FirstItem, FirstItemWording, ItemResult, PreparedItem } from '../shared/runState';
import {
	fieldExpression,
	readingOutput,
	sourceDateColumnOf,
	sourceNodeOf,
	sourceZoneOf,
} from '../shared/sourceNode';
import {
	allowedNumbersProperty,
	checkAllowedNumber,
	maxCallsPerExecutionProperty,
} from '../shared/agentLimits';

export const guard: DuplicateGuardWording = {
	displayName: 'Skip Numbers Called Before',
	verb: 'called',
	pairedWith: 'this agent',
	skippedStatus: 'calledBefore',
};

export const vocabulary: RunVocabulary = {
	noun: 'calls',
	effect: 'placed',
	rerun: `running this node again calls them again unless ${guard.displayName} is on`,
	rerunWhenGuarded: `running this node again skips them (${guard.displayName} is on)`,
};

export const retryOnFailWarning =
	'Retry On Fail is on: when this node fails, n8n runs it again for every item and calls again everyone it already called. Turn it off: the node itself retries only what cannot place a second call.';

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

/** What the model is told of the tool (the node's own description is for builders). */
export const toolDescription =
	'Places one phone call with a CallKaro voice agent, now or at a set time. The phone number must be written with + and its country code, e.g. +919876543210; a time, when asked for, as ISO 8601 with its offset, e.g. 2026-12-01T10:30:00+05:30. The result says placed: true with a callId, or placed: false with a status: duplicate (this number was already called in this conversation) or limitReached (no more calls may be placed). A result with error says which argument to fix and how; an error about Allowed Numbers means that number may not be called at all: do not try another; an error that a setting of this tool is wrong cannot be fixed by you: tell the person that the call cannot be placed now.';

export const description: INodeProperties[] = withVersion2([
	phoneNumberProperty,
	agentIdProperty,
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: ONLY_VERSION_1,
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
				description:
					"Values the agent's prompt reads as {{metadata.key}}, together with Metadata (JSON); a key may appear once",
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
				displayName: 'Metadata (JSON)',
				name: 'metadataJson',
				type: 'json',
				default: '{}',
				description: `An object of values the prompt reads as {{metadata.key}}, e.g. a form answer (${docsLink('mapping-crm-records', 'rules')})`,
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
				description: `When to call; within a minute of now is now, and an empty value fails the item (${SCHEDULE_TIME_LINK})`,
			},
			{
				// Time Zone moved to Options, as in Assign; n8n drops a saved value whose field is
				// gone, so this one stays for workflows saved before.
				displayName: 'Time Zone (Deprecated)',
				name: 'timeZone',
				type: 'string',
				default: '',
				description: 'Kept for workflows saved before; Options › Time Zone wins when both are set',
			},
		],
	},
	timeZoneProperty,
	allowedNumbersProperty,
	maxCallsPerExecutionProperty,
	...duplicateGuardProperties(guard),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: ONLY_VERSION_1,
		options: [
			{
				displayName: 'Allow Duplicate Calls',
				name: 'allowDuplicateCalls',
				type: 'boolean',
				default: false,
				description:
					'Whether to place a call that repeats an earlier item of this run (same number, agent and time); off, only the first is placed',
			},
			callingHoursOption,
			concurrencyOption,
			defaultCountryCodeOption,
			maxRequestsPerSecondOption,
			keysToLeaveOutOption(METADATA_KEYS_TO_LEAVE_OUT_OPTION, 'metadataKeysToLeaveOut', 'metadata'),
			unsendableValuesOption(METADATA_HANDLING_OPTION, 'metadataLeftOut'),
			previewOnlyOption,
			farAheadScheduleOption,
			longPastScheduleOption,
			scheduleNumbersOption,
			timeZoneOption,
		],
	},
]);

export const outputs: ActionOperation['outputs'] = { outputs: [NodeConnectionTypes.Main] };

/** Every additional field goes to the core as it is, except those the node reads itself. */
type AdditionalFields = Omit<OutboundOptions, 'metadata' | 'metadataRows' | 'schedule'> & {
	metadata?: { entry?: OutboundOptions['metadataRows'] };
	metadataJson?: unknown;
	scheduleAt?: unknown;
	/** Time Zone's place before it moved to Options. */
	timeZone?: string;
};

const FIRST_CALL: FirstItemWording = {
	tookEffect: 'placed the call',
	mayHaveTakenEffect: 'may have placed the call',
	notTaken: 'was not placed',
};

/** Reads and checks one item now; the returned function sends it. */
export function prepare(
	context: IExecuteFunctions,
	client: CallKaroClient,
	itemIndex: number,
): PreparedItem {
	const additionalFields = context.getNodeParameter(
		'additionalFields',
		itemIndex,
		{},
	) as AdditionalFields;
	const {
		metadata,
		metadataJson,
		scheduleAt,
		timeZone: oldPlaceTimeZone,
		...fields
	} = additionalFields;
	const options = context.getNodeParameter('options', itemIndex, {}) as {
		allowDuplicateCalls?: boolean;
		unsendableValues?: OutboundOptions['metadataHandling'];
		metadataKeysToLeaveOut?: string;
		callingHours?: CallingHoursOptionValue;
		defaultCountryCode?: unknown;
		farAheadSchedule?: FarAhead;
		longPastSchedule?: LongPast;
		scheduleNumbers?: 'epoch' | 'serialDates';
		timeZone?: string;
	};
	const nodeZone = nodeTimeZone(context, itemIndex);
	// As in Assign: version 1's zone fields win over the source node's zone, version 2's Time Zone not.
	const savedZone =
		nodeZone === undefined ? options.timeZone?.trim() || oldPlaceTimeZone : undefined;
	const sourceZone = sourceZoneOf(context, itemIndex, scheduleAt, savedZone);
	const defaultCountryCode = defaultCountryCodeOf(options);
	const prepared = prepareOutbound({
		agentId: context.getNodeParameter('agentId', itemIndex),
		phoneNumber: context.getNodeParameter('phoneNumber', itemIndex),
		phoneNumberParameter: context.getNode().parameters.phoneNumber,
		defaultCountryCode,
		sourceNode: sourceNodeOf(context)?.rules,
		callingHours: callingHoursFrom(options.callingHours, nodeZone),
		options: {
			...fields,
			metadata: metadataJson,
			metadataRows: metadata?.entry,
			metadataHandling: options.unsendableValues,
			metadataKeysToLeaveOut: keyList(options.metadataKeysToLeaveOut),
			metadataExpression: fieldExpression(context, ['additionalFields', 'metadataJson']),
			// Once added, Schedule Time is read even when its expression gave nothing: an empty
			// time fails the item and never calls now.
			schedule:
				'scheduleAt' in additionalFields
					? {
							value: scheduleAt,
							zone: scheduleZone(savedZone, sourceZone?.zone, nodeZone),
							longPast: options.longPastSchedule,
							serialDates: options.scheduleNumbers === 'serialDates',
							dateColumn: sourceDateColumnOf(context, itemIndex, scheduleAt),
							expression: valueExpression(
								(context.getNode().parameters.additionalFields as IDataObject | undefined)
									?.scheduleAt,
							),
							farAhead: options.farAheadSchedule,
						}
					: undefined,
		},
	});
	checkAllowedNumber(context, itemIndex, prepared.phone, defaultCountryCode, 'call');
	const readAs = readingOutput(context, prepared, sourceZone);

	const scheduleAtSent = prepared.schedule?.scheduleAt ?? 'now';
	const call = {
		agentId: prepared.request.agent_id,
		toNumber: prepared.phone.e164,
		...scheduleOutput(prepared.schedule),
		...callingHoursOutput(prepared.callingHours),
		// Only when the item has metadata: which of its keys were not sent, and why.
		...(prepared.request.metadata ? { metadataLeftOut: prepared.metadataLeftOut } : {}),
		...readAs,
	};

	// A run that repeats a row would call the person twice, and no idempotency key exists: only
	// the first item of a repeated call is placed (the runner finds repeats in input order).
	const answerRepeat = (first: FirstItem): ItemResult => ({
		output: 0,
		json: {
			placed: false,
			status: 'duplicate',
			// Not placed even if that item failed: its failure may still have placed the call.
			message: `Not placed: a repeat of item ${first.itemIndex} (${prepared.phone.masked}, same agent and time); ${firstItemText(first, FIRST_CALL)}`,
			duplicateOf: first.itemIndex,
			...call,
		},
		outcome: 'skipped as duplicate',
		tookEffect: false,
	});
	const repeat = options.allowDuplicateCalls
		? undefined
		: { key: `${call.agentId}|${call.toNumber}|${scheduleAtSent}`, answer: answerRepeat };

	const skipped: ItemResult = {
		output: 0,
		json: {
			placed: false,
			status: guard.skippedStatus,
			message: `Not placed: this node has already called ${prepared.phone.masked} with this agent ("${guard.displayName}" is on)`,
			...call,
		},
		outcome: 'skipped as called before',
		tookEffect: false,
	};
	const scheduledFor =
		prepared.schedule && !prepared.schedule.isPast ? new Date(prepared.schedule.utc) : undefined;

	return {
		guarded: {
			subject: { target: call.agentId, toNumber: call.toNumber, scheduledFor },
			skipped,
			answerRepeat,
		},
		repeat,
		send: async () => {
			const result = await client.outboundCall(prepared.request);

			return {
				output: 0,
				outcome: 'placed',
				tookEffect: true,
				json: {
					placed: true,
					callId: result.callId ?? null,
					status: result.status ?? null,
					message: result.message ?? null,
					...call,
					attempts: result.attempts,
					body: result.body as IDataObject,
				},
			};
		},
	};
}
