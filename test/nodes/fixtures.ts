// Shared set-up of the node engine tests: a CallKaro sandbox on 127.0.0.1, a credential for it,
// and a one-node workflow runner over n8n-core's real engine (test/engine/harness.ts).
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeConnectionTypes, UnexpectedError } from 'n8n-workflow';

import { partialRunText } from '../../src/run/runReport';
import type { RunVocabulary } from '../../src/run/runReport';
import { callKaroNodeTypes } from '../engine/callKaroNodes';
import { chain, link, node, runWorkflow } from '../engine/harness';
import type { NodeOptions, RunResult, TestCredentials } from '../engine/harness';
import { call } from '../sandbox/helpers';
import { DEMO_API_KEY, startSandbox } from '../sandbox/sandbox.mjs';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
export type SandboxOptions = NonNullable<Parameters<typeof startSandbox>[0]>;
export type FaultInput = Parameters<Sandbox['setFaults']>[0];
export type LoggedRequest = Sandbox['state']['requests'][number];

/**
 * Options → Schedule Time Far Ahead = Send It, for tests whose fixed dates lie years ahead (2030,
 * 2099) so that they never pass: they test how a time is read, not the far-ahead limit, which has
 * tests of its own.
 */
export const FAR_AHEAD_SENT: INodeParameters = { farAheadSchedule: 'send' };

/** The name the node under test has in every workflow. */
export const NODE_NAME = 'CallKaro';

/** A key that belongs to no sandbox account. */
export const WRONG_API_KEY = 'ck_dummy_key_5555555555';

/** The credential the nodes use: the sandbox's base URL and an API key (the demo account's by default). */
export function credentialsFor(sandbox: Sandbox, apiKey: string = DEMO_API_KEY): TestCredentials {
	return { callKaroApi: { apiKey, baseUrl: sandbox.url } };
}

/**
 * Starts one sandbox for the describe block (or test file) it is called in, and gives it back
 * fresh (demo data, no faults, empty log) to every test:
 *   const sandbox = useSandbox({ runDurationMs: 0 });
 *   ... sandbox().state.runs ...
 */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, ...options });
	});
	afterAll(async () => {
		await sandbox?.close();
	});
	beforeEach(() => sandbox?.reset());
	afterEach(() => jest.restoreAllMocks());
	return () => {
		if (!sandbox) throw new UnexpectedError('The sandbox is not started yet');
		return sandbox;
	};
}

export interface RunNodeOptions {
	/** Node type, e.g. ASSIGN_WORKFLOW. */
	type: string;
	parameters: INodeParameters;
	/** The items the node receives (default one empty item). */
	items?: IDataObject[];
	/** continueOnFail, onError... */
	settings?: NodeOptions;
	/** Default the demo account's key. */
	apiKey?: string;
	/** Default the sandbox's URL. */
	baseUrl?: string;
	/** The workflow's time zone setting (n8n's default is America/New_York). */
	timezone?: string;
	/** How the execution started; default 'manual' (a run from the editor). */
	mode?: WorkflowExecuteMode;
	/** Receives a function that cancels the execution, as the editor's Stop button does. */
	onStarted?: (cancel: () => void) => void;
	/**
	 * The nodes between Start and the CallKaro node, by name and n8n type (e.g. Odoo, then If):
	 * stand-ins that pass the items on, so the node sees its input come from those node types.
	 */
	upstream?: UpstreamNode[];
}

export interface UpstreamNode {
	name: string;
	type: string;
	/** Default 1. */
	typeVersion?: number;
	/** Keys whose ISO text the stand-in gives as JS Dates, as a database driver does. */
	datesAt?: string[];
}

