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
		// 2: one Time Zone field for every time setting, and Calling Hours in place of Earliest and
		// Latest Call Time; 1 keeps the fields it saved (docs: Versions).
		version: [1, 2],
		defaultVersion: 2,
		subtitle:
			'={{$parameter["additionalFields"].scheduleAt ? "Call at Schedule Time (or now)" : "Call now"}}',
		description: 'Place a phone call with a CallKaro voice agent, now or at a set time',
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
