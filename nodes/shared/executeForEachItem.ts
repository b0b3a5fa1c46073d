import type { IExecuteFunctions, INodeExecutionData, NodeConnectionType } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { createCallKaroClient } from '../../src/client';
import type { CallKaroClient } from '../../src/client';
import { createPacedTransport } from '../../src/pacing';
import { DEFAULT_CONCURRENCY } from './descriptions';
import { runItems } from './runItems';
import type { ItemResult } from './runItems';
import { createCallKaroTransport } from './transport';

/** What one run of a node remembers across its items. */
export interface RunMemory {
	/** The first item of this run with each key, e.g. each call (agent, number and time). */
	firstItemWithKey: Map<string, number>;
}

/** What each `<op>.operation.ts` exports: its outputs and how it reads and sends one item. */
export interface ActionOperation {
	outputs: { outputs: NodeConnectionType[]; outputNames?: string[] };
	/** Reads and checks one item now (a bad item throws before anything is sent); the returned function sends it. */
	prepare(
		context: IExecuteFunctions,
		client: CallKaroClient,
		itemIndex: number,
		run: RunMemory,
	): () => Promise<ItemResult>;
}

interface RunOptions {
	concurrency?: number;
	maxRequestsPerSecond?: number;
}

/**
 * One client per execution: credentials are read once, all concurrent requests share one pace
 * (rate limit and 429 pauses), and every wait ends when the execution is cancelled.
 */
async function createNodeClient(
	context: IExecuteFunctions,
	maxRequestsPerSecond: number,
): Promise<CallKaroClient> {
	const cancelSignal = context.getExecutionCancelSignal();
	const cancellableSleep = async (ms: number) => await sleep(ms, cancelSignal);
	const transport = createPacedTransport(await createCallKaroTransport(context), {
		maxRequestsPerSecond,
		sleep: cancellableSleep,
	});
	return createCallKaroClient({ transport, sleep: cancellableSleep });
}

/** The body of every action node's execute(): one client for the run, then each item prepared and sent. */
export async function executeForEachItem(
	context: IExecuteFunctions,
	operation: ActionOperation,
): Promise<INodeExecutionData[][]> {
	// These options pace the whole run, so they are read once, from the first item.
	const { concurrency = DEFAULT_CONCURRENCY, maxRequestsPerSecond = 0 } = context.getNodeParameter(
		'options',
		0,
		{},
	) as RunOptions;
	// A client that cannot be made (e.g. a Base URL that is not https) fails every item, so that
	// Continue On Fail still gives one error item per input item instead of passing them through.
	const client = await createNodeClient(context, maxRequestsPerSecond).catch(
		(error: Error) => error,
	);
	const run: RunMemory = { firstItemWithKey: new Map() };
	return await runItems(
		context,
		(itemIndex) => {
			if (client instanceof Error) throw client;
			return operation.prepare(context, client, itemIndex, run);
		},
		{ outputCount: operation.outputs.outputs.length, concurrency },
	);
}
