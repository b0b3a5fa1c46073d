import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { CallKaroClient } from '../../src/client/client';
import { prepareCampaign } from '../../src/input/requests';
import type { RunVocabulary } from '../../src/run/runReport';
import {
	agentIdProperty,
	concurrencyOption,
	maxRequestsPerSecondOption,
	previewOnlyOption,
} from '../shared/descriptions';
import type { ActionOperation } from '../shared/executeForEachItem';
import type { PreparedItem } from '../shared/runState';

export const vocabulary: RunVocabulary = {
	noun: 'campaigns',
	effect: 'created',
	rerun: 'running this node again creates them again',
};

export const retryOnFailWarning =
	'Retry On Fail is on: when this node fails, n8n runs it again for every item and creates again every campaign it already created. Turn it off: the node itself retries only what cannot create a second campaign.';

export const description: INodeProperties[] = [
	{
		displayName: 'Campaign Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. November renewals',
		description:
			"Shown in the CallKaro dashboard; the output's batch ID goes into Outbound Call's Campaign ID",
	},
	{
		displayName: 'Campaign Type',
		name: 'campaignType',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Single Agent (V1)',
				value: 'v1',
				description: 'Every call of the campaign uses one agent',
			},
			{
				name: 'Multi Agent (V2)',
				value: 'v2',
				description: 'Each call names its own agent',
			},
		],
		default: 'v1',
		description:
			'Single Agent: every call uses the Agent ID below; Multi Agent: each Outbound Call that joins sets its own',
	},
	{
		...agentIdProperty,
		description: 'The agent that makes every call of the campaign',
		displayOptions: { show: { campaignType: ['v1'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [concurrencyOption, maxRequestsPerSecondOption, previewOnlyOption],
	},
];

export const outputs: ActionOperation['outputs'] = { outputs: [NodeConnectionTypes.Main] };

/** Reads and checks one item now; the returned function sends it. */
export function prepare(
	context: IExecuteFunctions,
	client: CallKaroClient,
	itemIndex: number,
): PreparedItem {
	const version = context.getNodeParameter('campaignType', itemIndex) as 'v1' | 'v2';
	const prepared = prepareCampaign({
		name: context.getNodeParameter('name', itemIndex),
		agentId: version === 'v1' ? context.getNodeParameter('agentId', itemIndex) : undefined,
		version,
	});

	return {
		send: async () => {
			const result = await client.createCampaign(prepared);

			return {
				output: 0,
				outcome: 'created',
				tookEffect: true,
				json: {
					batchId: result.batchId,
					status: result.status ?? null,
					message: result.message ?? null,
					name: prepared.request.name,
					campaignType: version,
					attempts: result.attempts,
					body: result.body as IDataObject,
				},
			};
		},
	};
}
