import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	NodeExecutionHint,
	NodeOperationError,
} from 'n8n-workflow';
import { NodeOperationError as OperationError } from 'n8n-workflow';

import { certainlyNotPlaced } from '../../src/guard/guard';
import { RequestNotSent, describeRequest } from '../../src/client/preview';
import { itemList, partialRunText, runSummaryText } from '../../src/run/runReport';
import type { RunVocabulary } from '../../src/run/runReport';
import { agentBudgetReservation } from './agentLimits';
import type { AgentBudget } from './agentLimits';
import { bareErrorItemJson, errorItemJson, toNodeError } from './errors';
import type { ItemGuard } from './guard';
import { failedBeforeSending, readyItems } from './runState';
import type {
	ItemOutcome,
	ItemPreparer,
	ItemResult,
	NodeError,
	PreparedItem,
	Reservation,
	RunState,
} from './runState';
import { runsAsTool } from './toolMode';

export interface RunItemsOptions {
	outputCount: number;
	concurrency: number;
	vocabulary: RunVocabulary;
	/** Send nothing: each item's request, as built, is its output. */
	preview: boolean;
	/** The duplicate guard, when it checks and records in this run. */
	guard?: ItemGuard;
	/** The guard is on but this is an editor run, so it neither checks nor records. */
	guardOffInEditorRun?: boolean;
	/** Hints to show with the output besides the run's summary. */
	hints?: NodeExecutionHint[];
	/** What the node, as an AI agent's tool, may still reach in this execution. */
	agentBudget?: AgentBudget;
}

/**
 * Phase 1: reads and checks every item before anything is sent. Without Continue On Fail a bad
 * item stops the run here, so a bad row 300 never follows 299 calls.
 */
export function prepareItems(
	context: Pick<IExecuteFunctions, 'getNode' | 'continueOnFail'>,
	itemCount: number,
	prepare: ItemPreparer,
	preview: boolean,
	asTool = false,
): RunState {
	const state: RunState = {
		node: context.getNode(),
		// A tool's refusal goes back to the agent, which can fix its input: on n8n 1.x a thrown
		// error would stop the whole workflow instead. A wrong setting stops it (failedBeforeSending).
		continueOnFail: context.continueOnFail() || asTool,
		asTool,
		preview,
		prepared: [],
		repeatOf: new Map(),
		claimed: new Set(),
		outcomes: new Map(),
	};
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			state.prepared.push({ item: prepare(itemIndex) });
		} catch (error) {
			state.prepared.push({ error });
			failedBeforeSending(state, itemIndex, error);
		}
	}
	return state;
}

/**
 * Phase 2: marks the repeats within the run, the one mechanism for them: the guard's key when the
 * guard is on (a number once per run, whatever its time), else the item's own repeat key.
 */
export function findRepeats(state: RunState, guard?: Pick<ItemGuard, 'keyOf'>): void {
	const firstWithKey = new Map<string, number>();
	for (const [itemIndex, item] of readyItems(state)) {
		const key = guard ? item.guarded && guard.keyOf(item.guarded.subject) : item.repeat?.key;
		if (key === undefined) continue;
		const first = firstWithKey.get(key);
		if (first === undefined) firstWithKey.set(key, itemIndex);
		else state.repeatOf.set(itemIndex, first);
	}
}

function skippedByGuard(skipped: ItemResult): ItemOutcome {
	return { result: { ...skipped, json: { ...skipped.json, guard: 'skipped' } } };
}

/**
 * Phase 3: the guard records the keys of the whole batch before anything is sent. Items seen in an
 * earlier execution are answered as skipped; repeats within this one, once their first item is
 * (phase 5). A store that fails fails every guarded item: nothing is sent unguarded.
 */
