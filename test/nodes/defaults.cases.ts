// Every default a node's field has is sent when the builder leaves the field as it is: an example
// value as a default (a name, a number, an ID) would be sent for every item. Examples belong in
// placeholders. This lists every non-empty default of every field of every node, so that a new one
// is a decision made here, with its reason.
import type { INodeProperties, INodeType } from 'n8n-workflow';

import { CallKaroAssignWorkflow } from '../../nodes/CallKaroAssignWorkflow/CallKaroAssignWorkflow.node';
import { CallKaroCreateCampaign } from '../../nodes/CallKaroCreateCampaign/CallKaroCreateCampaign.node';
import { CallKaroDeleteScheduledCall } from '../../nodes/CallKaroDeleteScheduledCall/CallKaroDeleteScheduledCall.node';
import { CallKaroOutboundCall } from '../../nodes/CallKaroOutboundCall/CallKaroOutboundCall.node';
import { CallKaroTrigger } from '../../nodes/CallKaroTrigger/CallKaroTrigger.node';

const NODES: INodeType[] = [
	new CallKaroAssignWorkflow(),
	new CallKaroDeleteScheduledCall(),
	new CallKaroOutboundCall(),
	new CallKaroCreateCampaign(),
	new CallKaroTrigger(),
];

/** A field's path, e.g. 'options.callingHours.window.start', and its default when it is text. */
function textDefaults(properties: INodeProperties[], prefix = ''): Array<[string, string]> {
	return properties.flatMap((property) => {
		const path = `${prefix}${property.name}`;
		const own: Array<[string, string]> =
			typeof property.default === 'string' && property.default !== ''
				? [[path, property.default]]
				: [];
		const nested = (property.options ?? []).flatMap((option) => {
			if ('values' in option) return textDefaults(option.values, `${path}.${option.name}.`);
			if ('type' in option) return textDefaults([option as INodeProperties], `${path}.`);
			return [];
		});
		return [...own, ...nested];
	});
}

/** Choices and settings, each a value the node means, never an example of data. */
const DEFAULTS_THAT_ARE_CHOICES = [
	'attributeSource = none',
	'attributesJson = {}',
	'schedule = now',
	'guardWindow = ever',
	'timeZone = Asia/Kolkata',
	'options.callingHours.window.start = 09:00',
	'options.callingHours.window.end = 21:00',
	'options.callingHours.window.zone = Asia/Kolkata',
	'options.callingHours.window.onOutside = move',
	'options.farAheadSchedule = fail',
	'options.longPastSchedule = fail',
	'options.scheduleNumbers = epoch',
	'options.onAttributeProblems = report',
	'options.unsendableValues = leaveOut',
	'options.bodyFormat = json',
	'options.whenNothingScheduled = output',
	'additionalFields.language = en',
	'additionalFields.metadataJson = {}',
	'campaignType = v1',
	'headerName = X-CallKaro-Secret',
	'authentication = credential',
	'authentication = parameters',
];

function defaultsOf(node: INodeType): string[] {
	return textDefaults(node.description.properties).map(([path, value]) => `${path} = ${value}`);
}

describe('defaults are choices, never example data', () => {
	test.each(NODES.map((node) => [node.description.displayName, node] as const))(
		'%s',
		(_name, node) => {
			expect(
				defaultsOf(node).filter((entry) => !DEFAULTS_THAT_ARE_CHOICES.includes(entry)),
			).toEqual([]);
		},
	);

	test('the list names only defaults that exist', () => {
		const found = new Set(NODES.flatMap(defaultsOf));
		expect(DEFAULTS_THAT_ARE_CHOICES.filter((entry) => !found.has(entry))).toEqual([]);
	});
});
