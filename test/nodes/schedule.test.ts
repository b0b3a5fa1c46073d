// Schedule times in both scheduling nodes, in n8n's real engine against the local CallKaro sandbox:
// what is sent as schedule_at, and what the output tells the builder.
import { Settings } from 'luxon';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ASSIGN_WORKFLOW, OUTBOUND_CALL } from '../engine/callKaroNodes';
import {
	NODE_NAME,
	apiRequests,
	failedItemJson,
	refusedItemJson,
	freshNumber,
	runNode,
	useSandbox,
} from './fixtures';

/** The parameters that schedule each node at `={{ $json.when }}`. */
const NODES: Array<[string, string, (phone: string) => INodeParameters]> = [
	[
		'Assign Workflow',
		ASSIGN_WORKFLOW,
		(phone) => ({
			phoneNumber: phone,
			workflowId: 'wf_welcome',
			schedule: 'at',
			scheduleAt: '={{ $json.when }}',
		}),
	],
	[
		'Outbound Call',
		OUTBOUND_CALL,
		(phone) => ({
			agentId: 'agent_sales_01',
			phoneNumber: phone,
			additionalFields: { scheduleAt: '={{ $json.when }}' },
		}),
	],
];

// The clock the workflow runs under (winter, then summer) must not change what is sent.
const NOWS: Array<[string, number]> = [
	['January', Date.parse('2030-01-15T12:00:00Z')],
	['July', Date.parse('2030-07-15T12:00:00Z')],
];

describe.each(NODES)('Schedule Time in %s', (_node, type, parameters) => {
	const sandbox = useSandbox();

	describe.each(NOWS)('run in %s', (_month, now) => {
		const luxonNow = Settings.now;
		beforeEach(() => {
			Settings.now = () => now;
		});
		afterEach(() => {
			Settings.now = luxonNow;
		});

		it('sends a repeated wall time as its first occurrence, and says so in scheduleNote', async () => {
			const result = await runNode(sandbox(), {
				type,
				parameters: parameters(freshNumber()),
				items: [{ when: '2030-10-27T01:30:00' }],
				timezone: 'Europe/London',
			});

			// 01:30 BST (+01:00), the first of the two, is 06:00 in India
			expect((apiRequests(sandbox())[0].body as IDataObject).schedule_at).toBe(
				'2030-10-27T06:00:00',
			);
			expect(result.json(NODE_NAME)[0]).toMatchObject({
				scheduleAt: '2030-10-27T06:00:00',
				scheduledForUtc: '2030-10-27T00:30:00.000Z',
				scheduleNote: 'repeated wall time read as its first occurrence (+01:00)',
			});
		});

		it('has no scheduleNote for an ordinary time', async () => {
			const result = await runNode(sandbox(), {
				type,
				parameters: parameters(freshNumber()),
				items: [{ when: '2030-07-01T09:00:00' }],
				timezone: 'Europe/London',
			});

			expect(result.json(NODE_NAME)[0]).not.toHaveProperty('scheduleNote');
		});
	});

	it.each([
		[
			'an offset out of range, with a long fraction shown unmasked',
			'2030-12-01T09:30:45.123456789012+24:00',
			'"Schedule Time" has an offset that is not -23:59 to +23:59: "2030-12-01T09:30:45.123456789012+24:00". Write the offset as +HH:MM or -HH:MM, hours 00-23 and minutes 00-59, such as +05:30. [item 0]',
		],
		[
			'a year past 9999 in India',
			'9999-12-31T23:59:59Z',
			`"Schedule Time" is outside the years 0001 to 9999 in India time: "9999-12-31T23:59:59Z". CallKaro's schedule format has a four-digit year; pick a time in that range. [item 0]`,
		],
	])('refuses %s before sending', async (_case, when, message) => {
		const result = await runNode(sandbox(), {
			type,
			parameters: parameters(freshNumber()),
			items: [{ when }],
			settings: { continueOnFail: true },
		});

		expect(failedItemJson(result.outputOf(NODE_NAME)[0][0])).toEqual(refusedItemJson(message));
		expect(apiRequests(sandbox())).toEqual([]);
	});
});
