// The node an item came from, as the CallKaro nodes see it in n8n's engine: what the package
// knows of that node's shape (src/records/sourceNodes.ts) is applied, and said in readAs and a hint.
import { Settings } from 'luxon';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ASSIGN_WORKFLOW, DELETE_SCHEDULED_CALL, OUTBOUND_CALL } from '../../engine/callKaroNodes';
import { NODE_NAME, apiRequests, runNode, useSandbox } from '../fixtures';

const NOW = Date.parse('2026-11-25T06:00:00Z');
const ODOO = { name: 'Odoo Contacts', type: 'n8n-nodes-base.odoo' };
const IF = { name: 'Has Mobile', type: 'n8n-nodes-base.if' };
const SET = { name: 'Edit Fields', type: 'n8n-nodes-base.set' };
const FILTER = { name: 'Not Called Yet', type: 'n8n-nodes-base.filter' };

/** An Odoo res.partner as the Odoo node gives it: false for empty fields, UTC times without offset. */
const odooPartner: IDataObject = {
	id: 42,
	name: 'Asha Rao',
	mobile: '+91 98200 17001',
	phone: false,
	email: 'asha@example.com',
	city: 'Pune',
	function: false,
	x_callback_at: '2026-12-05 05:00:00',
	write_date: '2026-11-20 04:35:03',
};

const ASSIGN = {
	workflowId: 'wf_welcome',
	phoneNumber: '={{ $json.mobile }}',
	attributeSource: 'json',
	attributesJson: '={{ $json }}',
	schedule: 'at',
	scheduleAt: '={{ $json.x_callback_at }}',
};

describe('items from Odoo', () => {
	const sandbox = useSandbox({ runDurationMs: 0 });
	beforeEach(() => {
		Settings.now = () => NOW;
	});
	afterEach(() => {
		Settings.now = () => Date.now();
	});

	const assign = (upstream: Array<{ name: string; type: string }>, options: INodeParameters = {}) =>
		runNode(sandbox(), {
			type: ASSIGN_WORKFLOW,
			parameters: { ...ASSIGN, options },
			items: [odooPartner],
			upstream,
		});

	test("Odoo's times are UTC and its false is empty: assumed, and said per item and in a hint", async () => {
		const result = await assign([ODOO]);
		const [item] = result.json(NODE_NAME);
		const [request] = apiRequests(sandbox());
		expect(request.body).toMatchObject({
			to_number: '+919820017001',
			schedule_at: '2026-12-05T10:30:00',
		});
		expect(item.attributes).toMatchObject({
			leftOut: [
				{ key: 'phone', reason: 'empty' },
				{ key: 'function', reason: 'empty' },
			],
		});
		expect(item).toMatchObject({
			scheduleTimeZone: 'UTC',
			scheduledForUtc: '2026-12-05T05:00:00.000Z',
		});
		expect(item.readAs).toEqual({
			node: 'Odoo Contacts',
			nodeType: 'Odoo',
			assumed: [
				'Attributes: false is an empty field, as Odoo writes it',
				'Schedule Time: a time without an offset is UTC, as Odoo gives it',
			],
		});
		expect(result.task(NODE_NAME).hints).toEqual([
			expect.objectContaining({
				message:
					'Items were read as Odoo gives them (node "Odoo Contacts"): Attributes: false is an empty field, as Odoo writes it; Schedule Time: a time without an offset is UTC, as Odoo gives it. readAs says so per item.',
			}),
		]);
	});

	test("through an If node, the items are still Odoo's", async () => {
		const result = await assign([ODOO, IF]);
		expect(result.json(NODE_NAME)[0].readAs).toMatchObject({ node: 'Odoo Contacts' });
		expect(apiRequests(sandbox())[0].body).toMatchObject({ schedule_at: '2026-12-05T10:30:00' });
	});

	test('through an If and a Filter node too', async () => {
		const result = await assign([ODOO, IF, FILTER]);
		expect(result.json(NODE_NAME)[0].readAs).toMatchObject({ node: 'Odoo Contacts' });
	});

	test('Edit Fields before an If node: nothing is assumed', async () => {
		const result = await assign([ODOO, SET, IF]);
		expect(result.json(NODE_NAME)[0].readAs).toBeUndefined();
	});

	test('after an Edit Fields node, nothing is assumed: the times are read in India time', async () => {
		const result = await assign([ODOO, SET]);
		const [item] = result.json(NODE_NAME);
		expect(item.readAs).toBeUndefined();
		expect(apiRequests(sandbox())[0].body).toMatchObject({ schedule_at: '2026-12-05T05:00:00' });
		// Without Odoo's rule, false is a true/false value, sent as it is.
		expect(item.attributes).toMatchObject({ leftOut: [] });
	});

	test('Options → Time Zone wins over the zone of the source', async () => {
		const result = await assign([ODOO], { timeZone: 'Asia/Kolkata' });
		expect(apiRequests(sandbox())[0].body).toMatchObject({ schedule_at: '2026-12-05T05:00:00' });
		expect(result.json(NODE_NAME)[0].readAs).toMatchObject({
			assumed: ['Attributes: false is an empty field, as Odoo writes it'],
		});
	});

	test("a time typed in the node is not Odoo's: read in India time", async () => {
		await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: {
				agentId: 'agent_sales_01',
				phoneNumber: '={{ $json.mobile }}',
				additionalFields: { scheduleAt: '2026-12-05 10:30:00' },
			},
			items: [odooPartner],
			upstream: [ODOO],
		});
		expect(apiRequests(sandbox())[0].body).toMatchObject({ schedule_at: '2026-12-05T10:30:00' });
	});

	test('an empty Odoo phone (false) is empty, and nothing is sent', async () => {
		const result = await runNode(sandbox(), {
			type: DELETE_SCHEDULED_CALL,
			parameters: { agentId: 'agent_sales_01', phoneNumber: '={{ $json.phone }}' },
			items: [odooPartner],
			upstream: [ODOO],
			settings: { continueOnFail: true },
		});
		expect(result.json(NODE_NAME)[0].error).toBe(
			'"Phone Number" has no value for this item: Odoo gives an empty field as false. Map a field that holds the number, or leave items without one out with a Filter node. [item 0]',
		);
		expect(apiRequests(sandbox())).toEqual([]);
	});
});
