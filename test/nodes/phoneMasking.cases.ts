// No phone number in full in any message: a canary number, in every format the phone tests use, is
// fed into every field of every action node (an expression reading it from the item), and every
// message the node produces (error items, the `message` of other items, hints, the error that stops
// a run) is searched for its digits, however they are separated. The fields are read from the
// nodes' descriptions, so a field added to a node is swept too.
//
// `npm run test:deep` feeds every format into every field; `npm test` 3 formats into each field, the
// next 3 into the next field, so that every format is still fed into fields of every node. Or:
//   CALLKARO_MASKING_FORMATS=15 npx jest test/nodes/nodes -t 'no phone number in full'
import type { IDataObject, INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';

import { CallKaroAssignWorkflow } from '../../nodes/CallKaroAssignWorkflow/CallKaroAssignWorkflow.node';
import { CallKaroCreateCampaign } from '../../nodes/CallKaroCreateCampaign/CallKaroCreateCampaign.node';
import { CallKaroDeleteScheduledCall } from '../../nodes/CallKaroDeleteScheduledCall/CallKaroDeleteScheduledCall.node';
import { CallKaroOutboundCall } from '../../nodes/CallKaroOutboundCall/CallKaroOutboundCall.node';
import {
	ASSIGN_WORKFLOW,
	CREATE_CAMPAIGN,
	DELETE_SCHEDULED_CALL,
	OUTBOUND_CALL,
} from '../engine/callKaroNodes';
import { asciiDigits } from '../support/phoneOracle';
import { scaled } from '../support/testScale.mjs';
import { NODE_NAME, runNode, useSandbox } from './fixtures';

/** The canary, +91 98220 61537 (no example in any message), as people and systems write it. */
const FORMATS: Array<string | number> = [
	'+91 98220 61537',
	'+91-98220-61537',
	'+91.98220.61537',
	'(+91) 98220 61537',
	'+919822061537',
	'0091 98220 61537',
	'919822061537',
	'98220 61537',
	'098220-61537',
	'(98220) 61537',
	9822061537,
	919822061537,
	// as chat apps and forms in other scripts write it
	'+९१ ९८२२० ६१५३७',
	'＋９１ ９８２２０ ６１５３７',
	'+91\u200e 98220\u200e 61537',
];

/** How many formats each field is fed: all of them in the deep run. */
const FORMATS_PER_FIELD = Math.min(
	scaled('CALLKARO_MASKING_FORMATS', 3, FORMATS.length),
	FORMATS.length,
);

/** The formats the `field`-th field of the sweep is fed: the next ones after the field before's. */
function formatsOfField(field: number): Array<string | number> {
	return Array.from(
		{ length: FORMATS_PER_FIELD },
		(_, at) => FORMATS[(field * FORMATS_PER_FIELD + at) % FORMATS.length],
	);
}

/** Any 7 digits in a row of the canary: a masked number keeps at most its first 2 and last 4. */
const CANARY_RUNS = ['9822061', '8220615', '2206153', '2061537'];

/**
 * Whether a text shows the canary, its digits in any script, joined across spaces, dashes, dots,
 * brackets and invisible marks.
 */
function showsCanary(text: string): boolean {
	const joined = asciiDigits(text).replace(/(?<=\d)[\s\p{Pd}\p{Cf}.()]+(?=\d)/gu, '');
	return CANARY_RUNS.some((run) => joined.includes(run));
}

interface SweptNode {
	type: string;
	node: INodeType;
	/** Parameters under which every field is shown and read. */
	base: INodeParameters;
}

const IN_TWO_DAYS = '={{ $now.plus({ days: 2 }).toISO() }}';
const CANARY = '={{ $json.canary }}';

const NODES: SweptNode[] = [
	{
		type: ASSIGN_WORKFLOW,
		node: new CallKaroAssignWorkflow(),
		base: {
			phoneNumber: '+919820000001',
			workflowId: 'wf_welcome',
			attributeSource: 'rows',
			attributes: { attribute: [{ key: 'City', value: 'Pune' }] },
			schedule: 'at',
			scheduleAt: IN_TWO_DAYS,
		},
	},
	{
		type: OUTBOUND_CALL,
		node: new CallKaroOutboundCall(),
		base: {
			phoneNumber: '+919820000001',
			agentId: 'agent_sales_01',
			additionalFields: { scheduleAt: IN_TWO_DAYS },
		},
	},
	{
		type: DELETE_SCHEDULED_CALL,
		node: new CallKaroDeleteScheduledCall(),
		base: { phoneNumber: '+919820000001', agentId: 'agent_sales_01' },
	},
	{
		type: CREATE_CAMPAIGN,
		node: new CallKaroCreateCampaign(),
		base: { name: 'Renewals', campaignType: 'v1', agentId: 'agent_sales_01' },
	},
];

/** Every field a builder can fill in, as a path: 'options.callingHours.window.start'. */
function fieldPaths(properties: INodeProperties[], prefix = ''): string[] {
	return properties.flatMap((property) => {
		const path = `${prefix}${property.name}`;
		if (property.type === 'notice') return [];
		if (property.type === 'collection') {
			return fieldPaths(property.options as INodeProperties[], `${path}.`);
		}
		if (property.type === 'fixedCollection') {
			const groups = property.options as Array<{ name: string; values: INodeProperties[] }>;
			return groups.flatMap((group) => fieldPaths(group.values, `${path}.${group.name}.`));
		}
		return [path];
	});
}

/** Lists of rows (fixed collections with multiple values) hold one row here. */
const ROW_LISTS = new Set(['attributes.attribute', 'additionalFields.metadata.entry']);

/** `base` with the field at `path` reading the canary, and what the field needs to be read. */
function withCanary(base: INodeParameters, path: string): INodeParameters {
	const parameters = structuredClone(base) as IDataObject;
	if (path === 'attributesJson' || path === 'replaceExisting') parameters.attributeSource = 'json';
	if (path.startsWith('guard')) parameters.skipBefore = true;
	const keys = path.split('.');
	let parent = parameters;
	keys.slice(0, -1).forEach((key, index) => {
		const listPath = keys.slice(0, index + 1).join('.');
		if (ROW_LISTS.has(listPath)) {
			const rows = (parent[key] as IDataObject[] | undefined) ?? [{ key: 'k', value: 'v' }];
			parent[key] = rows;
			parent = rows[0];
			return;
		}
		parent[key] = (parent[key] as IDataObject | undefined) ?? {};
		parent = parent[key] as IDataObject;
	});
	parent[keys[keys.length - 1]] = CANARY;
	return parameters as INodeParameters;
}

/** Every message a run produced: error items whole, the message of other items, hints, the stop. */
function messagesOf(result: Awaited<ReturnType<typeof runNode>>): string[] {
	const items = result.runData[NODE_NAME]?.[0]?.data?.main.flat() ?? [];
	const fromItems = items.flatMap((item) => {
		const json = item?.json ?? {};
		if ('error' in json) return [JSON.stringify(json)];
		return [json.message, json.scheduleNote].filter((text) => typeof text === 'string');
	});
	const hints = (result.runData[NODE_NAME]?.[0]?.hints ?? []).map((hint) => hint.message);
	const stop = result.error ? [result.error.message, String(result.error.description ?? '')] : [];
	return [...fromItems, ...hints, ...stop] as string[];
}

const SWEEP = NODES.flatMap((swept) =>
	fieldPaths(swept.node.description.properties).map(
		(path) => [`${swept.node.description.displayName}: ${path}`, swept, path] as const,
	),
).map(([name, swept, path], field) => [name, swept, path, formatsOfField(field)] as const);

describe('no phone number in full in any message', () => {
	const sandbox = useSandbox({ runDurationMs: 0 });

	test('the detector finds the canary however it is written, and not once masked', () => {
		expect(FORMATS.filter((format) => !showsCanary(`is "${String(format)}"`))).toEqual([]);
		expect(showsCanary('"+91******1537" and "98******37"')).toBe(false);
	});

	test.each(SWEEP)('%s', async (_name, swept, path, formats) => {
		const result = await runNode(sandbox(), {
			type: swept.type,
			parameters: withCanary(swept.base, path),
			items: formats.map((canary) => ({ canary })),
			settings: { continueOnFail: true },
		});

		const messages = messagesOf(result);
		expect(messages.filter(showsCanary)).toEqual([]);
	});

	test('the sweep reaches the fields of all four action nodes, each node in every format', () => {
		expect(new Set(SWEEP.map(([, swept]) => swept.type)).size).toBe(4);
		expect(SWEEP.length).toBeGreaterThan(70);
		for (const { type } of NODES) {
			const fed = SWEEP.filter(([, swept]) => swept.type === type).flatMap(([, , , f]) => f);
			expect(new Set(fed)).toEqual(new Set(FORMATS));
		}
	});
});
