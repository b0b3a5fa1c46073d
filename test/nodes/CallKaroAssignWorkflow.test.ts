// CallKaro Assign Workflow in n8n's real engine against the local CallKaro sandbox.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ASSIGN_WORKFLOW, callKaroNodeTypes } from '../engine/callKaroNodes';
import * as assignWorkflow from '../../nodes/CallKaroAssignWorkflow/assignWorkflow.operation';
import { runAsTool } from '../engine/harness';
import type { RunResult } from '../engine/harness';
import { DEMO_API_KEY, OTHER_API_KEY, formatIst, parseScheduleAt } from '../sandbox/sandbox.mjs';
import {
	HINTS,
	NODE_NAME,
	WRONG_API_KEY,
	apiRequests,
	credentialsFor,
	expectNoSecrets,
	fastBackoff,
	freshNumber,
	freshNumbers,
	fromAI,
	failedItemJson,
	pairedItems,
	refusedDetails,
	refusedItemJson,
	runNode,
	sentNumbers,
	useSandbox,
	workflowError,
	stoppedRunDescription,
} from './fixtures';
import type { ErrorDetails, FaultInput, Sandbox } from './fixtures';

const ASHA = '+919876543210'; // the demo contact: First Name "Asha", City "Pune" (typed by hand)
const HOUR_MS = 60 * 60 * 1000;
const ERROR_OUTPUT = 2; // after Started (0) and Already Running (1)

/** Phone number and workflow ID from each item, as a workflow fed by a CRM would map them. */
function fromItems(extra: INodeParameters = {}): INodeParameters {
	return { phoneNumber: '={{ $json.phone }}', workflowId: '={{ $json.workflowId }}', ...extra };
}

function assign(
	sandbox: Sandbox,
	parameters: INodeParameters,
	more: Omit<Parameters<typeof runNode>[1], 'type' | 'parameters'> = {},
): Promise<RunResult> {
	return runNode(sandbox, { type: ASSIGN_WORKFLOW, parameters, ...more });
}

const ATTRIBUTES_NOT_SAVED =
	'CallKaro did not save every attribute of +91******3210: ignored (no such CRM attribute): Favourite Colour; invalid: Lead Score (Lead Score needs a number); the run was started all the same';

