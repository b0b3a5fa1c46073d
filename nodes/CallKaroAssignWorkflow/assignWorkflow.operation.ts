import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ATTRIBUTE_OPTION_NAMES } from '../../src/records/attributes';
import type {
	AttributeRules,
	AttributeSource,
	AttributeSummary,
} from '../../src/records/attributes';
import { attributeProblemsError } from '../../src/client/client';
import type { CallKaroClient } from '../../src/client/client';
import { defaultCountryCodeOf } from '../../src/phone/phoneNumber';
import { prepareAssign } from '../../src/input/requests';
import { keyList } from '../../src/records/recordValues';
import type { LeftOutValue, UnsendableValueHandling } from '../../src/records/recordValues';
import type { RunVocabulary } from '../../src/run/runReport';
import { valueExpression } from '../../src/input/inputError';
import type { FarAhead, LongPast } from '../../src/schedule/schedule';
import {
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
	withVersion2,
	phoneNumberProperty,
	previewOnlyOption,
	SCHEDULE_TIME_LINK,
	timeZoneOption,
	timeZoneProperty,
	unsendableValuesOption,
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
	displayName: 'Skip Numbers Enrolled Before',
	verb: 'enrolled',
	pairedWith: 'this workflow',
	skippedStatus: 'enrolledBefore',
};

const FIRST_ENROLMENT: FirstItemWording = {
	tookEffect: 'started the run',
	mayHaveTakenEffect: 'may have started the run',
	notTaken: 'was not sent',
};

export const vocabulary: RunVocabulary = {
	noun: 'workflow runs',
	effect: 'started',
	rerun: `running this node again starts them again once they have finished, unless ${guard.displayName} is on`,
	rerunWhenGuarded: `running this node again skips them (${guard.displayName} is on)`,
};

/** What the model is told of the tool (the node's own description is for builders). */
export const toolDescription =
	'Enrols one phone number in a CallKaro calling workflow, which then calls it, now or at a set time. The phone number must be written with + and its country code, e.g. +919876543210; a time, when asked for, as ISO 8601 with its offset, e.g. 2026-12-01T10:30:00+05:30. The result has status started, or a status saying why not: alreadyRunning, duplicate (already enrolled in this conversation) or limitReached. A result with error says which argument to fix and how; an error about Allowed Numbers means that number may not be enrolled at all: do not try another; an error that a setting of this tool is wrong cannot be fixed by you: tell the person that the number cannot be enrolled now.';

