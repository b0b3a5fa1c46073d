// The contract every CallKaro action node keeps, written once and run for each node through n8n's
// real engine against the sandbox (test/nodes/shared/contract.test.ts). A node takes part with one
// row (an ActionNodeRow, next to its test file): how its items look, what CallKaro does for it, and
// its own tables of bad input, refusals and previews. The node's test file keeps only what is its own.
//
// Each behaviour below is one function of (row, sandbox), listed in CONTRACT. To add one: give
// ActionNodeRow a field with what the behaviour needs from a node (optional when only some nodes
// have it, as `guard`), write its function (doing nothing for rows without the field) and add it
// to CONTRACT.
import * as deduplicationHelpers from 'n8n-core/dist/execution-engine/node-execution-context/utils/deduplication-helper-functions';
import type {
	DeduplicationHelperFunctions,
	IDataObject,
	INodeExecutionData,
	INodeParameters,
} from 'n8n-workflow';

import { REDACTED_KEY } from '../../../src/redact';
import type { RunVocabulary } from '../../../src/runReport';
import { callKaroNodeTypes } from '../../engine/callKaroNodes';
import type { InMemoryDeduplicator } from '../../engine/deduplication';
import { startEchoServer } from '../../engine/echoServer.mjs';
import { runAsTool } from '../../engine/harness';
import type { RunResult } from '../../engine/harness';
import {
	DEMO_API_KEY,
	OTHER_API_KEY,
	formatIst,
	parseScheduleAt,
	startSandbox,
} from '../../sandbox/sandbox.mjs';
import {
	NODE_NAME,
	WRONG_API_KEY,
	apiRequests,
	credentialsFor,
	expectNoSecrets,
	failedItemJson,
	fastBackoff,
	freshNumbers,
	pairedItems,
	refusedItemJson,
	runnerFor,
	stoppedRunDescription,
	workflowError,
} from '../fixtures';
import type { ErrorDetails, FaultInput, LoggedRequest, RunNodeOptions, Sandbox } from '../fixtures';

/** [what is wrong, node parameters over the row's, fields of the bad (middle) item, the error]. */
export type BadInputCase = [
	what: string,
	parameters: INodeParameters,
	badFields: IDataObject,
	message: string,
];

/** A refusal of CallKaro, over three items at Concurrency 1. */
export interface ApiErrorCase {
	title: string;
	httpCode: string;
	message: string;
	kind: ErrorDetails['kind'];
	serviceMessage: string;
	/** The hint under the message: the NodeApiError description and details.description. */
	description: string;
	/** CallKaro may have acted although the item failed. */
	outcomeUnknown?: boolean;
	/** The item CallKaro refuses (default 1), unless every item fails. */
	failingItem?: number;
	/** Fields of the failing item that CallKaro refuses, given the sandbox. */
	refused?: (sandbox: Sandbox) => IDataObject | Promise<IDataObject>;
	apiKey?: string;
	/** On the row's endpoint: the items before the failing one ok, then its attempts, then the rest. */
	faults?: Omit<FaultInput, 'endpoint'>;
	/** Requests sent for the failing item (default 1). */
	attempts?: number;
	/** Every item fails (a key or a rate that hits every request), not only one. */
	allFail?: boolean;
}

/** Options → Preview Only (Send Nothing): an example of what the node would send. */
export interface PreviewCase {
	/** What the example shows, e.g. 'the normalised number and the IST schedule_at'. */
	title: string;
	parameters: INodeParameters;
	items: IDataObject[];
	/** The request each item previews. */
	requests: IDataObject[];
}

/** The duplicate-call guard ("Skip Numbers Called Before"), on the nodes that offer it. */
export interface GuardRow {
	displayName: string;
	/** The json of the item of `key` when the guard skips it (before n8n's `guard` field). */
	skipped(key: string): IDataObject;
	/** The main output skipped items go to. */
	skippedOutput: number;
	/** Fields of an item that reaches the same number through another agent or workflow. */
	otherTarget: IDataObject;
	/** Lets CallKaro take the same number again (Assign: the runs finish), so that only the guard skips it. */
	reopen?(sandbox: Sandbox): void;
}

/** Schedule Time, on the nodes that take one: any n8n date, sent to CallKaro as IST. */
export interface ScheduleRow {
	/** Parameters (over the row's) scheduling each item at `at`, read in the Time Zone option `timeZone`. */
	parameters(at: string, timeZone?: string): INodeParameters;
	/** What CallKaro holds for the key: its status, when it is due, and schedule_at as received. */
	held(
		sandbox: Sandbox,
		key: string,
	): { status: string; scheduledFor: string | null; scheduleAt: unknown } | undefined;
	/** CallKaro's status of what it starts now, as it does for a time in the past. */
	startedNowStatus: string;
	/** Fields of the json of a scheduled item, and of one whose time is past, beside the schedule's. */
	scheduledJson: IDataObject;
	pastJson: IDataObject;
}