describe('CallKaro Assign Workflow', () => {
	// Runs never finish on their own, so a second assign of a number gets 409 until finishRuns.
	const sandbox = useSandbox({ runDurationMs: 0 });

	describe('Started output', () => {
		it('starts a run, saves attribute rows on a new contact and reports every row', async () => {
			const phone = freshNumber();
			const result = await assign(sandbox(), {
				phoneNumber: phone,
				workflowId: 'wf_welcome',
				attributeSource: 'rows',
				attributes: {
					attribute: [
						{ key: 'First Name', value: 'Ravi', replace: false },
						{ key: 'lead_score', value: '42', replace: false },
						{ key: 'Plan', value: 'Pro', replace: false },
						{ key: 'Opted In', value: 'true', replace: false },
						{ key: 'Visit Date', value: 'someday', replace: false },
						{ key: 'Shoe Size', value: '9', replace: false },
					],
				},
			});

			expect(result.status).toBe('success');
			const [started, alreadyRunning] = result.outputOf(NODE_NAME);
			expect(alreadyRunning).toEqual([]);
			expect(started).toHaveLength(1);
			expect(started[0].pairedItem).toEqual({ item: 0 });
			const [run] = sandbox().state.runs;
			expect(started[0].json).toEqual({
				status: 'started',
				message: 'Workflow run started',
				toNumber: phone,
				workflowId: 'wf_welcome',
				runId: run.id,
				enrollmentId: run.enrollmentId,
				scheduleAt: null,
				scheduledForUtc: null,
				scheduleInPast: false,
				startedByEarlierAttempt: false,
				attempts: 1,
				attributes: {
					updated: ['First Name', 'lead_score', 'Plan', 'Opted In'],
					keptExisting: [],
					ignored: ['Shoe Size'],
					invalid: [{ key: 'Visit Date', reason: 'Visit Date needs a date' }],
					counts: { updated: 4, keptExisting: 0, ignored: 1, invalid: 1 },
				},
				body: {
					status: 'done',
					message: 'Workflow run started',
					run_id: run.id,
					enrollment_id: run.enrollmentId,
					attributes: {
						updated: ['First Name', 'lead_score', 'Plan', 'Opted In'],
						kept_existing: [],
						ignored: ['Shoe Size'],
						invalid: [{ key: 'Visit Date', reason: 'Visit Date needs a date' }],
					},
				},
			});

			// what CallKaro received and did
			const [request] = apiRequests(sandbox());
			expect(request).toMatchObject({ method: 'POST', path: '/workflow/assign', status: 200 });
			expect(request.body).toEqual({
				to_number: phone,
				workflow_id: 'wf_welcome',
				attributes: [
					{ key: 'First Name', value: 'Ravi', replace: false },
					{ key: 'lead_score', value: '42', replace: false },
					{ key: 'Plan', value: 'Pro', replace: false },
					{ key: 'Opted In', value: 'true', replace: false },
					{ key: 'Visit Date', value: 'someday', replace: false },
					{ key: 'Shoe Size', value: '9', replace: false },
				],
			});
			// the key travelled as X-API-KEY (the sandbox logs it masked) and nowhere else
			expect(request.headers['x-api-key']).toBe('ck_d…89');
			expect(result.authenticated[0].requestOptions.headers).toMatchObject({
				'X-API-KEY': DEMO_API_KEY,
			});
			expect(run).toMatchObject({
				workflowId: 'wf_welcome',
				number: phone.slice(1),
				status: 'running',
				scheduleAt: null,
			});
			const contact = sandbox().state.contacts.find((entry) => entry.number === phone.slice(1));
			expect(contact).toMatchObject({
				source: 'api',
				values: { 'First Name': 'Ravi', 'Lead Score': 42, Plan: 'Pro', 'Opted In': true },
			});
			expectNoSecrets(result, {});
		});

		it('replaces existing values only where asked, and never a value typed by hand', async () => {
			const result = await assign(sandbox(), {
				phoneNumber: '+91 98765-43210',
				workflowId: 'wf_followup',
				attributeSource: 'rows',
				attributes: {
					attribute: [
						{ key: 'first name', value: 'Asha R.', replace: true },
						{ key: 'City', value: 'Mumbai', replace: true },
					],
				},
			});

			expect(result.json(NODE_NAME)[0]).toMatchObject({
				status: 'started',
				toNumber: ASHA,
				attributes: { updated: ['first name'], keptExisting: ['City'] },
			});
			const contact = sandbox().state.contacts.find((entry) => entry.number === ASHA.slice(1));
			expect(contact?.values).toEqual({ 'First Name': 'Asha R.', City: 'Pune' });
		});

		it('takes the attributes as one JSON object, e.g. a CRM record mapped from the item', async () => {
			const phone = freshNumber();
			const result = await assign(
				sandbox(),
				fromItems({
					attributeSource: 'json',
					attributesJson: '={{ $json.crm }}',
					replaceExisting: true,
				}),
				{
					items: [
						{
							phone,
							workflowId: 'wf_welcome',
							crm: { 'First Name': 'Meera', 'Lead Score': 7, 'Opted In': false, Plan: 'Gold' },
						},
					],
				},
			);

			expect(result.json(NODE_NAME)[0].attributes).toEqual({
				updated: ['First Name', 'Lead Score', 'Opted In'],
				keptExisting: [],
				ignored: [],
				invalid: [{ key: 'Plan', reason: 'Plan must be one of: Basic, Pro, Enterprise' }],
				counts: { updated: 3, keptExisting: 0, ignored: 0, invalid: 1 },
			});
			expect(apiRequests(sandbox())[0].body).toMatchObject({
				attributes: [
					{ key: 'First Name', value: 'Meera', replace: true },
					{ key: 'Lead Score', value: 7, replace: true },
					{ key: 'Opted In', value: false, replace: true },
					{ key: 'Plan', value: 'Gold', replace: true },
				],
			});
			const contact = sandbox().state.contacts.find((entry) => entry.number === phone.slice(1));
			expect(contact?.values).toEqual({
				'First Name': 'Meera',
				'Lead Score': 7,
				'Opted In': false,
			});
		});

		it('takes the attributes as JSON text typed into the field', async () => {
			const result = await assign(sandbox(), {
				phoneNumber: ASHA,
				workflowId: 'wf_welcome',
				attributeSource: 'json',
				attributesJson: '{\n  "City": "Nagpur",\n  "Lead Score": "12"\n}',
			});

			// Replace Existing Values is off: City (typed by hand anyway) is kept
			expect(result.json(NODE_NAME)[0].attributes).toMatchObject({
				updated: ['Lead Score'],
				keptExisting: ['City'],
			});
			expect(apiRequests(sandbox())[0].body).toMatchObject({
				attributes: [
					{ key: 'City', value: 'Nagpur', replace: false },
					{ key: 'Lead Score', value: '12', replace: false },
				],
			});
		});
	});

	describe('Already Running output (409)', () => {
		it('routes a number already in the workflow to output 1, with the attributes CallKaro still saved', async () => {
			const phone = freshNumber();
			await assign(sandbox(), { phoneNumber: phone, workflowId: 'wf_welcome' });

			const result = await assign(sandbox(), {
				phoneNumber: phone,
				workflowId: 'wf_welcome',
				attributeSource: 'rows',
				attributes: {
					attribute: [
						{ key: 'City', value: 'Goa', replace: false },
						{ key: 'Colour', value: 'Blue', replace: false },
					],
				},
			});

			expect(result.status).toBe('success');
			const [started, alreadyRunning] = result.outputOf(NODE_NAME);
			expect(started).toEqual([]);
			expect(alreadyRunning).toEqual([
				{
					json: {
						status: 'already-running',
						message: 'This number is already running in this workflow',
						toNumber: phone,
						workflowId: 'wf_welcome',
						runId: null,
						enrollmentId: null,
						scheduleAt: null,
						scheduledForUtc: null,
						scheduleInPast: false,
						startedByEarlierAttempt: false,
						attempts: 1,
						attributes: {
							updated: ['City'],
							keptExisting: [],
							ignored: ['Colour'],
							invalid: [],
							counts: { updated: 1, keptExisting: 0, ignored: 1, invalid: 0 },
						},
						body: {
							status: 'error',
							message: 'This number is already running in this workflow',
							attributes: {
								updated: ['City'],
								kept_existing: [],
								ignored: ['Colour'],
								invalid: [],
							},
						},
					},
					pairedItem: { item: 0 },
				},
			]);
			expect(apiRequests(sandbox()).map((request) => request.status)).toEqual([200, 409]);
			expect(sandbox().state.runs).toHaveLength(1);
			const contact = sandbox().state.contacts.find((entry) => entry.number === phone.slice(1));
			expect(contact?.values).toEqual({ City: 'Goa' });

			// once the run has finished, the number can be assigned again
			sandbox().finishRuns({ number: phone, workflowId: 'wf_welcome' });
			const again = await assign(sandbox(), { phoneNumber: phone, workflowId: 'wf_welcome' });
			expect(again.json(NODE_NAME, 0)[0]).toMatchObject({ status: 'started' });
		});

		it('splits one execution over both outputs, each in input order with its pairedItem', async () => {
			const phones = freshNumbers(4);
			await assign(sandbox(), { phoneNumber: phones[1], workflowId: 'wf_welcome' });
			await assign(sandbox(), { phoneNumber: phones[3], workflowId: 'wf_welcome' });

			const result = await assign(sandbox(), fromItems(), {
				items: phones.map((phone) => ({ phone, workflowId: 'wf_welcome' })),
			});

			const [started, alreadyRunning] = result.outputOf(NODE_NAME);
			expect(started.map((item) => [item.json.toNumber, item.pairedItem])).toEqual([
				[phones[0], { item: 0 }],
				[phones[2], { item: 2 }],
			]);
			expect(alreadyRunning.map((item) => [item.json.toNumber, item.pairedItem])).toEqual([
				[phones[1], { item: 1 }],
				[phones[3], { item: 3 }],
			]);
		});

		it.each([
			['continueOnFail', { continueOnFail: true }],
			['the error output', { onError: 'continueErrorOutput' as const }],
		])(
			'409 is an outcome, not an error: it stays on Already Running with %s',
			async (_, settings) => {
				const phone = freshNumber();
				await assign(sandbox(), { phoneNumber: phone, workflowId: 'wf_welcome' });
				const result = await assign(
					sandbox(),
					{ phoneNumber: phone, workflowId: 'wf_welcome' },
					{ settings },
				);

				const outputs = result.outputOf(NODE_NAME);
				expect(outputs[0]).toEqual([]);
				expect(outputs[1].map((item) => item.json.status)).toEqual(['already-running']);
				expect(outputs[ERROR_OUTPUT] ?? []).toEqual([]);
			},
		);

		it("'On Attribute Problems: Fail the Item' fails an item whose attributes were not all saved", async () => {
			const result = await assign(sandbox(), {
				phoneNumber: ASHA,
				workflowId: 'wf_welcome',
				attributeSource: 'rows',
				attributes: {
					attribute: [
						{ key: 'Lead Score', value: 'high', replace: true },
						{ key: 'Favourite Colour', value: 'Blue', replace: true },
					],
				},
				options: { onAttributeProblems: 'fail' },
			});

			const [run] = sandbox().state.runs;
			const error = workflowError(result);
			expect(error).toMatchObject({
				name: 'NodeApiError',
				message: `${ATTRIBUTES_NOT_SAVED} (run ${run.id}) [item 0]`,
				description: HINTS.attributesNotSaved,
				context: { itemIndex: 0 },
			});
			// the run did start: failing the item does not undo it
			expect(sandbox().state.runs).toHaveLength(1);
			expectNoSecrets(result, { numbers: [ASHA] });
		});

		it("'On Attribute Problems: Fail the Item' gives an error item that keeps the run's IDs", async () => {
			const result = await assign(
				sandbox(),
				{
					phoneNumber: ASHA,
					workflowId: 'wf_welcome',
					attributeSource: 'rows',
					attributes: {
						attribute: [
							{ key: 'Lead Score', value: 'high', replace: true },
							{ key: 'Favourite Colour', value: 'Blue', replace: true },
						],
					},
					options: { onAttributeProblems: 'fail' },
				},
				{ settings: { continueOnFail: true } },
			);

			const [run] = sandbox().state.runs;
			const [item] = result.outputOf(NODE_NAME)[0];
			expect(failedItemJson(item)).toEqual({
				error: `${ATTRIBUTES_NOT_SAVED} (run ${run.id}) [item 0]`,
				details: {
					kind: 'attributes-not-saved',
					httpStatus: 200,
					serviceMessage: expect.any(String),
					attempts: 1,
					outcomeUnknown: false,
					description: HINTS.attributesNotSaved,
					status: 'started',
					runId: run.id,
					enrollmentId: expect.any(String),
					attributes: {
						updated: [],
						keptExisting: [],
						ignored: ['Favourite Colour'],
						invalid: [{ key: 'Lead Score', reason: 'Lead Score needs a number' }],
					},
				},
			});
		});

		it("'On Attribute Problems: Fail the Item' passes items whose attributes were all saved", async () => {
			const result = await assign(sandbox(), {
				phoneNumber: freshNumber(),
				workflowId: 'wf_welcome',
				attributeSource: 'rows',
				attributes: { attribute: [{ key: 'Lead Score', value: '99', replace: true }] },
				options: { onAttributeProblems: 'fail' },
			});
			expect(result.json(NODE_NAME)[0]).toMatchObject({
				status: 'started',
				attributes: { updated: ['Lead Score'] },
			});
		});
	});

	describe('Schedule Time: any n8n date, sent to CallKaro as IST', () => {
		it('takes {{ $now.plus({ hours: 2 }) }} (a luxon DateTime) and schedules the run', async () => {
			const phone = freshNumber();
			const before = Date.now();
			const result = await assign(
				sandbox(),
				{
					phoneNumber: phone,
					workflowId: 'wf_welcome',
					schedule: 'at',
					scheduleAt: '={{ $now.plus({ hours: 2 }) }}',
				},
				{ timezone: 'Europe/Berlin' },
			);
			const after = Date.now();

			const sent = apiRequests(sandbox())[0].body as IDataObject;
			const candidates = new Set<string>();
			for (let ms = before + 2 * HOUR_MS; ms <= after + 2 * HOUR_MS + 1000; ms += 1000) {
				candidates.add(formatIst(ms));
			}
			expect(candidates).toContain(sent.schedule_at);
			const [run] = sandbox().state.runs;
			expect(run).toMatchObject({ status: 'scheduled', scheduleAt: sent.schedule_at });
			expect(run.scheduledFor).toBe(new Date(parseScheduleAt(sent.schedule_at)!).toISOString());

			const [json] = result.json(NODE_NAME);
			expect(json).toMatchObject({
				status: 'started',
				message: 'Workflow run scheduled',
				scheduleAt: sent.schedule_at,
				scheduleInPast: false,
			});
			// the output's UTC instant keeps the milliseconds that schedule_at cannot carry
			expect(Math.floor(Date.parse(json.scheduledForUtc as string) / 1000) * 1000).toBe(
				Date.parse(run.scheduledFor!),
			);
		});

		it.each([
			[
				'an ISO string with Z',
				'2030-01-02T10:00:00Z',
				'America/New_York',
				undefined,
				'2030-01-02T15:30:00',
				'2030-01-02T10:00:00.000Z',
			],
			[
				'an ISO string with +02:00',
				'2030-01-02T10:00:00+02:00',
				'America/New_York',
				undefined,
				'2030-01-02T13:30:00',
				'2030-01-02T08:00:00.000Z',
			],
			[
				'an offset-less string in the workflow zone (winter)',
				'2030-01-02T10:00:00',
				'America/New_York',
				undefined,
				'2030-01-02T20:30:00',
				'2030-01-02T15:00:00.000Z',
			],
			[
				'an offset-less string in the workflow zone (summer time)',
				'2030-07-01 10:00',
				'America/New_York',
				undefined,
				'2030-07-01T19:30:00',
				'2030-07-01T14:00:00.000Z',
			],
			[
				'an offset-less string in the Time Zone option',
				'2030-07-01T10:00:00',
				'America/New_York',
				'Europe/London',
				'2030-07-01T14:30:00',
				'2030-07-01T09:00:00.000Z',
			],
			[
				'an offset-less string with the workflow in IST',
				'2030-07-01T10:00:00',
				'Asia/Kolkata',
				undefined,
				'2030-07-01T10:00:00',
				'2030-07-01T04:30:00.000Z',
			],
		])('reads %s: %s', async (_, value, timezone, timeZoneOption, expectedIst, expectedUtc) => {
			const result = await assign(
				sandbox(),
				{
					phoneNumber: freshNumber(),
					workflowId: 'wf_welcome',
					schedule: 'at',
					scheduleAt: value,
					options: timeZoneOption ? { timeZone: timeZoneOption } : {},
				},
				{ timezone },
			);

			expect((apiRequests(sandbox())[0].body as IDataObject).schedule_at).toBe(expectedIst);
			expect(result.json(NODE_NAME)[0]).toMatchObject({
				status: 'started',
				message: 'Workflow run scheduled',
				scheduleAt: expectedIst,
				scheduledForUtc: expectedUtc,
				scheduleInPast: false,
			});
			expect(sandbox().state.runs[0]).toMatchObject({
				status: 'scheduled',
				scheduleAt: expectedIst,
				scheduledFor: expectedUtc,
			});
		});

		it('sends a time in the past as it is, flags it, and CallKaro starts the run now', async () => {
			const result = await assign(sandbox(), {
				phoneNumber: freshNumber(),
				workflowId: 'wf_welcome',
				schedule: 'at',
				scheduleAt: '2020-01-01T00:00:00Z',
			});

			expect((apiRequests(sandbox())[0].body as IDataObject).schedule_at).toBe(
				'2020-01-01T05:30:00',
			);
			expect(result.json(NODE_NAME)[0]).toMatchObject({
				status: 'started',
				message: 'Workflow run started',
				scheduleAt: '2020-01-01T05:30:00',
				scheduledForUtc: '2020-01-01T00:00:00.000Z',
				scheduleInPast: true,
			});
			expect(sandbox().state.runs[0].status).toBe('running');
		});
	});

	describe('bad input fails the item before anything is sent', () => {
		// [what, parameters of the bad item, message]; the item is always the middle one of three
		const cases: Array<[string, INodeParameters, IDataObject, string]> = [
			[
				'a phone number with letters',
				{},
				{ phone: '+91 98765 4321O' },
				'"Phone Number" may contain only digits, spaces, dashes, dots, brackets and a leading +, but is "+91*******4321*". Remove the other characters. [item 1]',
			],
			[
				'a phone number without country code',
				{},
				{ phone: '9876501234' },
				'"Phone Number" has no country code: "98****1234". Start the number with + and the country code, e.g. +919876543210, or set a default country code. [item 1]',
			],
			[
				'an empty Workflow ID (from an expression)',
				{},
				{ workflowId: '' },
				'"Workflow ID" is empty. Enter the ID of a CallKaro workflow. Its expression {{ $json.workflowId }} gave an empty value for this item: check that the input item has the field it reads. [item 1]',
			],
			[
				'51 attribute rows',
				{ attributeSource: 'json', attributesJson: '={{ $json.crm }}' },
				{ crm: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`Field ${i}`, i])) },
				'"Attributes" has 51 rows, but CallKaro accepts at most 50. Remove the rows the workflow does not need. [item 1]',
			],
			[
				'attribute JSON that does not parse',
				{ attributeSource: 'json', attributesJson: '={{ $json.crm }}' },
				{ crm: '{"City": Pune}' },
				'"Attributes" is not valid JSON: "{"City": Pune}". Enter a JSON object such as {"city": "Pune"}. [item 1]',
			],
			[
				'two attribute keys CallKaro would treat as one',
				{ attributeSource: 'json', attributesJson: '={{ $json.crm }}' },
				{ crm: { 'First Name': 'A', first_name: 'B' } },
				'"Attributes" has the keys "First Name" and "first_name", which CallKaro treats as the same attribute. Keep only one of them. [item 1]',
			],
			[
				'an impossible date',
				{ schedule: 'at', scheduleAt: '={{ $json.when }}' },
				{ when: '2030-02-30T10:00:00' },
				'"Schedule Time" is not a real date or time: "2030-02-30T10:00:00". Use a date and time such as 2026-11-22T09:30:00 (read in the workflow time zone) or 2026-11-22T09:30:00+05:30. [item 1]',
			],
			[
				'a time the clocks skip in the workflow zone',
				{ schedule: 'at', scheduleAt: '={{ $json.when }}' },
				{ when: '2030-03-10T02:30:00' },
				'"Schedule Time" does not exist in the time zone America/New_York, because the clocks skip it: "2030-03-10T02:30:00". The clocks go from 2030-03-10T01:59:59 straight to 2030-03-10T03:00:00; pick a time outside that gap. [item 1]',
			],
			[
				'an unknown Time Zone option',
				{
					schedule: 'at',
					scheduleAt: '2030-01-02T10:00:00',
					options: { timeZone: '={{ $json.zone }}' },
				},
				{ zone: 'Mars/Olympus_Mons' },
				'"Time Zone" is not a known time zone: "Mars/Olympus_Mons". Use an IANA time zone name such as Asia/Kolkata. [item 1]',
			],
			[
				'a bad Default Country Code',
				{ options: { defaultCountryCode: '={{ $json.country }}' } },
				{ country: 'IN' },
				'"Default Country Code" must be 1 to 3 digits, such as 91 or +91, not "IN". Enter the country code without other characters. [item 1]',
			],
		];

		function threeItems(bad: IDataObject): { phones: string[]; items: IDataObject[] } {
			const phones = freshNumbers(3);
			const good = (phone: string): IDataObject => ({
				phone,
				workflowId: 'wf_welcome',
				crm: {},
				when: '2030-01-02T10:00:00Z',
				zone: 'Asia/Kolkata',
				country: '91',
			});
			return { phones, items: [good(phones[0]), { ...good(phones[1]), ...bad }, good(phones[2])] };
		}

		it.each(cases)(
			'%s: stops the execution, naming the field and the item',
			async (_, extra, bad, message) => {
				const { phones, items } = threeItems(bad);
				const result = await assign(
					sandbox(),
					fromItems({ ...extra, options: { concurrency: 1, ...(extra.options as IDataObject) } }),
					{ items },
				);

				expect(workflowError(result)).toMatchObject({
					name: 'NodeOperationError',
					message,
					context: { itemIndex: 1 },
				});
				// item 0 went out before; nothing for item 1; item 2 never started
				expect(sentNumbers(sandbox())).toEqual([phones[0]]);
				expectNoSecrets(result, { numbers: [phones[1], '+919876501234'] });
			},
		);

		it.each(cases)(
			'%s: with continueOnFail the other items go through unharmed',
			async (_, extra, bad, message) => {
				const { phones, items } = threeItems(bad);
				const result = await assign(sandbox(), fromItems(extra), {
					items,
					settings: { continueOnFail: true },
				});

				expect(result.status).toBe('success');
				const [started] = result.outputOf(NODE_NAME);
				expect(pairedItems(started)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
				expect(started[0].json).toMatchObject({ status: 'started', toNumber: phones[0] });
				// the message names the field and the item; nothing else, as nothing was sent
				expect(failedItemJson(started[1])).toEqual(refusedItemJson(message));
				expect(started[2].json).toMatchObject({ status: 'started', toNumber: phones[2] });
				expect([...sentNumbers(sandbox())].sort()).toEqual([phones[0], phones[2]]);
				expect(
					sandbox()
						.state.runs.map((run) => `+${run.number}`)
						.sort(),
				).toEqual([phones[0], phones[2]]);
			},
		);

		it('with the error output, the bad item goes there and the others to Started', async () => {
			const { phones, items } = threeItems({ phone: '12345' });
			const result = await assign(sandbox(), fromItems(), {
				items,
				settings: { onError: 'continueErrorOutput' },
			});

			const outputs = result.outputOf(NODE_NAME);
			expect(outputs[0].map((item) => [item.json.toNumber, item.pairedItem])).toEqual([
				[phones[0], { item: 0 }],
				[phones[2], { item: 2 }],
			]);
			expect(outputs[1]).toEqual([]);
			expect(outputs[ERROR_OUTPUT]).toHaveLength(1);
			expect(outputs[ERROR_OUTPUT][0].pairedItem).toEqual({ item: 1 });
			// n8n merges the fields of the input item into the error item
			expect(failedItemJson(outputs[ERROR_OUTPUT][0])).toEqual({
				...items[1],
				error:
					'"Phone Number" has no country code: "***45". Start the number with + and the country code, e.g. +919876543210, or set a default country code. [item 1]',
				details: refusedDetails('Phone Number'),
			});
			expect(result.json('Output 2')).toEqual([outputs[ERROR_OUTPUT][0].json]);
			expect(sentNumbers(sandbox())).toHaveLength(2);
		});

		it('an empty Workflow ID typed into the node stops the workflow before it starts', async () => {
			const result = await assign(sandbox(), { phoneNumber: ASHA, workflowId: '' });
			expect(workflowError(result).name).toBe('WorkflowHasIssuesError');
			expect(apiRequests(sandbox())).toEqual([]);
		});
	});

	describe('a credential the node cannot use (Base URL not https)', () => {
		const BASE_URL_ERROR =
			'"Base URL" must start with https:// (got http://api.callkaro.ai), because the API key travels with every request. Plain http is allowed only for a local sandbox on this machine (localhost, 127.0.0.1).';

		it('fails every item under the error output, instead of passing the items on as Started', async () => {
			const items = freshNumbers(2).map((phone) => ({ phone, workflowId: 'wf_welcome' }));
			const result = await assign(sandbox(), fromItems(), {
				items,
				baseUrl: 'http://api.callkaro.ai',
				settings: { onError: 'continueErrorOutput' },
			});

			const outputs = result.outputOf(NODE_NAME);
			expect(outputs[0]).toEqual([]);
			expect(outputs[1]).toEqual([]);
			expect(pairedItems(outputs[ERROR_OUTPUT])).toEqual([{ item: 0 }, { item: 1 }]);
			expect(outputs[ERROR_OUTPUT].map(failedItemJson)).toEqual([
				{ ...items[0], error: `${BASE_URL_ERROR} [item 0]`, details: refusedDetails('Base URL') },
				{ ...items[1], error: `${BASE_URL_ERROR} [item 1]`, details: refusedDetails('Base URL') },
			]);
			// the node after Started never runs
			expect(result.runData['Output 0']).toBeUndefined();
		});

		it('stops the execution without continue settings', async () => {
			const result = await assign(
				sandbox(),
				{ phoneNumber: freshNumber(), workflowId: 'wf_welcome' },
				{ baseUrl: 'http://api.callkaro.ai' },
			);
			expect(workflowError(result)).toMatchObject({
				name: 'NodeOperationError',
				message: `${BASE_URL_ERROR} [item 0]`,
			});
		});
	});

	describe('answers of CallKaro that fail an item', () => {
		interface ErrorCase {
			title: string;
			httpCode: string;
			message: string;
			kind: ErrorDetails['kind'];
			serviceMessage: string;
			/** The hint under the message: the NodeApiError description and details.description. */
			description: string;
			/** The run may have started although the item failed. */
			outcomeUnknown?: boolean;
			/** The item CallKaro refuses (default 1), unless every item fails. */
			failingItem?: number;
			/** The failing item's workflow, when the workflow is what CallKaro refuses. */
			workflowId?: string;
			apiKey?: string;
			/** For concurrency 1 over three items: the items before the failing one ok, then its attempts, then the rest. */
			faults?: FaultInput;
			/** Requests sent for the failing item. */
			attempts: number;
			/** Every item fails (a key or a rate that hits every request), not only one. */
			allFail?: boolean;
		}
		const cases: ErrorCase[] = [
			{
				title: '400 workflow without steps',
				httpCode: '400',
				workflowId: 'wf_empty',
				message: 'CallKaro rejected the request (HTTP 400): This workflow has no steps yet',
				kind: 'bad-request',
				serviceMessage: 'This workflow has no steps yet',
				description: HINTS.badRequest,
				attempts: 1,
			},
			{
				title: '400 workflow no longer available',
				httpCode: '400',
				workflowId: 'wf_legacy',
				message: 'CallKaro rejected the request (HTTP 400): This workflow is no longer available',
				kind: 'bad-request',
				serviceMessage: 'This workflow is no longer available',
				description: HINTS.badRequest,
				attempts: 1,
			},
			{
				title: '401 invalid key',
				httpCode: '401',
				apiKey: WRONG_API_KEY,
				message: 'The API key was missing or not accepted (HTTP 401): Invalid API key',
				kind: 'auth',
				serviceMessage: 'Invalid API key',
				description: HINTS.auth,
				attempts: 1,
				allFail: true,
			},
			{
				title: '401 missing key',
				httpCode: '401',
				apiKey: '',
				message: 'The API key was missing or not accepted (HTTP 401): Missing API key',
				kind: 'auth',
				serviceMessage: 'Missing API key',
				description: HINTS.auth,
				attempts: 1,
				allFail: true,
			},
			{
				title: '404 unknown workflow',
				httpCode: '404',
				workflowId: 'wf_unknown',
				message: 'Not found (HTTP 404): Workflow not found',
				kind: 'not-found',
				serviceMessage: 'Workflow not found',
				description: HINTS.notFound,
				attempts: 1,
			},
			{
				title: "404 a workflow of another account's key",
				httpCode: '404',
				apiKey: OTHER_API_KEY,
				message: 'Not found (HTTP 404): Workflow not found',
				kind: 'not-found',
				serviceMessage: 'Workflow not found',
				description: HINTS.notFound,
				attempts: 1,
				allFail: true,
			},
			{
				// On the last item: a Retry-After the node refuses to wait still holds back every
				// request after it for the whole Retry-After (the shared 429 pause).
				title: '429 asking to wait longer than the node waits',
				httpCode: '429',
				failingItem: 2,
				faults: { endpoint: 'assign', sequence: ['ok', 'ok', '429'], retryAfterSeconds: 60 },
				message:
					'Rate limited by CallKaro (HTTP 429); it asked to wait 60 s, longer than the 30 s this node waits: Too many requests',
				kind: 'rate-limited',
				serviceMessage: 'Too many requests',
				description: HINTS.rateLimited,
				attempts: 1,
			},
			{
				title: '500 on every attempt',
				httpCode: '500',
				faults: { endpoint: 'assign', sequence: ['ok', '500', '500', '500', '500', 'ok'] },
				message:
					'CallKaro failed (HTTP 500) after 4 attempts and the workflow run may or may not have started: Internal server error',
				kind: 'service-failure',
				serviceMessage: 'Internal server error',
				description: HINTS.outcomeUnknown,
				outcomeUnknown: true,
				attempts: 4,
			},
			{
				title: '502 then 503 until the attempts are used up',
				httpCode: '503',
				faults: { endpoint: 'assign', sequence: ['ok', '502', '503', '502', '503', 'ok'] },
				message:
					'CallKaro failed (HTTP 503) after 4 attempts and the workflow run may or may not have started: Service unavailable',
				kind: 'service-failure',
				serviceMessage: 'Service unavailable',
				description: HINTS.outcomeUnknown,
				outcomeUnknown: true,
				attempts: 4,
			},
			{
				title: '503 at a rate of 1',
				httpCode: '503',
				faults: { endpoint: 'assign', rates: { 503: 1 }, seed: 1 },
				message:
					'CallKaro failed (HTTP 503) after 4 attempts and the workflow run may or may not have started: Service unavailable',
				kind: 'service-failure',
				serviceMessage: 'Service unavailable',
				description: HINTS.outcomeUnknown,
				outcomeUnknown: true,
				attempts: 4,
				allFail: true,
			},
		];

		describe.each(cases)('$title', (errorCase) => {
			const phones: string[] = [];
			const failing = errorCase.allFail ? [0, 1, 2] : [errorCase.failingItem ?? 1];
			const items = () =>
				phones.map((phone, index) => ({
					phone,
					workflowId: index === failing[0] ? (errorCase.workflowId ?? 'wf_welcome') : 'wf_welcome',
				}));
			const details: ErrorDetails = {
				kind: errorCase.kind,
				httpStatus: Number(errorCase.httpCode),
				serviceMessage: errorCase.serviceMessage,
				attempts: errorCase.attempts,
				outcomeUnknown: errorCase.outcomeUnknown ?? false,
				description: errorCase.description,
			};

			beforeEach(() => {
				phones.splice(0, 3, ...freshNumbers(3));
				fastBackoff();
				if (errorCase.faults) sandbox().setFaults(errorCase.faults);
			});

			it('stops the execution with a NodeApiError carrying the HTTP code and the item', async () => {
				const result = await assign(sandbox(), fromItems({ options: { concurrency: 1 } }), {
					items: items(),
					apiKey: errorCase.apiKey,
				});

				const error = workflowError(result);
				expect(error).toMatchObject({
					name: 'NodeApiError',
					message: errorCase.message,
					httpCode: errorCase.httpCode,
					description: stoppedRunDescription(
						assignWorkflow.vocabulary,
						{
							itemCount: 3,
							failingItem: failing[0],
							outcomeUnknown: errorCase.outcomeUnknown ?? false,
						},
						errorCase.description,
					),
					context: { itemIndex: failing[0] },
				});
				// the items after the failed one were never sent
				const sentBefore = failing[0];
				expect(apiRequests(sandbox())).toHaveLength(sentBefore + errorCase.attempts);
				expectNoSecrets(result, {
					apiKeys: [DEMO_API_KEY, OTHER_API_KEY, WRONG_API_KEY],
					numbers: phones,
				});
			});

			it('with continueOnFail: an error item in its place, the other items unharmed', async () => {
				const result = await assign(sandbox(), fromItems({ options: { concurrency: 1 } }), {
					items: items(),
					apiKey: errorCase.apiKey,
					settings: { continueOnFail: true },
				});

				expect(result.status).toBe('success');
				const [output0, output1] = result.outputOf(NODE_NAME);
				expect(output1).toEqual([]);
				expect(pairedItems(output0)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
				output0.forEach((item, index) => {
					if (failing.includes(index)) {
						// only error and details: what n8n routes to an error output
						expect(failedItemJson(item)).toEqual({ error: errorCase.message, details });
					} else {
						expect(item.json).toMatchObject({ status: 'started', toNumber: phones[index] });
					}
				});
				expect(apiRequests(sandbox())).toHaveLength(
					3 - failing.length + failing.length * errorCase.attempts,
				);
				expect(sandbox().state.runs).toHaveLength(3 - failing.length);
				expectNoSecrets(result, { apiKeys: [DEMO_API_KEY, OTHER_API_KEY, WRONG_API_KEY] });
			});

			it('with the error output: the failed item goes to the error output, with the fields of its input item', async () => {
				const input = items();
				const result = await assign(sandbox(), fromItems({ options: { concurrency: 1 } }), {
					items: input,
					apiKey: errorCase.apiKey,
					settings: { onError: 'continueErrorOutput' },
				});

				expect(result.status).toBe('success');
				const outputs = result.outputOf(NODE_NAME);
				expect(pairedItems(outputs[0])).toEqual(
					[0, 1, 2].filter((index) => !failing.includes(index)).map((item) => ({ item })),
				);
				expect(outputs[1]).toEqual([]);
				expect(pairedItems(outputs[ERROR_OUTPUT])).toEqual(failing.map((item) => ({ item })));
				outputs[ERROR_OUTPUT].forEach((item, position) => {
					expect(failedItemJson(item)).toEqual({
						...input[failing[position]],
						error: errorCase.message,
						details,
					});
				});
				expect(result.json('Output 2')).toEqual(outputs[ERROR_OUTPUT].map((item) => item.json));
			});
		});
	});

	describe('retries', () => {
		it('a 500 and then 409: the first attempt may have started the run, so the output says so', async () => {
			const phone = freshNumber();
			await assign(sandbox(), { phoneNumber: phone, workflowId: 'wf_welcome' });
			fastBackoff();
			sandbox().setFaults({ endpoint: 'assign', sequence: ['500'] });

			const result = await assign(sandbox(), { phoneNumber: phone, workflowId: 'wf_welcome' });

			expect(result.json(NODE_NAME, 1)).toEqual([
				expect.objectContaining({
					status: 'already-running',
					startedByEarlierAttempt: true,
					attempts: 2,
				}),
			]);
			expect(apiRequests(sandbox()).map((request) => request.status)).toEqual([200, 500, 409]);
		});

		it('an answer lost after CallKaro started the run: the retry gets 409 and reports startedByEarlierAttempt', async () => {
			const phone = freshNumber();
			fastBackoff();
			sandbox().setFaults({ endpoint: 'assign', sequence: ['drop-after'] });

			const result = await assign(sandbox(), { phoneNumber: phone, workflowId: 'wf_welcome' });

			expect(result.status).toBe('success');
			expect(result.json(NODE_NAME, 1)).toEqual([
				expect.objectContaining({
					status: 'already-running',
					toNumber: phone,
					startedByEarlierAttempt: true,
					attempts: 2,
				}),
			]);
			expect(apiRequests(sandbox()).map((request) => [request.fault, request.status])).toEqual([
				['drop-after', null],
				[null, 409],
			]);
			// exactly one run, started by the first attempt
			expect(sandbox().state.runs).toHaveLength(1);
		});

		it('a 500 after CallKaro saved the attributes but before the run: the retry starts it', async () => {
			const phone = freshNumber();
			fastBackoff();
			sandbox().setFaults({ endpoint: 'assign', sequence: ['500-after'] });

			const result = await assign(sandbox(), {
				phoneNumber: phone,
				workflowId: 'wf_welcome',
				attributeSource: 'rows',
				attributes: { attribute: [{ key: 'City', value: 'Surat', replace: false }] },
			});

			expect(result.json(NODE_NAME)[0]).toMatchObject({
				status: 'started',
				startedByEarlierAttempt: false,
				attempts: 2,
				// saved by the first attempt, so the second one keeps it
				attributes: { updated: [], keptExisting: ['City'] },
			});
			expect(sandbox().state.runs).toHaveLength(1);
		});

		it('a 429 with Retry-After: 1 is waited out and retried', async () => {
			sandbox().setFaults({ endpoint: 'assign', sequence: ['429'], retryAfterSeconds: 1 });
			const started = Date.now();

			const result = await assign(sandbox(), {
				phoneNumber: freshNumber(),
				workflowId: 'wf_welcome',
			});

			expect(Date.now() - started).toBeGreaterThanOrEqual(990);
			expect(result.json(NODE_NAME)[0]).toMatchObject({ status: 'started', attempts: 2 });
			expect(apiRequests(sandbox()).map((request) => request.status)).toEqual([429, 200]);
		});
	});

	describe('many items', () => {
		it('at Concurrency 5, gives one item per input item, in input order, however the answers arrive', async () => {
			const phones = freshNumbers(10);
			// already running: items 3 and 7
			await assign(sandbox(), { phoneNumber: phones[3], workflowId: 'wf_welcome' });
			await assign(sandbox(), { phoneNumber: phones[7], workflowId: 'wf_welcome' });
			sandbox().setFaults({ endpoint: 'assign', seed: 7, latencyMs: 5, jitterMs: 80 });
			const items: IDataObject[] = phones.map((phone) => ({ phone, workflowId: 'wf_welcome' }));
			items[5] = { phone: 'not a number', workflowId: 'wf_welcome' };

			const result = await assign(sandbox(), fromItems({ options: { concurrency: 5 } }), {
				items,
				settings: { continueOnFail: true },
			});

			const [started, alreadyRunning] = result.outputOf(NODE_NAME);
			expect(
				started.map((item) => [item.pairedItem, item.json.toNumber ?? item.json.error]),
			).toEqual([
				[{ item: 0 }, phones[0]],
				[{ item: 1 }, phones[1]],
				[{ item: 2 }, phones[2]],
				[{ item: 4 }, phones[4]],
				[
					{ item: 5 },
					'"Phone Number" may contain only digits, spaces, dashes, dots, brackets and a leading +, but is "************". Remove the other characters. [item 5]',
				],
				[{ item: 6 }, phones[6]],
				[{ item: 8 }, phones[8]],
				[{ item: 9 }, phones[9]],
			]);
			expect(alreadyRunning.map((item) => [item.pairedItem, item.json.toNumber])).toEqual([
				[{ item: 3 }, phones[3]],
				[{ item: 7 }, phones[7]],
			]);
			// 2 set-up requests + the 9 good items
			expect(apiRequests(sandbox())).toHaveLength(11);
		});

		it('keeps several requests in flight at once', async () => {
			sandbox().setFaults({ endpoint: 'assign', latencyMs: 150 });
			const started = Date.now();
			const result = await assign(sandbox(), fromItems({ options: { concurrency: 5 } }), {
				items: freshNumbers(10).map((phone) => ({ phone, workflowId: 'wf_welcome' })),
			});
			// 10 requests of 150 ms: about 300 ms five at a time, 1.5 s one at a time
			expect(Date.now() - started).toBeLessThan(1200);
			expect(result.json(NODE_NAME)).toHaveLength(10);
		});
	});

	describe('as an AI agent tool', () => {
		const parameters = {
			phoneNumber: fromAI('phoneNumber', 'The number to enrol, with country code'),
			workflowId: 'wf_welcome',
		};

		it.each(['supplyData', 'engineRequest'] as const)(
			'%s path: a started run reaches the agent, with the model filling the phone number',
			async (via) => {
				const phone = freshNumber();
				const tool = await runAsTool({
					via,
					nodeType: ASSIGN_WORKFLOW,
					nodeTypes: callKaroNodeTypes(),
					parameters,
					credentials: credentialsFor(sandbox()),
					toolArgs: { phoneNumber: phone },
				});

				expect(tool.error).toBeUndefined();
				if (via === 'supplyData') expect(tool.schemaKeys).toEqual(['phoneNumber']);
				expect(tool.response).toEqual([
					expect.objectContaining({ status: 'started', toNumber: phone, workflowId: 'wf_welcome' }),
				]);
				expect(sentNumbers(sandbox())).toEqual([phone]);
			},
		);

		it.each(['supplyData', 'engineRequest'] as const)(
			'%s path: an already-running result reaches the agent on output 0',
			async (via) => {
				const phone = freshNumber();
				await assign(sandbox(), { phoneNumber: phone, workflowId: 'wf_welcome' });

				const tool = await runAsTool({
					via,
					nodeType: ASSIGN_WORKFLOW,
					nodeTypes: callKaroNodeTypes(),
					parameters,
					credentials: credentialsFor(sandbox()),
					toolArgs: { phoneNumber: phone },
				});

				expect(tool.response).toEqual([
					expect.objectContaining({
						status: 'already-running',
						message: 'This number is already running in this workflow',
					}),
				]);
			},
		);

		it('supplyData path: a refusal reaches the agent as the tool error', async () => {
			const tool = await runAsTool({
				nodeType: ASSIGN_WORKFLOW,
				nodeTypes: callKaroNodeTypes(),
				parameters: { ...parameters, workflowId: 'wf_unknown' },
				credentials: credentialsFor(sandbox()),
				toolArgs: { phoneNumber: freshNumber() },
			});
			// n8n wraps what the tool throws and appends the description for the model
			expect(tool.error).toEqual({
				name: 'NodeOperationError',
				message:
					'Not found (HTTP 404): Workflow not found\n\nDetails: Check the ID, and that it belongs to the account of the API key in the credential.',
			});
		});

		it('engineRequest path: bad input from the model reaches it as [{ error }]', async () => {
			const tool = await runAsTool({
				via: 'engineRequest',
				nodeType: ASSIGN_WORKFLOW,
				nodeTypes: callKaroNodeTypes(),
				parameters,
				credentials: credentialsFor(sandbox()),
				toolArgs: { phoneNumber: '98765 01234' },
			});
			expect(tool.run.status).toBe('success');
			expect(tool.response).toEqual([
				{
					error:
						'"Phone Number" has no country code: "98****1234". Start the number with + and the country code, e.g. +919876543210, or set a default country code. [item 0]',
				},
			]);
			expect(apiRequests(sandbox())).toEqual([]);
		});
	});
});
