// What the contract's behaviours share: fresh keys with what CallKaro must hold for them, what the
// sandbox received, and the items a run gave.
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { RunResult } from '../../../engine/harness';
import { NODE_NAME, apiRequests } from '../../fixtures';
import type { Sandbox } from '../../fixtures';
import type { ActionNodeRow } from '../contract';

/** `count` fresh keys, with what CallKaro must hold for them. */
export async function arranged(
	row: ActionNodeRow,
	sandbox: Sandbox,
	count: number,
): Promise<string[]> {
	const keys = row.freshKeys(count);
	await row.arrange?.(sandbox, keys);
	return keys;
}

export function sentKeys(row: ActionNodeRow, sandbox: Sandbox): unknown[] {
	return apiRequests(sandbox, row.path).map(
		(request) => (request.body as IDataObject)[row.requestKey],
	);
}

export function sorted<T>(values: T[]): T[] {
	return [...values].sort();
}

export function withOptions(
	parameters: INodeParameters,
	options: INodeParameters,
): INodeParameters {
	return { ...parameters, options: { ...(parameters.options as INodeParameters), ...options } };
}

/** The items of every main output, in input order. */
export function inInputOrder(row: ActionNodeRow, result: RunResult): INodeExecutionData[] {
	const itemIndex = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;
	return result
		.outputOf(NODE_NAME)
		.slice(0, row.mainOutputs)
		.flat()
		.sort((a, b) => itemIndex(a) - itemIndex(b));
}

/** The items on every main output but the first, which no contract case fills. */
export function otherMainOutputs(row: ActionNodeRow, result: RunResult) {
	return result.outputOf(NODE_NAME).slice(1, row.mainOutputs);
}
