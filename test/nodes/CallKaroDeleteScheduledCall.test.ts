// CallKaro Delete Scheduled Call in n8n's real engine against the local CallKaro sandbox.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DELETE_SCHEDULED_CALL, OUTBOUND_CALL, callKaroNodeTypes } from '../engine/callKaroNodes';
import * as deleteScheduledCall from '../../nodes/CallKaroDeleteScheduledCall/deleteScheduledCall.operation';
import { node, runAsTool, runWorkflow } from '../engine/harness';
import type { RunResult } from '../engine/harness';
import { call } from '../sandbox/helpers';
import { DEMO_API_KEY, OTHER_API_KEY, formatIst } from '../sandbox/sandbox.mjs';
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

const DELETE_PATH = '/call/delete-schedule-call';
const AGENT = 'agent_sales_01';
const DAY_MS = 24 * 60 * 60 * 1000;

/** Schedules a call for tomorrow straight through the sandbox's API; resolves to the call's id. */
async function scheduleCall(sandbox: Sandbox, toNumber: string, agentId = AGENT): Promise<string> {
	const answer = await call(sandbox.url, '/call/outbound', {
		to_number: toNumber,
		agent_id: agentId,
		schedule_at: formatIst(Date.now() + DAY_MS),
	});
	return answer.body.call_id as string;
}

function callStatus(sandbox: Sandbox, id: string): string | undefined {
	return sandbox.state.calls.find((entry) => entry.id === id)?.status;
}

/** Agent ID and phone number from each item. */
function fromItems(extra: INodeParameters = {}): INodeParameters {
	return { agentId: '={{ $json.agentId }}', phoneNumber: '={{ $json.phone }}', ...extra };
}

function deleteCall(
	sandbox: Sandbox,
	parameters: INodeParameters,
	more: Omit<Parameters<typeof runNode>[1], 'type' | 'parameters'> = {},
): Promise<RunResult> {
	return runNode(sandbox, { type: DELETE_SCHEDULED_CALL, parameters, ...more });
}

