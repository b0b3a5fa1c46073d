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

/** Errors thrown while a setting of the node was read: the builder's to fix, not the agent's. */
const settingErrors = new WeakSet<object>();

/** Marks an error as a wrong setting of the node, and gives it back. */
export function asSettingError<E>(error: E): E {
	if (typeof error === 'object' && error !== null) settingErrors.add(error);
	return error;
}

/**
 * Reads settings of the node (what the builder typed, which an AI agent cannot change): whatever
 * fails here is a wrong setting, which stops a tool's run instead of going back to the model.
 */
export function readingSettings<T>(read: () => T): T {
	try {
		return read();
	} catch (error) {
		throw asSettingError(error);
	}
}

export function isSettingError(error: unknown): boolean {
	return typeof error === 'object' && error !== null && settingErrors.has(error);
}
