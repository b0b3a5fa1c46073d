// Serves a workflow's webhook trigger over real HTTP the way n8n's cli does for a production
// (active) workflow, with n8n-core's own contexts and engine:
// - activation: the node's `webhookMethods` run in an n8n-core HookContext (checkExists, then
//   create when missing; delete on deactivation), like cli WebhookService.createWebhookIfNotExists;
// - each request: the webhook is found by method and path (cli WebhookService.getNodeWebhooks /
//   NodeHelpers.getNodeWebhookPath), the workflow is loaded with its stored static data, the node's
//   `webhook()` runs in an n8n-core WebhookContext with the real IncomingMessage/ServerResponse,
//   and the result is handled like cli webhook-helpers `executeWebhook` for responseMode
//   'onReceived': `noWebhookResponse` (the node answered), no `workflowData` (answer
//   `webhookResponse` or "Webhook call received", no execution), or an execution started through
//   n8n-core's WorkflowExecute with the trigger's output on the stack, answered at once as the
//   webhook description's `responseData` says (n8n's default 'firstEntryJson' is sent as that
//   text; an empty one gives "Workflow was started");
// - static data is saved (JSON, as in the database) when it changed, in the response callback,
//   like cli LiveWebhooks.
// Not mirrored: express itself (a plain node:http server stands in, see webhookHttp.mjs), the
// multipart/form/xml body parsers, response headers of the Webhook node, queue mode, pin data.

import { HookContext, WebhookContext, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionStatus,
	IConnections,
	IDataObject,
	INode,
	IRun,
	IRunData,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	NodeConnectionTypes,
	NodeHelpers,
	UnexpectedError,
	Workflow,
	createRunExecutionData,
	deepCopy,
} from 'n8n-workflow';

import { TestCredentialsHelper, createAdditionalData } from './engineSupport';
import type { TestCredentials } from './engineSupport';
import { TestNodeTypes, chain } from './harness';
import type { NodeTypeMap } from './harness';
import { sendJson, sendText, startHttpServer, yieldToOtherRequests } from './webhookHttp.mjs';

/** A pass-through node to connect after the trigger, so a test sees data flow on. */
export const PASS_THROUGH_TYPE = 'test.passThrough';

