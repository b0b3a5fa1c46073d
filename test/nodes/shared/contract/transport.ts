// What every request shares: an https Base URL, the retries that cannot act twice, and the API key
// (nodes/shared/transport.ts, src/client/client.ts).
import type { IDataObject } from 'n8n-workflow';

import { REDACTED_KEY } from '../../../../src/client/redact';
import { startEchoServer } from '../../../engine/echoServer.mjs';
import { useVirtualClock } from '../../../engine/virtualClock';
import { DEMO_API_KEY, startSandbox } from '../../../sandbox/sandbox.mjs';
import {
	NODE_NAME,
	apiRequests,
	expectNoSecrets,
	failedItemJson,
	fastBackoff,
	pairedItems,
	refusedItemJson,
	runnerFor,
	workflowError,
} from '../../fixtures';
import type { ActionNodeRow, SandboxOf } from '../contract';
import { arranged } from './support';

export function httpsOnly(row: ActionNodeRow, sandbox: SandboxOf) {
	const run = runnerFor(row.type);
	describe('a credential whose Base URL is not https fails every item, sending nothing', () => {
		const error = (shown: string, item: number) =>
			`"Base URL" must start with https:// (got ${shown}), because the API key travels with every request. Plain http is allowed only for a local sandbox on this machine (localhost, 127.0.0.1). [item ${item}]`;
		// [Base URL, as the message shows it]
		const urls: Array<[string, string]> = [
			['http://api.callkaro.ai', 'http://api.callkaro.ai'],
			['http://api.callkaro.ai/', 'http://api.callkaro.ai'],
			['ftp://127.0.0.1', 'ftp://127.0.0.1'],
		];
		const items = () => row.freshKeys(2).map((key) => row.item(key));

		afterEach(() => expect(apiRequests(sandbox())).toEqual([]));

		it.each(urls)('%s: stops the execution', async (baseUrl, shown) => {
			const result = await run(sandbox(), row.parameters(), {
				items: items(),
				baseUrl,
			});
			expect(workflowError(result)).toMatchObject({
				name: 'NodeOperationError',
				message: error(shown, 0),
			});
		});

		it.each(urls)('%s: an error item for each with continueOnFail', async (baseUrl, shown) => {
			const result = await run(sandbox(), row.parameters(), {
				items: items(),
				baseUrl,
				settings: { continueOnFail: true },
			});
			expect(result.json(NODE_NAME)).toEqual([
				refusedItemJson(error(shown, 0)),
				refusedItemJson(error(shown, 1)),
			]);
		});

		it.each(urls)('%s: every item on the error output', async (baseUrl, shown) => {
			const input = items();
			const result = await run(sandbox(), row.parameters(), {
				items: input,
				baseUrl,
				settings: { onError: 'continueErrorOutput' },
			});

			const outputs = result.outputOf(NODE_NAME);
			for (const output of outputs.slice(0, row.mainOutputs)) expect(output).toEqual([]);
			const failed = outputs[row.mainOutputs];
			expect(pairedItems(failed)).toEqual([{ item: 0 }, { item: 1 }]);
			expect(failed.map(failedItemJson)).toEqual([
				{ ...input[0], ...refusedItemJson(error(shown, 0)) },
				{ ...input[1], ...refusedItemJson(error(shown, 1)) },
			]);
			// the node after the first output never runs
			expect(result.runData['Output 0']).toBeUndefined();
		});
	});
}

