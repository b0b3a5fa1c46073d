import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
	NodeExecutionHint,
	NodeOperationError,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError as OperationError, sleep } from 'n8n-workflow';

import { certainlyNotPlaced } from '../../src/guard';
import type { GuardSubject } from '../../src/guard';
import { RequestNotSent, describeRequest } from '../../src/preview';
import { partialRunText, runSummaryText } from '../../src/runReport';
import type { RunVocabulary } from '../../src/runReport';
import { errorItemJson, toNodeError } from './errors';
import type { ItemGuard } from './guard';

export interface ItemResult {
	/** Index of the node output the item goes to. */
	output: number;
	json: IDataObject;
	/** How the run's summary counts the item, e.g. 'placed', 'already running'. */
	outcome: string;
	/** The request took effect: a call placed, a run started, a scheduled call deleted. */
	tookEffect: boolean;
}

/** One item read and checked, not yet sent. */
export interface PreparedItem {
	send: () => Promise<ItemResult>;
	/** Whom the request reaches, when the duplicate guard covers it, and the item's output if it is skipped. */
	guarded?: { subject: GuardSubject; skipped: ItemResult };
}

/** Reads and checks one item's parameters (synchronously), and returns what sends its request. */
export type ItemPreparer = (itemIndex: number) => PreparedItem;

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
}

interface SettledItem {
	output: number;
	item: INodeExecutionData;
}

type Prepared = { item: PreparedItem } | { error: unknown };

type Settled =
	| { result: ItemResult }
	| { failed: NodeApiError | NodeOperationError; mayHaveTakenEffect: boolean };

/** The output of an item when the run is a preview: the request the item would have sent. */
function previewResult(request: RequestNotSent['request']): ItemResult {
	return {
		output: 0,
		json: { preview: true, request: describeRequest(request) },
		outcome: 'previewed',
		tookEffect: false,
	};
}

async function sendOne(
	entry: Prepared,
): Promise<{ result: ItemResult } | { error: unknown; sent: boolean }> {
	if ('error' in entry) return { error: entry.error, sent: false };
	try {
		return { result: await entry.item.send() };
	} catch (error) {
		if (error instanceof RequestNotSent) return { result: previewResult(error.request) };
		return { error, sent: true };
	}
}

/**
 * Prepares and sends every input item, at most `concurrency` requests at a time, and returns exactly one
 * output item per input item, in input order, each paired with its input. A failed item becomes
 * an error item under Continue On Fail (n8n routes it to the error output if there is one); otherwise the
 * first failure stops new items from starting, and is thrown once those in flight have settled, saying
 * which items took effect. As an AI tool only output 0 reaches the agent, so every item goes there.
 *
 * With a guard, every item is prepared first, and the keys of the whole batch are claimed before
 * anything is sent. A key is given back when its request certainly did not take effect, or was
 * never sent because the run stopped.
 */
