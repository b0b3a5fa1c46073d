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
	freshNumbers,
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
const FAIL_IF_NOTHING = { whenNothingScheduled: 'fail' };
const NOTHING_TO_DELETE =
	'Nothing to delete: CallKaro has no scheduled call of this agent to this number';

/** The output of an item whose agent had no call scheduled to its number. */
function notScheduled(phone: string) {
	const message = 'No scheduled call found';
	return {
		deleted: false,
		status: 'notScheduled',
		deletedByEarlierAttempt: false,
		agentId: AGENT,
		toNumber: phone,
		message,
		attempts: 1,
		body: { status: 'success', message },
	};
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
							status: 'deleted',
							deletedByEarlierAttempt: false,
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

		it('cancels the call scheduled for one item and reports the other as notScheduled (CallKaro answers 200 to it)', async () => {
			const [phone, nothing] = freshNumbers(2);
			await scheduleCall(sandbox(), phone);

			const result = await deleteCall(sandbox(), fromItems(), {
				items: [
					{ agentId: AGENT, phone },
					{ agentId: AGENT, phone: nothing },
				],
			});

			expect(result.status).toBe('success');
			const [output] = result.outputOf(NODE_NAME);
			expect(pairedItems(output)).toEqual([{ item: 0 }, { item: 1 }]);
			expect(output.map((item) => item.json)).toEqual([deleted(phone), notScheduled(nothing)]);
			expect(result.task(NODE_NAME).hints).toEqual([
				{ type: 'info', location: 'outputPane', message: '2 items: 1 deleted, 1 not scheduled' },
			]);
		});
	});

	describe('When Nothing Is Scheduled = Fail the Item', () => {
		it("fails only the item with nothing scheduled, with CallKaro's message", async () => {
			const [phone, nothing] = freshNumbers(2);
			await scheduleCall(sandbox(), phone);

			const result = await deleteCall(sandbox(), fromItems({ options: FAIL_IF_NOTHING }), {
				items: [
					{ agentId: AGENT, phone },
					{ agentId: AGENT, phone: nothing },
				],
				settings: { continueOnFail: true },
			});

			const [output] = result.outputOf(NODE_NAME);
			expect(output[0].json).toEqual(deleted(phone));
			expect(failedItemJson(output[1])).toEqual({
				error: `${NOTHING_TO_DELETE} (HTTP 200): No scheduled call found`,
				details: {
					kind: 'not-scheduled',
					httpStatus: 200,
					serviceMessage: 'No scheduled call found',
					attempts: 1,
					outcomeUnknown: false,
					description: null,
				},
			});
		});
	});

	describe('404 when nothing is scheduled (a sandbox started with deleteNotFoundStatus: 404)', () => {
		const strict = useSandbox({ deleteNotFoundStatus: 404 });

		it('a 404 that says nothing is scheduled is the notScheduled outcome, not an error', async () => {
			const phone = freshNumber();
			const result = await deleteCall(strict(), { agentId: AGENT, phoneNumber: phone });

			expect(result.status).toBe('success');
			expect(result.json(NODE_NAME)).toEqual([
				{ ...notScheduled(phone), body: { status: 'error', message: 'No scheduled call found' } },
			]);
		});

		it('with Fail the Item, stops the execution with the 404', async () => {
			const failed = await deleteCall(strict(), {
				agentId: AGENT,
				phoneNumber: freshNumber(),
				options: FAIL_IF_NOTHING,
			});
			expect(workflowError(failed)).toMatchObject({
				name: 'NodeApiError',
				message: `${NOTHING_TO_DELETE} (HTTP 404): No scheduled call found`,
				httpCode: '404',
				context: { itemIndex: 0 },
			});
		});

		it('a 404 for an unknown agent fails the item whichever is chosen: a wrong Agent ID is not "nothing scheduled"', async () => {
			const phone = freshNumber();
			await scheduleCall(strict(), phone);
			const continued = await deleteCall(strict(), fromItems(), {
				items: [
					{ agentId: AGENT, phone },
					{ agentId: 'agent_typo', phone: freshNumber() },
				],
				settings: { continueOnFail: true },
			});
			const [output] = continued.outputOf(NODE_NAME);
			expect(pairedItems(output)).toEqual([{ item: 0 }, { item: 1 }]);
			expect(output[0].json).toEqual(deleted(phone));
			expect(failedItemJson(output[1])).toEqual({
				error: 'Not found (HTTP 404): Agent does not exist',
				details: {
					kind: 'not-found',
					httpStatus: 404,
					serviceMessage: 'Agent does not exist',
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

			// the retry's answer: nothing was left to delete, because the first request deleted it
			expect(result.json(NODE_NAME)).toEqual([
				{
					...deleted(phone, 2),
					deletedByEarlierAttempt: true,
					message: 'No scheduled call found',
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
	});
});
