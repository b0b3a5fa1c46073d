// Follow the advice and it passes, for dates, in n8n's engine: a Schedule Time written in a form
// the node does not read is refused with advice that wraps the field's own expression in
// DateTime.fromFormat; written into the node's parameters as a builder would, the same item is
// sent with the instant its text names. A few fixed cases and a seeded few generated ones (the
// core-level property, test/src/schedule/scheduleAdvice.property.test.ts, runs many more).
import fc from 'fast-check';
import { Settings } from 'luxon';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ASSIGN_WORKFLOW, OUTBOUND_CALL } from '../engine/callKaroNodes';
import { AGENT } from './CallKaroOutboundCall.contract';
import { unreadDateArb } from '../src/schedule/unreadDates';
import { wallText } from '../src/schedule/scheduleOracle';
import { adviceOf, followAdvice } from './advice';
import { NODE_NAME, apiRequests, freshNumber, runNode, useSandbox } from './fixtures';

const NOW = Date.parse('2026-11-25T06:00:00Z');

/** Where each node keeps Schedule Time and Time Zone, and the rest of its fields. */
const NODES: Record<
	string,
	{ parameters: (scheduleAt: string, zone?: string) => INodeParameters; path: string }
> = {
	[ASSIGN_WORKFLOW]: {
		parameters: (scheduleAt, zone) => ({
			workflowId: 'wf_welcome',
			phoneNumber: '={{ $json.mobile }}',
			schedule: 'at',
			scheduleAt,
			options: zone ? { timeZone: zone } : {},
		}),
		path: '/workflow/assign',
	},
	[OUTBOUND_CALL]: {
		parameters: (scheduleAt, zone) => ({
			agentId: AGENT,
			phoneNumber: '={{ $json.mobile }}',
			additionalFields: { scheduleAt, ...(zone ? { timeZone: zone } : {}) },
		}),
		path: '/call/outbound',
	},
};

describe('a Schedule Time in a form the node does not read, with its advice followed', () => {
	const sandbox = useSandbox({ runDurationMs: 0 });
	beforeEach(() => {
		Settings.now = () => NOW;
	});
	afterEach(() => {
		Settings.now = () => Date.now();
	});

	async function run(type: string, parameters: INodeParameters, item: IDataObject) {
		const before = apiRequests(sandbox(), NODES[type].path).length;
		const result = await runNode(sandbox(), {
			type,
			parameters,
			items: [item],
			settings: { continueOnFail: true },
		});
		const [request] = apiRequests(sandbox(), NODES[type].path).slice(before);
		return { result, sent: (request?.body as IDataObject | undefined)?.schedule_at };
	}

	/** Refused with advice, then sent once the advice is followed: what was sent, and the message. */
	async function followed(type: string, scheduleAt: string, item: IDataObject, zone?: string) {
		const parameters = NODES[type].parameters(scheduleAt, zone);
		const refused = await run(type, parameters, item);
		expect(refused.sent).toBeUndefined();
		const advice = adviceOf(refused.result, NODE_NAME);
		if (advice === undefined)
			throw new Error(`no advice: ${String(refused.result.json(NODE_NAME)[0]?.error)}`);
		const again = await run(type, followAdvice(type, parameters, advice), item);
		const [output] = again.result.json(NODE_NAME);
		expect(output.error).toBeUndefined();
		return { sent: again.sent, error: refused.result.json(NODE_NAME)[0]?.error, advice };
	}

	test.each([ASSIGN_WORKFLOW, OUTBOUND_CALL])(
		'%s: an English month name without a zone',
		async (type) => {
			const { sent, error, advice } = await followed(type, '={{ $json.when }}', {
				mobile: freshNumber(),
				when: '13 January 2027 05:15',
			});
			expect(error).toBe(
				`"Schedule Time" is a date in a form this node does not read: "13 January 2027 05:15". Read it with its tokens: set it to {{ DateTime.fromFormat($json.when, 'd MMMM yyyy H:mm', { zone: 'Asia/Kolkata', locale: 'en-US' }) }}. [item 0]`,
			);
			expect(advice).toEqual({
				field: 'Schedule Time',
				set: "{{ DateTime.fromFormat($json.when, 'd MMMM yyyy H:mm', { zone: 'Asia/Kolkata', locale: 'en-US' }) }}",
			});
			expect(sent).toBe('2027-01-13T05:15:00');
		},
	);

	test('a day-first date in Options → Time Zone, the field a nested path, untrimmed', async () => {
		const { sent } = await followed(
			ASSIGN_WORKFLOW,
			'={{ $json.lead.callback }}',
			{ mobile: freshNumber(), lead: { callback: ' 28.03.2027 17:30 ' } },
			'Europe/London',
		);
		// 17:30 BST (+01:00) is 22:00 in India
		expect(sent).toBe('2027-03-28T22:00:00');
	});

	test('a typed text is wrapped as text', async () => {
		const { sent, advice } = await followed(ASSIGN_WORKFLOW, '3/28/2027, 11:30:00 PM UTC', {
			mobile: freshNumber(),
		});
		expect(advice).toEqual({
			field: 'Schedule Time',
			set: `{{ DateTime.fromFormat("3/28/2027, 11:30:00 PM UTC", "M/d/yyyy, h:mm:ss a 'UTC'", { zone: 'UTC', locale: 'en-US' }) }}`,
		});
		expect(sent).toBe('2027-03-29T05:00:00');
	});

	test('a date alone stays one: with Calling Hours it starts when they open, without it is refused as a date', async () => {
		const item = { mobile: freshNumber(), when: '13 January 2027' };
		const parameters = NODES[ASSIGN_WORKFLOW].parameters('={{ $json.when }}');
		const refused = await run(ASSIGN_WORKFLOW, parameters, item);
		const advice = adviceOf(refused.result, NODE_NAME);
		expect(advice).toEqual({
			field: 'Schedule Time',
			set: "{{ DateTime.fromFormat($json.when, 'd MMMM yyyy', { zone: 'Asia/Kolkata', locale: 'en-US' }).toISODate() }}",
		});
		const withAdvice = followAdvice(
			ASSIGN_WORKFLOW,
			parameters,
			advice as NonNullable<typeof advice>,
		);
		const alone = await run(ASSIGN_WORKFLOW, withAdvice, item);
		expect(alone.sent).toBeUndefined();
		expect(alone.result.json(NODE_NAME)[0]?.error).toContain(
			'"Schedule Time" has a date but no time: "2027-01-13".',
		);
		const withHours = {
			...withAdvice,
			options: { callingHours: { window: { start: '10:00', end: '18:00' } } },
		};
		expect((await run(ASSIGN_WORKFLOW, withHours, item)).sent).toBe('2027-01-13T10:00:00');
	});

	test('generated dates: the advice followed sends the instant the text names', async () => {
		// a date alone needs Calling Hours, which the test above follows
		const cases = fc
			.sample(unreadDateArb, { seed: 52, numRuns: 4 })
			.filter((date) => !date.dateAlone);
		for (const { text, zone, instant } of cases) {
			const { sent } = await followed(
				ASSIGN_WORKFLOW,
				'={{ $json.when }}',
				{ mobile: freshNumber(), when: text },
				zone,
			);
			expect({ text, sent }).toEqual({ text, sent: wallText(instant, 'Asia/Kolkata') });
		}
	});
});