export async function runItems(
	context: IExecuteFunctions,
	prepare: ItemPreparer,
	options: RunItemsOptions,
): Promise<INodeExecutionData[][]> {
	const { outputCount, concurrency, vocabulary, preview, guard } = options;
	const itemCount = context.getInputData().length;
	const node = context.getNode();
	const continueOnFail = context.continueOnFail();
	const cancelSignal = context.getExecutionCancelSignal();
	const settled: SettledItem[] = new Array<SettledItem>(itemCount);
	const outcomes = new Map<number, Settled>();
	const workerCount = Math.max(1, Math.min(concurrency, itemCount));
	const prepared = new Map<number, Prepared>();
	const toRelease: number[] = [];
	let claimed = new Set<number>();
	let nextToPrepare = 0;
	let nextItemIndex = 0;
	let firstFailure: NodeApiError | NodeOperationError | undefined;

	/** Prepares items strictly in input order (the duplicate-call checks rely on it). */
	function prepareUpTo(lastIndex: number): void {
		for (; nextToPrepare <= Math.min(lastIndex, itemCount - 1); nextToPrepare++) {
			try {
				prepared.set(nextToPrepare, { item: prepare(nextToPrepare) });
			} catch (error) {
				prepared.set(nextToPrepare, { error });
			}
		}
	}

	/** Claims the batch's keys; skipped items are answered without a request. */
	async function claimBatch(itemGuard: ItemGuard): Promise<void> {
		prepareUpTo(itemCount - 1);
		const subjects = new Map<number, GuardSubject>();
		for (const [itemIndex, entry] of prepared) {
			if ('item' in entry && entry.item.guarded)
				subjects.set(itemIndex, entry.item.guarded.subject);
		}
		let skipped: Set<number>;
		try {
			skipped = await itemGuard.claim(subjects);
		} catch (error) {
			for (const itemIndex of subjects.keys()) prepared.set(itemIndex, { error });
			return;
		}
		for (const itemIndex of subjects.keys()) {
			const entry = prepared.get(itemIndex) as { item: PreparedItem };
			const { guarded, send } = entry.item;
			if (skipped.has(itemIndex)) {
				const result = guarded!.skipped;
				const json = { ...result.json, guard: 'skipped' };
				prepared.set(itemIndex, { item: { send: async () => ({ ...result, json }) } });
			} else {
				prepared.set(itemIndex, {
					item: {
						send: async () => {
							const result = await send();
							return { ...result, json: { ...result.json, guard: 'recorded' } };
						},
					},
				});
			}
		}
		claimed = new Set([...subjects.keys()].filter((itemIndex) => !skipped.has(itemIndex)));
	}

	function markedResult(entry: Prepared, result: ItemResult): ItemResult {
		let { json } = result;
		if (options.guardOffInEditorRun && 'item' in entry && entry.item.guarded) {
			json = { ...json, guard: 'notAppliedInEditorRun' };
		}
		if (preview && json.preview !== true) json = { preview: true, ...json };
		return { ...result, json };
	}

	async function settle(itemIndex: number, entry: Prepared): Promise<Settled> {
		const sent = await sendOne(entry);
		if ('result' in sent) return { result: markedResult(entry, sent.result) };
		const { error } = sent;
		if (claimed.has(itemIndex) && (!sent.sent || certainlyNotPlaced(error))) {
			toRelease.push(itemIndex);
		}
		return {
			failed: toNodeError(node, error, itemIndex),
			mayHaveTakenEffect: sent.sent && !certainlyNotPlaced(error),
		};
	}

	async function worker(): Promise<void> {
		while (nextItemIndex < itemCount && firstFailure === undefined && !cancelSignal?.aborted) {
			const itemIndex = nextItemIndex++;
			prepareUpTo(itemIndex);
			const entry = prepared.get(itemIndex) as Prepared;
			prepared.delete(itemIndex);
			const sending = settle(itemIndex, entry);
			// Reading an item's parameters costs about a millisecond of n8n's main thread. Done
			// while this request is in flight, it does not sit between an answer and the next
			// request, which would otherwise make the workers go round in lock-step.
			await sleep(0);
			prepareUpTo(nextItemIndex + workerCount - 1);
			const outcome = await sending;
			outcomes.set(itemIndex, outcome);
			if ('result' in outcome) {
				const { output, json } = outcome.result;
				settled[itemIndex] = { output, item: { json, pairedItem: { item: itemIndex } } };
			} else if (continueOnFail) {
				settled[itemIndex] = {
					output: 0,
					item: { json: errorItemJson(outcome.failed), pairedItem: { item: itemIndex } },
				};
			} else firstFailure ??= outcome.failed;
		}
	}

	if (guard) await claimBatch(guard);
	await Promise.all(Array.from({ length: workerCount }, worker));

	// Keys of items never sent (the run stopped) go back too: those people were not reached.
	for (const itemIndex of claimed) if (!outcomes.has(itemIndex)) toRelease.push(itemIndex);
	if (guard) await guard.release(toRelease);

	// A cancel aborts the requests in flight too: it, not their errors, is what stopped the run.
	const stopped =
		cancelSignal?.aborted && nextItemIndex < itemCount ? cancelled(context) : firstFailure;
	// One item's error says it all; a bulk run's also says how far the run got.
	if (stopped && itemCount === 1) throw stopped;
	if (stopped) {
		const sorted = [...outcomes.entries()].sort(([a], [b]) => a - b);
		const partial = partialRunText(guard ? guardedVocabulary(vocabulary) : vocabulary, itemCount, {
			tookEffect: sorted.flatMap(([i, o]) => ('result' in o && o.result.tookEffect ? [i] : [])),
			mayHaveTakenEffect: sorted.flatMap(([i, o]) =>
				'failed' in o && o.mayHaveTakenEffect ? [i] : [],
			),
		});
		stopped.description = [partial, stopped.description].filter(Boolean).join(' ');
		throw stopped;
	}

	addHints(context, [
		...(itemCount > 1 ? [summaryHint(itemCount, outcomes, preview)] : []),
		...(options.hints ?? []),
		...((await guard?.hints()) ?? []),
	]);

	// Older agents run tools in a supply-data context; AI Agent v3 runs the tool node as an
	// ordinary node whose output is rewired to the agent. n8n 1.x has no isToolExecution().
	const asTool =
		(typeof context.isToolExecution === 'function' && context.isToolExecution()) ||
		node.rewireOutputLogTo === NodeConnectionTypes.AiTool;
	const outputs: INodeExecutionData[][] = Array.from(
		{ length: asTool ? 1 : outputCount },
		() => [],
	);
	for (const { output, item } of settled) outputs[asTool ? 0 : output].push(item);
	return outputs;
}

/** n8n marks an execution 'canceled' (not 'error') when the error's message has that word. */
function cancelled(context: IExecuteFunctions): NodeOperationError {
	return new OperationError(
		context.getNode(),
		'The execution was canceled before every item was sent',
	);
}

function guardedVocabulary(vocabulary: RunVocabulary): RunVocabulary {
	return { ...vocabulary, rerun: vocabulary.rerunWhenGuarded ?? vocabulary.rerun };
}

function summaryHint(
	itemCount: number,
	outcomes: Map<number, Settled>,
	preview: boolean,
): NodeExecutionHint {
	const tally = new Map<string, number>();
	let failed = 0;
	let scheduleInPast = 0;
	for (const itemIndex of [...outcomes.keys()].sort((a, b) => a - b)) {
		const outcome = outcomes.get(itemIndex)!;
		if ('failed' in outcome) {
			failed++;
			continue;
		}
		tally.set(outcome.result.outcome, (tally.get(outcome.result.outcome) ?? 0) + 1);
		if (outcome.result.json.scheduleInPast === true) scheduleInPast++;
	}
	const notes = [
		scheduleInPast > 0 ? `${scheduleInPast} scheduled in the past` : '',
		preview ? 'nothing was sent (Preview Only)' : '',
	];
	return {
		type: 'info',
		location: 'outputPane',
		message: runSummaryText(itemCount, [...tally, ['failed', failed]], notes),
	};
}

/** n8n 1.79 and later show hints under the output; older ones have no addExecutionHints. */
function addHints(context: IExecuteFunctions, hints: NodeExecutionHint[]): void {
	if (hints.length > 0 && typeof context.addExecutionHints === 'function') {
		context.addExecutionHints(...hints);
	}
}
