// Assign Workflow and Outbound Call version 2 (issue 53): one Time Zone field that every time
// setting reads, Calling Hours without a zone of its own, and none of version 1's zone fields nor
// Outbound's Earliest/Latest Call Time and Carry Over. A workflow saved at version 1 runs as
// before: the same parameters give the same request. In n8n's real engine against the sandbox.
import { Settings } from 'luxon';
import type { IDataObject, INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { CallKaroAssignWorkflow } from '../../nodes/CallKaroAssignWorkflow/CallKaroAssignWorkflow.node';
import { CallKaroOutboundCall } from '../../nodes/CallKaroOutboundCall/CallKaroOutboundCall.node';
import { ASSIGN_WORKFLOW, OUTBOUND_CALL } from '../engine/callKaroNodes';
import {
	FAR_AHEAD_SENT,
	NODE_NAME,
	apiRequests,
	failedItemJson,
	freshNumber,
	refusedDetails,
	runNode,
	useSandbox,
} from './fixtures';

const EVERY_DAY = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
// 10:00 in London in January is 10:00 UTC, 15:30 in India and 05:00 in New York.
const TEN_IN_LONDON = '2030-01-07T10:00:00';
const NEW_YORK_DAYTIME = { start: '09:00', end: '17:00', days: EVERY_DAY, onOutside: 'move' };

describe('node versions', () => {
	const sandbox = useSandbox();

	async function sent(type: string, parameters: INodeParameters, typeVersion: number) {
		const settings = { typeVersion, continueOnFail: true };
		const result = await runNode(sandbox(), { type, parameters, settings });
		const [request] = apiRequests(sandbox());
		return { body: request?.body as IDataObject, json: result.json(NODE_NAME)[0], result };
	}

	describe('a workflow saved at version 1 runs as before', () => {
		test("Assign: Options › Time Zone reads the time, Calling Hours' own zone moves it", async () => {
			const { body } = await sent(
				ASSIGN_WORKFLOW,
				{
					phoneNumber: freshNumber(),
					workflowId: 'wf_welcome',
					schedule: 'at',
					scheduleAt: TEN_IN_LONDON,
					options: {
						...FAR_AHEAD_SENT,
						timeZone: 'Europe/London',
						callingHours: { window: { ...NEW_YORK_DAYTIME, zone: 'America/New_York' } },
					},
				},
				1,
			);
			// 05:00 in New York is before 09:00 there: moved to 14:00 UTC, 19:30 in India.
			expect(body.schedule_at).toBe('2030-01-07T19:30:00');
		});

		test('Outbound: Time Zone (Deprecated), Earliest and Latest Call Time, Carry Over', async () => {
			const { body } = await sent(
				OUTBOUND_CALL,
				{
					agentId: 'agent_sales_01',
					phoneNumber: freshNumber(),
					additionalFields: {
						scheduleAt: TEN_IN_LONDON,
						timeZone: 'Europe/London',
						minTriggerTime: '09:30',
						maxTriggerTime: '19:00',
						carryOver: true,
					},
					options: FAR_AHEAD_SENT,
				},
				1,
			);
			expect(body).toMatchObject({
				schedule_at: '2030-01-07T15:30:00',
				min_trigger_time: '09:30',
				max_trigger_time: '19:00',
				carry_over: true,
			});
		});
	});

	describe('version 2: one Time Zone for every time setting', () => {
		test('Assign: Time Zone reads the time and is the clock of Calling Hours', async () => {
			const { body, json } = await sent(
				ASSIGN_WORKFLOW,
				{
					phoneNumber: freshNumber(),
					workflowId: 'wf_welcome',
					schedule: 'at',
					scheduleAt: '2030-01-07T04:00:00',
					timeZone: 'America/New_York',
					options: { ...FAR_AHEAD_SENT, callingHours: { window: NEW_YORK_DAYTIME } },
				},
				2,
			);
			// 04:00 in New York is before 09:00 there: moved to 09:00, 14:00 UTC, 19:30 in India.
			expect(body.schedule_at).toBe('2030-01-07T19:30:00');
			expect(json).toMatchObject({
				scheduleTimeZone: 'America/New_York',
				scheduleMovedFrom: '2030-01-07T14:30:00',
			});
		});

		test("Outbound: India's clock by default, and nothing of version 1's call window", async () => {
			const { body } = await sent(
				OUTBOUND_CALL,
				{
					agentId: 'agent_sales_01',
					phoneNumber: freshNumber(),
					additionalFields: { scheduleAt: TEN_IN_LONDON },
					options: FAR_AHEAD_SENT,
				},
				2,
			);
			expect(body.schedule_at).toBe(TEN_IN_LONDON);
			expect(body).not.toHaveProperty('min_trigger_time');
			expect(body).not.toHaveProperty('carry_over');
		});

		test('a Time Zone given by an expression that names no zone fails the item, naming Time Zone', async () => {
			const { result } = await sent(
				OUTBOUND_CALL,
				{
					agentId: 'agent_sales_01',
					phoneNumber: freshNumber(),
					timeZone: '={{ "Mars/Olympus" }}',
				},
				2,
			);
			expect(apiRequests(sandbox())).toEqual([]);
			expect(failedItemJson(result.outputOf(NODE_NAME)[0][0]).details).toEqual(
				refusedDetails('Time Zone'),
			);
		});
	});
});

/** Every field a builder can reach on a version, by display name, nested ones included. */
function reachableFields(node: INodeType, typeVersion: number): string[] {
	// Every condition of the panel turned on: the guard by day, a schedule time, attributes.
	const values = { skipBefore: true, guardWindow: 'day', schedule: 'at', attributeSource: 'rows' };
	const walk = (properties: readonly INodeProperties[]): string[] =>
		properties.flatMap((property) => {
			const nested = (property.options ?? []).flatMap((option) => {
				if ('values' in option) return walk(option.values);
				return 'type' in option ? walk([option as INodeProperties]) : [];
			});
			return [property.displayName, ...nested];
		});
	const shown = node.description.properties.filter((property) =>
		NodeHelpers.displayParameter(values, property, { typeVersion }, node.description),
	);
	return walk(shown);
}

const DEPRECATED = [
	'Time Zone (Deprecated)',
	'Day Time Zone',
	'Earliest Call Time',
	'Latest Call Time',
	'Carry Over',
];

describe.each([
	['Assign Workflow', new CallKaroAssignWorkflow()],
	['Outbound Call', new CallKaroOutboundCall()],
])('%s: what a new node offers', (_name, node) => {
	test('a new node is version 2', () => {
		expect(node.description.defaultVersion).toBe(2);
	});

	test('one Time Zone, India by default, and no deprecated field', () => {
		const fields = reachableFields(node, 2);
		expect(fields.filter((field) => field === 'Time Zone')).toHaveLength(1);
		expect(fields.filter((field) => DEPRECATED.includes(field))).toEqual([]);
		const timeZone = node.description.properties.find(({ name }) => name === 'timeZone');
		const india = timeZone?.options?.find(
			(option) => 'value' in option && option.value === 'Asia/Kolkata',
		);
		expect([timeZone?.default, india?.name]).toEqual(['Asia/Kolkata', 'India (Asia/Kolkata)']);
	});

	test('Calling Hours lists Start before End', () => {
		const fields = reachableFields(node, 2);
		expect(fields.indexOf('Start')).toBeLessThan(fields.indexOf('End'));
	});

	test('version 1 keeps the fields it saved', () => {
		const fields = reachableFields(node, 1);
		expect(fields).toContain('Day Time Zone');
		expect(fields.filter((field) => field.startsWith('Time Zone')).length).toBeGreaterThan(1);
	});
});

describe('a Schedule Time within a minute of now is now', () => {
	const sandbox = useSandbox();
	const NOW = Date.parse('2030-01-07T06:00:00Z');
	const luxonNow = Settings.now;
	beforeAll(() => {
		Settings.now = () => NOW;
	});
	afterAll(() => {
		Settings.now = luxonNow;
	});

	test('30 seconds ago: not in the past, no note, and the output and run summary say so', async () => {
		const items = [0, 1].map(() => ({ phone: freshNumber() }));
		const result = await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			items,
			parameters: {
				agentId: 'agent_sales_01',
				phoneNumber: '={{ $json.phone }}',
				additionalFields: { scheduleAt: '={{ $now.minus({ seconds: 30 }) }}' },
			},
			settings: { typeVersion: 2 },
		});
		const outputs = result.json(NODE_NAME);
		expect(
			outputs.map(({ scheduleInPast, scheduleStartsNow }) => [scheduleInPast, scheduleStartsNow]),
		).toEqual([
			[false, true],
			[false, true],
		]);
		expect(outputs[0]).not.toHaveProperty('scheduleNote');
		const hints = (result.task(NODE_NAME).hints ?? []).map(({ message }) => message);
		expect(hints).toEqual(['2 items: 2 placed']);
	});

	test('an empty mapped Schedule Time is still refused, never a silent call now', async () => {
		const result = await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: {
				agentId: 'agent_sales_01',
				phoneNumber: freshNumber(),
				additionalFields: { scheduleAt: '={{ $json.callAt }}' },
			},
			settings: { typeVersion: 2, continueOnFail: true },
		});
		expect(apiRequests(sandbox())).toEqual([]);
		expect(failedItemJson(result.outputOf(NODE_NAME)[0][0]).details).toEqual(
			refusedDetails('Schedule Time'),
		);
	});
});
