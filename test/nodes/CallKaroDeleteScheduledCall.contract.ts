// CallKaro Delete Scheduled Call's row of the action-node contract (test/nodes/shared/contract.ts).
import type { INodeParameters } from 'n8n-workflow';

import { DELETE_SCHEDULED_CALL } from '../engine/callKaroNodes';
import { vocabulary } from '../../nodes/CallKaroDeleteScheduledCall/deleteScheduledCall.operation';
import { call } from '../sandbox/helpers';
import { formatIst } from '../sandbox/sandbox.mjs';
import { HINTS, fromAI } from './fixtures';
import type { Sandbox } from './fixtures';
import { PHONE_NUMBER_KEYS } from './shared/contract';
import type { ActionNodeRow } from './shared/contract';
import { agentEndpointRefusals, rateLimitedBeyondWait } from './shared/refusals';

export const AGENT = 'agent_sales_01';
const DAY_MS = 24 * 60 * 60 * 1000;

/** Schedules a call for tomorrow straight through the sandbox's API; resolves to the call's id. */
export async function scheduleCall(
	sandbox: Sandbox,
	toNumber: string,
	agentId = AGENT,
): Promise<string> {
	const answer = await call(sandbox.url, '/call/outbound', {
		to_number: toNumber,
		agent_id: agentId,
		schedule_at: formatIst(Date.now() + DAY_MS),
	});
	return answer.body.call_id as string;
}

/** Agent ID and phone number from each item. */
export function fromItems(extra: INodeParameters = {}): INodeParameters {
	return { agentId: '={{ $json.agentId }}', phoneNumber: '={{ $json.phone }}', ...extra };
}

/** The output of a deleted call. */
export function deleted(phone: string, attempts = 1) {
	const message = 'Scheduled call deleted successfully';
	return {
		deleted: true,
		status: 'deleted',
		deletedByEarlierAttempt: false,
		agentId: AGENT,
		toNumber: phone,
		message,
		attempts,
		body: { status: 'success', message },
	};
}

export const deleteScheduledCall: ActionNodeRow = {
	displayName: 'CallKaro Delete Scheduled Call',
	type: DELETE_SCHEDULED_CALL,
	path: '/call/delete-schedule-call',
	faultEndpoint: 'delete',
	vocabulary,
	mainOutputs: 1,
	parameters: fromItems,
	...PHONE_NUMBER_KEYS,
	item: (phone) => ({ phone, agentId: AGENT, country: '91' }),
	arrange: async (sandbox, phones) => {
		for (const phone of phones) await scheduleCall(sandbox, phone);
	},
	succeeded: (phone, attempts) => deleted(phone, attempts),
	done: (sandbox) =>
		sandbox.state.calls
			.filter((entry) => entry.status === 'deleted')
			.map((entry) => entry.toNumber),
	retriesServerErrors: true,
	requiredField: 'agentId',
	preview: {
		title: 'the agent in the query',
		parameters: { agentId: AGENT, phoneNumber: '={{ $json.phone }}' },
		items: [{ phone: '+919876543210' }],
		requests: [
			{
				method: 'POST',
				path: `/call/delete-schedule-call?agent_id=${AGENT}`,
				body: { to_number: '+919876543210' },
			},
		],
	},
	badInput: [
		[
			'a phone number too short',
			{},
			{ phone: '+376 312 34' },
			'"Phone Number" is too short for a number in Andorra (+376): "+37**1234". Check for a missing digit, or write a number of another country with + and its country code. [item 1]',
		],
		[
			'a phone number with letters',
			{},
			{ phone: 'call me' },
			'"Phone Number" must be a phone number: digits, spaces, dashes, dots, brackets and a leading +, but is "call me". Give the number with + and its country code, such as +919876543210. [item 1]',
		],
		[
			'a phone number with country code 0',
			{},
			{ phone: '+0 1234 5678' },
			'"Phone Number" does not start with a calling code in use: "+01***5678". Check the digits after + (or 00): they begin with the country code, such as 91 for India or 44 for the UK. [item 1]',
		],
		[
			'an empty Agent ID (from an expression)',
			{},
			{ agentId: '  ' },
			'"Agent ID" is empty. Enter the ID of the CallKaro agent. Its expression {{ $json.agentId }} gave an empty value for this item: check that the input item has the field it reads. [item 1]',
		],
		[
			'a bad Default Country Code',
			{ options: { defaultCountryCode: '={{ $json.country }}' } },
			{ country: 'India' },
			'"Default Country Code" must be a calling code such as 91 or +91, or an ISO country code such as IN, not "India". Enter the calling code in digits, such as 49 or +49, or the two-letter ISO code, such as DE. [item 1]',
		],
	],
	apiErrors: [
		...agentEndpointRefusals(HINTS.deleteNotFound),
		rateLimitedBeyondWait(120),
		{
			title: '500 on every attempt',
			httpCode: '500',
			faults: { sequence: ['ok', '500', '500', '500', '500', 'ok'] },
			message:
				'CallKaro failed (HTTP 500) after 4 attempts and the scheduled call may or may not have been deleted: Internal server error',
			kind: 'service-failure',
			serviceMessage: 'Internal server error',
			description: HINTS.outcomeUnknown,
			outcomeUnknown: true,
			attempts: 4,
		},
		{
			title: '502 on every attempt',
			httpCode: '502',
			faults: { sequence: ['ok', '502', '502', '502', '502', 'ok'] },
			message:
				'CallKaro failed (HTTP 502) after 4 attempts and the scheduled call may or may not have been deleted: Bad gateway',
			kind: 'service-failure',
			serviceMessage: 'Bad gateway',
			description: HINTS.outcomeUnknown,
			outcomeUnknown: true,
			attempts: 4,
		},
		{
			title: '503 at a rate of 1',
			httpCode: '503',
			faults: { rates: { 503: 1 }, seed: 3 },
			message:
				'CallKaro failed (HTTP 503) after 4 attempts and the scheduled call may or may not have been deleted: Service unavailable',
			kind: 'service-failure',
			serviceMessage: 'Service unavailable',
			description: HINTS.outcomeUnknown,
			outcomeUnknown: true,
			attempts: 4,
			allFail: true,
		},
	],
	tool: {
		parameters: {
			agentId: AGENT,
			phoneNumber: fromAI('phoneNumber', 'The number whose call to cancel'),
		},
		args: (phoneNumber) => ({ phoneNumber }),
		schemaKeys: ['phoneNumber'],
		body: (phone) => ({ to_number: phone }),
		badInput: [
			{ phoneNumber: '98765 01234' },
			'"Phone Number" has no country code: "98****1234". Start the number with + and the country code, e.g. +919876543210, or set a default country code. [item 0]',
		],
	},
};