export const description: INodeProperties[] = withVersion2([
	phoneNumberProperty,
	{
		displayName: 'Workflow ID',
		name: 'workflowId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 6650f0c2a1b2c3d4e5f60718',
		description: 'ID of a CallKaro workflow with at least one step, from its page in the dashboard',
	},
	{
		displayName: 'Attributes to Save',
		name: 'attributeSource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'None', value: 'none' },
			{ name: 'Using Fields Below', value: 'rows', description: 'One row per CRM attribute' },
			{
				name: 'Using JSON',
				value: 'json',
				description: 'One JSON object whose keys are CRM attribute names, e.g. a whole CRM record',
			},
		],
		default: 'none',
		description: `CRM attributes saved on the contact before the run starts (${docsLink('mapping-crm-records', 'how records are read')})`,
	},
	{
		displayName: 'Attributes',
		name: 'attributes',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Attribute',
		default: {},
		displayOptions: { show: { attributeSource: ['rows'] } },
		options: [
			{
				name: 'attribute',
				displayName: 'Attribute',
				values: [
					{
						displayName: 'Attribute Name',
						name: 'key',
						type: 'string',
						default: '',
						placeholder: 'e.g. First Name',
						description:
							'Name of the CRM attribute; case, spaces, underscores and hyphens are ignored',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						description:
							'At most 1000 characters; a missing or empty value is left out, so it never erases a saved one',
					},
					{
						displayName: 'Replace Existing Value',
						name: 'replace',
						type: 'boolean',
						default: false,
						description:
							'Whether to overwrite a value the contact already has; one typed in by hand in CallKaro is never overwritten',
					},
				],
			},
		],
	},
	{
		displayName: 'Attributes (JSON)',
		name: 'attributesJson',
		type: 'json',
		// An example as the default would be sent for every contact: the example is a placeholder.
		default: '{}',
		placeholder: '{ "First Name": "{{ $json.first_name }}", "City": "{{ $json.city }}" }',
		displayOptions: { show: { attributeSource: ['json'] } },
		description: `An object of CRM attribute names and values, e.g. a whole CRM record (${docsLink('mapping-crm-records', 'rules')})`,
	},
	{
		displayName: 'Replace Existing Values',
		name: 'replaceExisting',
		type: 'boolean',
		default: false,
		displayOptions: { show: { attributeSource: ['json'] } },
		description:
			'Whether to overwrite values the contact already has; one typed in by hand in CallKaro is never overwritten',
	},
	{
		displayName: 'Start Run',
		name: 'schedule',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Now', value: 'now' },
			{ name: 'At a Set Time', value: 'at' },
		],
		default: 'now',
		description: 'When CallKaro starts this workflow for the number',
	},
	{
		displayName: 'Schedule Time',
		name: 'scheduleAt',
		type: 'dateTime',
		required: true,
		default: '',
		displayOptions: { show: { schedule: ['at'] } },
		description: `When the run starts, e.g. {{ $now.plus({ hours: 2 }) }}; within a minute of now is now (${SCHEDULE_TIME_LINK})`,
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
			keysToLeaveOutOption(
				ATTRIBUTE_OPTION_NAMES.keysToLeaveOut,
				'attributeKeysToLeaveOut',
				'attributes',
			),
			{
				displayName: ATTRIBUTE_OPTION_NAMES.keysToSend,
				name: 'attributeKeysToSend',
				type: 'string',
				default: '',
				placeholder: 'e.g. First Name, City, Lead Score',
				description:
					'Comma-separated keys: when set, only these are sent, e.g. when a record has more than the 50 attributes CallKaro accepts',
			},
			unsendableValuesOption(ATTRIBUTE_OPTION_NAMES.handling, 'attributes.leftOut'),
			callingHoursOption,
			concurrencyOption,
			defaultCountryCodeOption,
			maxRequestsPerSecondOption,
			{
				displayName: 'On Attribute Problems',
				name: 'onAttributeProblems',
				type: 'options',
				options: [
					{
						name: 'Report in Output',
						value: 'report',
						description: 'List ignored and invalid attributes in the output',
					},
					{
						name: 'Fail the Item',
						value: 'fail',
						description: 'Treat any ignored or invalid attribute as an error of the item',
					},
				],
				default: 'report',
				description:
					'What to do when CallKaro ignores an attribute (unknown name) or refuses its value; the run starts either way',
			},
			previewOnlyOption,
			farAheadScheduleOption,
			longPastScheduleOption,
			scheduleNumbersOption,
			timeZoneOption,
		],
	},
]);

/** Output 0 "Started", output 1 "Already Running" (the number is already in the workflow). */
export const outputs: ActionOperation['outputs'] = {
	outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
	outputNames: ['Started', 'Already Running'],
};

interface AssignOptions {
	attributeKeysToLeaveOut?: string;
	attributeKeysToSend?: string;
	callingHours?: CallingHoursOptionValue;
	defaultCountryCode?: unknown;
	farAheadSchedule?: FarAhead;
	longPastSchedule?: LongPast;
	scheduleNumbers?: 'epoch' | 'serialDates';
	onAttributeProblems?: 'report' | 'fail';
	timeZone?: string;
	unsendableValues?: UnsendableValueHandling;
}

function readAttributeSource(
	context: IExecuteFunctions,
	itemIndex: number,
): AttributeSource | undefined {
	const source = context.getNodeParameter('attributeSource', itemIndex) as 'none' | 'rows' | 'json';
	if (source === 'rows') {
		return { rows: context.getNodeParameter('attributes.attribute', itemIndex, []) as unknown[] };
	}
	if (source === 'json') {
		return {
			object: context.getNodeParameter('attributesJson', itemIndex),
			replace: context.getNodeParameter('replaceExisting', itemIndex, false) as boolean,
		};
	}
	return undefined;
}

function attributeRules(context: IExecuteFunctions, options: AssignOptions): AttributeRules {
	return {
		handling: options.unsendableValues ?? 'leaveOut',
		keysToSend: keyList(options.attributeKeysToSend),
		keysToLeaveOut: keyList(options.attributeKeysToLeaveOut),
		recordExpression: fieldExpression(context, ['attributesJson']),
	};
}

/** CallKaro's report of the attributes it got, and the keys this node left out before sending. */
function attributesJson(summary: AttributeSummary, leftOut: LeftOutValue[]): IDataObject {
	const { updated, keptExisting, ignored, invalid, counts } = summary;
	return {
		updated,
		keptExisting,
		ignored,
		invalid,
		leftOut,
		counts: { ...counts, leftOut: leftOut.length },
	};
}

