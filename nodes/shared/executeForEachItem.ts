import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { CallKaroClient } from '../../src/client';
import { createNodeClient } from './client';
import { DEFAULT_CONCURRENCY } from './descriptions';
import { runItems } from './runItems';
import type { ItemPreparer } from './runItems';

interface RunOptions {
	concurrency?: number;
	maxRequestsPerSecond?: number;
}

/** The body of every node's execute(): one client for the run, then each item prepared and sent. */
export async function executeForEachItem(
	context: IExecuteFunctions,
	outputCount: number,
	prepareItem: (client: CallKaroClient, itemIndex: number) => ReturnType<ItemPreparer>,
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
	return await runItems(
		context,
		(itemIndex) => {
			if (client instanceof Error) throw client;
			return prepareItem(client, itemIndex);
		},
		{ outputCount, concurrency },
	);
}
