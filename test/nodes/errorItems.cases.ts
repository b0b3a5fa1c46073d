// One error-item shape: whatever failed an item (bad input, an expression, CallKaro's answer,
// Fail the Item on attribute problems), its json is { error, details } with the same keys, so a
// branch can always read details.kind, details.attempts and details.outcomeUnknown.
import type { IDataObject, INode } from 'n8n-workflow';
import { ExpressionError } from 'n8n-workflow';

import { errorItemJson, toNodeError } from '../../nodes/shared/errors';

import { OUTBOUND_CALL } from '../engine/callKaroNodes';
import {
	NODE_NAME,
	NOTHING_SENT,
	apiRequests,
	failedItemJson,
	freshNumbers,
	refusedItemJson,
	runNode,
	useSandbox,
	workflowError,
} from './fixtures';
import type { NodeErrorShape } from './fixtures';

const DETAILS_KEYS = [
	'attempts',
	'description',
	'httpStatus',
	'kind',
	'outcomeUnknown',
	'serviceMessage',
];

describe('error items', () => {
	const sandbox = useSandbox();

	async function callEach(items: IDataObject[], parameters: IDataObject = {}) {
		const result = await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: {
				agentId: '={{ $json.agent }}',
				phoneNumber: '={{ $json.phone }}',
				...parameters,
			},
			items,
			settings: { continueOnFail: true },
		});
		return (result.runData[NODE_NAME][0].data?.main[0] ?? []).map((item) => item.json);
	}

	it('have the same details keys for bad input, a failing expression and a refused request', async () => {
		const [phone] = freshNumbers(1);
		const [badInput, expression, refused] = await callEach(
			[
				{ agent: 'agent_sales_01', phone: '12' },
				{ agent: 'agent_sales_01', phone },
				{ agent: 'agent_nobody', phone },
			],
			{ phoneNumber: "={{ $itemIndex === 1 ? $('No Such Node').item.json.phone : $json.phone }}" },
		);

		for (const json of [badInput, expression, refused]) {
			expect(Object.keys(json)).toEqual(['error', 'details']);
			expect(Object.keys(json.details as IDataObject)).toEqual(
				expect.arrayContaining(DETAILS_KEYS),
			);
		}
		expect(badInput.details).toMatchObject({
			kind: 'invalid-input',
			attempts: 0,
			outcomeUnknown: false,
		});
		expect(expression.details).toEqual({
			kind: 'expression',
			httpStatus: null,
			serviceMessage: null,
			attempts: 0,
			outcomeUnknown: false,
			description: `${NOTHING_SENT} The node 'No Such Node' doesn't exist in this workflow: check the name in the expression.`,
		});
		expect(refused.details).toMatchObject({
			kind: 'not-found',
			httpStatus: 404,
			serviceMessage: 'Agent does not exist',
			attempts: 1,
			outcomeUnknown: false,
		});
		expect(apiRequests(sandbox())).toHaveLength(1);
	});

	it.each([
		['reads a field the item lacks', '={{ $json.phone }}'],
		// n8n gives an expression that fails this way an empty value, not an error
		['reads into an object the item lacks', '={{ $json.contact.phone }}'],
	])(
		'say when an expression gave an empty value, instead of only "is empty" (it %s)',
		async (_, phoneNumber) => {
			const [item] = await callEach([{ agent: 'agent_sales_01', telephone: '+919876543210' }], {
				phoneNumber,
			});

			expect(failedItemJson({ json: item })).toEqual(
				refusedItemJson(
					`"Phone Number" is empty. Enter a phone number with country code, e.g. +919876543210. Its expression ${phoneNumber.slice(1)} gave an empty value for this item: check that the input item has the field it reads. [item 0]`,
				),
			);
			expect(apiRequests(sandbox())).toEqual([]);
		},
	);

	it("keep the node an expression reached for in the error's context, as n8n's editor reads it", async () => {
		const result = await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: {
				agentId: 'agent_sales_01',
				phoneNumber: "={{ $('CRM Lookup').item.json.phone }}",
			},
		});

		const error = workflowError(result) as NodeErrorShape & { context: IDataObject };
		expect(error.message).toBe("Referenced node doesn't exist");
		expect(error.context).toMatchObject({
			itemIndex: 0,
			nodeCause: 'CRM Lookup',
			descriptionKey: 'nodeNotFound',
		});
		expect(error.description).toContain(
			"The node 'CRM Lookup' doesn't exist in this workflow: check the name in the expression.",
		);
		expect(apiRequests(sandbox())).toEqual([]);
	});

	it("keep n8n's own description of an expression error under ours", () => {
		const node = { name: NODE_NAME, parameters: {} } as unknown as INode;
		const n8nDescription =
			'Some intermediate nodes between ‘Sheet’ and ‘CallKaro’ have not executed yet.';
		const expression = new ExpressionError('Can’t get data for expression', {
			description: n8nDescription,
		});

		const error = toNodeError(node, expression, 2);

		expect(error.description).toBe(`${NOTHING_SENT} ${n8nDescription}`);
		expect(errorItemJson(error).details).toMatchObject({
			kind: 'expression',
			description: `${NOTHING_SENT} ${n8nDescription}`,
		});
	});
});
