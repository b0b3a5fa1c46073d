// A Schedule Time from a database node: a DATE column that its driver gives as an instant at
// midnight is the date alone; the same instant from any other node, typed in the node or built by
// an expression is that instant (src/schedule/schedule.ts, src/records/sourceNodes.ts).
import { Settings } from 'luxon';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ASSIGN_WORKFLOW } from '../../engine/callKaroNodes';
import { NODE_NAME, apiRequests, runNode, useSandbox } from '../fixtures';
import type { UpstreamNode } from '../fixtures';

const NOW = Date.parse('2026-11-25T06:00:00Z');
const SQL_SERVER: UpstreamNode = { name: 'SQL Server', type: 'n8n-nodes-base.microsoftSql' };
const EDIT_FIELDS: UpstreamNode = { name: 'Edit Fields', type: 'n8n-nodes-base.set' };
const CALLING_HOURS: INodeParameters = {
	callingHours: { window: { start: '10:00', end: '18:00' } },
};

/** A row as Microsoft SQL 1.2 gives it: a DATE column as midnight UTC, written as ISO text. */
const row: IDataObject = {
	id: 7,
	mobile: '+919820017613',
	follow_up_on: '2026-12-04T00:00:00.000Z',
	booked_at: '2026-12-04T00:00:00.000Z',
	'Next Call': '2026-12-04T00:00:00.000Z',
};

describe('a Schedule Time from a database node', () => {
	const sandbox = useSandbox({ runDurationMs: 0 });
	beforeEach(() => {
		Settings.now = () => NOW;
	});
	afterEach(() => {
		Settings.now = () => Date.now();
	});

	async function assign(
		upstream: UpstreamNode[],
		scheduleAt: string,
		options: INodeParameters = {},
		item: IDataObject = row,
	) {
		const result = await runNode(sandbox(), {
			type: ASSIGN_WORKFLOW,
			parameters: {
				workflowId: 'wf_welcome',
				phoneNumber: '={{ $json.mobile }}',
				schedule: 'at',
				scheduleAt,
				options,
			},
			items: [item],
			upstream,
			settings: { continueOnFail: true },
		});
		const [output] = result.json(NODE_NAME);
		const [request] = apiRequests(sandbox());
		return { output, sent: (request?.body as IDataObject | undefined)?.schedule_at, result };
	}

	test('Microsoft SQL: a DATE column (midnight UTC) is the date alone, refused with the fix', async () => {
		const { output, sent } = await assign([SQL_SERVER], '={{ $json.follow_up_on }}');
		expect(sent).toBeUndefined();
		expect(output.error).toBe(
			'"Schedule Time" is midnight UTC, as Microsoft SQL gives a DATE column, so a date alone: "2026-12-04T00:00:00.000Z". Add the time, such as 2026-12-04T10:00:00+05:30, or add Options → Calling Hours to start when they open that day; if the column holds a time of day, map {{ $json.follow_up_on.toDateTime() }}, which is read as that instant. [item 0]',
		);
	});

	test('with Calling Hours it starts when they open that day, and readAs says why', async () => {
		const { output, sent, result } = await assign(
			[SQL_SERVER],
			'={{ $json["Next Call"] }}',
			CALLING_HOURS,
		);
		expect(sent).toBe('2026-12-04T10:00:00');
		expect(output.readAs).toEqual({
			node: 'SQL Server',
			nodeType: 'Microsoft SQL',
			assumed: [
				'Schedule Time: midnight read as a date alone, as Microsoft SQL gives a DATE column',
			],
		});
		expect(output.scheduleNote).toBe(
			'midnight read as a date alone, as Microsoft SQL gives a DATE column; date without a time: starts when Calling Hours open that day (10:00 in Asia/Kolkata)',
		);
		expect(result.task(NODE_NAME).hints).toEqual([
			expect.objectContaining({
				message:
					'Items were read as Microsoft SQL gives them (node "SQL Server"): Schedule Time: midnight read as a date alone, as Microsoft SQL gives a DATE column. readAs says so per item.',
			}),
		]);
	});

	test('the fix the refusal names reads it as its instant', async () => {
		const { sent } = await assign([SQL_SERVER], '={{ $json.booked_at.toDateTime() }}');
		expect(sent).toBe('2026-12-04T05:30:00');
	});

	test('a datetime that holds India time, with the expression docs/scheduling.md gives', async () => {
		const { sent } = await assign(
			[SQL_SERVER],
			`={{ $json.booked_at.toDateTime().toUTC().toFormat("yyyy-MM-dd'T'HH:mm:ss") }}`,
			{},
			{ ...row, booked_at: '2026-12-04T09:30:00.000Z' },
		);
		expect(sent).toBe('2026-12-04T09:30:00');
	});

	test.each([
		['from a node that is no database (Edit Fields)', [EDIT_FIELDS], '={{ $json.follow_up_on }}'],
		['typed in the node', [SQL_SERVER], '2026-12-04T00:00:00Z'],
		['built by an expression', [SQL_SERVER], "={{ $json.follow_up_on.replace('.000Z', 'Z') }}"],
	])('midnight UTC %s is that instant, 05:30 in India', async (_case, upstream, scheduleAt) => {
		const { output, sent } = await assign(upstream, scheduleAt);
		expect(output.error).toBeUndefined();
		expect(sent).toBe('2026-12-04T05:30:00');
	});

	// node-postgres's DATE: midnight on the clock of the process that runs n8n, here jest's.
	const serverMidnight = new Date(2026, 11, 4).toISOString();

	test.each([
		['Postgres 2.5, a JS Date on the server clock', 2.5, ['follow_up_on'], serverMidnight],
		["Postgres 2.5, that Date's ISO text after a Wait node", 2.5, [], serverMidnight],
		['Postgres 2.7, which gives a DATE as 2026-12-04: midnight UTC is a timestamp', 2.7, [], ''],
	])('%s', async (_case, typeVersion, datesAt, given) => {
		const postgres = { name: 'Postgres', type: 'n8n-nodes-base.postgres', typeVersion, datesAt };
		const item = { ...row, follow_up_on: given || '2026-12-04T00:00:00.000Z' };
		const { output, sent } = await assign([postgres], '={{ $json.follow_up_on }}', {}, item);
		if (given) {
			expect(sent).toBeUndefined();
			expect(output.error).toMatch(
				/^"Schedule Time" is midnight on the n8n server's clock \(.+\), as Postgres gives a DATE column, so a date alone: ".+"\. Add the time, such as 2026-12-04T10:00:00\+05:30,/,
			);
		} else {
			expect(sent).toBe('2026-12-04T05:30:00');
		}
	});

	test('a Date of a timestamp column that is not midnight is its instant', async () => {
		const postgres = {
			name: 'Postgres',
			type: 'n8n-nodes-base.postgres',
			typeVersion: 2,
			datesAt: ['follow_up_on'],
		};
		const { sent } = await assign(
			[postgres],
			'={{ $json.follow_up_on }}',
			{},
			{
				...row,
				follow_up_on: '2026-12-04T04:30:00.000Z',
			},
		);
		expect(sent).toBe('2026-12-04T10:00:00');
	});
});