const passThroughType = {
	description: {
		displayName: 'Test Pass Through',
		name: PASS_THROUGH_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Outputs its input',
		defaults: { name: 'Next' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: { getInputData(): Array<{ json: IDataObject }> }) {
		return [
			this.getInputData().map((item, index) => ({ json: item.json, pairedItem: { item: index } })),
		];
	},
} as unknown as NodeTypeMap[string];

export interface WebhookExecution {
	status: ExecutionStatus;
	error?: Error;
	runData: IRunData;
	/** The `json` of a node's items on one output. */
	json(nodeName: string, output?: number): IDataObject[];
}

export interface WebhookCall {
	path: string;
	/** 'node': the node wrote the answer itself (noWebhookResponse). */
	answeredBy: 'node' | 'n8n';
	startedExecution: boolean;
}

export interface TriggerServer {
	/** The production webhook URL of the trigger node (what the NDV shows as Production URL). */
	productionUrl: string;
	/** The base the harness listens on. */
	baseUrl: string;
	workflowId: string;
	/** Executions started so far, in start order (finished ones after `settled()`). */
	executions: WebhookExecution[];
	calls: WebhookCall[];
	/** The stored static data (as saved to the database). */
	storedStaticData(): IDataObject;
	/** Runs the webhookMethods lifecycle: checkExists, then create when it says false. */
	activate(
		activation?: WorkflowActivateMode,
	): Promise<{ exists: boolean; created?: boolean; webhookUrl?: string }>;
	/** Runs webhookMethods.delete. */
	deactivate(): Promise<boolean | undefined>;
	/** Waits until every started execution finished. */
	settled(): Promise<void>;
	close(): Promise<void>;
}

export interface TriggerServerOptions {
	/** The workflow's nodes; the trigger node must have a `webhookId`. */
	nodes: INode[];
	/** Default: the nodes chained in the given order. */
	connections?: IConnections;
	/** Node classes by type; a `test.passThrough` type is added. */
	nodeTypes: NodeTypeMap;
	/** Name of the webhook trigger node (default: the first node). */
	triggerNodeName?: string;
	/** Static data the workflow starts with (as stored). */
	staticData?: IDataObject;
	/**
	 * 'every change' (default): static data changed by webhook() is saved, like n8n 1.x.
	 * 'while none is stored': it is saved only while the workflow has no stored static data yet,
	 * which is what n8n 2.41.1 was measured to do (WorkflowRunner resets the changed flag).
	 */
	staticDataSaving?: 'every change' | 'while none is stored';
	/** 'webhook' (default): the Production URL of an active workflow; 'manual': the Test URL. */
	mode?: Extract<WorkflowExecuteMode, 'webhook' | 'manual'>;
	/** Default: a new ID per server. Reuse one to serve the same workflow again (a restart). */
	workflowId?: string;
	settings?: IWorkflowSettings;
	/** Credential values by type, as n8n's credential store would decrypt them (default: none). */
	credentials?: TestCredentials;
}

let servedWorkflows = 0;

interface HttpRequestLike {
	method?: string;
	url?: string;
	headers: Record<string, string | string[] | undefined>;
	body?: unknown;
}

interface HttpResponseLike {
	headersSent: boolean;
	writableEnded: boolean;
}

/** Starts the HTTP front and returns the served workflow. */
export async function startTriggerServer(options: TriggerServerOptions): Promise<TriggerServer> {
	const nodeTypes = new TestNodeTypes({
		...options.nodeTypes,
		[PASS_THROUGH_TYPE]: passThroughType,
	});
	const nodes = deepCopy(options.nodes);
	const triggerName = options.triggerNodeName ?? nodes[0].name;
	const connections = options.connections ?? chain(...nodes.map((entry) => entry.name));
	const settings: IWorkflowSettings = { executionOrder: 'v1', ...options.settings };
	servedWorkflows += 1;
	const WORKFLOW_ID = options.workflowId ?? `webhook-test-workflow-${servedWorkflows}`;
	const staticDataSaving = options.staticDataSaving ?? 'every change';
	const MODE = options.mode ?? 'webhook';
	const workflowData: IWorkflowBase = {
		id: WORKFLOW_ID,
		name: 'Webhook test',
		active: true,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes,
		connections,
		settings,
	} as IWorkflowBase;
	let stored = JSON.stringify(options.staticData ?? {});
	const executions: WebhookExecution[] = [];
	const calls: WebhookCall[] = [];
	const pending = new Set<Promise<void>>();
	let baseUrl = '';

	/** Like loading the workflow from the database for one request. */
	const loadWorkflow = () =>
		new Workflow({
			id: WORKFLOW_ID,
			name: workflowData.name,
			nodes: deepCopy(nodes),
			connections,
			active: true,
			nodeTypes,
			settings,
			staticData: JSON.parse(stored) as IDataObject,
		});

	/** Like cli WorkflowStaticDataService.saveStaticData. */
	const saveStaticData = (workflow: Workflow) => {
		const lost = staticDataSaving === 'while none is stored' && stored !== '{}';
		if (workflow.staticData.__dataChanged === true && !lost) {
			stored = JSON.stringify(workflow.staticData);
			workflow.staticData.__dataChanged = false;
		}
	};

	const additionalDataFor = (executionId: string): IWorkflowExecuteAdditionalData => {
		const data = createAdditionalData(
			new TestCredentialsHelper(options.credentials ?? {}),
			MODE,
			workflowData,
			executionId,
		);
		data.webhookBaseUrl = `${baseUrl}/webhook`;
		data.webhookTestBaseUrl = `${baseUrl}/webhook-test`;
		data.webhookWaitingBaseUrl = `${baseUrl}/webhook-waiting`;
		return data;
	};

	/** Like cli WebhookService.getNodeWebhooks for the trigger node. */
	const webhooksOf = (
		workflow: Workflow,
		additionalData: IWorkflowExecuteAdditionalData,
	): IWebhookData[] => {
		const node = workflow.getNode(triggerName);
		if (!node) throw new UnexpectedError(`No node "${triggerName}"`);
		const type = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		return (type.description.webhooks ?? []).map((description) => {
			const path = NodeHelpers.getNodeWebhookPath(
				WORKFLOW_ID,
				node,
				String(description.path).replace(/^\/|\/$/g, ''),
				description.isFullPath === true,
				description.restartWebhook === true,
			);
			return {
				httpMethod: String(description.httpMethod) as IWebhookData['httpMethod'],
				node: node.name,
				path,
				webhookDescription: description,
				workflowId: WORKFLOW_ID,
				workflowExecuteAdditionalData: additionalData,
			};
		});
	};

	const hookContext = (activation: WorkflowActivateMode) => {
		const workflow = loadWorkflow();
		const additionalData = additionalDataFor('activation');
		const [webhookData] = webhooksOf(workflow, additionalData);
		const node = workflow.getNode(triggerName)!;
		const type = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const methods = type.webhookMethods?.[webhookData.webhookDescription.name];
		const context = new HookContext(
			workflow,
			node,
			additionalData,
			'trigger',
			activation,
			webhookData,
		);
		return { workflow, methods, context };
	};

	let executionCounter = 0;

	async function handle(req: HttpRequestLike, res: HttpResponseLike): Promise<void> {
		const rawResponse = res as unknown as Parameters<typeof sendJson>[0];
		const path = new URL(req.url ?? '/', 'http://harness.local').pathname.replace(
			/^\/webhook\//,
			'',
		);
		const workflow = loadWorkflow();
		// n8n reads the workflow from its database: other requests run meanwhile.
		await yieldToOtherRequests();
		executionCounter += 1;
		const executionId = `webhook-execution-${executionCounter}`;
		const additionalData = additionalDataFor(executionId);
		const webhookData = webhooksOf(workflow, additionalData).find(
			(candidate) => candidate.path === path && candidate.httpMethod === req.method,
		);
		if (!webhookData) {
			return sendJson(rawResponse, 404, {
				code: 404,
				message: `The requested webhook "${req.method} ${path}" is not registered.`,
			});
		}
		additionalData.httpRequest = req as unknown as IWorkflowExecuteAdditionalData['httpRequest'];
		additionalData.httpResponse = res as unknown as IWorkflowExecuteAdditionalData['httpResponse'];
		const node = workflow.getNode(triggerName)!;
		const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const call: WebhookCall = { path, answeredBy: 'n8n', startedExecution: false };
		calls.push(call);

		let result: IWebhookResponseData;
		try {
			const context = new WebhookContext(
				workflow,
				node,
				additionalData,
				MODE,
				webhookData,
				[],
				null,
			);
			result = (await nodeType.webhook!.call(context)) as IWebhookResponseData;
		} catch (thrown) {
			// cli invokeWebhook: answer with a generic error; the failed run is recorded with the error.
			saveStaticData(workflow);
			sendJson(rawResponse, 500, {
				code: 0,
				message: 'Workflow Webhook Error: Workflow could not be started!',
			});
			executions.push(recorded({ status: 'error', error: thrown as Error, runData: {} }));
			return;
		}

		// cli handleImmediateWebhookResponse
		if (result.noWebhookResponse === true) {
			call.answeredBy = 'node';
			saveStaticData(workflow);
			if (!res.writableEnded)
				throw new UnexpectedError('The node claimed to answer but did not end the response');
			if (result.workflowData === undefined) return;
		} else if (result.workflowData === undefined) {
			saveStaticData(workflow);
			sendJson(
				rawResponse,
				200,
				result.webhookResponse !== undefined
					? result.webhookResponse
					: { message: 'Webhook call received' },
			);
			return;
		}

		// cli prepareExecutionData + WorkflowRunner.run: the trigger's output is on the stack.
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [{ node, data: { main: result.workflowData ?? [] }, source: null }],
			},
		});
		call.startedExecution = true;
		const running = new WorkflowExecute(
			additionalDataFor(executionId),
			MODE,
			runExecutionData,
		).processRunExecutionData(workflow);
		const done = Promise.resolve(running).then(
			(run: IRun) => {
				executions.push(
					recorded({
						status: run.status,
						error: run.data.resultData.error as Error | undefined,
						runData: run.data.resultData.runData,
					}),
				);
			},
			(error: Error) => {
				executions.push(recorded({ status: 'crashed', error, runData: {} }));
			},
		);
		pending.add(done);
		void done.finally(() => pending.delete(done));
		// 'onReceived': answered once the execution started (n8n first stores it in its database,
		// while other requests run); static data saved in the response callback.
		await yieldToOtherRequests();
		saveStaticData(workflow);
		if (!res.headersSent) answerStarted(rawResponse, webhookData, result);
	}

	/** Like cli evaluateResponseOptions + extractWebhookOnReceivedResponse + createStaticResponse. */
	function answerStarted(
		rawResponse: Parameters<typeof sendJson>[0],
		webhookData: IWebhookData,
		result: IWebhookResponseData,
	): void {
		const responseData = webhookData.webhookDescription.responseData ?? 'firstEntryJson';
		if (responseData === 'noData') return sendText(rawResponse, 200, '');
		// A string is sent as it is (express sends it as text/html).
		if (responseData) return sendText(rawResponse, 200, String(responseData));
		sendJson(rawResponse, 200, result.webhookResponse ?? { message: 'Workflow was started' });
	}

	const server = await startHttpServer(
		async (req, res) => await handle(req as HttpRequestLike, res),
	);
	baseUrl = server.url;
	const probe = loadWorkflow();
	const [webhook] = webhooksOf(probe, additionalDataFor('probe'));

	return {
		productionUrl: `${baseUrl}/webhook/${webhook.path}`,
		baseUrl,
		workflowId: WORKFLOW_ID,
		executions,
		calls,
		storedStaticData: () => JSON.parse(stored) as IDataObject,
		async activate(activation = 'activate') {
			const { methods, context, workflow } = hookContext(activation);
			const exists = (await methods?.checkExists.call(context)) === true;
			let created: boolean | undefined;
			if (!exists) created = await methods?.create.call(context);
			saveStaticData(workflow);
			return { exists, created, webhookUrl: context.getNodeWebhookUrl('default') };
		},
		async deactivate() {
			const { methods, context, workflow } = hookContext('activate');
			const deleted = await methods?.delete.call(context);
			saveStaticData(workflow);
			return deleted;
		},
		async settled() {
			while (pending.size > 0) await Promise.all([...pending]);
		},
		close: server.close,
	};
}

function recorded(entry: {
	status: ExecutionStatus;
	error?: Error;
	runData: IRunData;
}): WebhookExecution {
	return {
		...entry,
		json: (nodeName, output = 0) =>
			(entry.runData[nodeName]?.[0]?.data?.[NodeConnectionTypes.Main]?.[output] ?? []).map(
				(item) => item.json,
			),
	};
}