export async function claimKeys(state: RunState, guard: ItemGuard): Promise<void> {
	if (state.stoppedBy) return;
	const guarded = readyItems(state).flatMap(([itemIndex, { guarded: covered }]) =>
		covered ? [{ itemIndex, covered }] : [],
	);
	const keys = new Map<number, string>();
	for (const { itemIndex, covered } of guarded) {
		if (!state.repeatOf.has(itemIndex)) keys.set(itemIndex, guard.keyOf(covered.subject));
	}
	let seenBefore: Set<number>;
	try {
		seenBefore = await guard.claim(keys);
	} catch (error) {
		for (const { itemIndex } of guarded) failedBeforeSending(state, itemIndex, error);
		return;
	}
	for (const { itemIndex, covered } of guarded) {
		if (seenBefore.has(itemIndex)) state.outcomes.set(itemIndex, skippedByGuard(covered.skipped));
		else if (!state.repeatOf.has(itemIndex)) state.claimed.add(itemIndex);
	}
}

/** The output of an item when the run is a preview: the request the item would have sent. */
function previewResult(request: RequestNotSent['request']): ItemResult {
	return {
		output: 0,
		json: { preview: true, request: describeRequest(request) },
		outcome: 'previewed',
		tookEffect: false,
	};
}

function markedAsPreview(state: RunState, result: ItemResult): ItemResult {
	if (!state.preview || result.json.preview === true) return result;
	return { ...result, json: { preview: true, ...result.json } };
}

/** Sends one item's request and says what became of it. */
async function sendItem(
	state: RunState,
	itemIndex: number,
	item: PreparedItem,
	guardOffInEditorRun: boolean,
): Promise<ItemOutcome> {
	let result: ItemResult;
	try {
		result = await item.send();
	} catch (error) {
		if (error instanceof RequestNotSent) return { result: previewResult(error.request) };
		return {
			failed: toNodeError(state.node, error, itemIndex),
			mayHaveTakenEffect: !certainlyNotPlaced(error),
		};
	}
	let guard: string | undefined;
	if (state.claimed.has(itemIndex)) guard = 'recorded';
	else if (guardOffInEditorRun && item.guarded) guard = 'notAppliedInEditorRun';
	const json = guard ? { ...result.json, guard } : result.json;
	return { result: markedAsPreview(state, { ...result, json }) };
}

/**
 * Phase 4: sends the items not yet answered, at most `concurrency` at a time, in input order.
 * Without Continue On Fail the first failure stops new items from starting; those in flight finish.
 */
export async function sendItems(
	state: RunState,
	options: { concurrency: number; cancelSignal?: AbortSignal; guardOffInEditorRun?: boolean },
): Promise<void> {
	if (state.stoppedBy) return;
	const queue = readyItems(state).filter(([itemIndex]) => !state.repeatOf.has(itemIndex));
	let next = 0;
	const worker = async () => {
		while (next < queue.length && !state.stoppedBy && !options.cancelSignal?.aborted) {
			const [itemIndex, item] = queue[next++];
			const outcome = await sendItem(state, itemIndex, item, options.guardOffInEditorRun ?? false);
			state.outcomes.set(itemIndex, outcome);
			if ('failed' in outcome && !state.continueOnFail) state.stoppedBy ??= outcome.failed;
		}
	};
	const workerCount = Math.max(1, Math.min(options.concurrency, queue.length));
	await Promise.all(Array.from({ length: workerCount }, worker));
}

/**
 * Phase 5: each repeat says what became of its first item, which is answered by now: with the
 * guard on as with it off.
 */
export function answerRepeats(state: RunState, guarded: boolean): void {
	for (const [itemIndex, first] of state.repeatOf) {
		const entry = state.prepared[itemIndex];
		const outcome = state.outcomes.get(first);
		if (state.outcomes.has(itemIndex) || !outcome || !('item' in entry)) continue;
		const answer = guarded ? entry.item.guarded?.answerRepeat : entry.item.repeat?.answer;
		if (!answer) continue;
		const result = answer({ itemIndex: first, outcome });
		state.outcomes.set(itemIndex, { result: markedAsPreview(state, result) });
	}
}

/**
 * Phase 6: gives back the keys of items that certainly reached no one: refused, failed before
 * sending, or never sent because the run stopped. A lost answer or a 5xx keeps its key.
 */
