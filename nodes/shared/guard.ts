import type { ICheckProcessedOptions, IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	DEFAULT_HISTORY_SIZE,
	HISTORY_NEARLY_FULL,
	createSerializer,
	dayWindow,
	guardKey,
} from '../../src/guard';
import type { GuardSubject, GuardWindow } from '../../src/guard';
import { count } from '../../src/runReport';
import type { DuplicateGuardWording } from './descriptions';

export interface GuardSettings {
	window: GuardWindow;
	historySize: number;
	historyName: string;
	inEditorRuns: boolean;
}

/** Claims keys before sending and gives back those whose request certainly did not take effect. */
export interface ItemGuard {
	/** Records the subjects' keys; returns the items to skip (seen before, or earlier in this run). */
	claim(subjects: Map<number, GuardSubject>): Promise<Set<number>>;
	release(itemIndices: number[]): Promise<void>;
	/** A warning when the history is nearly full, so that old numbers are about to be forgotten. */
	hints(): Promise<NodeExecutionHint[]>;
}

/**
 * One lock per n8n process: every node run of every workflow queues its store calls here, so the
 * store's read-then-write never interleaves within this process (regular mode is exact).
 */
const serialize = createSerializer();

const SCOPE = 'node';

/** The guard's settings from the node's parameters (read once, from the first item), or undefined when off. */
export function readGuardSettings(context: IExecuteFunctions): GuardSettings | undefined {
	if (!context.getNodeParameter('skipBefore', 0, false)) return undefined;
	const windowKind = context.getNodeParameter('guardWindow', 0, 'ever') as 'ever' | 'day';
	const zone =
		(context.getNodeParameter('guardTimeZone', 0, '') as string).trim() || context.getTimezone();
	return {
		window: windowKind === 'day' ? dayWindow(zone, 'Day Time Zone') : { kind: 'ever' },
		historySize: Math.max(
			1,
			Math.floor(context.getNodeParameter('guardHistorySize', 0, DEFAULT_HISTORY_SIZE) as number),
		),
		historyName: context.getNodeParameter('guardHistoryName', 0, '') as string,
		inEditorRuns: context.getNodeParameter('guardInEditorRuns', 0, false) as boolean,
	};
}

/** Whether the guard checks and records in this execution: editor runs only when asked to. */
export function guardApplies(context: IExecuteFunctions, settings: GuardSettings): boolean {
	return settings.inEditorRuns || context.getMode() !== 'manual';
}

/** The guard over n8n's processed-data store, or a clear error when this n8n has none. */
export function createItemGuard(
	context: IExecuteFunctions,
	settings: GuardSettings,
	naming: Pick<DuplicateGuardWording, 'displayName'>,
): ItemGuard {
	const { helpers } = context;
	const node = context.getNode();
	const storeError = (reason: string) =>
		new NodeOperationError(
			node,
			`"${naming.displayName}" cannot work: ${reason}. Nothing was sent`,
			{
				description: `The option needs n8n's store of processed items (n8n 1.64 or later). Update n8n, or turn "${naming.displayName}" off to send without it.`,
			},
		);
	if (
		typeof helpers.checkProcessedAndRecord !== 'function' ||
		typeof helpers.removeProcessed !== 'function'
	) {
		throw storeError('this n8n has no store of processed items');
	}
	const options: ICheckProcessedOptions = { mode: 'entries', maxEntries: settings.historySize };
	const keys = new Map<number, string>();
	const inStore = async <T>(task: () => Promise<T>): Promise<T> =>
		await serialize(task).catch((error: Error) => {
			throw storeError(`n8n's store of processed items failed (${error.message})`);
		});

	return {
		async claim(subjects) {
			const now = new Date();
			const firstItemOfKey = new Map<string, number>();
			const skipped = new Set<number>();
			for (const [itemIndex, subject] of subjects) {
				const key = guardKey(subject, settings.window, settings.historyName, now);
				if (firstItemOfKey.has(key)) skipped.add(itemIndex);
				else firstItemOfKey.set(key, itemIndex);
			}
			if (firstItemOfKey.size === 0) return skipped;
			const checked = await inStore(
				async () =>
					await helpers.checkProcessedAndRecord([...firstItemOfKey.keys()], SCOPE, options),
			);
			const seenBefore = new Set(checked.processed.map(String));
			for (const [key, itemIndex] of firstItemOfKey) {
				if (seenBefore.has(key)) skipped.add(itemIndex);
				else keys.set(itemIndex, key);
			}
			return skipped;
		},

		async release(itemIndices) {
			const released = itemIndices.flatMap((itemIndex) => keys.get(itemIndex) ?? []);
			if (released.length === 0) return;
			await inStore(async () => await helpers.removeProcessed(released, SCOPE, options));
		},

		async hints() {
			if (typeof helpers.getProcessedDataCount !== 'function') return [];
			const held = await helpers.getProcessedDataCount(SCOPE, options);
			if (held < settings.historySize * HISTORY_NEARLY_FULL) return [];
			return [
				{
					type: 'warning',
					message: `"${naming.displayName}" remembers the last ${count(settings.historySize)} numbers and now holds ${count(held)}. Beyond that the oldest are forgotten and no longer skipped: raise History Size.`,
				},
			];
		},
	};
}
