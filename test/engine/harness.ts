// Runs workflows through n8n-core's real engine (WorkflowExecute) in-process, with our credential
// type applied for real, so engine tests can assert on outputs, pairedItem, error outputs,
// continueOnFail, credentials and tool mode against a local HTTP server.

import { WorkflowExecute } from 'n8n-core';
import type {
	EngineRequest,
	EngineResponse,
	ExecutionStatus,
	ICredentialType,
	IConnections,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IRun,
	IRunData,
	ITaskData,
	IVersionedNodeType,
	IWorkflowSettings,
	NodeConnectionType,
	OnError,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	NodeConnectionTypes,
	NodeHelpers,
	UnexpectedError,
	UserError,
	Workflow,
	deepCopy,
} from 'n8n-workflow';

import {
	TestCredentialsHelper,
	createAdditionalData,
	defaultCredentialTypes,
} from './engineSupport';
import type { TestCredentials } from './engineSupport';

export type { TestCredentials } from './engineSupport';

export const START_NODE_TYPE = 'test.start';
export const START_NODE_NAME = 'Start';
const TOOL_AGENT_TYPE = 'test.toolAgent';

export type NodeTypeMap = Record<string, INodeType | IVersionedNodeType>;

/** Runs started so far: each gets an execution id of its own. */
let executionCount = 0;

// ---------------------------------------------------------------- building workflows

export interface NodeOptions {
	continueOnFail?: boolean;
	onError?: OnError;
	retryOnFail?: boolean;
	maxTries?: number;
	waitBetweenTries?: number;
	typeVersion?: number;
	disabled?: boolean;
	alwaysOutputData?: boolean;
	executeOnce?: boolean;
	/** Explicit node credentials; by default the harness links every credential type the test supplies. */
	credentials?: INode['credentials'];
}

/** A workflow node entry, as the editor would save it. */
export function node(
	name: string,
	type: string,
	parameters: INodeParameters = {},
	options: NodeOptions = {},
): INode {
	const { typeVersion = 1, ...settings } = options;
	return { id: `node-${name}`, name, type, typeVersion, position: [0, 0], parameters, ...settings };
}

/** Main connections output 0 -> input 0 along the given node names. */
export function chain(...names: string[]): IConnections {
	const connections: IConnections = {};
	for (let i = 0; i + 1 < names.length; i++) link(connections, names[i], names[i + 1]);
	return connections;
}

/** Adds one connection (mutates and returns `connections`). */
export function link(
	connections: IConnections,
	from: string,
	to: string,
	{
		output = 0,
		input = 0,
		type = NodeConnectionTypes.Main,
	}: { output?: number; input?: number; type?: NodeConnectionType } = {},
): IConnections {
	const byType = (connections[from] ??= {});
	const outputs = (byType[type] ??= []);
	while (outputs.length <= output) outputs.push([]);
	(outputs[output] ??= []).push({ node: to, type, index: input });
	return connections;
}

// ---------------------------------------------------------------- node types

