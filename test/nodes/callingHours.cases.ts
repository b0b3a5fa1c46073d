// Options → Calling Hours on Assign Workflow and Outbound Call, in n8n's real engine against the
// local CallKaro sandbox: what the sandbox receives as schedule_at, and what the output says.
import { Settings } from 'luxon';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ASSIGN_WORKFLOW, OUTBOUND_CALL } from '../engine/callKaroNodes';
import {
	FAR_AHEAD_SENT,
	NODE_NAME,
	apiRequests,
	failedItemJson,
	refusedDetails,
	freshNumber,
	runNode,
	useSandbox,
} from './fixtures';

const EVERY_DAY = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const WEEKDAYS = EVERY_DAY.slice(0, 5);

interface Window {
	start?: string;
	end?: string;
	zone?: string;
	days?: string[];
	onOutside?: 'move' | 'fail' | 'send';
}

/** A node's parameters: a start at `when` (or now when undefined), with calling hours when given. */
type NodeParameters = (phone: string, when: string | undefined, window?: Window) => INodeParameters;

const callingHours = (window?: Window) => ({
	...FAR_AHEAD_SENT,
	...(window ? { callingHours: { window: { days: EVERY_DAY, ...window } } } : {}),
});

const NODES: Array<[string, string, NodeParameters]> = [
	[
		'Assign Workflow',
		ASSIGN_WORKFLOW,
		(phone, when, window) => ({
			phoneNumber: phone,
			workflowId: 'wf_welcome',
			...(when ? { schedule: 'at', scheduleAt: when } : { schedule: 'now' }),
			options: callingHours(window),
		}),
	],
	[
		'Outbound Call',
		OUTBOUND_CALL,
		(phone, when, window) => ({
			agentId: 'agent_sales_01',
			phoneNumber: phone,
			additionalFields: when ? { scheduleAt: when } : {},
			options: callingHours(window),
		}),
	],
];