const NOOP_TYPE = 'test.noop';
const noOp: INodeType = {
	description: {
		displayName: 'Test No-Op',
		name: NOOP_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Passes items through',
		defaults: { name: 'No-Op' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: IExecuteFunctions) {
		return [this.getInputData()];
	},
};

/** A node of another n8n type (Odoo, If…) that passes its items on, as that node's output. */
function standInFor({ type, datesAt = [] }: UpstreamNode): INodeType {
	return {
		description: { ...noOp.description, name: type },
		async execute(this: IExecuteFunctions) {
			const items = this.getInputData();
			for (const { json } of items) {
				for (const key of datesAt) json[key] = new Date(json[key] as string);
			}
			return [items];
		},
	};
}

/**
 * Runs Start -> CallKaro node through WorkflowExecute. With onError 'continueErrorOutput' every
 * output of the node (the error output last) is connected to a no-op node, as in the editor.
 */
export async function runNode(sandbox: Sandbox, options: RunNodeOptions): Promise<RunResult> {
	const nodeTypes = callKaroNodeTypes();
	const upstream = options.upstream ?? [];
	const nodes = [
		...upstream.map(({ name, type, typeVersion }) => node(name, type, {}, { typeVersion })),
		node(NODE_NAME, options.type, options.parameters, options.settings),
	];
	const connections = chain('Start', ...upstream.map(({ name }) => name), NODE_NAME);
	const standIns = Object.fromEntries(
		upstream.map((standIn) => [standIn.type, standInFor(standIn)]),
	);
	if (options.settings?.onError === 'continueErrorOutput') {
		const { outputs } = (nodeTypes[options.type] as INodeType).description;
		const outputCount = (Array.isArray(outputs) ? outputs.length : 1) + 1;
		for (let output = 0; output < outputCount; output++) {
			nodes.push(node(`Output ${output}`, NOOP_TYPE));
			link(connections, NODE_NAME, `Output ${output}`, { output });
		}
	}
	return await runWorkflow({
		nodes,
		connections,
		items: options.items,
		credentials: {
			callKaroApi: {
				apiKey: options.apiKey ?? DEMO_API_KEY,
				baseUrl: options.baseUrl ?? sandbox.url,
			},
		},
		nodeTypes: { ...nodeTypes, ...standIns, [NOOP_TYPE]: noOp },
		timezone: options.timezone,
		mode: options.mode,
		onStarted: options.onStarted,
	});
}

/** `runNode` for one node type: `const assign = runnerFor(ASSIGN_WORKFLOW)`. */
export function runnerFor(type: string) {
	return (
		sandbox: Sandbox,
		parameters: INodeParameters,
		more: Omit<RunNodeOptions, 'type' | 'parameters'> = {},
	): Promise<RunResult> => runNode(sandbox, { type, parameters, ...more });
}

/** The API requests the sandbox logged (admin requests are never logged), optionally of one path. */
export function apiRequests(sandbox: Sandbox, path?: string): LoggedRequest[] {
	return sandbox.state.requests.filter((request) => path === undefined || request.path === path);
}

/** How many keys a node left out (attributes.leftOut, metadataLeftOut), by reason. */
export function reasonCounts(leftOut: ReadonlyArray<{ reason: string }>): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const { reason } of leftOut) counts[reason] = (counts[reason] ?? 0) + 1;
	return counts;
}

/** The `to_number` of each logged request (body, JSON or form), in the order they arrived. */
export function sentNumbers(sandbox: Sandbox, path?: string): unknown[] {
	return apiRequests(sandbox, path).map((request) => (request.body as IDataObject).to_number);
}

/** The error that stopped the workflow, with the fields of n8n's NodeApiError / NodeOperationError. */
export interface NodeErrorShape {
	name: string;
	message: string;
	description?: string | null;
	httpCode?: string | null;
	context: { itemIndex?: number };
}

export function workflowError(result: RunResult): NodeErrorShape {
	if (result.status !== 'error' || !result.error) {
		throw new UnexpectedError(`Expected the workflow to fail, but its status is ${result.status}`);
	}
	return result.error as unknown as NodeErrorShape;
}

/** The hints the nodes show under a CallKaro error (NodeApiError description, details.description). */
export const HINTS = {
	auth: 'Check the API key in the CallKaro credential (CallKaro dashboard, API Key page).',
	notFound: 'Check the ID, and that it belongs to the account of the API key in the credential.',
	deleteNotFound:
		"For this endpoint 404 means that the agent is not one of the account of the API key, or that this agent has no call scheduled to this number: CallKaro's message above says which. Check the Agent ID; a call that was already placed or cancelled cannot be cancelled.",
	rateLimited:
		'CallKaro is throttling requests: lower "Concurrency" in the node options, or try again later.',
	badRequest: 'CallKaro refused the values sent: see its message above.',
	attributesNotSaved:
		'Check the attribute names against the CRM attributes in CallKaro. The run was not undone; with On Attribute Problems = Report in Output the item goes to its output instead.',
	outcomeUnknown:
		'The request may have taken effect. Check the CallKaro dashboard before sending it again.',
} as const;

/** What went wrong with a request to CallKaro, as the json of a failed item gives it. */
export interface ErrorDetails {
	kind:
		| 'auth'
		| 'not-found'
		| 'bad-request'
		| 'rate-limited'
		| 'service-failure'
		| 'network'
		| 'unexpected-response';
	/** null when no answer came (network). */
	httpStatus: number | null;
	serviceMessage: string | null;
	/** Requests sent for the item. */
	attempts: number;
	/** True when the request may have taken effect although it failed. */
	outcomeUnknown: boolean;
	/** The hint shown under the message (the NodeApiError description). */
	description: string | null;
}

/**
 * The json of an item that failed under Continue On Fail or went to the error output, after
 * checking that the item carries no `item.error`: n8n-core would replace the json of such an item
 * with `{ error: message }` and drop the details. Compare the result with `toEqual`, so that the
 * keys are exactly `error` (and `details`), the only ones n8n routes to the error output (where
 * it merges in the fields of the input item).
 */
export function failedItemJson(item: INodeExecutionData): IDataObject {
	expect(item.error).toBeUndefined();
	expect(item.json.error).toEqual(expect.any(String));
	return item.json;
}