/** What the contract needs to know of one action node. */
export interface ActionNodeRow {
	displayName: string;
	type: string;
	/** The API path the node posts to, and its endpoint in the sandbox's faults. */
	path: string;
	faultEndpoint: FaultInput['endpoint'];
	/** Main outputs before the error output. */
	mainOutputs: number;
	/** How the node's run report names what it did (its operation file's `vocabulary`). */
	vocabulary: RunVocabulary;
	/** The node's parameters reading each item's fields, with `extra` over them. */
	parameters(extra?: INodeParameters): INodeParameters;
	/**
	 * What tells the items apart, in the request body (`requestKey`) and the output (`outputKey`):
	 * phone numbers, or campaign names. Fresh keys sort in the order they were made.
	 */
	freshKeys(count: number): string[];
	requestKey: string;
	outputKey: string;
	/** The keys are phone numbers, never shown in full. */
	keysArePhones: boolean;
	/** A good input item. */
	item(key: string): IDataObject;
	/** What CallKaro must hold before the node runs (e.g. a scheduled call to delete). */
	arrange?(sandbox: Sandbox, keys: string[]): Promise<void>;
	/** The json of a succeeded item (a value or a matcher for toEqual). */
	succeeded(key: string, attempts?: number): unknown;
	/** The keys CallKaro acted for (runs started, calls placed or deleted, campaigns), in order. */
	done(sandbox: Sandbox): string[];
	/** The key CallKaro recorded under the ID a succeeded item reports (callId, runId...). */
	recorded?(sandbox: Sandbox, json: IDataObject): string | undefined;
	/** A 5xx is retried (nothing the node sends takes effect twice), or never (it could). */
	retriesServerErrors: boolean;
	/** A parameter the node requires (n8n refuses to start the workflow without it). */
	requiredField: string;
	/** Every action node has Preview Only. */
	preview: PreviewCase;
	schedule?: ScheduleRow;
	/** Only on nodes with a schedule: the guard pairs a number with a time window. */
	guard?: GuardRow;
	badInput: BadInputCase[];
	apiErrors: ApiErrorCase[];
	tool: {
		/** Parameters with `$fromAI` for the key (see fromAI). */
		parameters: INodeParameters;
		args(key: string): IDataObject;
		schemaKeys: string[];
		/** The request body CallKaro receives. */
		body(key: string): IDataObject;
		/** [arguments the model gives, the error it reads back]. */
		badInput: [IDataObject, string];
	};
}

/** The keys of the rows whose items are phone numbers. */
export const PHONE_NUMBER_KEYS = {
	freshKeys: freshNumbers,
	requestKey: 'to_number',
	outputKey: 'toNumber',
	keysArePhones: true,
} satisfies Partial<ActionNodeRow>;

type SandboxOf = () => Sandbox;

const ALL_KEYS = [DEMO_API_KEY, OTHER_API_KEY, WRONG_API_KEY];

/** `count` fresh keys, with what CallKaro must hold for them. */
async function arranged(row: ActionNodeRow, sandbox: Sandbox, count: number): Promise<string[]> {
	const keys = row.freshKeys(count);
	await row.arrange?.(sandbox, keys);
	return keys;
}

function sentKeys(row: ActionNodeRow, sandbox: Sandbox): unknown[] {
	return apiRequests(sandbox, row.path).map(
		(request) => (request.body as IDataObject)[row.requestKey],
	);
}

function sorted<T>(values: T[]): T[] {
	return [...values].sort();
}

function withOptions(parameters: INodeParameters, options: INodeParameters): INodeParameters {
	return { ...parameters, options: { ...(parameters.options as INodeParameters), ...options } };
}

/** The items of every main output, in input order. */
function inInputOrder(row: ActionNodeRow, result: RunResult): INodeExecutionData[] {
	const itemIndex = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;
	return result
		.outputOf(NODE_NAME)
		.slice(0, row.mainOutputs)
		.flat()
		.sort((a, b) => itemIndex(a) - itemIndex(b));
}

/** The items on every main output but the first, which no contract case fills. */
function otherMainOutputs(row: ActionNodeRow, result: RunResult) {
	return result.outputOf(NODE_NAME).slice(1, row.mainOutputs);
}

