// Expressions that give nothing, in a real n8n (README "Errors, retries and duplicate calls"): an
// expression reading a field the item lacks, or into an object it lacks, reaches the node as an
// empty value (n8n does not fail it), and the node says which expression gave it; an expression
// n8n refuses fails the item with n8n's message and details.kind "expression". Nothing is sent
// for those items. And ("Scheduling and time zones") a Schedule Time without an offset, in a
// workflow that sets no time zone, is read in India time, not n8n's instance default zone.
import { CREDENTIAL_ID, CREDENTIAL_NAME } from '../../scripts/n8n/host.mjs';
import { once, startE2e } from './harness.mjs';

const WORKFLOW_ID = 'ckExprE2e0000001';
const LEADS = [
	{ agentId: 'agent_sales_01', contact: { phone: '+91 98200 66601' } },
	{ contact: { phone: '+91 98200 66602' } },
	{ agentId: 'agent_sales_01' },
	{ agentId: 'agent_sales_01', contact: { phone: '+91 98200 66604' }, fromMissingNode: true },
];
const node = (name, type, typeVersion, x, parameters, more = {}) => ({
	id: `7e8f0000-0000-4000-8000-00000000e2e${x}`,
	name,
	type,
	typeVersion,
	position: [x * 220, 0],
	parameters,
	...more,
});
const workflow = {
	id: WORKFLOW_ID,
	name: 'Leads whose expressions give nothing (e2e)',
	active: false,
	settings: { executionOrder: 'v1' },
	nodes: [
		node('Start', 'n8n-nodes-base.manualTrigger', 1, 0, {}),
		node('Leads', 'n8n-nodes-base.code', 2, 1, {
			jsCode: `return ${JSON.stringify(LEADS)}.map((json) => ({ json }));`,
		}),
		node(
			'Call',
			'n8n-nodes-callkaro.callKaroOutboundCall',
			1,
			2,
			{
				agentId: '={{ $json.agentId }}',
				phoneNumber: '={{ $json.contact.phone }}',
				additionalFields: {
					language: "={{ $json.fromMissingNode ? $('No Such Node').first().json.language : 'hi' }}",
					scheduleAt: '2030-12-01T09:30',
				},
				// a time years ahead, so that it never passes: sent as it is
				options: { concurrency: 1, farAheadSchedule: 'send' },
			},
			{
				onError: 'continueRegularOutput',
				credentials: { callKaroApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
			},
		),
	],
	connections: {
		Start: { main: [[{ node: 'Leads', type: 'main', index: 0 }]] },
		Leads: { main: [[{ node: 'Call', type: 'main', index: 0 }]] },
	},
};

let e2e;
beforeAll(async () => {
	e2e = await startE2e({ examples: false, workflows: [workflow] });
});
afterAll(() => e2e?.close());

const run = once(async () => (await e2e.execute(WORKFLOW_ID)).Call.outputs[0]);

test('expressions that give nothing: the node names the expression; one n8n refuses is kind "expression"; nothing sent for them', async () => {
	const [placed, noAgent, noContact, refused] = await run();

	expect(placed).toMatchObject({ placed: true, toNumber: '+919820066601' });
	expect(noAgent.error).toBe(
		'"Agent ID" is empty. Enter the ID of the CallKaro agent. Its expression {{ $json.agentId }} gave an empty value for this item: check that the input item has the field it reads. [item 1]',
	);
	expect(noContact.error).toBe(
		'"Phone Number" is empty. Enter a phone number with country code, e.g. +919876543210. Its expression {{ $json.contact.phone }} gave an empty value for this item: check that the input item has the field it reads. [item 2]',
	);
	expect(refused.details.kind).toBe('expression');
	expect(refused.error).toBe("Referenced node doesn't exist");
	// the node it reached for, as n8n's editor says it from the error's context
	expect(refused.details.description).toContain(
		"The node 'No Such Node' doesn't exist in this workflow: check the name in the expression.",
	);
	const calls = (await e2e.state()).calls.filter((call) => call.number.startsWith('9198200666'));
	expect(calls.map((call) => call.number)).toEqual(['919820066601']);
});

test("a Schedule Time without an offset, in a workflow with no time zone: India time, not n8n's instance default", async () => {
	const [placed] = await run();

	expect(e2e.env.GENERIC_TIMEZONE ?? 'America/New_York').toBe('America/New_York');
	expect(placed).toMatchObject({
		scheduleAt: '2030-12-01T09:30:00',
		scheduledForUtc: '2030-12-01T04:00:00.000Z',
		scheduleTimeZone: 'Asia/Kolkata',
	});
});