/** The schedule fields of the output of an item that starts now (Outbound Call, Assign Workflow). */
export const NO_SCHEDULE = {
	scheduleAt: null,
	scheduledForUtc: null,
	scheduleInPast: false,
	scheduleTimeZone: null,
} as const;

/** The `pairedItem` of each item on one output. */
export function pairedItems(items: INodeExecutionData[]): unknown[] {
	return items.map((item) => item.pairedItem);
}

let numberCounter = 0;

/** A phone number no other test of this file uses: '+9170000' and 5 digits. */
export function freshNumber(): string {
	numberCounter += 1;
	return `+9170000${String(10000 + numberCounter).slice(-5)}`;
}

/** `count` fresh numbers. */
export function freshNumbers(count: number): string[] {
	return Array.from({ length: count }, freshNumber);
}

/**
 * Makes the client's full-jitter backoff (random() * 0.5 s * 2^n) wait almost nothing, so that
 * tests which use up the 4 attempts on a 5xx stay fast. useSandbox restores it after each test.
 */
export function fastBackoff(): void {
	jest.spyOn(Math, 'random').mockReturnValue(0.001);
}

interface ShownError {
	message?: unknown;
	description?: unknown;
}

/** The texts of a run a user reads: error messages and descriptions, and the node's output items. */
export function shownText(result: RunResult): string {
	const shown = (error: ShownError | undefined) =>
		error && { message: error.message, description: error.description };
	const task = result.runData[NODE_NAME]?.[0];
	const items = Object.values(task?.data ?? {}).flatMap((outputs) =>
		outputs.flatMap((output) => output ?? []),
	);
	return JSON.stringify({
		error: shown(result.error),
		taskError: shown(task?.error),
		items: items.map((item) => ({ json: item.json, error: shown(item.error) })),
	});
}

/**
 * Asserts that no API key appears anywhere in the node's run data or the workflow error (stack and
 * node included), and that no full phone number appears in any text a user reads.
 */
export function expectNoSecrets(
	result: RunResult,
	options: { apiKeys?: string[]; numbers?: string[] },
) {
	const everything = JSON.stringify({
		node: result.runData[NODE_NAME],
		error: result.error,
		stack: result.error?.stack,
	});
	for (const key of options.apiKeys ?? [DEMO_API_KEY]) expect(everything).not.toContain(key);
	const text = shownText(result);
	for (const number of options.numbers ?? []) {
		// the last 10 digits cover the + form, the bare digits and the national number
		expect(text).not.toContain(number.replace(/\D/g, '').slice(-10));
	}
}

/** Creates a campaign through the sandbox's own API, as a user would before placing calls into it. */
export async function createCampaign(
	sandbox: Sandbox,
	body: { name: string; agent_id?: string },
	version: 'v1' | 'v2' = 'v2',
): Promise<string> {
	const path = version === 'v2' ? '/v2/call/campaign' : '/call/campaign';
	const answer = await call(sandbox.url, path, body);
	if (answer.status !== 200 || typeof answer.body.batch_id !== 'string') {
		throw new UnexpectedError(`Creating the campaign failed: ${answer.text}`);
	}
	return answer.body.batch_id;
}

/** The parameters of the node as an AI tool: `$fromAI` lets the model fill the value. */
export function fromAI(key: string, description: string): string {
	return `={{ $fromAI('${key}', '${description}') }}`;
}

/**
 * The description of a run of `itemCount` items at Concurrency 1 that stopped at `failingItem`:
 * how far it got (src/run/runReport.ts's own tests fix the wording), then the item's hint.
 */
export function stoppedRunDescription(
	vocabulary: RunVocabulary,
	{
		itemCount,
		failingItem,
		outcomeUnknown,
	}: { itemCount: number; failingItem: number; outcomeUnknown: boolean },
	hint: string,
): string {
	const sentBefore = Array.from({ length: failingItem }, (_, item) => item);
	const report = partialRunText(vocabulary, itemCount, {
		tookEffect: sentBefore,
		mayHaveTakenEffect: outcomeUnknown ? [failingItem] : [],
	});
	return `${report} ${hint}`;
}

/** The hint of an item refused before anything was sent (NodeOperationError description, details.description). */
export const NOTHING_SENT = 'Nothing was sent to CallKaro for this item.';

/**
 * The json of an item refused before anything was sent (bad input): the message, and the same
 * `details` keys as a failed request, with the field the message names.
 */
export function refusedItemJson(message: string): IDataObject {
	return { error: message, details: refusedDetails(/^"([^"]+)"/.exec(message)?.[1] ?? '') };
}

/** The `details` of an item refused before anything was sent, because of `field`. */
export function refusedDetails(field: string): IDataObject {
	return {
		kind: 'invalid-input',
		httpStatus: null,
		serviceMessage: null,
		attempts: 0,
		outcomeUnknown: false,
		field,
		description: NOTHING_SENT,
	};
}
