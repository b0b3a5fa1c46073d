import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError, sleep } from 'n8n-workflow';

import { errorItemJson, toNodeError } from './errors';

export interface ItemResult {
	/** Index of the node output the item goes to. */
	output: number;
	json: IDataObject;
}

/** Reads and checks one item's parameters (synchronously), and returns what sends its request. */
export type ItemPreparer = (itemIndex: number) => () => Promise<ItemResult>;

interface SettledItem {
	output: number;
	item: INodeExecutionData;
}

type Prepared = { send: () => Promise<ItemResult> } | { error: unknown };

/**
 * Prepares and sends every input item, at most `concurrency` requests at a time, and returns exactly one
 * output item per input item, in input order, each paired with its input. A failed item becomes
 * an error item under Continue On Fail (n8n routes it to the error output if there is one); otherwise the
 * first failure stops new items from starting and is thrown once those in flight have settled.
 * As an AI tool only output 0 reaches the agent, so every item goes there.
 */
export async function runItems(
	context: IExecuteFunctions,
	prepare: ItemPreparer,
	{ outputCount, concurrency }: { outputCount: number; concurrency: number },
): Promise<INodeExecutionData[][]> {
	const itemCount = context.getInputData().length;
	const node = context.getNode();
	const continueOnFail = context.continueOnFail();
	const cancelSignal = context.getExecutionCancelSignal();
	const settled: SettledItem[] = new Array<SettledItem>(itemCount);
	const workerCount = Math.max(1, Math.min(concurrency, itemCount));
	const prepared = new Map<number, Prepared>();
	let nextToPrepare = 0;
	let nextItemIndex = 0;
	let firstFailure: Error | undefined;

	/** Prepares items strictly in input order (the duplicate-call guard relies on it). */
	function prepareUpTo(lastIndex: number): void {
		for (; nextToPrepare <= Math.min(lastIndex, itemCount - 1); nextToPrepare++) {
			try {
				prepared.set(nextToPrepare, { send: prepare(nextToPrepare) });
			} catch (error) {
				prepared.set(nextToPrepare, { error });
			}
		}
	}

	async function settle(
		itemIndex: number,
		entry: Prepared,
	): Promise<SettledItem | { failure: Error }> {
		try {
			if ('error' in entry) throw entry.error;
			const { output, json } = await entry.send();
			return { output, item: { json, pairedItem: { item: itemIndex } } };
		} catch (error) {
			const nodeError = toNodeError(node, error, itemIndex);
			if (!continueOnFail) return { failure: nodeError };
			return {
				output: 0,
				item: { json: errorItemJson(nodeError), pairedItem: { item: itemIndex } },
			};
		}
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
			const result = await sending;
			if ('failure' in result) firstFailure ??= result.failure;
			else settled[itemIndex] = result;
		}
	}

	await Promise.all(Array.from({ length: workerCount }, worker));

	if (firstFailure) throw firstFailure;
	if (nextItemIndex < itemCount) {
		throw new NodeOperationError(node, 'The execution was cancelled before every item was sent');
	}

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
