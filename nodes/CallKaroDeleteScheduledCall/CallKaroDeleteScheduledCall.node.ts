import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { callKaroCredentials } from '../shared/descriptions';
import { executeForEachItem } from '../shared/executeForEachItem';
import * as deleteScheduledCall from './deleteScheduledCall.operation';

export class CallKaroDeleteScheduledCall implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CallKaro Delete Scheduled Call',
		name: 'callKaroDeleteScheduledCall',
		icon: { light: 'file:../../icons/callkaro.svg', dark: 'file:../../icons/callkaro.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: 'Cancel a scheduled call',
		description:
			'Cancel the scheduled call of a CallKaro agent to a phone number, so it is not placed',
		documentationUrl:
			'https://github.com/callkaro/n8n-nodes-callkaro/blob/main/docs/delete-scheduled-call.md',
		defaults: { name: 'CallKaro Delete Scheduled Call' },
		inputs: [NodeConnectionTypes.Main],
		...deleteScheduledCall.outputs,
		usableAsTool: { replacements: { description: deleteScheduledCall.toolDescription } },
		credentials: callKaroCredentials,
		properties: [...deleteScheduledCall.description],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeForEachItem(this, deleteScheduledCall);
	}
}