export async function releaseKeys(state: RunState, guard: ItemGuard): Promise<void> {
	const notReached = [...state.claimed].filter((itemIndex) => {
		const outcome = state.outcomes.get(itemIndex);
		return !outcome || ('failed' in outcome && !outcome.mayHaveTakenEffect);
	});
	await guard.release(notReached.sort((a, b) => a - b));
}

/** The guard's keys as one of the run's reservations: claimed in phase 3, released in phase 6. */
export function keysReservation(guard: ItemGuard): Reservation {
	return {
		claim: async (state) => await claimKeys(state, guard),
		release: async (state) => await releaseKeys(state, guard),
	};
}

/** n8n marks an execution 'canceled' (not 'error') when the error's message has that word. */
function cancelled(node: INode): NodeOperationError {
	return new OperationError(node, 'The execution was canceled before every item was sent');
}

function itemsWhere(state: RunState, test: (outcome: ItemOutcome) => boolean): number[] {
	return [...state.outcomes]
		.filter(([, outcome]) => test(outcome))
		.map(([itemIndex]) => itemIndex)
		.sort((a, b) => a - b);
}

/** How far a stopped run of several items got, before the item's own description. */
function runSoFar(
	state: RunState,
	stopped: NodeError,
	options: { vocabulary: RunVocabulary; guarded: boolean },
): string {
	const itemCount = state.prepared.length;
	const unreadable = state.prepared.flatMap((entry, itemIndex) =>
		'error' in entry ? [itemIndex] : [],
	);
	if (stopped === state.stoppedBy && !state.continueOnFail && unreadable.length > 0) {
		return `Every item is checked before the first request: ${itemList(unreadable)} did not pass, so none of the ${itemCount} items was sent.`;
	}
	const vocabulary = options.guarded
		? {
				...options.vocabulary,
				rerun: options.vocabulary.rerunWhenGuarded ?? options.vocabulary.rerun,
			}
		: options.vocabulary;
	return partialRunText(vocabulary, itemCount, {
		tookEffect: itemsWhere(state, (outcome) => 'result' in outcome && outcome.result.tookEffect),
		mayHaveTakenEffect: itemsWhere(
			state,
			(outcome) => 'failed' in outcome && outcome.mayHaveTakenEffect,
		),
	});
}

/**
 * Phase 7, the report of a run that did not answer every item: the error to throw, saying how far
 * a run of several items got, and what the guard's store failed to do (hints are not shown with an
 * error). Undefined when every item was answered.
 */
export function stopError(
	state: RunState,
	options: { vocabulary: RunVocabulary; guarded: boolean; cancelSignal?: AbortSignal },
	warnings: string[],
): NodeError | undefined {
	const unanswered = state.outcomes.size < state.prepared.length;
	// A cancel aborts the requests in flight too: it, not their errors, is what stopped the run.
	const stopped =
		options.cancelSignal?.aborted && unanswered ? cancelled(state.node) : state.stoppedBy;
	if (!stopped) return undefined;
	const runText = state.prepared.length > 1 ? runSoFar(state, stopped, options) : '';
	stopped.description = [runText, stopped.description, ...warnings].filter(Boolean).join(' ');
	return stopped;
}

/** Phase 7, the report of a run that answered every item: its summary, when it has several. */
export function summaryHint(state: RunState): NodeExecutionHint[] {
	const itemCount = state.prepared.length;
	if (itemCount < 2) return [];
	const tally = new Map<string, number>();
	let failed = 0;
	let scheduleInPast = 0;
	for (const itemIndex of [...state.outcomes.keys()].sort((a, b) => a - b)) {
		const outcome = state.outcomes.get(itemIndex)!;
		if ('failed' in outcome) {
			failed++;
			continue;
		}
		tally.set(outcome.result.outcome, (tally.get(outcome.result.outcome) ?? 0) + 1);
		if (outcome.result.json.scheduleInPast === true) scheduleInPast++;
	}
	const notes = [
		scheduleInPast > 0 ? `${scheduleInPast} scheduled in the past` : '',
		state.preview ? 'nothing was sent (Preview Only)' : '',
	];
	return [
		{
			type: 'info',
			location: 'outputPane',
			message: runSummaryText(itemCount, [...tally, ['failed', failed]], notes),
		},
	];
}

