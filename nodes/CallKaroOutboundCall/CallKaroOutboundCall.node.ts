import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { callKaroCredentials } from '../shared/descriptions';
import { executeForEachItem } from '../shared/executeForEachItem';
import * as outboundCall from './outboundCall.operation';

export class CallKaroOutboundCall implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CallKaro Outbound Call',
		name: 'callKaroOutboundCall',
		icon: { light: 'file:../../icons/callkaro.svg', dark: 'file:../../icons/callkaro.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["additionalFields"].scheduleAt ? "Call at a set time" : "Call now"}}',
		// An agent's tool saved without its own Tool Description tells the model this text.
		description:
			'Place one phone call with a CallKaro voice agent, now or at a set time. The number is written with + and its country code (e.g. +919876543210), a time as ISO 8601 with its offset',
		documentationUrl:
			'https://github.com/callkaro/n8n-nodes-callkaro/blob/main/docs/outbound-call.md',
		defaults: { name: 'CallKaro Outbound Call' },
		inputs: [NodeConnectionTypes.Main],
		...outboundCall.outputs,
		usableAsTool: { replacements: { description: outboundCall.toolDescription } },
		credentials: callKaroCredentials,
		properties: [...outboundCall.description],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeForEachItem(this, outboundCall);
	}
}
