import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { callKaroCredentials } from '../shared/descriptions';
import { executeForEachItem } from '../shared/executeForEachItem';
import * as createCampaign from './createCampaign.operation';

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
		documentationUrl:
			'https://github.com/callkaro/n8n-nodes-callkaro/blob/main/docs/create-campaign.md',
		defaults: { name: 'CallKaro Create Campaign' },
		inputs: [NodeConnectionTypes.Main],
		...createCampaign.outputs,
		usableAsTool: true,
		credentials: callKaroCredentials,
		properties: [...createCampaign.description],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeForEachItem(this, createCampaign);
	}
}
