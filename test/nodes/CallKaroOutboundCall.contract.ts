// CallKaro Outbound Call's row of the action-node contract (test/nodes/shared/contract.ts).
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { OUTBOUND_CALL } from '../engine/callKaroNodes';
import { vocabulary } from '../../nodes/CallKaroOutboundCall/outboundCall.operation';
import { FAR_AHEAD_SENT, HINTS, NO_SCHEDULE, createCampaign, fromAI } from './fixtures';
import { PHONE_NUMBER_KEYS } from './shared/contract';
import type { ActionNodeRow, BadInputCase } from './shared/contract';
import { agentEndpointRefusals, rateLimitedBeyondWait } from './shared/refusals';

export const AGENT = 'agent_sales_01';

/** Agent ID, phone number and campaign from each item. */
export function fromItems(extra: INodeParameters = {}): INodeParameters {
	return {
		agentId: '={{ $json.agentId }}',
		phoneNumber: '={{ $json.phone }}',
		additionalFields: { batchId: '={{ $json.batchId }}' },
		...extra,
		options: { ...FAR_AHEAD_SENT, ...(extra.options as INodeParameters | undefined) },
	};
}

/** Good values of every field an Additional Field below reads. */
const GOOD: IDataObject = {
	language: 'en',
	priority: 0,
	retries: 1,
	gaps: '30',
	from: '09:00',
	to: '18:00',
	key: 'topic',
	when: '2030-01-02T10:00:00Z',
	zone: 'Asia/Kolkata',
};

const HINT = 'Change the value, or remove the option. [item 1]';

/** [what, Additional Fields (reading the item), the bad item's values, message]. */
const badAdditionalFields: BadInputCase[] = [
	[
		'a bad language',
		{ language: '={{ $json.language }}' },
		{ language: 'fr' },
		`"Language" must be one of hi, en, kn, mr, ta, te, bn, gu, ml, but is "fr". ${HINT}`,
	],
	[
		'a priority above 100',
		{ priority: '={{ $json.priority }}' },
		{ priority: 101 },
		`"Priority" must be a whole number from -100 to 100, but is 101. ${HINT}`,
	],
	[
		'a priority that is not whole',
		{ priority: '={{ $json.priority }}' },
		{ priority: 2.5 },
		`"Priority" must be a whole number from -100 to 100, but is 2.5. ${HINT}`,
	],
	[
		'a priority given as a word',
		{ priority: '={{ $json.priority }}' },
		{ priority: 'high' },
		`"Priority" must be a whole number from -100 to 100, but is "high". ${HINT}`,
	],
	[
		'11 retries',
		{ numberOfRetries: '={{ $json.retries }}' },
		{ retries: 11 },
		`"Number of Retries" must be a whole number from 0 to 10, but is 11. ${HINT}`,
	],
	[
		'retry gaps that are not minutes',
		{ gapBetweenRetries: '={{ $json.gaps }}' },
		{ gaps: '30, soon' },
		`"Gap Between Retries" must be whole minutes, one number or a comma-separated list such as 30, 60, but is "30, soon". ${HINT}`,
	],
	[
		'carry over given as yes',
		{ carryOver: '={{ $json.carryOver }}' },
		{ carryOver: 'yes' },
		`"Carry Over" must be true or false, but is "yes". ${HINT}`,
	],
	[
		'a trigger window start of 9:30',
		{ minTriggerTime: '={{ $json.from }}' },
		{ from: '9:30' },
		`"Earliest Call Time" must be a time of day as HH:MM (24-hour), such as 09:30, but is "9:30". ${HINT}`,
	],
	[
		'a trigger window end of 24:00',
		{ maxTriggerTime: '={{ $json.to }}' },
		{ to: '24:00' },
		`"Latest Call Time" must be a time of day as HH:MM (24-hour), such as 09:30, but is "24:00". ${HINT}`,
	],
	[
		'metadata with a key twice',
		{
			metadata: {
				entry: [
					{ key: 'name', value: 'A' },
					{ key: '={{ $json.key }}', value: 'B' },
				],
			},
		},
		{ key: ' name ' },
		'"Metadata" has the key "name" twice. Keep only one of them. [item 1]',
	],
	[
		'metadata without a key',
		{ metadata: { entry: [{ key: '={{ $json.key }}', value: 'A' }] } },
		{ key: '' },
		'"Metadata" has an entry without a key. Enter a key for every entry, or remove it. [item 1]',
	],
	[
		'an impossible date',
		{ scheduleAt: '={{ $json.when }}' },
		{ when: '2030-13-01T10:00:00' },
		'"Schedule Time" is not a real date or time: "2030-13-01T10:00:00". Use a date and time such as 2026-11-22T09:30:00 (read in India time, or in Time Zone) or 2026-11-22T09:30:00+05:30. [item 1]',
	],
	[
		'text that is no date',
		{ scheduleAt: '={{ $json.when }}' },
		{ when: 'tomorrow 10am' },
		'"Schedule Time" is not a date and time: "tomorrow 10am". Use a date and time such as 2026-11-22T09:30:00 (read in India time, or in Time Zone) or 2026-11-22T09:30:00+05:30. [item 1]',
	],
	[
		'an unknown time zone',
		{ scheduleAt: '2030-01-02T10:00:00', timeZone: '={{ $json.zone }}' },
		{ zone: 'India/Delhi' },
		'"Time Zone" is not a known time zone: "India/Delhi". Use an IANA time zone name such as Asia/Kolkata or America/New_York. [item 1]',
	],
];