describe('CallKaro Delete Scheduled Call', () => {
	const sandbox = useSandbox();

	describe('deleting', () => {
		it('cancels the call an Outbound Call node scheduled earlier in the workflow (JSON body)', async () => {
			const phone = freshNumber();
			const result = await runWorkflow({
				nodes: [
					node('Schedule Call', OUTBOUND_CALL, {
						agentId: AGENT,
						phoneNumber: phone,
						additionalFields: { scheduleAt: '={{ $now.plus({ days: 1 }) }}' },
					}),
					node(NODE_NAME, DELETE_SCHEDULED_CALL, {
						agentId: '={{ $json.agentId }}',
						phoneNumber: '={{ $json.toNumber }}',
					}),
				],
				credentials: credentialsFor(sandbox()),
				nodeTypes: callKaroNodeTypes(),
			});

			expect(result.status).toBe('success');
			expect(result.outputOf(NODE_NAME)).toEqual([
				[
					{
						json: {
							deleted: true,
							agentId: AGENT,
							toNumber: phone,
							message: 'Scheduled call deleted successfully',
							attempts: 1,
							body: { status: 'success', message: 'Scheduled call deleted successfully' },
						},
						pairedItem: { item: 0 },
					},
				],
			]);
			const [scheduled] = sandbox().state.scheduledCalls;
			expect(scheduled).toMatchObject({
				agentId: AGENT,
				toNumber: phone,
				status: 'deleted',
				hangupReason: 'DELETED_SCH_CALL_ONE',
			});
			const [request] = apiRequests(sandbox(), DELETE_PATH);
			expect(request).toMatchObject({
				method: 'POST',
				query: { agent_id: AGENT },
				body: { to_number: phone },
				status: 200,
			});
			expect(request.headers['content-type']).toMatch(/^application\/json/);
			expect(request.headers['x-api-key']).toBe('ck_d…89');
			expectNoSecrets(result, {});
		});

		it('sends the number as multipart form data with Body Format: Form Data', async () => {
			const phone = freshNumber();
			const callId = await scheduleCall(sandbox(), phone);

			const result = await deleteCall(sandbox(), {
				agentId: AGENT,
				// a national number, completed by the Default Country Code option
				phoneNumber: `0${phone.slice(3, 8)} ${phone.slice(8)}`,
				options: { bodyFormat: 'form', defaultCountryCode: '+91' },
			});

			expect(result.json(NODE_NAME)).toEqual([
				{
					deleted: true,
					agentId: AGENT,
					toNumber: phone,
					message: 'Scheduled call deleted successfully',
					attempts: 1,
					body: { status: 'success', message: 'Scheduled call deleted successfully' },
				},
			]);
			expect(callStatus(sandbox(), callId)).toBe('deleted');
			const [request] = apiRequests(sandbox(), DELETE_PATH);
			expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
			expect(request.body).toEqual({ to_number: phone });
			expect(request.query).toEqual({ agent_id: AGENT });
		});

		it('cancels every call still scheduled for the agent and number, and no other', async () => {
			const phone = freshNumber();
			const first = await scheduleCall(sandbox(), phone);
			const second = await scheduleCall(sandbox(), phone);
			const otherAgent = await scheduleCall(sandbox(), phone, 'agent_support_02');

			await deleteCall(sandbox(), { agentId: AGENT, phoneNumber: phone });

			expect(
				sandbox().state.calls.map((entry) => [entry.id, entry.status, entry.hangupReason]),
			).toEqual([
				[first, 'deleted', 'DELETED_SCH_CALL_ALL'],
				[second, 'deleted', 'DELETED_SCH_CALL_ALL'],
				[otherAgent, 'scheduled', null],
			]);
		});

		it("passes CallKaro's message on when nothing was scheduled (CallKaro answers 200)", async () => {
			const result = await deleteCall(sandbox(), { agentId: AGENT, phoneNumber: freshNumber() });
			expect(result.json(NODE_NAME)[0]).toMatchObject({
				deleted: true,
				message: 'No scheduled call found',
				attempts: 1,
				body: { status: 'success', message: 'No scheduled call found' },
			});
		});
	});

	describe('bad input fails the item before anything is sent', () => {
		const cases: Array<[string, IDataObject, INodeParameters, string]> = [
			[
				'a phone number too short',
				{ phone: '+91 12345' },
				{},
				'"Phone Number" must have 8 to 15 digits including the country code, but is "+****345". Check the number and its country code. [item 1]',
			],
			[
				'a phone number with letters',
				{ phone: 'call me' },
				{},
				'"Phone Number" may contain only digits, spaces, dashes, dots, brackets and a leading +, but is "*******". Remove the other characters. [item 1]',
			],
			[
				'an empty Agent ID (from an expression)',
				{ agentId: '  ' },
				{},
				'"Agent ID" is empty. Enter the ID of the CallKaro agent. Its expression {{ $json.agentId }} gave an empty value for this item: check that the input item has the field it reads. [item 1]',
			],
			[
				'a bad Default Country Code',
				{ country: '0091' },
				{ options: { defaultCountryCode: '={{ $json.country }}' } },
				'"Default Country Code" must be 1 to 3 digits, such as 91 or +91, not "0091". Enter the country code without other characters. [item 1]',
			],
		];

		function threeItems(bad: IDataObject): { phones: string[]; items: IDataObject[] } {
			const phones = freshNumbers(3);
			const good = (phone: string): IDataObject => ({ phone, agentId: AGENT, country: '91' });
			return { phones, items: [good(phones[0]), { ...good(phones[1]), ...bad }, good(phones[2])] };
		}

		it.each(cases)(
			'%s: stops the execution, naming the field and the item',
			async (_, bad, extra, message) => {
				const { phones, items } = threeItems(bad);
				const options = { concurrency: 1, ...(extra.options as IDataObject) };
				const result = await deleteCall(sandbox(), fromItems({ ...extra, options }), { items });

				expect(workflowError(result)).toMatchObject({
					name: 'NodeOperationError',
					message,
					context: { itemIndex: 1 },
				});
				expect(sentNumbers(sandbox())).toEqual([phones[0]]);
				expectNoSecrets(result, { numbers: [phones[1]] });
			},
		);

		it.each(cases)(
			'%s: with continueOnFail the other items go through',
			async (_, bad, extra, message) => {
				const { phones, items } = threeItems(bad);
				const result = await deleteCall(sandbox(), fromItems(extra), {
					items,
					settings: { continueOnFail: true },
				});

				const [output] = result.outputOf(NODE_NAME);
				expect(pairedItems(output)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
				expect(failedItemJson(output[1])).toEqual(refusedItemJson(message));
				expect(output.map((item) => item.json)).toEqual([
					{
						deleted: true,
						agentId: AGENT,
						toNumber: phones[0],
						message: 'No scheduled call found',
						attempts: 1,
						body: { status: 'success', message: 'No scheduled call found' },
					},
					refusedItemJson(message),
					{
						deleted: true,
						agentId: AGENT,
						toNumber: phones[2],
						message: 'No scheduled call found',
						attempts: 1,
						body: { status: 'success', message: 'No scheduled call found' },
					},
				]);
				expect([...sentNumbers(sandbox())].sort()).toEqual([phones[0], phones[2]]);
			},
		);

		it('with the error output, the bad item goes there', async () => {
			const { phones, items } = threeItems({ phone: '+0 1234 5678' });
			const result = await deleteCall(sandbox(), fromItems(), {
				items,
				settings: { onError: 'continueErrorOutput' },
			});

			const [deleted, failed] = result.outputOf(NODE_NAME);
			expect(deleted.map((item) => [item.json.toNumber, item.pairedItem])).toEqual([
				[phones[0], { item: 0 }],
				[phones[2], { item: 2 }],
			]);
			expect(failed).toHaveLength(1);
			expect(failed[0].pairedItem).toEqual({ item: 1 });
			// n8n merges the fields of the input item into the error item
			expect(failedItemJson(failed[0])).toEqual({
				...items[1],
				error: expect.stringMatching(/^"Phone Number" must have 8 to 15 digits .* \[item 1\]$/),
				details: refusedDetails('Phone Number'),
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
			/** The call may have been deleted although the item failed. */
			outcomeUnknown?: boolean;
			/** The item CallKaro refuses (default 1), unless every item fails. */
			failingItem?: number;
			/** The failing item's agent, when the agent is what CallKaro refuses. */
			agentId?: string;
			apiKey?: string;
			/** For concurrency 1 over three items: the items before the failing one ok, its attempts, the rest. */
			faults?: FaultInput;
			attempts: number;
			allFail?: boolean;
		}
		const cases: ErrorCase[] = [
			{
				title: '403 invalid key',
				httpCode: '403',
				apiKey: WRONG_API_KEY,
				message: 'The API key was missing or not accepted (HTTP 403): Missing X-API-KEY in headers',
				kind: 'auth',
				serviceMessage: 'Missing X-API-KEY in headers',
				description: HINTS.auth,
				attempts: 1,
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
				attempts: 1,
				allFail: true,
			},
			{
				title: '404 unknown agent',
				httpCode: '404',
				agentId: 'agent_gone_99',
				message: 'Not found (HTTP 404): Agent does not exist',
				kind: 'not-found',
				serviceMessage: 'Agent does not exist',
				description: HINTS.deleteNotFound,
				attempts: 1,
			},
			{
				title: "404 an agent of another account's key",
				httpCode: '404',
				apiKey: OTHER_API_KEY,
				message: 'Not found (HTTP 404): Agent does not exist',
				kind: 'not-found',
				serviceMessage: 'Agent does not exist',
				description: HINTS.deleteNotFound,
				attempts: 1,
				allFail: true,
			},
			{
				// On the last item: a Retry-After the node refuses to wait still holds back every
				// request after it for the whole Retry-After (the shared 429 pause).
				title: '429 asking to wait longer than the node waits',
				httpCode: '429',
				failingItem: 2,
				faults: { endpoint: 'delete', sequence: ['ok', 'ok', '429'], retryAfterSeconds: 120 },
				message:
					'Rate limited by CallKaro (HTTP 429); it asked to wait 120 s, longer than the 30 s this node waits: Too many requests',
				kind: 'rate-limited',
				serviceMessage: 'Too many requests',
				description: HINTS.rateLimited,
				attempts: 1,
			},
			{
				title: '500 on every attempt',
				httpCode: '500',
				faults: { endpoint: 'delete', sequence: ['ok', '500', '500', '500', '500', 'ok'] },
				message:
					'CallKaro failed (HTTP 500) after 4 attempts and the scheduled call may or may not have been deleted: Internal server error',
				kind: 'service-failure',
				serviceMessage: 'Internal server error',
				description: HINTS.outcomeUnknown,
				outcomeUnknown: true,
				attempts: 4,
			},
			{
				title: '502 on every attempt',
				httpCode: '502',
				faults: { endpoint: 'delete', sequence: ['ok', '502', '502', '502', '502', 'ok'] },
				message:
					'CallKaro failed (HTTP 502) after 4 attempts and the scheduled call may or may not have been deleted: Bad gateway',
				kind: 'service-failure',
				serviceMessage: 'Bad gateway',
				description: HINTS.outcomeUnknown,
				outcomeUnknown: true,
				attempts: 4,
			},
			{
				title: '503 at a rate of 1',
				httpCode: '503',
				faults: { endpoint: 'delete', rates: { 503: 1 }, seed: 3 },
				message:
					'CallKaro failed (HTTP 503) after 4 attempts and the scheduled call may or may not have been deleted: Service unavailable',
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
			const callIds: string[] = [];
			const failing = errorCase.allFail ? [0, 1, 2] : [errorCase.failingItem ?? 1];
			const items = () =>
				phones.map((phone, index) => ({
					phone,
					agentId: index === failing[0] ? (errorCase.agentId ?? AGENT) : AGENT,
				}));
			const parameters = fromItems({ options: { concurrency: 1 } });
			const deleteRequests = () => apiRequests(sandbox(), DELETE_PATH);
			const details: ErrorDetails = {
				kind: errorCase.kind,
				httpStatus: Number(errorCase.httpCode),
				serviceMessage: errorCase.serviceMessage,
				attempts: errorCase.attempts,
				outcomeUnknown: errorCase.outcomeUnknown ?? false,
				description: errorCase.description,
			};

			beforeEach(async () => {
				phones.splice(0, 3, ...freshNumbers(3));
				callIds.splice(0, 3);
				for (const phone of phones) callIds.push(await scheduleCall(sandbox(), phone));
				fastBackoff();
				if (errorCase.faults) sandbox().setFaults(errorCase.faults);
			});

			it('stops the execution with a NodeApiError carrying the HTTP code and the item', async () => {
				const result = await deleteCall(sandbox(), parameters, {
					items: items(),
					apiKey: errorCase.apiKey,
				});

				const error = workflowError(result);
				expect(error).toMatchObject({
					name: 'NodeApiError',
					message: errorCase.message,
					httpCode: errorCase.httpCode,
					description: stoppedRunDescription(
						deleteScheduledCall.vocabulary,
						{
							itemCount: 3,
							failingItem: failing[0],
							outcomeUnknown: errorCase.outcomeUnknown ?? false,
						},
						errorCase.description,
					),
					context: { itemIndex: failing[0] },
				});
				expect(deleteRequests()).toHaveLength(failing[0] + errorCase.attempts);
				expect(callStatus(sandbox(), callIds[failing[0]])).toBe('scheduled');
				expectNoSecrets(result, {
					apiKeys: [DEMO_API_KEY, OTHER_API_KEY, WRONG_API_KEY],
					numbers: phones,
				});
			});

			it('with continueOnFail: an error item in its place, the other calls deleted', async () => {
				const result = await deleteCall(sandbox(), parameters, {
					items: items(),
					apiKey: errorCase.apiKey,
					settings: { continueOnFail: true },
				});

				const [output] = result.outputOf(NODE_NAME);
				expect(pairedItems(output)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
				output.forEach((item, index) => {
					if (failing.includes(index)) {
						// only error and details: what n8n routes to an error output
						expect(failedItemJson(item)).toEqual({ error: errorCase.message, details });
						expect(callStatus(sandbox(), callIds[index])).toBe('scheduled');
					} else {
						expect(item.json).toEqual({
							deleted: true,
							agentId: AGENT,
							toNumber: phones[index],
							message: 'Scheduled call deleted successfully',
							attempts: 1,
							body: { status: 'success', message: 'Scheduled call deleted successfully' },
						});
						expect(callStatus(sandbox(), callIds[index])).toBe('deleted');
					}
				});
				expect(deleteRequests()).toHaveLength(
					3 - failing.length + failing.length * errorCase.attempts,
				);
				expectNoSecrets(result, { apiKeys: [DEMO_API_KEY, OTHER_API_KEY, WRONG_API_KEY] });
			});

			it('with the error output: the failed item goes there, with the fields of its input item', async () => {
				const input = items();
				const result = await deleteCall(sandbox(), parameters, {
					items: input,
					apiKey: errorCase.apiKey,
					settings: { onError: 'continueErrorOutput' },
				});

				const [deleted, failed] = result.outputOf(NODE_NAME);
				expect(pairedItems(deleted)).toEqual(
					[0, 1, 2].filter((index) => !failing.includes(index)).map((item) => ({ item })),
				);
				expect(pairedItems(failed)).toEqual(failing.map((item) => ({ item })));
				failed.forEach((item, position) => {
					expect(failedItemJson(item)).toEqual({
						...input[failing[position]],
						error: errorCase.message,
						details,
					});
				});
				expect(result.json('Output 1')).toEqual(failed.map((item) => item.json));
			});
		});

		describe('404 when nothing is scheduled (a sandbox started with deleteNotFoundStatus: 404)', () => {
			const strict = useSandbox({ deleteNotFoundStatus: 404 });

			it('stops the execution, or gives an error item with continueOnFail', async () => {
				const failed = await deleteCall(strict(), { agentId: AGENT, phoneNumber: freshNumber() });
				expect(workflowError(failed)).toMatchObject({
					name: 'NodeApiError',
					message: 'Not found (HTTP 404): No scheduled call found',
					httpCode: '404',
					description: HINTS.deleteNotFound,
					context: { itemIndex: 0 },
				});

				const phone = freshNumber();
				await scheduleCall(strict(), phone);
				const continued = await deleteCall(strict(), fromItems(), {
					items: [
						{ agentId: AGENT, phone },
						{ agentId: AGENT, phone: freshNumber() },
					],
					settings: { continueOnFail: true },
				});
				const [output] = continued.outputOf(NODE_NAME);
				expect(pairedItems(output)).toEqual([{ item: 0 }, { item: 1 }]);
				expect(output[0].json).toEqual({
					deleted: true,
					agentId: AGENT,
					toNumber: phone,
					message: 'Scheduled call deleted successfully',
					attempts: 1,
					body: { status: 'success', message: 'Scheduled call deleted successfully' },
				});
				expect(failedItemJson(output[1])).toEqual({
					error: 'Not found (HTTP 404): No scheduled call found',
					details: {
						kind: 'not-found',
						httpStatus: 404,
						serviceMessage: 'No scheduled call found',
						attempts: 1,
						outcomeUnknown: false,
						description: HINTS.deleteNotFound,
					},
				});
			});
		});
	});

	it('a credential with a Base URL that is not https fails every item (error output)', async () => {
		const items = freshNumbers(2).map((phone) => ({ phone, agentId: AGENT }));
		const result = await deleteCall(sandbox(), fromItems(), {
			items,
			baseUrl: 'http://api.callkaro.ai/',
			settings: { onError: 'continueErrorOutput' },
		});

		const [deleted, failed] = result.outputOf(NODE_NAME);
		expect(deleted).toEqual([]);
		expect(pairedItems(failed)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(failed.map(failedItemJson)).toEqual(
			items.map((item, index) => ({
				...item,
				error: expect.stringMatching(
					new RegExp(`^"Base URL" must start with https:// .* \\[item ${index}\\]$`),
				),
				details: refusedDetails('Base URL'),
			})),
		);
	});

	describe('retries (deleting twice deletes once, so Delete retries)', () => {
		it('a 503 and then success', async () => {
			const phone = freshNumber();
			const callId = await scheduleCall(sandbox(), phone);
			fastBackoff();
			sandbox().setFaults({ endpoint: 'delete', sequence: ['503'] });

			const result = await deleteCall(sandbox(), { agentId: AGENT, phoneNumber: phone });

			expect(result.json(NODE_NAME)[0]).toMatchObject({
				deleted: true,
				message: 'Scheduled call deleted successfully',
				attempts: 2,
				body: { status: 'success', message: 'Scheduled call deleted successfully' },
			});
			expect(apiRequests(sandbox(), DELETE_PATH).map((request) => request.status)).toEqual([
				503, 200,
			]);
			expect(callStatus(sandbox(), callId)).toBe('deleted');
		});

		it('an answer lost after CallKaro deleted: the retry finds nothing left and the item still succeeds', async () => {
			const phone = freshNumber();
			const callId = await scheduleCall(sandbox(), phone);
			fastBackoff();
			sandbox().setFaults({ endpoint: 'delete', sequence: ['drop-after'] });

			const result = await deleteCall(sandbox(), {
				agentId: AGENT,
				phoneNumber: phone,
				options: { bodyFormat: 'form' },
			});

			expect(result.json(NODE_NAME)).toEqual([
				{
					deleted: true,
					agentId: AGENT,
					toNumber: phone,
					message: 'No scheduled call found',
					attempts: 2,
					body: { status: 'success', message: 'No scheduled call found' },
				},
			]);
			expect(
				apiRequests(sandbox(), DELETE_PATH).map((request) => [request.fault, request.status]),
			).toEqual([
				['drop-after', null],
				[null, 200],
			]);
			expect(callStatus(sandbox(), callId)).toBe('deleted');
		});

		it('a 429 with Retry-After: 1 is waited out and retried', async () => {
			sandbox().setFaults({ endpoint: 'delete', sequence: ['429'], retryAfterSeconds: 1 });
			const started = Date.now();
			const result = await deleteCall(sandbox(), { agentId: AGENT, phoneNumber: freshNumber() });
			expect(Date.now() - started).toBeGreaterThanOrEqual(990);
			expect(result.json(NODE_NAME)[0].deleted).toBe(true);
			expect(apiRequests(sandbox(), DELETE_PATH).map((request) => request.status)).toEqual([
				429, 200,
			]);
		});
	});

	it('at Concurrency 5, gives one item per input item, in input order, each paired with its input', async () => {
		const phones = freshNumbers(8);
		const callIds: string[] = [];
		for (const phone of phones) callIds.push(await scheduleCall(sandbox(), phone));
		sandbox().setFaults({ endpoint: 'delete', seed: 11, latencyMs: 5, jitterMs: 80 });
		const items: IDataObject[] = phones.map((phone) => ({ phone, agentId: AGENT }));
		items[2] = { phone: phones[2], agentId: '' };

		const result = await deleteCall(sandbox(), fromItems({ options: { concurrency: 5 } }), {
			items,
			settings: { continueOnFail: true },
		});

		const [output] = result.outputOf(NODE_NAME);
		expect(output.map((item) => [item.pairedItem, item.json.toNumber ?? item.json.error])).toEqual(
			phones.map((phone, index) => [
				{ item: index },
				index === 2
					? '"Agent ID" is empty. Enter the ID of the CallKaro agent. Its expression {{ $json.agentId }} gave an empty value for this item: check that the input item has the field it reads. [item 2]'
					: phone,
			]),
		);
		expect(callIds.map((id) => callStatus(sandbox(), id))).toEqual(
			phones.map((_, index) => (index === 2 ? 'scheduled' : 'deleted')),
		);
	});

	it('works as an AI agent tool, the model giving the phone number', async () => {
		const phone = freshNumber();
		const callId = await scheduleCall(sandbox(), phone);

		const tool = await runAsTool({
			nodeType: DELETE_SCHEDULED_CALL,
			nodeTypes: callKaroNodeTypes(),
			parameters: {
				agentId: AGENT,
				phoneNumber: fromAI('phoneNumber', 'The number whose call to cancel'),
			},
			credentials: credentialsFor(sandbox()),
			toolArgs: { phoneNumber: phone },
		});

		expect(tool.schemaKeys).toEqual(['phoneNumber']);
		expect(tool.response).toEqual([
			{
				deleted: true,
				agentId: AGENT,
				toNumber: phone,
				message: 'Scheduled call deleted successfully',
				attempts: 1,
				body: { status: 'success', message: 'Scheduled call deleted successfully' },
			},
		]);
		expect(callStatus(sandbox(), callId)).toBe('deleted');
	});
});
