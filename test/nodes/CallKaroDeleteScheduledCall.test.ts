// CallKaro Delete Scheduled Call in n8n's real engine against the local CallKaro sandbox.

import { DELETE_SCHEDULED_CALL, OUTBOUND_CALL, callKaroNodeTypes } from '../engine/callKaroNodes';
import { node, runWorkflow } from '../engine/harness';
import {
	HINTS,
	NODE_NAME,
	apiRequests,
	credentialsFor,
	expectNoSecrets,
	fastBackoff,
	freshNumber,
	failedItemJson,
	pairedItems,
	runnerFor,
	useSandbox,
	workflowError,
} from './fixtures';
import type { Sandbox } from './fixtures';
import { AGENT, deleted, fromItems, scheduleCall } from './CallKaroDeleteScheduledCall.contract';

const DELETE_PATH = '/call/delete-schedule-call';
function callStatus(sandbox: Sandbox, id: string): string | undefined {
	return sandbox.state.calls.find((entry) => entry.id === id)?.status;
}

const deleteCall = runnerFor(DELETE_SCHEDULED_CALL);

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
			// the API key: see the contract
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

			expect(result.json(NODE_NAME)).toEqual([deleted(phone)]);
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
			expect(output[0].json).toEqual(deleted(phone));
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

	describe('retries (deleting twice deletes once, so Delete retries)', () => {
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

			// the retry's answer: nothing was left to delete
			expect(result.json(NODE_NAME)).toEqual([deleted(phone, 2, 'No scheduled call found')]);
			expect(
				apiRequests(sandbox(), DELETE_PATH).map((request) => [request.fault, request.status]),
			).toEqual([
				['drop-after', null],
				[null, 200],
			]);
			expect(callStatus(sandbox(), callId)).toBe('deleted');
		});
	});
});