describe.each(NODES)('Calling Hours on %s', (_node, type, parameters) => {
	const sandbox = useSandbox();

	async function run(when: string | undefined, window?: Window, settings = {}) {
		const result = await runNode(sandbox(), {
			type,
			parameters: parameters(freshNumber(), when, window),
			settings,
		});
		const sent = apiRequests(sandbox()).map((request) => (request.body as IDataObject).schedule_at);
		return { result, sent, json: result.outputOf(NODE_NAME)[0][0].json };
	}

	it('is off by default: a late-evening time is sent as it is, with no calling-hours fields', async () => {
		const { sent, json } = await run('2030-01-07T22:30:00+05:30');

		expect(sent).toEqual(['2030-01-07T22:30:00']);
		expect(json).not.toHaveProperty('outsideCallingHours');
		expect(json).not.toHaveProperty('scheduleMovedFrom');
	});

	it('a time inside the hours is sent unchanged', async () => {
		const { sent, json } = await run('2030-01-07T10:00:00+05:30', { start: '09:00', end: '21:00' });

		expect(sent).toEqual(['2030-01-07T10:00:00']);
		expect(json).toMatchObject({ scheduleAt: '2030-01-07T10:00:00', outsideCallingHours: false });
		expect(json).not.toHaveProperty('scheduleMovedFrom');
	});

	it('Move: Monday 22:30 in India moves across midnight to Tuesday 09:00', async () => {
		const { sent, json } = await run('2030-01-07T22:30:00+05:30', { start: '09:00', end: '21:00' });

		expect(sent).toEqual(['2030-01-08T09:00:00']);
		expect(json).toMatchObject({
			scheduleAt: '2030-01-08T09:00:00',
			scheduledForUtc: '2030-01-08T03:30:00.000Z',
			scheduleMovedFrom: '2030-01-07T22:30:00',
			outsideCallingHours: false,
		});
	});

	it('Move: across the start of summer time in the chosen zone, to 09:00 BST', async () => {
		// Saturday 20:00 UTC, after 09:00-17:00 in London; the clocks go forward that night
		const { sent, json } = await run('2030-03-30T20:00:00Z', {
			start: '09:00',
			end: '17:00',
			zone: 'Europe/London',
		});

		// 09:00 BST is 08:00 UTC, 13:30 in India (not 14:30, as adding hours in GMT would give)
		expect(sent).toEqual(['2030-03-31T13:30:00']);
		expect(json).toMatchObject({
			scheduledForUtc: '2030-03-31T08:00:00.000Z',
			scheduleMovedFrom: '2030-03-31T01:30:00',
		});
	});

	it('Move: days of the week, Saturday waits for Monday', async () => {
		const { sent, json } = await run('2030-01-12T10:00:00+05:30', {
			start: '09:00',
			end: '21:00',
			days: WEEKDAYS,
		});

		expect(sent).toEqual(['2030-01-14T09:00:00']);
		expect(json).toMatchObject({ scheduleMovedFrom: '2030-01-12T10:00:00' });
	});

	it('added with its defaults (09:00-21:00 every day in Asia/Kolkata, Move): Saturday 22:30 moves to Sunday 09:00', async () => {
		// no field set, as the editor adds the window: n8n fills in every field's default
		const { sent, json } = await run('2030-01-05T22:30:00+05:30', { days: undefined });

		expect(sent).toEqual(['2030-01-06T09:00:00']);
		expect(json).toMatchObject({ scheduleMovedFrom: '2030-01-05T22:30:00' });
	});

	describe('Move: a call for now, outside the hours', () => {
		const luxonNow = Settings.now;
		beforeEach(() => {
			Settings.now = () => Date.parse('2030-01-07T17:00:00Z'); // Monday 22:30 in India
		});
		afterEach(() => {
			Settings.now = luxonNow;
		});

		it('is scheduled at the next opening', async () => {
			const { sent, json } = await run(undefined, { start: '09:00', end: '21:00' });

			expect(sent).toEqual(['2030-01-08T09:00:00']);
			expect(json).toMatchObject({
				scheduleAt: '2030-01-08T09:00:00',
				scheduleMovedFrom: '2030-01-07T22:30:00',
			});
		});

		// CallKaro starts a past time at once, so the hours apply to now, not to the time given.
		it('a Schedule Time 30 minutes past, inside the hours then, is moved from now', async () => {
			const { sent, json } = await run('2030-01-07T22:00:00+05:30', {
				start: '09:00',
				end: '22:15',
			});

			expect(sent).toEqual(['2030-01-08T09:00:00']);
			expect(json).toMatchObject({
				scheduleAt: '2030-01-08T09:00:00',
				scheduleInPast: false,
				scheduleMovedFrom: '2030-01-07T22:00:00',
			});
		});

		it('a date alone for today, after the window closed, moves to the next opening', async () => {
			const { sent, json } = await run('2030-01-07', { start: '09:00', end: '21:00' });

			expect(sent).toEqual(['2030-01-08T09:00:00']);
			expect(json).toMatchObject({
				scheduleMovedFrom: '2030-01-07T09:00:00',
				scheduleNote:
					'date without a time: starts when Calling Hours open that day (09:00 in Asia/Kolkata)',
			});
		});
	});

	it('Fail the Item: an error naming the hours and the next allowed time, and nothing sent', async () => {
		const { sent, result } = await run(
			'2030-01-07T22:30:00+05:30',
			{ start: '09:00', end: '21:00', onOutside: 'fail' },
			{ continueOnFail: true },
		);

		expect(sent).toEqual([]);
		expect(failedItemJson(result.outputOf(NODE_NAME)[0][0])).toEqual({
			error:
				'"Calling Hours" are 09:00-21:00 every day in Asia/Kolkata, and the call would start at 2030-01-07T22:30:00 there. The next allowed time is 2030-01-08T09:00:00 in Asia/Kolkata; start the call then, or choose Move to the Next Allowed Time. [item 0]',
			details: refusedDetails('Calling Hours'),
		});
	});

	it('Send As It Is: sent unchanged, flagged in the output', async () => {
		const { sent, json } = await run('2030-01-07T22:30:00+05:30', {
			start: '09:00',
			end: '21:00',
			onOutside: 'send',
		});

		expect(sent).toEqual(['2030-01-07T22:30:00']);
		expect(json).toMatchObject({ scheduleAt: '2030-01-07T22:30:00', outsideCallingHours: true });
		expect(json).not.toHaveProperty('scheduleMovedFrom');
	});

	it('a bad window fails the item before anything is sent', async () => {
		const { sent, result } = await run(
			'2030-01-07T10:00:00+05:30',
			{ start: '9am', end: '21:00' },
			{ continueOnFail: true },
		);

		expect(sent).toEqual([]);
		expect(failedItemJson(result.outputOf(NODE_NAME)[0][0])).toEqual({
			error:
				'"Calling Hours Start" is not a time of day: "9am". Use HH:MM on a 24-hour clock, such as 09:00 or 21:00. [item 0]',
			details: refusedDetails('Calling Hours Start'),
		});
	});
});