function startNodeType(items: IDataObject[]): INodeType {
	return {
		description: {
			displayName: 'Test Start',
			name: START_NODE_TYPE,
			group: ['trigger'],
			version: 1,
			description: 'Emits the items the test gave',
			defaults: { name: START_NODE_NAME },
			inputs: [],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute() {
			// structuredClone keeps Date values, as database drivers give them (Microsoft SQL, Oracle, MongoDB).
			return [items.map((json) => ({ json: structuredClone(json), pairedItem: { item: 0 } }))];
		},
	};
}

/** Mirrors n8n's cli `convertNodeToAiTool` (the `<type>Tool` variant of a `usableAsTool` node). */
function toolVariant(base: INodeType): INodeType {
	const { usableAsTool } = base.description;
	if (!usableAsTool)
		throw new UserError(`Node "${base.description.name}" cannot be used as a tool`);
	const replacements = typeof usableAsTool === 'object' ? (usableAsTool.replacements ?? {}) : {};
	const description: INodeTypeDescription = {
		...base.description,
		...replacements,
		name: `${base.description.name}Tool`,
		displayName: `${base.description.displayName} Tool`,
		inputs: [],
		outputs: [NodeConnectionTypes.AiTool],
		usableAsTool: undefined,
	} as INodeTypeDescription;
	if (!description.properties.some((property) => property.name === 'toolDescription')) {
		description.properties = [
			{
				displayName: 'Description',
				name: 'toolDescription',
				type: 'string',
				default: description.description,
				required: true,
			},
			...description.properties,
		];
	}
	return Object.create(base, { description: { value: description } }) as INodeType;
}

/** INodeTypes over a plain map; `<type>Tool` is synthesised from a `usableAsTool` base like n8n does. */
export class TestNodeTypes implements INodeTypes {
	private readonly tools = new Map<string, INodeType>();

	constructor(private readonly types: NodeTypeMap) {}

	getByName(name: string): INodeType | IVersionedNodeType {
		const type = this.types[name];
		if (type) return type;
		return this.getByNameAndVersion(name);
	}

	getByNameAndVersion(name: string, version?: number): INodeType {
		const type = this.types[name];
		if (type) return NodeHelpers.getVersionedNodeType(type, version);
		const base = name.endsWith('Tool') ? this.types[name.slice(0, -'Tool'.length)] : undefined;
		if (!base)
			throw new UnexpectedError(
				`Unknown node type "${name}" (known: ${Object.keys(this.types).join(', ')})`,
			);
		const key = `${name}@${version ?? 'latest'}`;
		if (!this.tools.has(key))
			this.tools.set(key, toolVariant(NodeHelpers.getVersionedNodeType(base, version)));
		return this.tools.get(key)!;
	}

	getKnownTypes() {
		return {};
	}
}

// ---------------------------------------------------------------- running

export interface RunOptions {
	/** The workflow's nodes. A `Start` node of type `test.start` is added unless present. */
	nodes: INode[];
	/** Default: `chain('Start', ...nodes)` in the given order. */
	connections?: IConnections;
	/** Items the Start node emits (default: one empty item). */
	items?: IDataObject[];
	credentials?: TestCredentials;
	/** Workflow setting `timezone`; n8n's default is America/New_York. */
	timezone?: string;
	/** Node classes keyed by type name, e.g. `{ 'n8n-nodes-callkaro.callKaroOutboundCall': new CallKaroOutboundCall() }`. */
	nodeTypes?: NodeTypeMap;
	credentialTypes?: ICredentialType[];
	/** Default 'manual' (a run from the editor). */
	mode?: WorkflowExecuteMode;
	settings?: IWorkflowSettings;
	/** Receives a function that cancels the execution, as the editor's Stop button does. */
	onStarted?: (cancel: () => void) => void;
}

export interface RunResult {
	status: ExecutionStatus;
	/** The workflow-level error (a node error when no continue mode caught it). */
	error?: Error & { description?: string | null; node?: INode };
	runData: IRunData;
	run?: IRun;
	/** Requests after the credentials helper applied `authenticate`. */
	authenticated: TestCredentialsHelper['authenticated'];
	task(nodeName: string, runIndex?: number): ITaskData;
	/** Items per output index of a node's run (main connection). */
	outputOf(nodeName: string, runIndex?: number): INodeExecutionData[][];
	/** The `json` of the items on one output. */
	json(nodeName: string, output?: number, runIndex?: number): IDataObject[];
}

function makeResult(
	runData: IRunData,
	helper: TestCredentialsHelper,
	run: IRun | undefined,
	status: ExecutionStatus,
	error?: RunResult['error'],
): RunResult {
	const task = (nodeName: string, runIndex = 0): ITaskData => {
		const found = runData[nodeName]?.[runIndex];
		if (!found) {
			const ran = Object.keys(runData).join(', ') || 'none';
			throw new UnexpectedError(
				`Node "${nodeName}" has no run ${runIndex} (nodes that ran: ${ran}; status ${status}${error ? `; error: ${error.message}` : ''})`,
			);
		}
		return found;
	};
	const outputOf = (nodeName: string, runIndex = 0) =>
		(task(nodeName, runIndex).data?.[NodeConnectionTypes.Main] ?? []).map((items) => items ?? []);
	return {
		status,
		error,
		runData,
		run,
		authenticated: helper.authenticated,
		task,
		outputOf,
		json: (nodeName, output = 0, runIndex = 0) =>
			(outputOf(nodeName, runIndex)[output] ?? []).map((item) => item.json),
	};
}

/** Runs a workflow through n8n-core's WorkflowExecute, starting at the Start node. */
export async function runWorkflow(options: RunOptions): Promise<RunResult> {
	const credentials = options.credentials ?? {};
	const helper = new TestCredentialsHelper(
		credentials,
		options.credentialTypes ?? defaultCredentialTypes(),
	);
	const nodeTypes = new TestNodeTypes({
		...options.nodeTypes,
		[START_NODE_TYPE]: startNodeType(options.items ?? [{}]),
	});

	const nodes = deepCopy(options.nodes);
	if (!nodes.some((entry) => entry.type === START_NODE_TYPE))
		nodes.unshift(node(START_NODE_NAME, START_NODE_TYPE));
	const startNode = nodes.find((entry) => entry.type === START_NODE_TYPE)!;
	for (const entry of nodes) {
		if (entry.credentials !== undefined || entry.type === START_NODE_TYPE) continue;
		const declared =
			nodeTypes.getByNameAndVersion(entry.type, entry.typeVersion).description.credentials ?? [];
		const linked = declared.filter(({ name }) => credentials[name] !== undefined);
		if (linked.length) {
			entry.credentials = Object.fromEntries(
				linked.map(({ name }) => [name, { id: `cred-${name}`, name: `Test ${name}` }]),
			);
		}
	}

	const settings: IWorkflowSettings = { executionOrder: 'v1', ...options.settings };
	if (options.timezone) settings.timezone = options.timezone;
	const connections =
		options.connections ??
		chain(startNode.name, ...nodes.filter((n) => n !== startNode).map((n) => n.name));
	const workflow = new Workflow({
		id: 'test-workflow',
		name: 'Engine test',
		nodes,
		connections,
		active: false,
		nodeTypes,
		settings,
		staticData: {},
	});

	const mode = options.mode ?? 'manual';
	// Each run is its own execution, as in n8n: what a node keeps per execution starts anew.
	executionCount += 1;
	const additionalData = createAdditionalData(
		helper,
		mode,
		{
			id: 'test-workflow',
			name: 'Engine test',
			active: false,
			activeVersionId: null,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
			nodes,
			connections,
			settings,
		},
		`test-execution-${executionCount}`,
	);

	let run: IRun;
	try {
		const execution = new WorkflowExecute(additionalData, mode).run({ workflow, startNode });
		options.onStarted?.(() => execution.cancel());
		run = await execution;
	} catch (error) {
		// e.g. WorkflowHasIssuesError (required parameter missing), thrown before anything runs
		return makeResult({}, helper, undefined, 'error', error as RunResult['error']);
	}
	const { runData, error } = run.data.resultData;
	return makeResult(runData, helper, run, run.status, error as RunResult['error']);
}

// ---------------------------------------------------------------- tool mode

interface ToolLike {
	name: string;
	description: string;
	schema?: { shape?: Record<string, unknown> };
	metadata?: { sourceNodeName?: string };
	invoke(input: IDataObject): Promise<unknown>;
}

export interface ToolRunOptions {
	/** Base type name of the node, e.g. 'n8n-nodes-callkaro.callKaroOutboundCall'; the `...Tool` variant is run. */
	nodeType: string;
	nodeTypes?: NodeTypeMap;
	/** The tool node's parameters; `={{ $fromAI('phone') }}` makes `phone` a tool argument. */
	parameters?: INodeParameters;
	credentials?: TestCredentials;
	/** The arguments the model sends. */
	toolArgs?: IDataObject;
	/**
	 * Further calls of the same tool in the same execution (supplyData path), as an agent makes them
	 * across turns, or in one turn with `parallel`.
	 */
	moreToolArgs?: IDataObject[];
	parallel?: boolean;
	/**
	 * 'supplyData' (default): the path of `getInputConnectionData` + `makeHandleToolInvocation`, where the
	 * node's execute() gets a SupplyDataContext and `isToolExecution()` is true.
	 * 'engineRequest': the AI Agent v3 path: the agent returns an EngineRequest, the engine runs the tool
	 * node as an ordinary node (ExecuteContext, `isToolExecution()` is false) and resumes the agent.
	 */
	via?: 'supplyData' | 'engineRequest';
	/** The JSON of the item the agent runs for (the engine path merges it into the tool's input item). */
	agentInput?: IDataObject;
	nodeName?: string;
	nodeOptions?: NodeOptions;
	timezone?: string;
	credentialTypes?: ICredentialType[];
}

export interface ToolRunResult {
	toolName: string;
	toolDescription: string;
	/** The `$fromAI` keys of the tool schema the model is shown. */
	schemaKeys: string[];
	/** What the agent receives: the JSON string of output 0's items' json. */
	result?: string;
	/** `result` parsed. */
	response?: unknown;
	/** The invocation threw (supplyData path; the engine path turns errors into `[{ error }]`). */
	error?: { name: string; message: string };
	/** What every call (the first, then `moreToolArgs`) gave the agent, parsed; a throw as `{ thrown }`. */
	responses: unknown[];
	run: RunResult;
}

/** Mirrors the AI Agent v3 `buildObservation`: what the model sees of an engine-run tool. */
function observation(task: ITaskData | undefined): string {
	const items = task?.data?.[NodeConnectionTypes.AiTool]?.[0]?.map((item) => item?.json);
	if (items && items.length > 0) return JSON.stringify(items);
	if (task?.error)
		return JSON.stringify({
			error: task.error.message ?? 'Unknown error',
			errorType: task.error.name,
		});
	return JSON.stringify('');
}

function toolAgentType(
	calls: IDataObject[],
	via: 'supplyData' | 'engineRequest',
	parallel: boolean,
): INodeType {
	const [toolArgs] = calls;
	const describe = (tool: ToolLike) => ({
		toolName: tool.name,
		toolDescription: tool.description,
		schemaKeys: Object.keys(tool.schema?.shape ?? {}),
	});
	const connectedTool = async (context: IExecuteFunctions) => {
		const tools = (await context.getInputConnectionData(
			NodeConnectionTypes.AiTool,
			0,
		)) as ToolLike[];
		if (tools.length !== 1)
			throw new UnexpectedError(`Expected one connected tool, got ${tools.length}`);
		return tools[0];
	};
	return {
		description: {
			displayName: 'Test Tool Agent',
			name: TOOL_AGENT_TYPE,
			group: ['transform'],
			version: 1,
			description: 'Calls its one connected tool with fixed arguments',
			defaults: { name: 'Agent' },
			inputs: [
				NodeConnectionTypes.Main,
				{ type: NodeConnectionTypes.AiTool, displayName: 'Tool', required: true },
			],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions, response?: EngineResponse) {
			const tool = await connectedTool(this);
			if (via === 'engineRequest') {
				if (!response?.actionResponses?.length) {
					const request: EngineRequest = {
						actions: [
							{
								actionType: 'ExecutionNodeAction',
								nodeName: tool.metadata?.sourceNodeName ?? '',
								input: toolArgs,
								type: NodeConnectionTypes.AiTool,
								id: 'call_test_1',
								metadata: { itemIndex: 0 },
							},
						],
						metadata: {},
					};
					return request;
				}
				const result = observation(response.actionResponses[0].data);
				return [[{ json: { ...describe(tool), result }, pairedItem: { item: 0 } }]];
			}
			if (calls.length > 1) {
				const invoke = async (args: IDataObject) =>
					await tool
						.invoke(args)
						.catch((thrown: Error) => JSON.stringify({ thrown: thrown.message }));
				const results: unknown[] = [];
				if (parallel) results.push(...(await Promise.all(calls.map(invoke))));
				else for (const args of calls) results.push(await invoke(args));
				return [
					[{ json: { ...describe(tool), results: results as string[] }, pairedItem: { item: 0 } }],
				];
			}
			try {
				const result = await tool.invoke(toolArgs);
				return [
					[{ json: { ...describe(tool), result: result as string }, pairedItem: { item: 0 } }],
				];
			} catch (thrown) {
				const error = thrown as Error;
				return [
					[
						{
							json: { ...describe(tool), error: { name: error.name, message: error.message } },
							pairedItem: { item: 0 },
						},
					],
				];
			}
		},
	};
}

/** Runs one node as an AI tool the way an agent does, in a real workflow: Start -> Agent <-ai_tool- Tool. */
export async function runAsTool(options: ToolRunOptions): Promise<ToolRunResult> {
	const via = options.via ?? 'supplyData';
	const toolName = options.nodeName ?? 'Tool';
	const nodes = [
		node(START_NODE_NAME, START_NODE_TYPE),
		node('Agent', TOOL_AGENT_TYPE),
		node(toolName, `${options.nodeType}Tool`, options.parameters ?? {}, options.nodeOptions),
	];
	const connections = link(chain(START_NODE_NAME, 'Agent'), toolName, 'Agent', {
		type: NodeConnectionTypes.AiTool,
	});
	const run = await runWorkflow({
		nodes,
		connections,
		items: [options.agentInput ?? { chatInput: 'test' }],
		credentials: options.credentials,
		timezone: options.timezone,
		credentialTypes: options.credentialTypes,
		nodeTypes: {
			...options.nodeTypes,
			[TOOL_AGENT_TYPE]: toolAgentType(
				[options.toolArgs ?? {}, ...(options.moreToolArgs ?? [])],
				via,
				options.parallel ?? false,
			),
		},
	});
	const agentOutput = run.runData.Agent?.[0]?.data ? run.json('Agent')[0] : undefined;
	if (!agentOutput)
		throw run.error ?? new UnexpectedError(`The tool run failed with status ${run.status}`);
	const result = agentOutput.result as string | undefined;
	const results = (agentOutput.results as string[] | undefined) ?? (result ? [result] : []);
	return {
		toolName: agentOutput.toolName as string,
		toolDescription: agentOutput.toolDescription as string,
		schemaKeys: agentOutput.schemaKeys as string[],
		result,
		response: result === undefined ? undefined : (JSON.parse(result) as unknown),
		error: agentOutput.error as ToolRunResult['error'],
		responses: results.map((text) => JSON.parse(text) as unknown),
		run,
	};
}