export function retries(row: ActionNodeRow, sandbox: SandboxOf) {
	const run = runnerFor(row.type);
	describe('retries', () => {
		it('a 429 with Retry-After: 1 is waited out and retried, acting once', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			sandbox().setFaults({ endpoint: row.faultEndpoint, sequence: ['429'], retryAfterSeconds: 1 });
			const clock = useVirtualClock();

			const result = await run(sandbox(), row.parameters(), {
				items: [row.item(key)],
			});

			expect(clock.waits).toEqual([1000]);
			expect(result.json(NODE_NAME)).toEqual([row.succeeded(key, 2)]);
			expect(apiRequests(sandbox(), row.path).map((request) => request.status)).toEqual([429, 200]);
			expect(row.done(sandbox())).toEqual([key]);
		});

		if (row.retriesServerErrors) {
			it('a 503 and then success: retried, since nothing it sends can act twice', async () => {
				const [key] = await arranged(row, sandbox(), 1);
				fastBackoff();
				sandbox().setFaults({ endpoint: row.faultEndpoint, sequence: ['503'] });

				const result = await run(sandbox(), row.parameters(), {
					items: [row.item(key)],
				});

				expect(result.json(NODE_NAME)).toEqual([row.succeeded(key, 2)]);
				const statuses = apiRequests(sandbox(), row.path).map((request) => request.status);
				expect(statuses).toEqual([503, 200]);
				expect(row.done(sandbox())).toEqual([key]);
			});
		} else {
			it('a 503 is not retried: CallKaro may have acted, and a second request could act twice', async () => {
				const [key] = await arranged(row, sandbox(), 1);
				sandbox().setFaults({ endpoint: row.faultEndpoint, sequence: ['503'] });

				const result = await run(sandbox(), row.parameters(), {
					items: [row.item(key)],
					settings: { continueOnFail: true },
				});

				expect(result.json(NODE_NAME)[0].details).toMatchObject({
					kind: 'service-failure',
					httpStatus: 503,
					attempts: 1,
					outcomeUnknown: true,
				});
				expect(apiRequests(sandbox(), row.path)).toHaveLength(1);
			});
		}

		it('a request that never reached CallKaro (connection refused) is retried, then fails', async () => {
			fastBackoff();
			// a sandbox that is gone: its port refuses connections
			const closed = await startSandbox({ port: 0 });
			await closed.close();

			const result = await run(closed, row.parameters(), {
				items: [row.item(row.freshKeys(1)[0])],
			});

			expect(workflowError(result)).toMatchObject({
				name: 'NodeApiError',
				message:
					'Could not reach CallKaro after 4 attempts: The service refused the connection - perhaps it is offline',
			});
		});
	});
}

/** An answer that quotes the key the request carried, in its message and deeper in its body. */
function echoingKey(status: number) {
	return (request: { headers: Record<string, unknown> }) => {
		const key = String(request.headers['x-api-key']);
		return {
			status,
			json: {
				status: status === 200 ? 'success' : 'error',
				message: `Key ${key} seen`,
				run_id: 'run_1',
				enrollment_id: 'enr_1',
				call_sid: 'CA1',
				batch_id: 'batch_1',
				attributes: { updated: [], kept_existing: [], ignored: [], invalid: [] },
				echo: { headers: { 'x-api-key': key }, [key]: [key] },
			},
		};
	};
}

export function apiKey(row: ActionNodeRow, sandbox: SandboxOf) {
	const run = runnerFor(row.type);
	describe('the API key', () => {
		it('travels as X-API-KEY and nowhere else', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			const result = await run(sandbox(), row.parameters(), { items: [row.item(key)] });

			// the sandbox logs it masked
			expect(apiRequests(sandbox(), row.path)[0].headers['x-api-key']).toBe('ck_d…89');
			expect(result.authenticated[0].requestOptions.headers).toMatchObject({
				'X-API-KEY': DEMO_API_KEY,
			});
			expectNoSecrets(result, {});
		});

		describe('in an answer of the service that quotes it', () => {
			const echoedKey = 'ck_dummy_key_echoed_4242424242';
			let echo: Awaited<ReturnType<typeof startEchoServer>> | undefined;
			beforeAll(async () => {
				echo = await startEchoServer();
			});
			afterAll(async () => await echo?.close());
			const server = () => echo!;
			const runEchoing = (status: number, settings = {}) => {
				server().reset();
				server().setResponder(echoingKey(status));
				return run(sandbox(), row.parameters(), {
					items: [row.item(row.freshKeys(1)[0])],
					apiKey: echoedKey,
					baseUrl: server().url,
					settings,
				});
			};

			it('is removed from the message and the body of a success', async () => {
				const result = await runEchoing(200);

				expect(server().requests[0].headers['x-api-key']).toBe(echoedKey);
				expectNoSecrets(result, { apiKeys: [echoedKey] });
				const body = result.json(NODE_NAME)[0].body as IDataObject;
				expect(body.message).toBe(`Key ${REDACTED_KEY} seen`);
				expect(body.echo).toEqual({
					headers: { 'x-api-key': REDACTED_KEY },
					[REDACTED_KEY]: [REDACTED_KEY],
				});
			});

			it('is removed from error, details.serviceMessage and body of a failure', async () => {
				const result = await runEchoing(400, { continueOnFail: true });

				expectNoSecrets(result, { apiKeys: [echoedKey] });
				const json = failedItemJson(result.outputOf(NODE_NAME)[0][0]);
				expect(json.error).toContain(`Key ${REDACTED_KEY} seen`);
				expect((json.details as IDataObject).serviceMessage).toBe(`Key ${REDACTED_KEY} seen`);
			});
		});
	});
}
