// CallKaro Assign Workflow in n8n's real engine against the local CallKaro sandbox: attributes, the
// Already Running output, schedule times and the retries that may meet a run already started.
// Bad input, refusals, previews, the guard and tool use: the action-node contract (shared/contract.ts).
import { ASSIGN_WORKFLOW } from '../engine/callKaroNodes';
import {
	HINTS,
	NODE_NAME,
	failedItemJson,
	apiRequests,
	expectNoSecrets,
	fastBackoff,
	freshNumber,
	freshNumbers,
	runnerFor,
	useSandbox,
	workflowError,
} from './fixtures';
import { assigned, assignWorkflow, fromItems } from './CallKaroAssignWorkflow.contract';
import { runRowAsTool } from './shared/contract';

const ASHA = '+919876543210'; // the demo contact: First Name "Asha", City "Pune" (typed by hand)
const ERROR_OUTPUT = 2; // after Started (0) and Already Running (1)

const assign = runnerFor(ASSIGN_WORKFLOW);

const ATTRIBUTES_NOT_SAVED =
	'CallKaro did not save every attribute of +91******3210: ignored (no such CRM attribute): Favourite Colour; invalid: Lead Score (Lead Score needs a number); the run was started all the same';

describe('CallKaro Assign Workflow', () => {
	// Runs never finish on their own, so a second assign of a number gets 409 until finishRuns.
	const sandbox = useSandbox({ runDurationMs: 0 });

	describe('Started output', () => {
		it('Using JSON left as it is sends no attributes: the example is only a placeholder', async () => {
			const result = await assign(sandbox(), {
				phoneNumber: freshNumber(),
				workflowId: 'wf_welcome',
				attributeSource: 'json',
			});

			expect(result.status).toBe('success');
			expect(apiRequests(sandbox())[0].body).not.toHaveProperty('attributes');
		});

		it('starts a run, saves attribute rows on a new contact and reports every row', async () => {
			const phone = freshNumber();
			// sent as they are: CallKaro matches the keys and checks the values
			const rows = [
				{ key: 'First Name', value: 'Ravi', replace: false },
				{ key: 'lead_score', value: '42', replace: false },
				{ key: 'Plan', value: 'Pro', replace: false },
				{ key: 'Opted In', value: 'true', replace: false },
				{ key: 'Visit Date', value: 'someday', replace: false },
				{ key: 'Shoe Size', value: '9', replace: false },
			];
			const result = await assign(sandbox(), {
				phoneNumber: phone,
				workflowId: 'wf_welcome',
				attributeSource: 'rows',
				attributes: { attribute: rows },
			});

			expect(result.status).toBe('success');
			const [started, alreadyRunning] = result.outputOf(NODE_NAME);
			expect(alreadyRunning).toEqual([]);
			expect(started).toHaveLength(1);
			expect(started[0].pairedItem).toEqual({ item: 0 });
			const [run] = sandbox().state.runs;
			// CallKaro's report, passed on with counts (and as it came, in the body)
			const report = {
				updated: ['First Name', 'lead_score', 'Plan', 'Opted In'],
				ignored: ['Shoe Size'],
				invalid: [{ key: 'Visit Date', reason: 'Visit Date needs a date' }],
			};
			expect(started[0].json).toEqual(
				assigned(phone, {
					status: 'started',
					message: 'Workflow run started',
					runId: run.id,
					enrollmentId: run.enrollmentId,
					startedByEarlierAttempt: false,
					attempts: 1,
					attributes: {
						...report,
						keptExisting: [],
						leftOut: [],
						counts: { updated: 4, keptExisting: 0, ignored: 1, invalid: 1, leftOut: 0 },
					},
					body: {
						status: 'done',
						message: 'Workflow run started',
						run_id: run.id,
						enrollment_id: run.enrollmentId,
						attributes: { ...report, kept_existing: [] },
					},
				}),
			);

			// what CallKaro received and did (the API key: see the contract)
			const [request] = apiRequests(sandbox());
			expect(request).toMatchObject({ method: 'POST', path: '/workflow/assign', status: 200 });
			expect(request.body).toEqual({
				to_number: phone,
				workflow_id: 'wf_welcome',
				attributes: rows,
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
							// as CRMs send them: nulls, blanks and nested values beside the fields
							crm: {
								'First Name': 'Meera',
								'Last Name': null,
								'Lead Score': 7,
								'Opted In': false,
								City: '',
								Plan: 'Gold',
								Owner: { name: 'Ravi', id: '55' },
								Tags: [],
							},
						},
					],
				},
			);

			expect(result.json(NODE_NAME)[0].attributes).toEqual({
				updated: ['First Name', 'Lead Score', 'Opted In'],
				keptExisting: [],
				// the owner's values are spread into keys of their own; this CRM has no such attributes
				ignored: ['Owner.name', 'Owner.id'],
				invalid: [{ key: 'Plan', reason: 'Plan must be one of: Basic, Pro, Enterprise' }],
				leftOut: [
					{ key: 'Last Name', reason: 'missing' },
					{ key: 'City', reason: 'empty' },
					{ key: 'Tags', reason: 'an empty list' },
				],
				counts: { updated: 3, keptExisting: 0, ignored: 2, invalid: 1, leftOut: 3 },
			});
			expect(apiRequests(sandbox())[0].body).toEqual({
				to_number: phone,
				workflow_id: 'wf_welcome',
				attributes: [
					{ key: 'First Name', value: 'Meera', replace: true },
					{ key: 'Lead Score', value: 7, replace: true },
					{ key: 'Opted In', value: false, replace: true },
					{ key: 'Plan', value: 'Gold', replace: true },
					{ key: 'Owner.name', value: 'Ravi', replace: true },
					{ key: 'Owner.id', value: '55', replace: true },
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
			const report = { updated: ['City'], ignored: ['Colour'], invalid: [] };
			expect(alreadyRunning).toEqual([
				{
					json: assigned(phone, {
						status: 'already-running',
						message: 'This number is already running in this workflow',
						startedByEarlierAttempt: false,
						attempts: 1,
						attributes: {
							...report,
							keptExisting: [],
							leftOut: [],
							counts: { updated: 1, keptExisting: 0, ignored: 1, invalid: 0, leftOut: 0 },
						},
						body: {
							status: 'error',
							message: 'This number is already running in this workflow',
							attributes: { ...report, kept_existing: [] },
						},
					}),
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

		it('splits one execution over both outputs, each in input order with its pairedItem, at Concurrency 5 however the answers arrive', async () => {
			const phones = freshNumbers(8);
			// already running: items 1, 3 and 6
			for (const index of [1, 3, 6]) {
				await assign(sandbox(), { phoneNumber: phones[index], workflowId: 'wf_welcome' });
			}
			sandbox().setFaults({ endpoint: 'assign', seed: 7, latencyMs: 5, jitterMs: 80 });

			const result = await assign(sandbox(), fromItems({ options: { concurrency: 5 } }), {
				items: phones.map((phone) => ({ phone, workflowId: 'wf_welcome' })),
			});

			const [started, alreadyRunning] = result.outputOf(NODE_NAME);
			expect(started.map((item) => [item.json.toNumber, item.pairedItem])).toEqual(
				[0, 2, 4, 5, 7].map((index) => [phones[index], { item: index }]),
			);
			expect(alreadyRunning.map((item) => [item.json.toNumber, item.pairedItem])).toEqual(
				[1, 3, 6].map((index) => [phones[index], { item: index }]),
			);
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

		/** One attribute CallKaro saves and one it has no CRM attribute for. */
		const failOnAttributeProblems = {
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
		};

		it("'On Attribute Problems: Fail the Item' fails an item whose attributes were not all saved", async () => {
			const result = await assign(sandbox(), failOnAttributeProblems);

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
			const result = await assign(sandbox(), failOnAttributeProblems, {
				settings: { continueOnFail: true },
			});

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

	describe('retries', () => {
		it('a 500 and then 409: the first attempt may have started the run, so it goes to Started and says so', async () => {
			const phone = freshNumber();
			await assign(sandbox(), { phoneNumber: phone, workflowId: 'wf_welcome' });
			fastBackoff();
			sandbox().setFaults({ endpoint: 'assign', sequence: ['500'] });

			const result = await assign(sandbox(), { phoneNumber: phone, workflowId: 'wf_welcome' });

			expect(result.json(NODE_NAME, 0)).toEqual([
				expect.objectContaining({
					status: 'started',
					startedByEarlierAttempt: true,
					attempts: 2,
				}),
			]);
			expect(apiRequests(sandbox()).map((request) => request.status)).toEqual([200, 500, 409]);
		});

		it('an answer lost after CallKaro started the run: the retry gets 409, and the item goes to Started with startedByEarlierAttempt', async () => {
			const phone = freshNumber();
			fastBackoff();
			sandbox().setFaults({ endpoint: 'assign', sequence: ['drop-after'] });

			const result = await assign(sandbox(), { phoneNumber: phone, workflowId: 'wf_welcome' });

			expect(result.status).toBe('success');
			expect(result.outputOf(NODE_NAME)[1]).toEqual([]);
			expect(result.json(NODE_NAME, 0)).toEqual([
				expect.objectContaining({
					status: 'started',
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
	});

	it.each(['supplyData', 'engineRequest'] as const)(
		'as an AI agent tool (%s path): an already-running result reaches the agent on output 0',
		async (via) => {
			const phone = freshNumber();
			await assign(sandbox(), { phoneNumber: phone, workflowId: 'wf_welcome' });

			const tool = await runRowAsTool(assignWorkflow, sandbox(), {
				via,
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
});
