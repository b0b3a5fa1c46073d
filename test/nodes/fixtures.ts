// Shared set-up of the node engine tests: a CallKaro sandbox on 127.0.0.1, a credential for it,
// and a one-node workflow runner over n8n-core's real engine (test/engine/harness.ts).
import type { IDataObject, IExecuteFunctions, INodeParameters, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes, UnexpectedError } from 'n8n-workflow';

import { callKaroNodeTypes } from '../engine/callKaroNodes';
import { chain, link, node, runWorkflow } from '../engine/harness';
import type { NodeOptions, RunResult, TestCredentials } from '../engine/harness';
import { DEMO_API_KEY, startSandbox } from '../sandbox/sandbox.mjs';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
export type SandboxOptions = NonNullable<Parameters<typeof startSandbox>[0]>;
export type LoggedRequest = Sandbox['state']['requests'][number];

/** The name the node under test has in every workflow. */
export const NODE_NAME = 'CallKaro';

/** The credential the nodes use: the sandbox's base URL and an API key (the demo account's by default). */
export function credentialsFor(sandbox: Sandbox, apiKey: string = DEMO_API_KEY): TestCredentials {
	return { callKaroApi: { apiKey, baseUrl: sandbox.url } };
}

/**
 * Starts one sandbox for a test file and gives it fresh (demo data, no faults) to every test:
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
	/** The workflow's time zone setting (n8n's default is America/New_York). */
	timezone?: string;
}

/**
 * Runs Start -> CallKaro node through WorkflowExecute. With onError 'continueErrorOutput' every
 * output of the node (the error output last) is connected to a no-op node, like in the editor.
 */
export async function runNode(sandbox: Sandbox, options: RunNodeOptions): Promise<RunResult> {
	const nodeTypes = callKaroNodeTypes();
	const callKaro = node(NODE_NAME, options.type, options.parameters, options.settings);
	const connections = chain('Start', NODE_NAME);
	const nodes = [callKaro];
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
		credentials: credentialsFor(sandbox, options.apiKey),
		nodeTypes: { ...nodeTypes, [NOOP_TYPE]: noOp },
		timezone: options.timezone,
	});
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

/** The API requests the sandbox logged (admin requests are never logged), optionally of one path. */
export function apiRequests(sandbox: Sandbox, path?: string): LoggedRequest[] {
	return sandbox.state.requests.filter((request) => path === undefined || request.path === path);
}

/** The error that stopped the workflow, with the fields n8n's NodeApiError / NodeOperationError carry. */
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

let numberCounter = 0;

/** A phone number no other test of this process uses: '+9170000' + 5 digits. */
export function freshNumber(): string {
	numberCounter += 1;
	return `+9170000${String(10000 + numberCounter).slice(-5)}`;
}

/**
 * Makes the client's full-jitter backoff (random() * base * 2^n) wait almost nothing, so that
 * tests which exhaust the 4 attempts on a 5xx stay fast. useSandbox restores it after each test.
 */
export function fastBackoff(): void {
	jest.spyOn(Math, 'random').mockReturnValue(0.001);
}

/** Everything a workflow run leaves behind that a user could see: outputs and the error. */
export function visibleText(result: RunResult): string {
	const error = result.error as (Error & { description?: unknown; context?: unknown }) | undefined;
	return JSON.stringify({
		runData: result.runData,
		error: error && {
			message: error.message,
			description: error.description,
			context: error.context,
			stack: error.stack,
		},
	});
}
