import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { CallKaroClient, DeleteResult } from '../../src/client/client';
import { CallKaroApiError } from '../../src/client/errors';
import { defaultCountryCodeOf } from '../../src/phone/phoneNumber';
import { prepareDelete } from '../../src/input/requests';
import type { RunVocabulary } from '../../src/run/runReport';
import {
	agentIdProperty,
	concurrencyOption,
	defaultCountryCodeOption,
	docsLink,
	maxRequestsPerSecondOption,
	phoneNumberProperty,
	previewOnlyOption,
} from '../shared/descriptions';
import type { ActionOperation } from '../shared/executeForEachItem';
import type { PreparedItem } from '../shared/runState';
import { sourceNodeOf } from '../shared/sourceNode';
import { allowedNumbersProperty, checkAllowedNumber } from '../shared/agentLimits';

export const vocabulary: RunVocabulary = {
	noun: 'scheduled calls',
	effect: 'deleted',
	rerun: 'running this node again does no harm',
};

/** What the model is told of the tool (the node's own description is for builders). */
export const toolDescription =
	'Cancels the scheduled call of a CallKaro voice agent to one phone number. The phone number must be written with + and its country code, e.g. +919876543210. The result says deleted: true, or deleted: false with status notScheduled when that number had no scheduled call. A result with error says which argument to fix and how; an error about Allowed Numbers means that calls to that number may not be cancelled with this tool at all; an error that a setting of this tool is wrong cannot be fixed by you: tell the person that the call cannot be cancelled now.';

export const description: INodeProperties[] = [
	{
		...phoneNumberProperty,
		description: `The number the call was scheduled to, with its country code (${docsLink('phone-numbers', 'how numbers are read')})`,
	},
	agentIdProperty,
	allowedNumbersProperty,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Body Format',
				name: 'bodyFormat',
				type: 'options',
				options: [
					{ name: 'JSON', value: 'json' },
					{
						name: 'Form Data',
						value: 'form',
						description: 'Multipart form data, as some older integrations send',
					},
				],
				default: 'json',
				description: 'How the phone number is sent; CallKaro accepts both',
			},
			concurrencyOption,
			defaultCountryCodeOption,
			maxRequestsPerSecondOption,
			previewOnlyOption,
			{
				displayName: 'When Nothing Is Scheduled',
				name: 'whenNothingScheduled',
				type: 'options',
				options: [
					{
						name: 'Output It',
						value: 'output',
						description: 'Output the item with deleted: false and status: notScheduled',
					},
					{
						name: 'Fail the Item',
						value: 'fail',
						description: 'Treat it as an error of the item',
					},
				],
				default: 'output',
				description:
					'What to do when this agent has no scheduled call to the number (placed, cancelled or never scheduled); a wrong Agent ID fails the item either way',
			},
		],
	},
];

export const outputs: ActionOperation['outputs'] = { outputs: [NodeConnectionTypes.Main] };

interface DeleteOptions {
	bodyFormat?: 'json' | 'form';
	defaultCountryCode?: unknown;
	whenNothingScheduled?: 'output' | 'fail';
}

/** When Nothing Is Scheduled = Fail the Item: CallKaro's answer as an error of the item. */
function nothingScheduledError(result: DeleteResult): CallKaroApiError {
	return new CallKaroApiError(
		`Nothing to delete: CallKaro has no scheduled call of this agent to this number (HTTP ${result.httpStatus}): ${result.message}`,
		{
			kind: 'not-scheduled',
			httpStatus: result.httpStatus,
			serviceMessage: result.message,
			attempts: result.attempts,
			outcomeUnknown: false,
			body: result.body,
			operation: 'delete',
		},
	);
}

/** Reads and checks one item now; the returned function sends it. */
export function prepare(
	context: IExecuteFunctions,
	client: CallKaroClient,
	itemIndex: number,
): PreparedItem {
	const options = context.getNodeParameter('options', itemIndex, {}) as DeleteOptions;
	const defaultCountryCode = defaultCountryCodeOf(options);
	const prepared = prepareDelete({
		agentId: context.getNodeParameter('agentId', itemIndex),
		phoneNumber: context.getNodeParameter('phoneNumber', itemIndex),
		phoneNumberParameter: context.getNode().parameters.phoneNumber,
		defaultCountryCode,
		sourceNode: sourceNodeOf(context)?.rules,
	});
	checkAllowedNumber(context, itemIndex, prepared.phone, defaultCountryCode, 'cancel calls to');

	return {
		send: async () => {
			const result = await client.deleteScheduledCall({
				agentId: prepared.agentId,
				toNumber: prepared.toNumber,
				bodyFormat: options.bodyFormat ?? 'json',
			});

			const deleted = result.outcome === 'deleted';
			if (!deleted && options.whenNothingScheduled === 'fail') throw nothingScheduledError(result);
			return {
				output: 0,
				outcome: deleted ? 'deleted' : 'not scheduled',
				tookEffect: deleted,
				json: {
					deleted,
					status: deleted ? 'deleted' : 'notScheduled',
					deletedByEarlierAttempt: result.deletedByEarlierAttempt,
					agentId: prepared.agentId,
					toNumber: prepared.toNumber,
					message: result.message,
					attempts: result.attempts,
					body: result.body as IDataObject,
				},
			};
		},
	};
}
