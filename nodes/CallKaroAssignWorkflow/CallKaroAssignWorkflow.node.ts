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
		version: 1,
		subtitle: '={{$parameter["schedule"] === "at" ? "Start at a set time" : "Start now"}}',
		description:
			'Put a phone number into a CallKaro calling workflow, save CRM attributes on the contact, and start now or at a set time. The number is written with + and its country code (e.g. +919876543210)',
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
