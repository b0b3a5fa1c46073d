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
	defaultCountryCodeOption,
	maxRequestsPerSecondOption,
	phoneNumberProperty,
} from '../shared/descriptions';
import { executeForEachItem } from '../shared/executeForEachItem';
import { prepareDeleteScheduledCall } from './deleteScheduledCall.operation';

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
			'https://github.com/callkaro/n8n-nodes-callkaro#callkaro-delete-scheduled-call',
		defaults: { name: 'CallKaro Delete Scheduled Call' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: callKaroCredentials,
		properties: [
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
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeForEachItem(this, 1, (client, itemIndex) =>
			prepareDeleteScheduledCall(this, client, itemIndex),
		);
	}
}