/** Reads and checks one item now; the returned function sends it. */
export function prepare(
	context: IExecuteFunctions,
	client: CallKaroClient,
	itemIndex: number,
): PreparedItem {
	const options = context.getNodeParameter('options', itemIndex, {}) as AssignOptions;
	const startsLater = context.getNodeParameter('schedule', itemIndex) === 'at';
	const scheduleAt = startsLater ? context.getNodeParameter('scheduleAt', itemIndex) : undefined;
	const nodeZone = nodeTimeZone(context, itemIndex);
	// Version 1's Options → Time Zone wins over the source node's zone; version 2's Time Zone
	// always has one, so a source node's own times (Odoo's, in UTC) are read in theirs.
	const savedZone = nodeZone === undefined ? options.timeZone : undefined;
	const sourceZone = sourceZoneOf(context, itemIndex, scheduleAt, savedZone);
	const defaultCountryCode = defaultCountryCodeOf(options);
	const prepared = prepareAssign({
		phoneNumber: context.getNodeParameter('phoneNumber', itemIndex),
		phoneNumberParameter: context.getNode().parameters.phoneNumber,
		workflowId: context.getNodeParameter('workflowId', itemIndex),
		attributes: readAttributeSource(context, itemIndex),
		attributeRules: attributeRules(context, options),
		schedule: startsLater
			? {
					value: scheduleAt,
					zone: scheduleZone(savedZone, sourceZone?.zone, nodeZone),
					longPast: options.longPastSchedule,
					serialDates: options.scheduleNumbers === 'serialDates',
					dateColumn: sourceDateColumnOf(context, itemIndex, scheduleAt),
					expression: valueExpression(context.getNode().parameters.scheduleAt),
					farAhead: options.farAheadSchedule,
				}
			: undefined,
		callingHours: callingHoursFrom(options.callingHours, nodeZone),
		defaultCountryCode,
		sourceNode: sourceNodeOf(context)?.rules,
	});
	checkAllowedNumber(context, itemIndex, prepared.phone, defaultCountryCode, 'enrol');
	const readAs = readingOutput(context, prepared, sourceZone);

	const schedule = {
		...scheduleOutput(prepared.schedule),
		...callingHoursOutput(prepared.callingHours),
		...readAs,
	};
	// Not started by this run, so it goes with Already Running.
	const skipped: ItemResult = {
		output: 1,
		json: {
			status: guard.skippedStatus,
			message: `Not enrolled: this node has already enrolled ${prepared.phone.masked} in this workflow ("${guard.displayName}" is on)`,
			toNumber: prepared.phone.e164,
			workflowId: prepared.request.workflow_id,
			runId: null,
			enrollmentId: null,
			...schedule,
		},
		outcome: 'skipped as enrolled before',
		tookEffect: false,
	};
	// With the guard on, a number is sent once per run; its repeats go with Already Running.
	const answerRepeat = (first: FirstItem): ItemResult => ({
		...skipped,
		json: {
			...skipped.json,
			status: 'duplicate',
			message: `Not enrolled: a repeat of item ${first.itemIndex} (${prepared.phone.masked}, same workflow); ${firstItemText(first, FIRST_ENROLMENT)}`,
			duplicateOf: first.itemIndex,
		},
		outcome: 'skipped as duplicate',
	});
	const scheduledFor =
		prepared.schedule && !prepared.schedule.isPast ? new Date(prepared.schedule.utc) : undefined;

	const send = async (): Promise<ItemResult> => {
		const result = await client.assignWorkflow(prepared.request);

		if (options.onAttributeProblems === 'fail') {
			const problems = attributeProblemsError(result, prepared.phone.masked);
			if (problems) throw problems;
		}

		// A 409 to a retry whose earlier attempt's answer was lost: that attempt started the run.
		const started = result.outcome === 'started' || result.startedByEarlierAttempt;
		return {
			output: started ? 0 : 1,
			outcome: started ? 'started' : 'already running',
			tookEffect: started,
			json: {
				status: started ? 'started' : result.outcome,
				message: result.message,
				toNumber: prepared.phone.e164,
				workflowId: prepared.request.workflow_id,
				runId: result.runId ?? null,
				enrollmentId: result.enrollmentId ?? null,
				...schedule,
				startedByEarlierAttempt: result.startedByEarlierAttempt,
				attempts: result.attempts,
				attributes: attributesJson(result.attributes, prepared.attributesLeftOut),
				body: result.body as IDataObject,
			},
		};
	};

	return {
		guarded: {
			subject: {
				target: prepared.request.workflow_id,
				toNumber: prepared.phone.e164,
				scheduledFor,
			},
			skipped,
			answerRepeat,
		},
		send,
	};
}
