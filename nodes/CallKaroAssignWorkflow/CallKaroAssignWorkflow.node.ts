import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { callKaroCredentials } from '../shared/descriptions';
import { executeForEachItem } from '../shared/executeForEachItem';
import * as assignWorkflow from './assignWorkflow.operation';

export class CallKaroAssignWorkflow implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CallKaro Assign Workflow',
		name: 'callKaroAssignWorkflow',
		icon: { light: 'file:../../icons/callkaro.svg', dark: 'file:../../icons/callkaro.dark.svg' },
		group: ['output'],
		// 2: one Time Zone field for every time setting; 1 keeps the zones it saved (docs: Versions).
		version: [1, 2],
		defaultVersion: 2,
		subtitle:
			'={{$parameter["schedule"] === "at" ? "Start at Schedule Time (or now)" : "Start now"}}',
		description:
			'Add a phone number to a CallKaro calling workflow, now or at a set time, with CRM attributes',
		documentationUrl:
			'https://github.com/callkaro/n8n-nodes-callkaro/blob/main/docs/assign-workflow.md',
		defaults: { name: 'CallKaro Assign Workflow' },
		inputs: [NodeConnectionTypes.Main],
		...assignWorkflow.outputs,
		usableAsTool: { replacements: { description: assignWorkflow.toolDescription } },
		credentials: callKaroCredentials,
		properties: [...assignWorkflow.description],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeForEachItem(this, assignWorkflow);
	}
}
