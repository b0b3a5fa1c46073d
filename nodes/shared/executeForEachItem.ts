import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { CallKaroClient } from '../../src/client';
import { createNodeClient } from './client';
import { DEFAULT_CONCURRENCY } from './descriptions';
import { runItems } from './runItems';
import type { ItemResult } from './runItems';

interface RunOptions {
	concurrency?: number;
	maxRequestsPerSecond?: number;
}

/** The body of every node's execute(): one client for the run, then one handler call per item. */
export async function executeForEachItem(
	context: IExecuteFunctions,
	outputCount: number,
	handleItem: (client: CallKaroClient, itemIndex: number) => Promise<ItemResult>,
): Promise<INodeExecutionData[][]> {
	// These options pace the whole run, so they are read once, from the first item.
	const { concurrency = DEFAULT_CONCURRENCY, maxRequestsPerSecond = 0 } = context.getNodeParameter(
		'options',
		0,
		{},
	) as RunOptions;
	// A client that cannot be made (e.g. a Base URL that is not https) fails every item, so that
	// Continue On Fail still gives one error item per input item instead of passing them through.
	const client = await createNodeClient(context, maxRequestsPerSecond).catch((error: Error) => error);
	return await runItems(
		context,
		async (itemIndex) => {
			if (client instanceof Error) throw client;
			return await handleItem(client, itemIndex);
		},
		{ outputCount, concurrency },
	);
}
