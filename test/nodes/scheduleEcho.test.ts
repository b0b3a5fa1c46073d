// Every node that takes a schedule time echoes it the same way: the IST text sent, the UTC
// instant, whether it was past, and the zone a time without an offset was read in (the
// workflow's when the Time Zone option is empty).
import type { INodeParameters } from 'n8n-workflow';

import { ASSIGN_WORKFLOW, OUTBOUND_CALL } from '../engine/callKaroNodes';
import { NODE_NAME, freshNumber, runNode, useSandbox } from './fixtures';

const NODES: Array<[string, string, (scheduleAt: string, timeZone?: string) => INodeParameters]> = [
	[
		'Assign Workflow',
		ASSIGN_WORKFLOW,
		(scheduleAt, timeZone) => ({
			phoneNumber: freshNumber(),
			workflowId: 'wf_welcome',
			attributeSource: 'none',
			schedule: 'at',
			scheduleAt,
			options: timeZone ? { timeZone } : {},
		}),
	],
	[
		'Outbound Call',
		OUTBOUND_CALL,
		(scheduleAt, timeZone) => ({
			phoneNumber: freshNumber(),
			agentId: 'agent_sales_01',
			additionalFields: { scheduleAt },
			options: timeZone ? { timeZone } : {},
		}),
	],
];

describe.each(NODES)('%s echoes its schedule', (_, type, parameters) => {
	const sandbox = useSandbox();

	async function outputOf(scheduleAt: string, timeZone?: string, workflowZone?: string) {
		const result = await runNode(sandbox(), {
			type,
			parameters: parameters(scheduleAt, timeZone),
			timezone: workflowZone,
		});
		return result.runData[NODE_NAME][0].data?.main[0]?.[0]?.json;
	}

	it("with the workflow's time zone when the option is empty", async () => {
		await expect(
			outputOf('2030-12-01T09:30', undefined, 'America/New_York'),
		).resolves.toMatchObject({
			scheduleAt: '2030-12-01T20:00:00',
			scheduledForUtc: '2030-12-01T14:30:00.000Z',
			scheduleInPast: false,
			scheduleTimeZone: 'America/New_York',
		});
	});

	it('with the Time Zone option when it is set', async () => {
		await expect(
			outputOf('2030-12-01T09:30', 'Europe/London', 'America/New_York'),
		).resolves.toMatchObject({
			scheduleAt: '2030-12-01T15:00:00',
			scheduleTimeZone: 'Europe/London',
		});
	});

	it('flags a time in the past, which is sent all the same', async () => {
		await expect(outputOf('2020-01-06T10:00:00+05:30')).resolves.toMatchObject({
			scheduleAt: '2020-01-06T10:00:00',
			scheduleInPast: true,
		});
	});
});
