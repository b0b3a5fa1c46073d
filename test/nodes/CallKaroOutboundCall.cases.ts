// CallKaro Outbound Call in n8n's real engine against the local CallKaro sandbox.
import type { IDataObject } from 'n8n-workflow';

import { OUTBOUND_CALL } from '../engine/callKaroNodes';
import {
	HINTS,
	NODE_NAME,
	NO_SCHEDULE,
	apiRequests,
	createCampaign,
	expectNoSecrets,
	freshNumber,
	freshNumbers,
	runnerFor,
	useSandbox,
	workflowError,
} from './fixtures';
import type { Sandbox } from './fixtures';
import { AGENT, fromItems, outboundCall } from './CallKaroOutboundCall.contract';
import { runRowAsTool } from './shared/contract';

const OUTBOUND_PATH = '/call/outbound';
const UNKNOWN_OUTCOME_HINT = HINTS.outcomeUnknown;

const placeCall = runnerFor(OUTBOUND_CALL);

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
							...NO_SCHEDULE,
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
			// only what was set is sent (the API key: see the contract)
			expect(request.body).toEqual({ to_number: phone, agent_id: AGENT });
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
	});

	it('as an AI agent tool: a 500 reaches the agent as a result saying the call may have been placed', async () => {
		sandbox().setFaults({ endpoint: 'outbound', sequence: ['500'] });
		const tool = await runRowAsTool(outboundCall, sandbox(), {
			toolArgs: { phoneNumber: freshNumber(), topic: 'x' },
		});
		expect(tool.response).toEqual([
			{
				error:
					'CallKaro failed (HTTP 500) and the call may or may not have been placed; it was not retried, to avoid calling twice: Internal server error',
				details: expect.objectContaining({
					outcomeUnknown: true,
					description: UNKNOWN_OUTCOME_HINT,
				}),
			},
		]);
		expect(outboundRequests(sandbox())).toHaveLength(1);
	});
});