export const outboundCall: ActionNodeRow = {
	displayName: 'CallKaro Outbound Call',
	type: OUTBOUND_CALL,
	path: '/call/outbound',
	faultEndpoint: 'outbound',
	vocabulary,
	mainOutputs: 1,
	parameters: fromItems,
	...PHONE_NUMBER_KEYS,
	item: (phone) => ({ phone, agentId: AGENT, ...GOOD }),
	succeeded: (phone, attempts = 1) =>
		expect.objectContaining({ placed: true, status: 'success', toNumber: phone, attempts }),
	done: (sandbox) => sandbox.state.calls.map((entry) => entry.toNumber),
	recorded: (sandbox, json) =>
		sandbox.state.calls.find((entry) => entry.id === json.callId)?.toNumber,
	retriesServerErrors: false,
	requiredField: 'agentId',
	preview: {
		title: 'the normalised number and the IST schedule_at',
		parameters: {
			agentId: AGENT,
			phoneNumber: '={{ $json.phone }}',
			additionalFields: { scheduleAt: '2030-12-01T09:30:00Z', language: 'hi' },
			options: { defaultCountryCode: '91', ...FAR_AHEAD_SENT },
		},
		// the README's example: 98765 43210 as a national number
		items: [{ phone: '098765 43210' }],
		requests: [
			{
				method: 'POST',
				path: '/call/outbound',
				body: {
					to_number: '+919876543210',
					agent_id: AGENT,
					schedule_at: '2030-12-01T15:00:00',
					language: 'hi',
				},
			},
		],
	},
	schedule: {
		parameters: (scheduleAt, timeZone) => ({
			additionalFields: { scheduleAt },
			options: { ...FAR_AHEAD_SENT, ...(timeZone ? { timeZone } : {}) },
		}),
		held: (sandbox, phone) => {
			const call = sandbox.state.calls.find((entry) => entry.toNumber === phone);
			return call && { ...call, scheduleAt: call.options.schedule_at };
		},
		startedNowStatus: 'queued',
		scheduledJson: { placed: true, status: 'success' },
		pastJson: { placed: true, status: 'success' },
	},
	guard: {
		displayName: 'Skip Numbers Called Before',
		verb: 'called',
		skipped: (phone) => ({
			placed: false,
			status: 'calledBefore',
			message: `Not placed: this node has already called +91******${phone.slice(-4)} with this agent ("Skip Numbers Called Before" is on)`,
			agentId: AGENT,
			toNumber: phone,
			...NO_SCHEDULE,
		}),
		skippedOutput: 0,
		otherTarget: { agentId: 'agent_support_02' },
	},
	badInput: [
		[
			'a phone number without country code',
			{},
			{ phone: '98765 01234' },
			'"Phone Number" has no country code: "98****1234". Start the number with + and the country code, e.g. +919876543210, or set a default country code. [item 1]',
		],
		[
			'a phone number of only a country code',
			{},
			{ phone: '+49' },
			'"Phone Number" is too short to be a phone number: "+49". Give the number with + and its country code, such as +919876543210. [item 1]',
		],
		[
			'an empty Agent ID (from an expression)',
			{},
			{ agentId: '' },
			'"Agent ID" is empty. Enter the ID of the CallKaro agent. Its expression {{ $json.agentId }} gave an empty value for this item: check that the input item has the field it reads. [item 1]',
		],
		...badAdditionalFields.map(
			([what, additionalFields, bad, message]): BadInputCase => [
				what,
				{ additionalFields },
				bad,
				message,
			],
		),
	],
	apiErrors: [
		...agentEndpointRefusals(),
		{
			title: '400 agent not matching the campaign',
			httpCode: '400',
			refused: async (sandbox) => ({
				batchId: await createCampaign(
					sandbox,
					{ name: 'Support', agent_id: 'agent_support_02' },
					'v1',
				),
			}),
			message: 'CallKaro rejected the request (HTTP 400): Agent does not match the campaign',
			kind: 'bad-request',
			serviceMessage: 'Agent does not match the campaign',
			description: HINTS.badRequest,
		},
		{
			title: '404 unknown campaign',
			httpCode: '404',
			refused: () => ({ batchId: '000000000000000000000000' }),
			message: 'Not found (HTTP 404): Campaign not found',
			kind: 'not-found',
			serviceMessage: 'Campaign not found',
			description: HINTS.notFound,
		},
		rateLimitedBeyondWait(31),
		// one request per item: Outbound Call never retries a call CallKaro may have placed
		{
			title: '500, not retried',
			httpCode: '500',
			faults: { sequence: ['ok', '500', 'ok'] },
			message:
				'CallKaro failed (HTTP 500) and the call may or may not have been placed; it was not retried, to avoid calling twice: Internal server error',
			kind: 'service-failure',
			serviceMessage: 'Internal server error',
			description: HINTS.outcomeUnknown,
			outcomeUnknown: true,
		},
		{
			title: '502, not retried',
			httpCode: '502',
			faults: { sequence: ['ok', '502', 'ok'] },
			message:
				'CallKaro failed (HTTP 502) and the call may or may not have been placed; it was not retried, to avoid calling twice: Bad gateway',
			kind: 'service-failure',
			serviceMessage: 'Bad gateway',
			description: HINTS.outcomeUnknown,
			outcomeUnknown: true,
		},
		{
			title: '503 at a rate of 1',
			httpCode: '503',
			faults: { rates: { 503: 1 }, seed: 5 },
			message:
				'CallKaro failed (HTTP 503) and the call may or may not have been placed; it was not retried, to avoid calling twice: Service unavailable',
			kind: 'service-failure',
			serviceMessage: 'Service unavailable',
			description: HINTS.outcomeUnknown,
			outcomeUnknown: true,
			allFail: true,
		},
	],
	tool: {
		parameters: {
			agentId: AGENT,
			phoneNumber: fromAI('phoneNumber', 'The number to call, with country code'),
			additionalFields: {
				metadata: { entry: [{ key: 'topic', value: fromAI('topic', 'What the call is about') }] },
			},
		},
		args: (phoneNumber) => ({ phoneNumber, topic: 'delivery slot' }),
		schemaKeys: ['phoneNumber', 'topic'],
		body: (phone) => ({
			to_number: phone,
			agent_id: AGENT,
			metadata: { topic: 'delivery slot' },
		}),
		badInput: [
			{ phoneNumber: '98765 01234', topic: 'x' },
			'"Phone Number" has no country code: "98****1234". Start the number with + and the country code, e.g. +919876543210, or set a default country code. [item 0]',
		],
	},
};
