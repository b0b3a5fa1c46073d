import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	callKaroCredentials,
	concurrencyOption,
	defaultCountryCodeOption,
	maxRequestsPerSecondOption,
	phoneNumberProperty,
	timeZoneOption,
} from '../shared/descriptions';
import { executeForEachItem } from '../shared/executeForEachItem';
import { ASSIGN_OUTPUTS, prepareAssignWorkflow } from './assignWorkflow.operation';

export class CallKaroAssignWorkflow implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CallKaro Assign Workflow',
		name: 'callKaroAssignWorkflow',
		icon: { light: 'file:../../icons/callkaro.svg', dark: 'file:../../icons/callkaro.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["schedule"] === "at" ? "Start at a set time" : "Start now"}}',
		description:
			'Put a phone number into a CallKaro calling workflow, save CRM attributes on the contact, and start now or at a set time',
		documentationUrl: 'https://github.com/callkaro/n8n-nodes-callkaro#callkaro-assign-workflow',
		defaults: { name: 'CallKaro Assign Workflow' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: ['Started', 'Already Running'],
		usableAsTool: true,
		credentials: callKaroCredentials,
		properties: [
			phoneNumberProperty,
			{
				displayName: 'Workflow ID',
				name: 'workflowId',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'e.g. 6650f0c2a1b2c3d4e5f60718',
				description:
					'ID of a CallKaro workflow with at least one step, from the workflow page of the dashboard',
			},
			{
				displayName: 'Attributes to Save',
				name: 'attributeSource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'None', value: 'none' },
					{ name: 'Using Fields Below', value: 'rows', description: 'One row per CRM attribute' },
					{
						name: 'Using JSON',
						value: 'json',
						description:
							'One JSON object whose keys are CRM attribute names, e.g. a whole CRM record',
					},
				],
				default: 'none',
				description:
					'CRM attributes saved on the contact before the run starts. Only attributes that already exist in CallKaro are saved.',
			},
			{
				displayName: 'Attributes',
				name: 'attributes',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: 'Add Attribute',
				default: {},
				displayOptions: { show: { attributeSource: ['rows'] } },
				options: [
					{
						name: 'attribute',
						displayName: 'Attribute',
						values: [
							{
								displayName: 'Attribute Name',
								name: 'key',
								type: 'string',
								default: '',
								placeholder: 'e.g. First Name',
								description:
									'Name of the CRM attribute. Case, spaces, underscores and hyphens are ignored.',
							},
							{
								displayName: 'Value',
								name: 'value',
								type: 'string',
								default: '',
								description: 'At most 1000 characters',
							},
							{
								displayName: 'Replace Existing Value',
								name: 'replace',
								type: 'boolean',
								default: false,
								description:
									'Whether to overwrite a value the contact already has. A value typed in by hand in CallKaro is never overwritten.',
							},
						],
					},
				],
			},
			{
				displayName: 'Attributes (JSON)',
				name: 'attributesJson',
				type: 'json',
				default: '{\n  "First Name": "Asha"\n}',
				displayOptions: { show: { attributeSource: ['json'] } },
				description:
					'Keys are CRM attribute names; values are text, numbers or booleans (at most 50 keys)',
			},
			{
				displayName: 'Replace Existing Values',
				name: 'replaceExisting',
				type: 'boolean',
				default: false,
				displayOptions: { show: { attributeSource: ['json'] } },
				description:
					'Whether to overwrite values the contact already has. A value typed in by hand in CallKaro is never overwritten.',
			},
			{
				displayName: 'Start Run',
				name: 'schedule',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Now', value: 'now' },
					{ name: 'At a Set Time', value: 'at' },
				],
				default: 'now',
				description: 'When CallKaro starts this workflow for the number',
			},
			{
				displayName: 'Schedule Time',
				name: 'scheduleAt',
				type: 'dateTime',
				required: true,
				default: '',
				displayOptions: { show: { schedule: ['at'] } },
				description:
					'When the run starts. Any date works, e.g. {{ $now.plus({ hours: 2 }) }}; it is sent as Indian time (IST). A time in the past starts the run now.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					concurrencyOption,
					defaultCountryCodeOption,
					maxRequestsPerSecondOption,
					{
						displayName: 'On Attribute Problems',
						name: 'onAttributeProblems',
						type: 'options',
						options: [
							{
								name: 'Report in Output',
								value: 'report',
								description: 'List ignored and invalid attributes in the output',
							},
							{
								name: 'Fail the Item',
								value: 'fail',
								description: 'Treat any ignored or invalid attribute as an error of the item',
							},
						],
						default: 'report',
						description:
							'What to do when CallKaro ignores an attribute (unknown name) or refuses its value. The run still starts either way.',
					},
					timeZoneOption,
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeForEachItem(this, ASSIGN_OUTPUTS, (client, itemIndex) =>
			prepareAssignWorkflow(this, client, itemIndex),
		);
	}
}
