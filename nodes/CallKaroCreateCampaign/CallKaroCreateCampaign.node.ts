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
	maxRequestsPerSecondOption,
} from '../shared/descriptions';
import { executeForEachItem } from '../shared/executeForEachItem';
import { prepareCreateCampaign } from './createCampaign.operation';

export class CallKaroCreateCampaign implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CallKaro Create Campaign',
		name: 'callKaroCreateCampaign',
		icon: { light: 'file:../../icons/callkaro.svg', dark: 'file:../../icons/callkaro.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["campaignType"] === "v1" ? "Single agent" : "Multi agent"}}',
		description:
			'Create a CallKaro campaign (a batch of calls). Outbound Call joins it through its Campaign ID.',
		documentationUrl: 'https://github.com/callkaro/n8n-nodes-callkaro#callkaro-create-campaign',
		defaults: { name: 'CallKaro Create Campaign' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: callKaroCredentials,
		properties: [
			{
				displayName: 'Campaign Name',
				name: 'name',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'e.g. November renewals',
				description:
					'Shown in the CallKaro dashboard. Put the batch ID from the output into Outbound Call > Additional Fields > Campaign ID.',
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
					'Single Agent: every call uses the Agent ID below. Multi Agent: each Outbound Call that joins the campaign sets its own Agent ID.',
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
				options: [concurrencyOption, maxRequestsPerSecondOption],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeForEachItem(this, 1, (client, itemIndex) =>
			prepareCreateCampaign(this, client, itemIndex),
		);
	}
}
