import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { errorItemJson, toNodeError } from './errors';

export interface ItemResult {
	/** Index of the node output the item goes to. */
	output: number;
	json: IDataObject;
}

export type ItemHandler = (itemIndex: number) => Promise<ItemResult>;

interface SettledItem {
	output: number;
	item: INodeExecutionData;
}

/**
 * Runs one handler per input item, at most `concurrency` at a time, and returns exactly one
 * output item per input item, in input order, each paired with its input. A failed item becomes
 * an error item under Continue On Fail (n8n routes it to the error output if there is one); otherwise the
 * first failure stops new items from starting and is thrown once those in flight have settled.
 * As an AI tool only output 0 reaches the agent, so every item goes there.
 */
export async function runItems(
	context: IExecuteFunctions,
	handle: ItemHandler,
	{ outputCount, concurrency }: { outputCount: number; concurrency: number },
): Promise<INodeExecutionData[][]> {
	const itemCount = context.getInputData().length;
	const node = context.getNode();
	const continueOnFail = context.continueOnFail();
	const cancelSignal = context.getExecutionCancelSignal();
	const settled: SettledItem[] = new Array<SettledItem>(itemCount);
	let nextItemIndex = 0;
	let firstFailure: Error | undefined;

	async function settle(itemIndex: number): Promise<SettledItem> {
		try {
			const { output, json } = await handle(itemIndex);
			return { output, item: { json, pairedItem: { item: itemIndex } } };
		} catch (error) {
			const nodeError = toNodeError(node, error, itemIndex);
			if (!continueOnFail) throw nodeError;
			return { output: 0, item: { json: errorItemJson(nodeError), pairedItem: { item: itemIndex } } };
		}
	}

	async function worker(): Promise<void> {
		while (nextItemIndex < itemCount && firstFailure === undefined && !cancelSignal?.aborted) {
			const itemIndex = nextItemIndex++;
			try {
				settled[itemIndex] = await settle(itemIndex);
			} catch (error) {
				firstFailure ??= error as Error;
			}
		}
	}

	const workerCount = Math.max(1, Math.min(concurrency, itemCount));
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
	const outputs: INodeExecutionData[][] = Array.from({ length: asTool ? 1 : outputCount }, () => []);
	for (const { output, item } of settled) outputs[asTool ? 0 : output].push(item);
	return outputs;
}