function badInput(row: ActionNodeRow, sandbox: SandboxOf) {
	const run = runnerFor(row.type);
	describe('bad input fails the item before anything is sent', () => {
		async function threeItems(bad: IDataObject) {
			const keys = await arranged(row, sandbox(), 3);
			const items = keys.map((key) => row.item(key));
			Object.assign(items[1], bad);
			return { keys, items };
		}

		it.each(row.badInput)(
			'%s: stops the execution, naming the field and the item',
			async (_, extra, bad, message) => {
				const { keys, items } = await threeItems(bad);
				const parameters = withOptions(row.parameters(extra), { concurrency: 1 });
				const result = await run(sandbox(), parameters, { items });

				expect(workflowError(result)).toMatchObject({
					name: 'NodeOperationError',
					message,
					context: { itemIndex: 1 },
				});
				// item 0 went out before; nothing for item 1; item 2 never started
				expect(sentKeys(row, sandbox())).toEqual([keys[0]]);
				expect(row.done(sandbox())).toEqual([keys[0]]);
				const numbers = row.keysArePhones ? [keys[1], '+919876501234'] : [];
				expectNoSecrets(result, { numbers });
			},
		);

		it.each(row.badInput)(
			'%s: with continueOnFail the other items go through unharmed',
			async (_, extra, bad, message) => {
				const { keys, items } = await threeItems(bad);
				const result = await run(sandbox(), row.parameters(extra), {
					items,
					settings: { continueOnFail: true },
				});

				expect(result.status).toBe('success');
				const [output] = result.outputOf(NODE_NAME);
				expect(pairedItems(output)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
				// the message names the field and the item; nothing else, as nothing was sent
				expect(failedItemJson(output[1])).toEqual(refusedItemJson(message));
				expect(output.map((item) => item.json)).toEqual([
					row.succeeded(keys[0]),
					refusedItemJson(message),
					row.succeeded(keys[2]),
				]);
				for (const other of otherMainOutputs(row, result)) expect(other).toEqual([]);
				expect(sorted(sentKeys(row, sandbox()))).toEqual([keys[0], keys[2]]);
				expect(sorted(row.done(sandbox()))).toEqual([keys[0], keys[2]]);
			},
		);

		it.each(row.badInput)(
			'%s: with the error output, the bad item goes there with the fields of its input item',
			async (_, extra, bad, message) => {
				const { keys, items } = await threeItems(bad);
				const result = await run(sandbox(), row.parameters(extra), {
					items,
					settings: { onError: 'continueErrorOutput' },
				});

				const outputs = result.outputOf(NODE_NAME);
				const failed = outputs[row.mainOutputs];
				expect(outputs[0].map((item) => [item.json[row.outputKey], item.pairedItem])).toEqual([
					[keys[0], { item: 0 }],
					[keys[2], { item: 2 }],
				]);
				for (const other of otherMainOutputs(row, result)) expect(other).toEqual([]);
				expect(pairedItems(failed)).toEqual([{ item: 1 }]);
				// n8n merges the fields of the input item into the error item
				expect(failedItemJson(failed[0])).toEqual({ ...items[1], ...refusedItemJson(message) });
				expect(result.json(`Output ${row.mainOutputs}`)).toEqual([failed[0].json]);
				expect(sorted(sentKeys(row, sandbox()))).toEqual([keys[0], keys[2]]);
			},
		);
	});
}

function apiErrors(row: ActionNodeRow, sandbox: SandboxOf) {
	const run = runnerFor(row.type);
	describe('answers of CallKaro that fail an item', () => {
		describe.each(row.apiErrors)('$title', (errorCase) => {
			const failing = errorCase.allFail ? [0, 1, 2] : [errorCase.failingItem ?? 1];
			const succeeding = [0, 1, 2].filter((index) => !failing.includes(index));
			const attempts = errorCase.attempts ?? 1;
			const details: ErrorDetails = {
				kind: errorCase.kind,
				httpStatus: Number(errorCase.httpCode),
				serviceMessage: errorCase.serviceMessage,
				attempts,
				outcomeUnknown: errorCase.outcomeUnknown ?? false,
				description: errorCase.description,
			};
			const parameters = withOptions(row.parameters(), { concurrency: 1 });
			const requests = () => apiRequests(sandbox(), row.path);
			let keys: string[] = [];
			let items: IDataObject[] = [];

			beforeEach(async () => {
				keys = await arranged(row, sandbox(), 3);
				items = keys.map((key) => row.item(key));
				if (!errorCase.allFail)
					Object.assign(items[failing[0]], await errorCase.refused?.(sandbox()));
				fastBackoff();
				if (errorCase.faults) {
					sandbox().setFaults({ endpoint: row.faultEndpoint, ...errorCase.faults });
				}
			});

			it('stops the execution with a NodeApiError carrying the HTTP code and the item', async () => {
				const result = await run(sandbox(), parameters, {
					items,
					apiKey: errorCase.apiKey,
				});

				expect(workflowError(result)).toMatchObject({
					name: 'NodeApiError',
					message: errorCase.message,
					httpCode: errorCase.httpCode,
					// how far the run got, then the item's hint
					description: stoppedRunDescription(
						row.vocabulary,
						{ itemCount: 3, failingItem: failing[0], outcomeUnknown: details.outcomeUnknown },
						errorCase.description,
					),
					context: { itemIndex: failing[0] },
				});
				// the items after the failed one were never sent
				expect(requests()).toHaveLength(failing[0] + attempts);
				expect(row.done(sandbox())).toEqual(keys.slice(0, failing[0]));
				expectNoSecrets(result, { apiKeys: ALL_KEYS, numbers: row.keysArePhones ? keys : [] });
			});

			it('with continueOnFail: an error item in its place, the other items unharmed', async () => {
				const result = await run(sandbox(), parameters, {
					items,
					apiKey: errorCase.apiKey,
					settings: { continueOnFail: true },
				});

				expect(result.status).toBe('success');
				const [output] = result.outputOf(NODE_NAME);
				for (const other of otherMainOutputs(row, result)) expect(other).toEqual([]);
				expect(pairedItems(output)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
				output.forEach((item, index) => {
					if (failing.includes(index)) {
						// only error and details: what n8n routes to an error output
						expect(failedItemJson(item)).toEqual({ error: errorCase.message, details });
					} else {
						expect(item.json).toEqual(row.succeeded(keys[index]));
					}
				});
				expect(requests()).toHaveLength(succeeding.length + failing.length * attempts);
				expect(row.done(sandbox())).toEqual(succeeding.map((index) => keys[index]));
				expectNoSecrets(result, { apiKeys: ALL_KEYS });
			});

			it('with the error output: the failed item goes there, with the fields of its input item', async () => {
				const result = await run(sandbox(), parameters, {
					items,
					apiKey: errorCase.apiKey,
					settings: { onError: 'continueErrorOutput' },
				});

				expect(result.status).toBe('success');
				const outputs = result.outputOf(NODE_NAME);
				const [succeeded] = outputs;
				const failed = outputs[row.mainOutputs];
				expect(pairedItems(succeeded)).toEqual(succeeding.map((item) => ({ item })));
				for (const other of otherMainOutputs(row, result)) expect(other).toEqual([]);
				expect(pairedItems(failed)).toEqual(failing.map((item) => ({ item })));
				failed.forEach((item, position) => {
					expect(failedItemJson(item)).toEqual({
						...items[failing[position]],
						error: errorCase.message,
						details,
					});
				});
				// the node after the error output gets them as they are; the one after the first
				// output only the items that succeeded (and does not run when there are none)
				expect(result.json(`Output ${row.mainOutputs}`)).toEqual(failed.map((item) => item.json));
				if (succeeded.length) {
					expect(result.json('Output 0')).toEqual(succeeded.map((item) => item.json));
				} else {
					expect(result.runData['Output 0']).toBeUndefined();
				}
			});
		});
	});
}

function requiredField(row: ActionNodeRow, sandbox: SandboxOf) {
	const run = runnerFor(row.type);
	it(`an empty ${row.requiredField} typed into the node stops the workflow before it starts`, async () => {
		const [key] = await arranged(row, sandbox(), 1);
		const result = await run(sandbox(), row.parameters({ [row.requiredField]: '' }), {
			items: [row.item(key)],
		});

		// n8n's own check of the node's required parameters
		expect(workflowError(result).name).toBe('WorkflowHasIssuesError');
		expect(apiRequests(sandbox(), row.path)).toEqual([]);
	});
}

function httpsOnly(row: ActionNodeRow, sandbox: SandboxOf) {
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

function retries(row: ActionNodeRow, sandbox: SandboxOf) {
	const run = runnerFor(row.type);
	describe('retries', () => {
		it('a 429 with Retry-After: 1 is waited out and retried, acting once', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			sandbox().setFaults({ endpoint: row.faultEndpoint, sequence: ['429'], retryAfterSeconds: 1 });
			const started = Date.now();

			const result = await run(sandbox(), row.parameters(), {
				items: [row.item(key)],
			});

			expect(Date.now() - started).toBeGreaterThanOrEqual(990);
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

function inputOrder(row: ActionNodeRow, sandbox: SandboxOf) {
	const run = runnerFor(row.type);
	it('keeps several requests in flight at once', async () => {
		const keys = await arranged(row, sandbox(), 10);
		sandbox().setFaults({ endpoint: row.faultEndpoint, latencyMs: 150 });
		const started = Date.now();
		const result = await run(sandbox(), withOptions(row.parameters(), { concurrency: 5 }), {
			items: keys.map(row.item),
		});
		// 10 requests of 150 ms: about 300 ms five at a time, 1.5 s one at a time
		expect(Date.now() - started).toBeLessThan(1200);
		expect(result.json(NODE_NAME)).toHaveLength(10);
	});

	it('at Concurrency 5, gives one item per input item, in input order, each paired with its input', async () => {
		const keys = await arranged(row, sandbox(), 8);
		sandbox().setFaults({ endpoint: row.faultEndpoint, seed: 11, latencyMs: 5, jitterMs: 80 });
		// the first bad input, on item 1
		const [[, extra, bad, message]] = row.badInput;
		const items = keys.map((key) => row.item(key));
		Object.assign(items[1], bad);

		const result = await run(sandbox(), withOptions(row.parameters(extra), { concurrency: 5 }), {
			items,
			settings: { continueOnFail: true },
		});

		const [output] = result.outputOf(NODE_NAME);
		expect(
			output.map((item) => [item.pairedItem, item.json[row.outputKey] ?? item.json.error]),
		).toEqual(keys.map((key, index) => [{ item: index }, index === 1 ? message : key]));
		// each item reports what CallKaro did for its own input
		for (const item of output.filter((_, index) => index !== 1)) {
			if (row.recorded) expect(row.recorded(sandbox(), item.json)).toBe(item.json[row.outputKey]);
		}
		expect(sorted(row.done(sandbox()))).toEqual(keys.filter((_, index) => index !== 1));
		expect(apiRequests(sandbox(), row.path)).toHaveLength(7);
	});
}

type ToolRun = Omit<Parameters<typeof runAsTool>[0], 'nodeType' | 'nodeTypes'>;

/** Runs the row's node as an AI agent's tool, with its tool parameters and the sandbox's credential. */
export async function runRowAsTool(row: ActionNodeRow, sandbox: Sandbox, more: Partial<ToolRun>) {
	return await runAsTool({
		nodeType: row.type,
		nodeTypes: callKaroNodeTypes(),
		parameters: row.tool.parameters,
		credentials: credentialsFor(sandbox),
		...more,
	});
}

function aiTool(row: ActionNodeRow, sandbox: SandboxOf) {
	describe('as an AI agent tool', () => {
		const useTool = async (more: Partial<ToolRun>) => await runRowAsTool(row, sandbox(), more);

		it.each(['supplyData', 'engineRequest'] as const)(
			'%s path: the result reaches the agent, the model filling the values',
			async (via) => {
				const [key] = await arranged(row, sandbox(), 1);
				const tool = await useTool({ via, toolArgs: row.tool.args(key) });

				expect(tool.error).toBeUndefined();
				if (via === 'supplyData') expect(sorted(tool.schemaKeys)).toEqual(row.tool.schemaKeys);
				expect(tool.response).toEqual([row.succeeded(key)]);
				const [json] = tool.response as IDataObject[];
				if (row.recorded) expect(row.recorded(sandbox(), json)).toBe(key);
				const bodies = apiRequests(sandbox(), row.path).map((request) => request.body);
				expect(bodies).toEqual([row.tool.body(key)]);
				expect(row.done(sandbox())).toEqual([key]);
			},
		);

		it('supplyData path: a refusal reaches the agent as the tool error, with the hint', async () => {
			const refusal = row.apiErrors.find((errorCase) => errorCase.apiKey === WRONG_API_KEY);
			const tool = await useTool({
				credentials: credentialsFor(sandbox(), WRONG_API_KEY),
				toolArgs: row.tool.args(row.freshKeys(1)[0]),
			});
			// n8n wraps what the tool throws and appends the description for the model
			expect(tool.error).toEqual({
				name: 'NodeOperationError',
				message: `${refusal?.message}\n\nDetails: ${refusal?.description}`,
			});
		});

		it('engineRequest path: bad input from the model reaches it as [{ error }]', async () => {
			const [args, message] = row.tool.badInput;
			const tool = await useTool({ via: 'engineRequest', toolArgs: args });

			expect(tool.run.status).toBe('success');
			expect(tool.response).toEqual([{ error: message }]);
			expect(apiRequests(sandbox())).toEqual([]);
		});
	});
}

/** The request as the sandbox received it, in the preview's terms. */
function asPreviewed(request: LoggedRequest): IDataObject {
	const query = new URLSearchParams(request.query).toString();
	return {
		method: request.method,
		path: `${request.path}${query ? `?${query}` : ''}`,
		body: request.body as IDataObject,
	};
}

function preview(row: ActionNodeRow, sandbox: SandboxOf) {
	const run = runnerFor(row.type);
	const previewOnly = (parameters: INodeParameters) =>
		withOptions(parameters, { previewOnly: true });
	describe(`Preview Only (Send Nothing): ${row.preview.title}`, () => {
		const { parameters, items, requests } = row.preview;

		it('outputs each request, sending nothing', async () => {
			const result = await run(sandbox(), previewOnly(parameters), { items });

			expect(result.outputOf(NODE_NAME)[0]).toEqual(
				requests.map((request, item) => ({
					json: { preview: true, request },
					pairedItem: { item },
				})),
			);
			expect(apiRequests(sandbox())).toEqual([]);
		});

		it('previews exactly what a real run sends', async () => {
			const previewed = await run(sandbox(), previewOnly(parameters), { items });
			await run(sandbox(), parameters, { items });

			expect(apiRequests(sandbox()).map(asPreviewed)).toEqual(
				previewed.json(NODE_NAME).map((item) => item.request),
			);
		});

		it('fails a bad item as a real run would, naming the field and the item', async () => {
			const [[, extra, bad, message]] = row.badInput;
			const [good, other] = row.freshKeys(2);
			const result = await run(sandbox(), previewOnly(row.parameters(extra)), {
				items: [row.item(good), { ...row.item(other), ...bad }],
			});

			expect(workflowError(result)).toMatchObject({ message, context: { itemIndex: 1 } });
			expect(apiRequests(sandbox())).toEqual([]);
		});

		it('sums up under the output that nothing was sent', async () => {
			const result = await run(sandbox(), previewOnly(row.parameters()), {
				items: row.freshKeys(2).map((key) => row.item(key)),
			});

			expect(result.task(NODE_NAME).hints).toEqual([
				{
					type: 'info',
					location: 'outputPane',
					message: '2 items: 2 previewed; nothing was sent (Preview Only)',
				},
			]);
			expect(apiRequests(sandbox())).toEqual([]);
		});
	});
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Schedule Time read as any n8n date and sent to CallKaro as IST: [what, the value, the workflow's
 * time zone, the Time Zone option, schedule_at sent, scheduledForUtc].
 */
const SCHEDULE_READS: Array<[string, string, string, string | undefined, string, string]> = [
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
];

function schedule(row: ActionNodeRow, sandbox: SandboxOf) {
	if (!row.schedule) return;
	const { parameters, held, startedNowStatus, scheduledJson, pastJson } = row.schedule;
	const run = runnerFor(row.type);
	const scheduleAtSent = () =>
		(apiRequests(sandbox(), row.path)[0].body as IDataObject).schedule_at;

	describe('Schedule Time: any n8n date, sent to CallKaro as IST', () => {
		it('takes {{ $now.plus({ hours: 2 }) }} (a luxon DateTime) and schedules it', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			const before = Date.now();
			const result = await run(
				sandbox(),
				row.parameters(parameters('={{ $now.plus({ hours: 2 }) }}')),
				{ items: [row.item(key)], timezone: 'Europe/Berlin' },
			);
			const after = Date.now();

			const sent = scheduleAtSent();
			const candidates = new Set<string>();
			for (let ms = before + 2 * HOUR_MS; ms <= after + 2 * HOUR_MS + 1000; ms += 1000) {
				candidates.add(formatIst(ms));
			}
			expect(candidates).toContain(sent);
			const scheduled = held(sandbox(), key);
			expect(scheduled).toMatchObject({ status: 'scheduled', scheduleAt: sent });
			expect(scheduled?.scheduledFor).toBe(
				new Date(parseScheduleAt(sent as string)!).toISOString(),
			);

			const [json] = result.json(NODE_NAME);
			expect(json).toMatchObject({ ...scheduledJson, scheduleAt: sent, scheduleInPast: false });
			// the output's UTC instant keeps the milliseconds that schedule_at cannot carry
			expect(Math.floor(Date.parse(json.scheduledForUtc as string) / 1000) * 1000).toBe(
				Date.parse(scheduled!.scheduledFor!),
			);
		});

		it.each(SCHEDULE_READS)(
			'reads %s: %s',
			async (_, value, timezone, timeZoneOption, expectedIst, expectedUtc) => {
				const [key] = await arranged(row, sandbox(), 1);
				const result = await run(sandbox(), row.parameters(parameters(value, timeZoneOption)), {
					items: [row.item(key)],
					timezone,
				});

				expect(scheduleAtSent()).toBe(expectedIst);
				expect(result.json(NODE_NAME)[0]).toMatchObject({
					...scheduledJson,
					scheduleAt: expectedIst,
					scheduledForUtc: expectedUtc,
					scheduleInPast: false,
				});
				expect(held(sandbox(), key)).toMatchObject({
					status: 'scheduled',
					scheduleAt: expectedIst,
					scheduledFor: expectedUtc,
				});
			},
		);

		it('sends a time in the past as it is, flags it, and CallKaro starts it now', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			const result = await run(sandbox(), row.parameters(parameters('2020-01-01T00:00:00Z')), {
				items: [row.item(key)],
			});

			expect(scheduleAtSent()).toBe('2020-01-01T05:30:00');
			expect(result.json(NODE_NAME)[0]).toMatchObject({
				...pastJson,
				scheduleAt: '2020-01-01T05:30:00',
				scheduledForUtc: '2020-01-01T00:00:00.000Z',
				scheduleInPast: true,
			});
			expect(held(sandbox(), key)?.status).toBe(startedNowStatus);
		});
	});
}

function guard(row: ActionNodeRow, sandbox: SandboxOf, store: StoreOf) {
	if (!row.guard) return;
	const { displayName, skipped, skippedOutput, otherTarget, reopen } = row.guard;
	const scheduledAt = row.schedule!.parameters('={{ $json.at }}');
	const run = runnerFor(row.type);
	const guardOn = (extra: INodeParameters = {}) => row.parameters({ skipBefore: true, ...extra });
	// A production execution (an active workflow's trigger), unless a test says otherwise.
	const guarded = (
		parameters: INodeParameters,
		items: IDataObject[],
		more: Omit<RunNodeOptions, 'type' | 'parameters' | 'items'> = {},
	) => run(sandbox(), parameters, { items, mode: 'webhook', ...more });
	const jsonOf = (result: RunResult) => inInputOrder(row, result).map((item) => item.json);
	const skippedStatus = (key: string) => skipped(key).status;
	const at = (key: string, when: string) => ({ ...row.item(key), at: when });
	const refusal = row.apiErrors.find((errorCase) => errorCase.refused && !errorCase.faults)!;

	describe(`${displayName} (the duplicate-call guard)`, () => {
		it('skips in a second execution exactly the numbers the first one reached', async () => {
			const [a, b, c, d] = await arranged(row, sandbox(), 4);
			const first = await guarded(guardOn(), [a, b, c].map(row.item));
			expect(jsonOf(first)).toEqual([a, b, c].map((key) => row.succeeded(key)));
			expect(jsonOf(first).map((json) => json.guard)).toEqual(['recorded', 'recorded', 'recorded']);
			reopen?.(sandbox());

			const second = await guarded(guardOn(), [b, c, d].map(row.item));

			expect(sentKeys(row, sandbox())).toEqual([a, b, c, d]);
			expect(second.json(NODE_NAME, skippedOutput).slice(0, 2)).toEqual([
				{ ...skipped(b), guard: 'skipped' },
				{ ...skipped(c), guard: 'skipped' },
			]);
			const [, , placed] = jsonOf(second);
			expect(placed).toEqual(row.succeeded(d));
			expect(placed.guard).toBe('recorded');
			expect(pairedItems(inInputOrder(row, second))).toEqual([
				{ item: 0 },
				{ item: 1 },
				{ item: 2 },
			]);
		});

		it('pairs the number with the agent or workflow: another one may reach it', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			await guarded(guardOn(), [row.item(key)]);
			const other = await guarded(guardOn(), [{ ...row.item(key), ...otherTarget }]);

			expect(jsonOf(other)[0].guard).toBe('recorded');
			expect(row.done(sandbox())).toEqual([key, key]);
		});

		it('reaches a number once per run as well, whatever its schedule time', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			const result = await guarded(guardOn(scheduledAt), [
				at(key, '2030-01-01T10:00:00+05:30'),
				at(key, '2030-01-02T10:00:00+05:30'),
			]);

			const [sent, repeat] = jsonOf(result);
			expect(sent).toEqual(row.succeeded(key));
			expect(repeat).toMatchObject({ status: skippedStatus(key), guard: 'skipped' });
			expect(sentKeys(row, sandbox())).toEqual([key]);
		});

		it('gives the number back after a refusal, but not after a lost answer', async () => {
			const [refused, lost] = await arranged(row, sandbox(), 2);
			const items = [
				{ ...row.item(refused), ...(await refusal.refused!(sandbox())) },
				row.item(lost),
			];
			const settings = { continueOnFail: true };
			const parameters = guardOn({ options: { concurrency: 1 } });
			sandbox().setFaults({ endpoint: row.faultEndpoint, sequence: ['ok', 'drop-after'] });
			fastBackoff();
			const first = await guarded(parameters, items, { settings });
			const [refusedJson, lostJson] = jsonOf(first);
			expect(refusedJson.details).toMatchObject({ kind: refusal.kind });
			// a node that never retries cannot know; one that retries learns it from the retry
			if (!row.retriesServerErrors) expect(lostJson.details).toMatchObject({ kind: 'network' });
			const sentBefore = sentKeys(row, sandbox()).length;

			const second = await guarded(parameters, items, { settings });

			// the refused number is sent again; the one that may have been reached is not
			expect(sentKeys(row, sandbox()).slice(sentBefore)).toEqual([refused]);
			expect(jsonOf(second)[1]).toMatchObject({ status: skippedStatus(lost), guard: 'skipped' });
			expect(row.done(sandbox())).toEqual([lost]);
		});

		it('gives back the numbers a stopped run never sent', async () => {
			const keys = await arranged(row, sandbox(), 4);
			const items = keys.map(row.item);
			const parameters = guardOn({ options: { concurrency: 1 } });
			const first = await guarded(parameters, [
				...items.slice(0, 2),
				{ ...items[2], ...(await refusal.refused!(sandbox())) },
				items[3],
			]);
			expect(first.status).toBe('error');
			reopen?.(sandbox());

			const second = await guarded(parameters, items);

			expect(jsonOf(second).map((json) => json.guard)).toEqual([
				'skipped',
				'skipped',
				'recorded',
				'recorded',
			]);
			expect(jsonOf(second).slice(2)).toEqual(keys.slice(2).map((key) => row.succeeded(key)));
		});

		it('with Once per Calendar Day, reaches a number again on another day only', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			const daily = guardOn({ ...scheduledAt, guardWindow: 'day', guardTimeZone: 'Asia/Kolkata' });
			await guarded(daily, [at(key, '2030-01-01T09:00:00+05:30')]);
			reopen?.(sandbox());
			const sameDay = await guarded(daily, [at(key, '2030-01-01T23:30:00+05:30')]);
			// 2030-01-01T20:00Z is already 2 January in India
			const nextDay = await guarded(daily, [at(key, '2030-01-01T20:00:00Z')]);

			expect(jsonOf(sameDay)[0]).toMatchObject({ status: skippedStatus(key) });
			expect(jsonOf(nextDay)[0]).toEqual(row.succeeded(key));
			expect(sentKeys(row, sandbox())).toEqual([key, key]);
		});

		it('neither checks nor records in editor runs, and says so', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			await guarded(guardOn(), [row.item(key)], { mode: 'manual' });
			reopen?.(sandbox());
			const again = await guarded(guardOn(), [row.item(key)], { mode: 'manual' });

			expect(sentKeys(row, sandbox())).toEqual([key, key]);
			expect(jsonOf(again)[0]).toEqual(row.succeeded(key));
			expect(jsonOf(again)[0].guard).toBe('notAppliedInEditorRun');
			expect(again.task(NODE_NAME).hints).toContainEqual({
				type: 'info',
				location: 'outputPane',
				message: `"${displayName}" neither checked nor recorded these numbers: this is a manual run from the editor. Turn on "Apply in Editor Runs" to use it here too.`,
			});
			expect(store().rows.size).toBe(0);
		});

		it('checks and records in editor runs when Apply in Editor Runs is on', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			const parameters = guardOn({ guardInEditorRuns: true });
			await guarded(parameters, [row.item(key)], { mode: 'manual' });
			reopen?.(sandbox());
			const again = await guarded(parameters, [row.item(key)], { mode: 'manual' });

			expect(jsonOf(again)[0]).toMatchObject({ status: skippedStatus(key), guard: 'skipped' });
			expect(sentKeys(row, sandbox())).toEqual([key]);
		});

		it('starts a fresh history under a new History Name', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			await guarded(guardOn(), [row.item(key)]);
			reopen?.(sandbox());
			const spring = guardOn({ guardHistoryName: 'spring' });
			const fresh = await guarded(spring, [row.item(key)]);
			const again = await guarded(spring, [row.item(key)]);

			expect(jsonOf(fresh)[0]).toEqual(row.succeeded(key));
			expect(jsonOf(again)[0]).toMatchObject({ status: skippedStatus(key) });
			expect(sentKeys(row, sandbox())).toEqual([key, key]);
		});

		it('reaches a number once when executions run at the same moment (one process)', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			const runs = await Promise.all(
				Array.from({ length: 8 }, async () => await guarded(guardOn(), [row.item(key)])),
			);

			expect(sentKeys(row, sandbox())).toEqual([key]);
			const [first, ...others] = runs
				.map((result) => jsonOf(result)[0])
				.sort((a, b) => String(a.guard).localeCompare(String(b.guard)));
			expect(first).toEqual(row.succeeded(key));
			expect(others).toEqual(
				Array.from({ length: 7 }, () => ({ ...skipped(key), guard: 'skipped' })),
			);
		});

		it('warns when the history is nearly full', async () => {
			const keys = await arranged(row, sandbox(), 9);
			const result = await guarded(guardOn({ guardHistorySize: 10 }), keys.map(row.item));

			expect(result.task(NODE_NAME).hints).toContainEqual({
				type: 'warning',
				message: `"${displayName}" remembers the last 10 numbers and now holds 9. Beyond that the oldest are forgotten and no longer skipped: raise History Size.`,
			});
		});

		it('sends nothing and records nothing in a preview', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			await guarded(guardOn({ options: { previewOnly: true } }), [row.item(key)]);

			expect(apiRequests(sandbox(), row.path)).toEqual([]);
			expect(store().rows.size).toBe(0);
		});
	});
}

