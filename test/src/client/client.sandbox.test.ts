import { createCallKaroClient } from '../../../src/client/client';
import type { CallKaroClient } from '../../../src/client/client';
import { CallKaroApiError } from '../../../src/client/errors';
import { startSandbox, DEMO_API_KEY } from '../../sandbox/sandbox.mjs';
import { createUndiciTransport } from '../../support/undiciTransport';

// The core over real HTTP against the sandbox: what a dropped answer or a 5xx really does to
// retries, read back from the sandbox's state.

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const NUMBER = '+919812345678';
const AGENT = 'agent_sales_01';

let sandbox: Sandbox;
let waits: number[];

function clientFor(baseUrl: string): CallKaroClient {
	waits = [];
	return createCallKaroClient({
		transport: createUndiciTransport({ baseUrl, apiKey: DEMO_API_KEY }),
		// Record the backoff instead of waiting it out: the decision is what is under test.
		sleep: async (ms) => {
			waits.push(ms);
		},
	});
}

async function failureOf(promise: Promise<unknown>): Promise<CallKaroApiError> {
	const error = await promise.then(
		() => undefined,
		(thrown: unknown) => thrown,
	);
	expect(error).toBeInstanceOf(CallKaroApiError);
	return error as CallKaroApiError;
}

function runsOf(number: string) {
	return sandbox.state.runs.filter(
		(run: { number: string }) => `+${run.number.replace(/^\+/, '')}` === number,
	);
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, runDurationMs: 0 });
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.reset());

describe('assign over HTTP', () => {
	test('a 500 is retried and the run starts once', async () => {
		sandbox.setFaults({ endpoint: 'assign', sequence: ['500', 'ok'] });
		const result = await clientFor(sandbox.url).assignWorkflow({
			to_number: NUMBER,
			workflow_id: 'wf_welcome',
		});

		expect(result).toMatchObject({
			outcome: 'started',
			attempts: 2,
			startedByEarlierAttempt: false,
		});
		expect(waits).toHaveLength(1);
		expect(runsOf(NUMBER)).toHaveLength(1);
	});

	test('an answer lost after the run started is retried, and the 409 is reported as started by that attempt', async () => {
		sandbox.setFaults({ endpoint: 'assign', sequence: ['drop-after'] });
		const result = await clientFor(sandbox.url).assignWorkflow({
			to_number: NUMBER,
			workflow_id: 'wf_welcome',
		});

		expect(result).toMatchObject({
			outcome: 'already-running',
			startedByEarlierAttempt: true,
			attempts: 2,
		});
		expect(runsOf(NUMBER)).toHaveLength(1);
	});
});

describe('outbound over HTTP', () => {
	test('an answer lost after the call was placed is not retried, and the outcome is reported unknown', async () => {
		sandbox.setFaults({ endpoint: 'outbound', sequence: ['drop-after'] });
		const error = await failureOf(
			clientFor(sandbox.url).outboundCall({ to_number: NUMBER, agent_id: AGENT }),
		);

		expect(error).toMatchObject({ kind: 'network', attempts: 1, outcomeUnknown: true });
		expect(sandbox.state.calls).toHaveLength(1);
	});

	test('a 500 is not retried: the call may have been placed', async () => {
		sandbox.setFaults({ endpoint: 'outbound', sequence: ['500'] });
		const error = await failureOf(
			clientFor(sandbox.url).outboundCall({ to_number: NUMBER, agent_id: AGENT }),
		);

		expect(error).toMatchObject({
			kind: 'service-failure',
			httpStatus: 500,
			attempts: 1,
			outcomeUnknown: true,
		});
		expect(error.message).not.toContain('9812345678');
	});

	test('a 429 waits for Retry-After and then places the call once', async () => {
		sandbox.setFaults({ endpoint: 'outbound', sequence: ['429'], retryAfterSeconds: 2 });
		const result = await clientFor(sandbox.url).outboundCall({
			to_number: NUMBER,
			agent_id: AGENT,
		});

		expect(result.callId).toEqual(expect.any(String));
		expect(waits[0]).toBeGreaterThanOrEqual(2000);
		expect(sandbox.state.calls).toHaveLength(1);
	});

	test('a refused connection never reached the service, so it is retried up to the limit', async () => {
		const closed = await startSandbox({ port: 0 });
		const url = closed.url;
		await closed.close();

		const error = await failureOf(
			clientFor(url).outboundCall({ to_number: NUMBER, agent_id: AGENT }),
		);

		expect(error).toMatchObject({ kind: 'network', attempts: 4, outcomeUnknown: false });
		expect(waits).toHaveLength(3);
	});
});

describe('delete over HTTP', () => {
	test.each(['json', 'form'] as const)(
		'removes the scheduled call with a %s body',
		async (bodyFormat) => {
			const client = clientFor(sandbox.url);
			await client.outboundCall({
				to_number: NUMBER,
				agent_id: AGENT,
				schedule_at: '2099-01-01T10:00:00',
			});

			const result = await client.deleteScheduledCall({
				agentId: AGENT,
				toNumber: NUMBER,
				bodyFormat,
			});

			expect(result.message).toBe('Scheduled call deleted successfully');
			expect(sandbox.state.scheduledCalls).toEqual([
				expect.objectContaining({ status: 'deleted', toNumber: NUMBER }),
			]);
		},
	);

	test('a 503 is retried, since deleting twice is harmless', async () => {
		sandbox.setFaults({ endpoint: 'delete', sequence: ['503'] });
		const result = await clientFor(sandbox.url).deleteScheduledCall({
			agentId: AGENT,
			toNumber: NUMBER,
			bodyFormat: 'json',
		});

		expect(result.attempts).toBe(2);
	});
});
