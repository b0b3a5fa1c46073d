import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/**
 * Whether the node runs as an AI agent's tool. Older agents run tools in a supply-data context;
 * AI Agent v3 rewires an ordinary node's output. n8n 1.x has no isToolExecution().
 */
export function runsAsTool(context: IExecuteFunctions): boolean {
	return (
		(typeof context.isToolExecution === 'function' && context.isToolExecution()) ||
		context.getNode().rewireOutputLogTo === NodeConnectionTypes.AiTool
	);
}