/**
 * The guard where n8n offers no working store: it fails with a clear error and never sends
 * unguarded. Its own test file, which gives n8n-core no store (one per process).
 */
export function describeGuardWithoutStore(rows: ActionNodeRow[], sandbox: SandboxOf): void {
	describe.each(rows.filter((row) => row.guard))('$displayName without a store', (row) => {
		const { displayName } = row.guard!;
		const run = runnerFor(row.type);
		const description = `The option needs n8n's store of processed items (n8n 1.64 or later). Update n8n, or turn "${displayName}" off to send without it.`;
		const guardedItems = (continueOnFail = false) =>
			run(sandbox(), row.parameters({ skipBefore: true }), {
				items: row.freshKeys(2).map(row.item),
				mode: 'webhook',
				settings: { continueOnFail },
			});

		it('fails, sending nothing, when the store does not answer', async () => {
			const result = await guardedItems();

			const error = workflowError(result);
			expect(error.message).toBe(
				`"${displayName}" cannot work: n8n's store of processed items failed (Instance needs to initialized before use. Make sure to call init()). Nothing was sent`,
			);
			expect(error.description).toBe(
				`0 of 2 ${row.vocabulary.noun} were ${row.vocabulary.effect}. ${description}`,
			);
			expect(apiRequests(sandbox())).toEqual([]);
		});

		it('fails every item, sending nothing, on an n8n without the store (before 1.64)', async () => {
			jest
				.spyOn(deduplicationHelpers, 'getDeduplicationHelperFunctions')
				.mockReturnValue({} as DeduplicationHelperFunctions);

			const result = await guardedItems(true);

			const message = `"${displayName}" cannot work: this n8n has no store of processed items. Nothing was sent`;
			// not an error of a request, so its details say only what the node knows
			const details = {
				kind: 'other',
				httpStatus: null,
				serviceMessage: null,
				attempts: null,
				outcomeUnknown: null,
				description,
			};
			expect(result.json(NODE_NAME)).toEqual([
				{ error: message, details },
				{ error: message, details },
			]);
			expect(apiRequests(sandbox())).toEqual([]);
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

function apiKey(row: ActionNodeRow, sandbox: SandboxOf) {
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

type StoreOf = () => InMemoryDeduplicator;

/** The behaviours every action node has, in the order they are reported. */
const CONTRACT: Array<(row: ActionNodeRow, sandbox: SandboxOf, store: StoreOf) => void> = [
	badInput,
	requiredField,
	apiErrors,
	httpsOnly,
	retries,
	inputOrder,
	aiTool,
	preview,
	schedule,
	guard,
	apiKey,
];

/** Runs the whole contract for each row, against one sandbox and n8n's processed-data store. */
export function describeActionNodeContract(
	rows: ActionNodeRow[],
	sandbox: SandboxOf,
	store: StoreOf,
): void {
	describe.each(rows)('$displayName', (row) => {
		for (const behaviour of CONTRACT) behaviour(row, sandbox, store);
	});
}