/** How the failed items' json is shaped: `errorItemJson`, or `bareErrorItemJson` for n8n 1.x. */
type ErrorItemJson = (error: NodeError) => IDataObject;

/**
 * Phase 8: one output item per input item, in input order, each paired with its input. A failed
 * item is an error item (n8n routes it to the error output if there is one). As an AI tool only
 * output 0 reaches the agent, so every item goes there.
 */
export function routeOutputs(
	state: RunState,
	outputCount: number,
	{ asTool, errorJson }: { asTool: boolean; errorJson: ErrorItemJson },
): INodeExecutionData[][] {
	const outputs: INodeExecutionData[][] = Array.from(
		{ length: asTool ? 1 : outputCount },
		() => [],
	);
	state.prepared.forEach((_, itemIndex) => {
		const outcome = state.outcomes.get(itemIndex)!;
		const pairedItem = { item: itemIndex };
		if ('failed' in outcome) {
			outputs[0].push({ json: errorJson(outcome.failed), pairedItem });
		} else {
			outputs[asTool ? 0 : outcome.result.output].push({ json: outcome.result.json, pairedItem });
		}
	});
	return outputs;
}

/**
 * Whether n8n moves only `{ error }` or `{ error, message }` items to this node's error output, as
 * n8n 1.x does (an item with `details` would stay on the first output, e.g. Started). n8n 1.x is
 * told by isToolExecution(), which only 2.x has.
 */
function takesOnlyBareErrorItems(context: IExecuteFunctions): boolean {
	return (
		context.getNode().onError === 'continueErrorOutput' &&
		typeof context.isToolExecution !== 'function'
	);
}

function addHints(context: IExecuteFunctions, hints: NodeExecutionHint[]): void {
	if (hints.length > 0) context.addExecutionHints(...hints);
}

/**
 * Runs every input item through the phases: prepare every item, find repeats, claim the
 * reservations (the guard's keys, an AI tool's budget), send, answer repeats, release the
 * reservations, report, route to outputs. Without Continue On Fail the
 * first failure is thrown once the requests in flight have finished, saying which items took
 * effect.
 */
export async function runItems(
	context: IExecuteFunctions,
	prepare: ItemPreparer,
	options: RunItemsOptions,
): Promise<INodeExecutionData[][]> {
	const { guard } = options;
	const cancelSignal = context.getExecutionCancelSignal();
	const asTool = runsAsTool(context);
	const state = prepareItems(
		context,
		context.getInputData().length,
		prepare,
		options.preview,
		asTool,
	);
	findRepeats(state, guard);
	const reservations: Reservation[] = [
		...(guard ? [keysReservation(guard)] : []),
		...(options.agentBudget ? [agentBudgetReservation(options.agentBudget)] : []),
	];
	for (const reservation of reservations) await reservation.claim(state);
	await sendItems(state, {
		concurrency: options.concurrency,
		cancelSignal,
		guardOffInEditorRun: options.guardOffInEditorRun,
	});
	answerRepeats(state, guard !== undefined);
	for (const reservation of [...reservations].reverse()) await reservation.release(state);
	const stopped = stopError(
		state,
		{ vocabulary: options.vocabulary, guarded: guard !== undefined, cancelSignal },
		guard?.storeFailures() ?? [],
	);
	if (stopped) throw stopped;
	const guardHints = (await guard?.hints()) ?? [];
	addHints(context, [...summaryHint(state), ...(options.hints ?? []), ...guardHints]);
	return routeOutputs(state, options.outputCount, {
		asTool,
		errorJson: takesOnlyBareErrorItems(context) ? bareErrorItemJson : errorItemJson,
	});
}
