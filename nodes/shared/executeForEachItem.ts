import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeConnectionType,
	NodeExecutionHint,
} from 'n8n-workflow';

import { createCallKaroClient } from '../../src/client/client';
import type { CallKaroClient } from '../../src/client/client';
import { DEFAULT_CLOCK } from '../../src/schedule/clock';
import { createPacedTransport } from '../../src/client/pacing';
import { previewTransport } from '../../src/client/preview';
import type { RunVocabulary } from '../../src/run/runReport';
import { checkRunOptions } from '../../src/run/runOptions';
import {
	agentBudgetOf,
	agentLimitHints,
	allowedNumbersProperty,
	checkToolSettings,
} from './agentLimits';
import type { AgentBudget } from './agentLimits';
import type { DuplicateGuardWording } from './descriptions';
import { createItemGuard, guardApplies, readGuardSettings } from './guard';
import type { ItemGuard } from './guard';
import { runItems } from './runItems';
import type { PreparedItem } from './runState';
import { asSettingError, readingSettings, runsAsTool } from './toolMode';
import { createCallKaroTransport } from './transport';

/** What each `<op>.operation.ts` exports: its outputs, its words, and how it reads and sends one item. */
export interface ActionOperation {
	/** The node's fields. */
	description: INodeProperties[];
	outputs: { outputs: NodeConnectionType[]; outputNames?: string[] };
	/** How the node's errors and run summary name what it does. */
	vocabulary: RunVocabulary;
	/** The node offers the duplicate guard, worded so. */
	guard?: DuplicateGuardWording;
	/** Shown when n8n's Retry On Fail is on and running the node again would repeat what took effect. */
	retryOnFailWarning?: string;
	/** Reads and checks one item now (a bad item throws before anything is sent); the result sends it. */
	prepare(context: IExecuteFunctions, client: CallKaroClient, itemIndex: number): PreparedItem;
}

/** The node's Options collection as n8n gives it, before checkRunOptions. */
interface OptionsParameter {
	concurrency?: unknown;
	maxRequestsPerSecond?: unknown;
	previewOnly?: boolean;
}

interface RunSetup {
	client: CallKaroClient;
	/** Requests in flight at once, checked (see checkRunOptions). */
	concurrency: number;
	guard?: ItemGuard;
	/** The guard is on, but this editor run neither checks nor records. */
	guardOffInEditorRun: boolean;
	/** What the node, as an AI agent's tool, may still reach in this execution. */
	agentBudget?: AgentBudget;
}

/**
 * One client per execution: credentials are read once, all concurrent requests share one pace
 * (rate limit and 429 pauses), and every wait ends when the execution is cancelled. A preview's
 * client builds every request the same way and sends none.
 */
async function createNodeClient(
	context: IExecuteFunctions,
	{
		maxRequestsPerSecond,
		previewOnly = false,
	}: { maxRequestsPerSecond: number; previewOnly?: boolean },
): Promise<CallKaroClient> {
	const cancelSignal = context.getExecutionCancelSignal();
	const { sleep, now } = DEFAULT_CLOCK;
	const cancellableSleep = async (ms: number) => await sleep(ms, cancelSignal);
	const transport = previewOnly
		? previewTransport
		: createPacedTransport(await createCallKaroTransport(context), {
				maxRequestsPerSecond,
				sleep: cancellableSleep,
				now,
			});
	return createCallKaroClient({
		transport,
		sleep: cancellableSleep,
		now: () => new Date(now()),
	});
}

async function setUpRun(
	context: IExecuteFunctions,
	operation: ActionOperation,
	options: OptionsParameter,
): Promise<RunSetup> {
	// The editor bounds these, but not an expression such as {{ 500 }}: out of range fails every item.
	const { concurrency, maxRequestsPerSecond } = checkRunOptions(options);
	const agentBudget = agentBudgetOf(context, operation.guard, runsAsTool(context));
	const client = await createNodeClient(context, { ...options, maxRequestsPerSecond });
	const run = { client, concurrency, agentBudget };
	// A preview records nothing, so the guard has nothing to do in it.
	const settings = operation.guard && !options.previewOnly && readGuardSettings(context);
	if (!operation.guard || !settings) return { ...run, guardOffInEditorRun: false };
	if (!guardApplies(context, settings)) return { ...run, guardOffInEditorRun: true };
	return {
		...run,
		guard: createItemGuard(context, settings, operation.guard),
		guardOffInEditorRun: false,
	};
}

function runHints(
	context: IExecuteFunctions,
	operation: ActionOperation,
	setup: RunSetup,
): NodeExecutionHint[] {
	const hints: NodeExecutionHint[] = [];
	if (operation.retryOnFailWarning && context.getNode().retryOnFail) {
		hints.push({ type: 'warning', location: 'outputPane', message: operation.retryOnFailWarning });
	}
	if (operation.description.includes(allowedNumbersProperty)) {
		hints.push(...agentLimitHints(context, runsAsTool(context)));
	}
	if (setup.guardOffInEditorRun && operation.guard) {
		hints.push({
			type: 'info',
			location: 'outputPane',
			message: `"${operation.guard.displayName}" neither checked nor recorded these numbers: this is a manual run from the editor. Turn on "Apply in Editor Runs" to use it here too.`,
		});
	}
	return hints;
}

/** The body of every action node's execute(): one client for the run, then each item prepared and sent. */
export async function executeForEachItem(
	context: IExecuteFunctions,
	operation: ActionOperation,
): Promise<INodeExecutionData[][]> {
	// These options shape the whole run, so they are read once, from the first item.
	const options = context.getNodeParameter('options', 0, {}) as OptionsParameter;
	// A client or a guard that cannot be made (e.g. a Base URL that is not https, or no store for
	// the guard) fails every item, so that Continue On Fail still gives one error item per input
	// item instead of passing them through, and nothing is sent without the guard asked for. It
	// is a wrong setting: a tool's model never gets it as its own mistake.
	const setup = await setUpRun(context, operation, options).catch((error: Error) =>
		asSettingError(error),
	);
	const asTool = runsAsTool(context);
	return await runItems(
		context,
		(itemIndex) => {
			if (setup instanceof Error) throw setup;
			if (asTool) readingSettings(() => checkToolSettings(context, itemIndex));
			return operation.prepare(context, setup.client, itemIndex);
		},
		{
			outputCount: operation.outputs.outputs.length,
			concurrency: setup instanceof Error ? 1 : setup.concurrency,
			vocabulary: operation.vocabulary,
			preview: options.previewOnly ?? false,
			guard: setup instanceof Error ? undefined : setup.guard,
			guardOffInEditorRun: !(setup instanceof Error) && setup.guardOffInEditorRun,
			hints: setup instanceof Error ? [] : runHints(context, operation, setup),
			agentBudget: setup instanceof Error ? undefined : setup.agentBudget,
		},
	);
}
