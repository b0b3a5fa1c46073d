// CallKaro Outbound Call in n8n's real engine against the local CallKaro sandbox.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { OUTBOUND_CALL, callKaroNodeTypes } from '../engine/callKaroNodes';
import * as outboundCall from '../../nodes/CallKaroOutboundCall/outboundCall.operation';
import { runAsTool } from '../engine/harness';
import type { RunResult } from '../engine/harness';
import { DEMO_API_KEY, OTHER_API_KEY, startSandbox } from '../sandbox/sandbox.mjs';
import {
	HINTS,
	NODE_NAME,
	WRONG_API_KEY,
	apiRequests,
	createCampaign,
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

const OUTBOUND_PATH = '/call/outbound';
const AGENT = 'agent_sales_01';
const UNKNOWN_OUTCOME_HINT = HINTS.outcomeUnknown;

/** Agent ID, phone number and campaign from each item. */
function fromItems(extra: INodeParameters = {}): INodeParameters {
	return {
		agentId: '={{ $json.agentId }}',
		phoneNumber: '={{ $json.phone }}',
		...extra,
	};
}

function placeCall(
	sandbox: Sandbox,
	parameters: INodeParameters,
	more: Omit<Parameters<typeof runNode>[1], 'type' | 'parameters'> = {},
): Promise<RunResult> {
	return runNode(sandbox, { type: OUTBOUND_CALL, parameters, ...more });
}

function outboundRequests(sandbox: Sandbox) {
	return apiRequests(sandbox, OUTBOUND_PATH);
}

describe('CallKaro Outbound Call', () => {
	const sandbox = useSandbox();

	describe('placing calls', () => {
		it("places a call now and outputs CallKaro's call_id as callId (spec dialect)", async () => {
			const phone = freshNumber();
			const result = await placeCall(sandbox(), { agentId: AGENT, phoneNumber: phone });

			expect(result.status).toBe('success');
			const [placed] = sandbox().state.calls;
			expect(result.outputOf(NODE_NAME)).toEqual([
				[
					{
						json: {
							placed: true,
							callId: placed.id,
							status: 'success',
							message: 'Call initiated successfully',
							agentId: AGENT,
							toNumber: phone,
							scheduleAt: null,
							scheduledForUtc: null,
							attempts: 1,
							body: {
								status: 'success',
								message: 'Call initiated successfully',
								call_id: placed.id,
							},
						},
						pairedItem: { item: 0 },
					},
				],
			]);
			expect(placed).toMatchObject({
				agentId: AGENT,
				toNumber: phone,
				type: 'outbound-api',
				status: 'queued',
				scheduledFor: null,
				batchId: null,
				options: {},
			});
			const [request] = outboundRequests(sandbox());
			// only what was set is sent
			expect(request.body).toEqual({ to_number: phone, agent_id: AGENT });
			expect(request.headers['x-api-key']).toBe('ck_d…89');
			expect(result.authenticated[0].requestOptions.headers).toMatchObject({
				'X-API-KEY': DEMO_API_KEY,
			});
			expectNoSecrets(result, {});
		});

		it("reads call_sid as callId when CallKaro answers like its public docs ('docs' dialect)", async () => {
			sandbox().setDialect('docs');
			const result = await placeCall(sandbox(), { agentId: AGENT, phoneNumber: freshNumber() });

			const [placed] = sandbox().state.calls;
			expect(result.json(NODE_NAME)[0]).toMatchObject({
				callId: placed.id,
				status: 'done',
				message: 'Call queued successfully',
				body: { status: 'done', message: 'Call queued successfully', call_sid: placed.id },
			});
		});

		it('sends every additional field, and CallKaro records them on the call and in the campaign', async () => {
			const batchId = await createCampaign(sandbox(), { name: 'Diwali offers' });
			const phone = freshNumber();

			const result = await placeCall(
				sandbox(),
				fromItems({
					additionalFields: {
						batchId: '={{ $json.batchId }}',
						metadata: {
							entry: [
								{ key: 'customer_name', value: '={{ $json.name }}' },
								{ key: 'order_id', value: 'A-1042' },
							],
						},
						scheduleAt: '2030-01-02T10:00:00',
						timeZone: 'Europe/London',
						minTriggerTime: '09:30',
						maxTriggerTime: '19:00',
						carryOver: true,
						numberOfRetries: 2,
						gapBetweenRetries: '30, 60',
						priority: 5,
						language: 'hi',
					},
				}),
				{ items: [{ phone, agentId: AGENT, batchId, name: 'Asha' }] },
			);

			const sent = {
				batch_id: batchId,
				metadata: { customer_name: 'Asha', order_id: 'A-1042' },
				schedule_at: '2030-01-02T15:30:00',
				min_trigger_time: '09:30',
				max_trigger_time: '19:00',
				carry_over: true,
				number_of_retries: 2,
				gap_between_retries: [30, 60],
				priority: 5,
				language: 'hi',
			};
			expect(outboundRequests(sandbox())[0].body).toEqual({
				to_number: phone,
				agent_id: AGENT,
				...sent,
			});
			const [placed] = sandbox().state.calls;
			expect(placed).toMatchObject({
				type: 'outbound-scheduled',
				status: 'scheduled',
				scheduledFor: '2030-01-02T10:00:00.000Z',
				batchId,
				options: sent,
			});
			expect(sandbox().state.scheduledCalls.map((entry) => entry.id)).toEqual([placed.id]);
			expect(sandbox().state.campaigns).toEqual([
				expect.objectContaining({
					batchId,
					version: 'v2',
					name: 'Diwali offers',
					callIds: [placed.id],
				}),
			]);
			expect(result.json(NODE_NAME)[0]).toMatchObject({
				callId: placed.id,
				scheduleAt: '2030-01-02T15:30:00',
				scheduledForUtc: '2030-01-02T10:00:00.000Z',
			});
		});

		it.each([
			[
				'one gap for every retry',
				{ numberOfRetries: 3, gapBetweenRetries: '45' },
				{ number_of_retries: 3, gap_between_retries: 45 },
			],
			[
				'zero retries, no carry over, lowest priority',
				{ numberOfRetries: 0, carryOver: false, priority: -100 },
				{ number_of_retries: 0, carry_over: false, priority: -100 },
			],
			[
				'a schedule time as {{ $now.plus({ days: 1 }) }}',
				{ scheduleAt: '={{ $now.plus({ days: 1 }).startOf("minute") }}' },
				{},
			],
			[
				'an empty Campaign ID and empty trigger window (left out)',
				{ batchId: '', minTriggerTime: ' ', maxTriggerTime: '' },
				{},
			],
		])('%s', async (_, additionalFields, expected) => {
			const phone = freshNumber();
			const result = await placeCall(sandbox(), {
				agentId: AGENT,
				phoneNumber: phone,
				additionalFields,
			});

			expect(result.status).toBe('success');
			const body = outboundRequests(sandbox())[0].body as IDataObject;
			expect(body).toMatchObject({ to_number: phone, agent_id: AGENT, ...expected });
			if ('scheduleAt' in additionalFields) {
				expect(body.schedule_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00$/);
				expect(sandbox().state.calls[0].status).toBe('scheduled');
			} else {
				expect(Object.keys(body).sort()).toEqual(
					['agent_id', 'to_number', ...Object.keys(expected)].sort(),
				);
			}
		});

		it('takes numbers and true/false mapped as text, as a sheet or a form gives them', async () => {
			const phone = freshNumber();
			const row = {
				phone,
				agentId: AGENT,
				retries: ' 2 ',
				priority: '-5',
				carryOver: 'TRUE',
				gaps: '',
			};

			const result = await placeCall(
				sandbox(),
				fromItems({
					additionalFields: {
						numberOfRetries: '={{ $json.retries }}',
						priority: '={{ $json.priority }}',
						carryOver: '={{ $json.carryOver }}',
						gapBetweenRetries: '={{ $json.gaps }}',
						metadata: { entry: [{ key: 'row', value: '={{ $itemIndex + 2 }}' }] },
					},
				}),
				{ items: [row] },
			);

			expect(result.status).toBe('success');
			expect(outboundRequests(sandbox())[0].body).toEqual({
				to_number: phone,
				agent_id: AGENT,
				number_of_retries: 2,
				priority: -5,
				carry_over: true,
				metadata: { row: 2 },
			});
		});
	});

	it("reads Time Zone under Options as Assign does, and still reads a saved workflow's Additional Fields → Time Zone", async () => {
		const phones = freshNumbers(3);
		const rows = [
			{ zone: 'Europe/London', oldPlace: '' },
			{ zone: 'Asia/Tokyo', oldPlace: 'America/New_York' }, // Options wins
			{ zone: '', oldPlace: 'America/New_York' }, // a workflow saved before the move
		].map((row, index) => ({ ...row, phone: phones[index], agentId: AGENT }));

		const result = await placeCall(
			sandbox(),
			fromItems({
				additionalFields: { scheduleAt: '2030-01-02T10:00:00', timeZone: '={{ $json.oldPlace }}' },
				options: { timeZone: '={{ $json.zone }}' },
			}),
			{ items: rows },
		);

		expect(result.status).toBe('success');
		expect(
			outboundRequests(sandbox()).map(({ body }) => (body as IDataObject).schedule_at),
		).toEqual(['2030-01-02T15:30:00', '2030-01-02T06:30:00', '2030-01-02T20:30:00']);
	});

	describe('bad input fails the item before anything is sent', () => {
		const HINT = 'Change the value, or remove the option. [item 1]';
		// [what, Additional Fields (reading the item), the bad item's values, message]. Every item
		// starts as { phone, agentId, ...GOOD }; the middle one gets the bad values.
		const GOOD: IDataObject = {
			language: 'en',
			priority: 0,
			retries: 1,
			gaps: '30',
			from: '09:00',
			to: '18:00',
			key: 'topic',
			when: '2030-01-02T10:00:00Z',
			zone: 'Asia/Kolkata',
		};
		const cases: Array<[string, INodeParameters, IDataObject, string]> = [
			[
				'a bad language',
				{ language: '={{ $json.language }}' },
				{ language: 'fr' },
				`"Language" must be one of hi, en, kn, mr, ta, te, bn, gu, ml, but is "fr". ${HINT}`,
			],
			[
				'a priority above 100',
				{ priority: '={{ $json.priority }}' },
				{ priority: 101 },
				`"Priority" must be a whole number from -100 to 100, but is 101. ${HINT}`,
			],
			[
				'a priority that is not whole',
				{ priority: '={{ $json.priority }}' },
				{ priority: 2.5 },
				`"Priority" must be a whole number from -100 to 100, but is 2.5. ${HINT}`,
			],
			[
				'11 retries',
				{ numberOfRetries: '={{ $json.retries }}' },
				{ retries: 11 },
				`"Number of Retries" must be a whole number from 0 to 10, but is 11. ${HINT}`,
			],
			[
				'retry gaps that are not minutes',
				{ gapBetweenRetries: '={{ $json.gaps }}' },
				{ gaps: '30, soon' },
				`"Gap Between Retries" must be whole minutes, one number or a comma-separated list such as 30, 60, but is "30, soon". ${HINT}`,
			],
			[
				'a trigger window start of 9:30',
				{ minTriggerTime: '={{ $json.from }}' },
				{ from: '9:30' },
				`"Earliest Call Time" must be a time of day as HH:MM (24-hour), such as 09:30, but is "9:30". ${HINT}`,
			],
			[
				'a trigger window end of 24:00',
				{ maxTriggerTime: '={{ $json.to }}' },
				{ to: '24:00' },
				`"Latest Call Time" must be a time of day as HH:MM (24-hour), such as 09:30, but is "24:00". ${HINT}`,
			],
			[
				'metadata with a key twice',
				{
					metadata: {
						entry: [
							{ key: 'name', value: 'A' },
							{ key: '={{ $json.key }}', value: 'B' },
						],
					},
				},
				{ key: ' name ' },
				'"Metadata" has the key "name" twice. Keep only one of them. [item 1]',
			],
			[
				'metadata without a key',
				{ metadata: { entry: [{ key: '={{ $json.key }}', value: 'A' }] } },
				{ key: '' },
				'"Metadata" has an entry without a key. Enter a key for every entry, or remove it. [item 1]',
			],
			[
				'an impossible date',
				{ scheduleAt: '={{ $json.when }}' },
				{ when: '2030-13-01T10:00:00' },
				'"Schedule Time" is not a real date or time: "2030-13-01T10:00:00". Use a date and time such as 2026-11-22T09:30:00 (read in the workflow time zone) or 2026-11-22T09:30:00+05:30. [item 1]',
			],
			[
				'text that is no date',
				{ scheduleAt: '={{ $json.when }}' },
				{ when: 'tomorrow 10am' },
				'"Schedule Time" is not a date and time: "tomorrow 10am". Use a date and time such as 2026-11-22T09:30:00 (read in the workflow time zone) or 2026-11-22T09:30:00+05:30. [item 1]',
			],
			[
				'an unknown time zone',
				{ scheduleAt: '2030-01-02T10:00:00', timeZone: '={{ $json.zone }}' },
				{ zone: 'India/Delhi' },
				'"Time Zone" is not a known time zone: "India/Delhi". Use an IANA time zone name such as Asia/Kolkata. [item 1]',
			],
			[
				'a phone number without country code',
				{},
				{ phone: '98765 01234' },
				'"Phone Number" has no country code: "98****1234". Start the number with + and the country code, e.g. +919876543210, or set a default country code. [item 1]',
			],
			[
				'a priority given as a word',
				{ priority: '={{ $json.priority }}' },
				{ priority: 'high' },
				`"Priority" must be a whole number from -100 to 100, but is "high". ${HINT}`,
			],
			[
				'carry over given as yes',
				{ carryOver: '={{ $json.carryOver }}' },
				{ carryOver: 'yes' },
				`"Carry Over" must be true or false, but is "yes". ${HINT}`,
			],
			[
				'an empty Agent ID (from an expression)',
				{},
				{ agentId: '' },
				'"Agent ID" is empty. Enter the ID of the CallKaro agent. Its expression {{ $json.agentId }} gave an empty value for this item: check that the input item has the field it reads. [item 1]',
			],
		];

		function threeItems(bad: IDataObject): { phones: string[]; items: IDataObject[] } {
			const phones = freshNumbers(3);
			const items: IDataObject[] = phones.map((phone) => ({ phone, agentId: AGENT, ...GOOD }));
			Object.assign(items[1], bad);
			return { phones, items };
		}

		it.each(cases)(
			'%s: stops the execution, naming the field and the item',
			async (_, additionalFields, bad, message) => {
				const { phones, items } = threeItems(bad);
				const parameters = fromItems({ additionalFields, options: { concurrency: 1 } });
				const result = await placeCall(sandbox(), parameters, { items });

				expect(workflowError(result)).toMatchObject({
					name: 'NodeOperationError',
					message,
					context: { itemIndex: 1 },
				});
				expect(sentNumbers(sandbox())).toEqual([phones[0]]);
				expectNoSecrets(result, { numbers: [phones[1], '+919876501234'] });
			},
		);

		it.each(cases)(
			'%s: with continueOnFail the other items are called',
			async (_, additionalFields, bad, message) => {
				const { phones, items } = threeItems(bad);
				const result = await placeCall(sandbox(), fromItems({ additionalFields }), {
					items,
					settings: { continueOnFail: true },
				});

				const [output] = result.outputOf(NODE_NAME);
				expect(pairedItems(output)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
				expect(failedItemJson(output[1])).toEqual(refusedItemJson(message));
				expect([output[0].json.toNumber, output[2].json.toNumber]).toEqual([phones[0], phones[2]]);
				expect(
					sandbox()
						.state.calls.map((entry) => entry.toNumber)
						.sort(),
				).toEqual([phones[0], phones[2]]);
			},
		);
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
			/** Outbound Call is never retried once CallKaro may have placed the call. */
			outcomeUnknown?: boolean;
			/** The item CallKaro refuses (default 1), unless every item fails. */
			failingItem?: number;
			/** Extra fields of the failing item (what CallKaro refuses), given the sandbox. */
			refused?: (sandbox: Sandbox) => Promise<IDataObject> | IDataObject;
			apiKey?: string;
			faults?: FaultInput;
			allFail?: boolean;
		}
		const cases: ErrorCase[] = [
			{
				title: '400 agent not matching the campaign',
				httpCode: '400',
				refused: async (sb) => ({
					batchId: await createCampaign(
						sb,
						{ name: 'Support', agent_id: 'agent_support_02' },
						'v1',
					),
				}),
				message: 'CallKaro rejected the request (HTTP 400): Agent does not match the campaign',
				kind: 'bad-request',
				serviceMessage: 'Agent does not match the campaign',
				description: HINTS.badRequest,
			},
			{
				title: '403 invalid key',
				httpCode: '403',
				apiKey: WRONG_API_KEY,
				message: 'The API key was missing or not accepted (HTTP 403): Missing X-API-KEY in headers',
				kind: 'auth',
				serviceMessage: 'Missing X-API-KEY in headers',
				description: HINTS.auth,
				allFail: true,
			},
			{
				title: '403 missing key',
				httpCode: '403',
				apiKey: '',
				message: 'The API key was missing or not accepted (HTTP 403): Missing X-API-KEY in headers',
				kind: 'auth',
				serviceMessage: 'Missing X-API-KEY in headers',
				description: HINTS.auth,
				allFail: true,
			},
			{
				title: '404 unknown agent',
				httpCode: '404',
				refused: () => ({ agentId: 'agent_gone_99' }),
				message: 'Not found (HTTP 404): Agent does not exist',
				kind: 'not-found',
				serviceMessage: 'Agent does not exist',
				description: HINTS.notFound,
			},
			{
				title: '404 unknown campaign',
				httpCode: '404',
				refused: () => ({ batchId: '000000000000000000000000' }),
				message: 'Not found (HTTP 404): Campaign not found',
				kind: 'not-found',
				serviceMessage: 'Campaign not found',
				description: HINTS.notFound,
			},
			{
				title: "404 an agent of another account's key",
				httpCode: '404',
				apiKey: OTHER_API_KEY,
				message: 'Not found (HTTP 404): Agent does not exist',
				kind: 'not-found',
				serviceMessage: 'Agent does not exist',
				description: HINTS.notFound,
				allFail: true,
			},
			{
				// On the last item: a Retry-After the node refuses to wait still holds back every
				// request after it for the whole Retry-After (the shared 429 pause).
				title: '429 asking to wait longer than the node waits',
				httpCode: '429',
				failingItem: 2,
				faults: { endpoint: 'outbound', sequence: ['ok', 'ok', '429'], retryAfterSeconds: 31 },
				message:
					'Rate limited by CallKaro (HTTP 429); it asked to wait 31 s, longer than the 30 s this node waits: Too many requests',
				kind: 'rate-limited',
				serviceMessage: 'Too many requests',
				description: HINTS.rateLimited,
			},
			{
				title: '500, not retried',
				httpCode: '500',
				faults: { endpoint: 'outbound', sequence: ['ok', '500', 'ok'] },
				message:
					'CallKaro failed (HTTP 500) and the call may or may not have been placed; it was not retried, to avoid calling twice: Internal server error',
				kind: 'service-failure',
				serviceMessage: 'Internal server error',
				description: HINTS.outcomeUnknown,
				outcomeUnknown: true,
			},
			{
				title: '502, not retried',
				httpCode: '502',
				faults: { endpoint: 'outbound', sequence: ['ok', '502', 'ok'] },
				message:
					'CallKaro failed (HTTP 502) and the call may or may not have been placed; it was not retried, to avoid calling twice: Bad gateway',
				kind: 'service-failure',
				serviceMessage: 'Bad gateway',
				description: HINTS.outcomeUnknown,
				outcomeUnknown: true,
			},
			{
				title: '503 at a rate of 1',
				httpCode: '503',
				faults: { endpoint: 'outbound', rates: { 503: 1 }, seed: 5 },
				message:
					'CallKaro failed (HTTP 503) and the call may or may not have been placed; it was not retried, to avoid calling twice: Service unavailable',
				kind: 'service-failure',
				serviceMessage: 'Service unavailable',
				description: HINTS.outcomeUnknown,
				outcomeUnknown: true,
				allFail: true,
			},
		];

		describe.each(cases)('$title', (errorCase) => {
			const phones: string[] = [];
			let items: IDataObject[] = [];
			const failing = errorCase.allFail ? [0, 1, 2] : [errorCase.failingItem ?? 1];
			const parameters = fromItems({
				additionalFields: { batchId: '={{ $json.batchId }}' },
				options: { concurrency: 1 },
			});
			// one request per item: Outbound Call never retries a call CallKaro may have placed
			const details: ErrorDetails = {
				kind: errorCase.kind,
				httpStatus: Number(errorCase.httpCode),
				serviceMessage: errorCase.serviceMessage,
				attempts: 1,
				outcomeUnknown: errorCase.outcomeUnknown ?? false,
				description: errorCase.description,
			};

			beforeEach(async () => {
				phones.splice(0, 3, ...freshNumbers(3));
				items = phones.map((phone) => ({ phone, agentId: AGENT }));
				if (!errorCase.allFail) {
					Object.assign(items[failing[0]], await errorCase.refused?.(sandbox()));
				}
				if (errorCase.faults) sandbox().setFaults(errorCase.faults);
			});

			it('stops the execution with a NodeApiError carrying the HTTP code and the item, after one request', async () => {
				const result = await placeCall(sandbox(), parameters, { items, apiKey: errorCase.apiKey });

				const error = workflowError(result);
				expect(error).toMatchObject({
					name: 'NodeApiError',
					message: errorCase.message,
					httpCode: errorCase.httpCode,
					description: stoppedRunDescription(
						outboundCall.vocabulary,
						{
							itemCount: 3,
							failingItem: failing[0],
							outcomeUnknown: errorCase.outcomeUnknown ?? false,
						},
						errorCase.description,
					),
					context: { itemIndex: failing[0] },
				});
				// never more than one request for the failed item; nothing for the items after it
				expect(outboundRequests(sandbox())).toHaveLength(failing[0] + 1);
				expectNoSecrets(result, {
					apiKeys: [DEMO_API_KEY, OTHER_API_KEY, WRONG_API_KEY],
					numbers: phones,
				});
			});

			it('with continueOnFail: an error item in its place, the other calls placed', async () => {
				const result = await placeCall(sandbox(), parameters, {
					items,
					apiKey: errorCase.apiKey,
					settings: { continueOnFail: true },
				});

				const [output] = result.outputOf(NODE_NAME);
				expect(pairedItems(output)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
				output.forEach((item, index) => {
					if (failing.includes(index)) {
						// only error and details: what n8n routes to an error output
						expect(failedItemJson(item)).toEqual({ error: errorCase.message, details });
					} else {
						expect(item.json).toMatchObject({ toNumber: phones[index], status: 'success' });
					}
				});
				expect(outboundRequests(sandbox())).toHaveLength(3);
				expect(sandbox().state.calls.map((entry) => entry.toNumber)).toEqual(
					phones.filter((_, index) => !failing.includes(index)),
				);
				expectNoSecrets(result, { apiKeys: [DEMO_API_KEY, OTHER_API_KEY, WRONG_API_KEY] });
			});

			it('with the error output: the failed item goes there, with the fields of its input item', async () => {
				const result = await placeCall(sandbox(), parameters, {
					items,
					apiKey: errorCase.apiKey,
					settings: { onError: 'continueErrorOutput' },
				});

				const [placed, failed] = result.outputOf(NODE_NAME);
				expect(pairedItems(placed)).toEqual(
					[0, 1, 2].filter((index) => !failing.includes(index)).map((item) => ({ item })),
				);
				expect(pairedItems(failed)).toEqual(failing.map((item) => ({ item })));
				failed.forEach((item, position) => {
					expect(failedItemJson(item)).toEqual({
						...items[failing[position]],
						error: errorCase.message,
						details,
					});
				});
				// the node after the error output gets them as they are; the one after the main output
				// only the placed calls (and does not run when there are none)
				expect(result.json('Output 1')).toEqual(failed.map((item) => item.json));
				if (placed.length) expect(result.json('Output 0')).toEqual(placed.map((item) => item.json));
				else expect(result.runData['Output 0']).toBeUndefined();
			});
		});
	});

	it('a credential with a Base URL that is not https fails every item (continueOnFail)', async () => {
		const result = await placeCall(sandbox(), fromItems(), {
			items: freshNumbers(2).map((phone) => ({ phone, agentId: AGENT })),
			baseUrl: 'ftp://127.0.0.1',
			settings: { continueOnFail: true },
		});

		expect(result.json(NODE_NAME)).toEqual([
			{
				error:
					'"Base URL" must start with https:// (got ftp://127.0.0.1), because the API key travels with every request. Plain http is allowed only for a local sandbox on this machine (localhost, 127.0.0.1). [item 0]',
				details: refusedDetails('Base URL'),
			},
			{
				error:
					'"Base URL" must start with https:// (got ftp://127.0.0.1), because the API key travels with every request. Plain http is allowed only for a local sandbox on this machine (localhost, 127.0.0.1). [item 1]',
				details: refusedDetails('Base URL'),
			},
		]);
		expect(sandbox().state.calls).toEqual([]);
	});

	describe('retries: a second request places a second call, so only what never took effect is retried', () => {
		it('a 500 after CallKaro placed the call is not retried: one request, one call, outcome unknown', async () => {
			sandbox().setFaults({ endpoint: 'outbound', sequence: ['500-after'] });

			const result = await placeCall(sandbox(), { agentId: AGENT, phoneNumber: freshNumber() });

			expect(workflowError(result)).toMatchObject({
				name: 'NodeApiError',
				httpCode: '500',
				message:
					'CallKaro failed (HTTP 500) and the call may or may not have been placed; it was not retried, to avoid calling twice: Internal server error',
				description: UNKNOWN_OUTCOME_HINT,
			});
			expect(outboundRequests(sandbox())).toHaveLength(1);
			// the call was in fact placed, once
			expect(sandbox().state.calls).toHaveLength(1);
		});

		it('a connection dropped after CallKaro placed the call is not retried', async () => {
			sandbox().setFaults({ endpoint: 'outbound', sequence: ['drop-after'] });

			const result = await placeCall(sandbox(), { agentId: AGENT, phoneNumber: freshNumber() });

			const error = workflowError(result);
			expect(error).toMatchObject({ name: 'NodeApiError', description: UNKNOWN_OUTCOME_HINT });
			expect(error.message).toMatch(
				/^No answer from CallKaro and the call may or may not have been placed; it was not retried, to avoid calling twice: /,
			);
			expect(error.httpCode ?? null).toBeNull();
			expect(outboundRequests(sandbox()).map((request) => [request.fault, request.status])).toEqual(
				[['drop-after', null]],
			);
			expect(sandbox().state.calls).toHaveLength(1);
		});

		it('a 429 with Retry-After: 1 is waited out and retried once, placing one call', async () => {
			sandbox().setFaults({ endpoint: 'outbound', sequence: ['429'], retryAfterSeconds: 1 });
			const started = Date.now();

			const result = await placeCall(sandbox(), { agentId: AGENT, phoneNumber: freshNumber() });

			expect(Date.now() - started).toBeGreaterThanOrEqual(990);
			expect(result.json(NODE_NAME)[0]).toMatchObject({ status: 'success', attempts: 2 });
			expect(outboundRequests(sandbox()).map((request) => request.status)).toEqual([429, 200]);
			expect(sandbox().state.calls).toHaveLength(1);
		});

		it('a request that never reached CallKaro (connection refused) is retried, then fails', async () => {
			fastBackoff();
			// a sandbox that is gone: its port refuses connections
			const closed = await startSandbox({ port: 0 });
			await closed.close();

			const result = await placeCall(closed, { agentId: AGENT, phoneNumber: freshNumber() });

			const error = workflowError(result);
			expect(error.name).toBe('NodeApiError');
			expect(error.message).toBe(
				'Could not reach CallKaro after 4 attempts: The service refused the connection - perhaps it is offline',
			);
		});
	});

	it('at Concurrency 5, gives one item per input item, in input order, each paired with its input', async () => {
		const phones = freshNumbers(9);
		sandbox().setFaults({ endpoint: 'outbound', seed: 5, latencyMs: 5, jitterMs: 80 });
		const items: IDataObject[] = phones.map((phone) => ({ phone, agentId: AGENT }));
		items[4] = { phone: '+91', agentId: AGENT };

		const result = await placeCall(sandbox(), fromItems({ options: { concurrency: 5 } }), {
			items,
			settings: { continueOnFail: true },
		});

		const [output] = result.outputOf(NODE_NAME);
		expect(output.map((item) => [item.pairedItem, item.json.toNumber ?? 'failed'])).toEqual(
			phones.map((phone, index) => [{ item: index }, index === 4 ? 'failed' : phone]),
		);
		// each callId is the call placed for that item's number
		for (const item of output) {
			if (item.json.callId === undefined) continue;
			const placed = sandbox().state.calls.find((entry) => entry.id === item.json.callId);
			expect(placed?.toNumber).toBe(item.json.toNumber);
		}
		expect(sandbox().state.calls).toHaveLength(8);
	});

	describe('as an AI agent tool', () => {
		const parameters = {
			agentId: AGENT,
			phoneNumber: fromAI('phoneNumber', 'The number to call, with country code'),
			additionalFields: {
				metadata: { entry: [{ key: 'topic', value: fromAI('topic', 'What the call is about') }] },
			},
		};

		it.each(['supplyData', 'engineRequest'] as const)(
			'%s path: the agent gets the callId',
			async (via) => {
				const phone = freshNumber();
				const tool = await runAsTool({
					via,
					nodeType: OUTBOUND_CALL,
					nodeTypes: callKaroNodeTypes(),
					parameters,
					credentials: credentialsFor(sandbox()),
					toolArgs: { phoneNumber: phone, topic: 'delivery slot' },
				});

				if (via === 'supplyData') expect(tool.schemaKeys.sort()).toEqual(['phoneNumber', 'topic']);
				const [placed] = sandbox().state.calls;
				expect(tool.response).toEqual([
					expect.objectContaining({ callId: placed.id, toNumber: phone }),
				]);
				expect(placed.options).toEqual({ metadata: { topic: 'delivery slot' } });
			},
		);

		it('supplyData path: a 500 reaches the agent as an error saying the call may have been placed', async () => {
			sandbox().setFaults({ endpoint: 'outbound', sequence: ['500'] });
			const tool = await runAsTool({
				nodeType: OUTBOUND_CALL,
				nodeTypes: callKaroNodeTypes(),
				parameters,
				credentials: credentialsFor(sandbox()),
				toolArgs: { phoneNumber: freshNumber(), topic: 'x' },
			});
			expect(tool.error?.message).toBe(
				`CallKaro failed (HTTP 500) and the call may or may not have been placed; it was not retried, to avoid calling twice: Internal server error\n\nDetails: ${UNKNOWN_OUTCOME_HINT}`,
			);
			expect(outboundRequests(sandbox())).toHaveLength(1);
		});
	});
});
