import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { CallKaroClient } from '../../src/client';
import { prepareDelete } from '../../src/requests';
import type { RunVocabulary } from '../../src/runReport';
import {
	agentIdProperty,
	concurrencyOption,
	defaultCountryCodeOption,
	maxRequestsPerSecondOption,
	phoneNumberProperty,
	previewOnlyOption,
} from '../shared/descriptions';
import type { ActionOperation } from '../shared/executeForEachItem';
import type { PreparedItem } from '../shared/runItems';

export const vocabulary: RunVocabulary = {
	noun: 'scheduled calls',
	effect: 'deleted',
	rerun: 'running this node again does no harm',
};

export const description: INodeProperties[] = [
	{
		...phoneNumberProperty,
		description: `The number the call was scheduled to. ${phoneNumberProperty.description}`,
	},
	agentIdProperty,
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
				description: 'How the phone number is sent. CallKaro accepts both.',
			},
			concurrencyOption,
			defaultCountryCodeOption,
			maxRequestsPerSecondOption,
			previewOnlyOption,
		],
	},
];

export const outputs: ActionOperation['outputs'] = { outputs: [NodeConnectionTypes.Main] };

interface DeleteOptions {
	bodyFormat?: 'json' | 'form';
	defaultCountryCode?: string;
}

/** Reads and checks one item now; the returned function sends it. */
export function prepare(
	context: IExecuteFunctions,
	client: CallKaroClient,
	itemIndex: number,
): PreparedItem {
	const options = context.getNodeParameter('options', itemIndex, {}) as DeleteOptions;
	const prepared = prepareDelete({
		agentId: context.getNodeParameter('agentId', itemIndex),
		phoneNumber: context.getNodeParameter('phoneNumber', itemIndex),
		defaultCountryCode: options.defaultCountryCode,
	});

	return {
		send: async () => {
			const result = await client.deleteScheduledCall({
				agentId: prepared.agentId,
				toNumber: prepared.toNumber,
				bodyFormat: options.bodyFormat ?? 'json',
			});

			return {
				output: 0,
				outcome: 'deleted',
				tookEffect: true,
				json: {
					deleted: true,
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
