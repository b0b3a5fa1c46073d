import type { ICheckProcessedOptions, IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import {
	CLAIM_CHECKS,
	CLAIM_SETTLE_MS,
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

	/**
	 * n8n keeps a node's history as one list that each call reads, then writes back whole. A
	 * second n8n process (another worker) that read it before these keys were written, and writes
	 * after, puts its older list back: the keys are gone, and a later execution of the same number
	 * (another delivery, or n8n 1.x re-running a dead worker's job) would call again. So they are
	 * checked once such a write has had time to land, and recorded again if it erased them.
	 */
	async function keepClaimed(claimedKeys: string[]): Promise<void> {
		let unconfirmed = claimedKeys;
		for (let check = 0; check < CLAIM_CHECKS && unconfirmed.length > 0; check++) {
			await sleep(CLAIM_SETTLE_MS);
			const again = await inStore(
				async () => await helpers.checkProcessedAndRecord(unconfirmed, SCOPE, options),
			);
			// reported new: they had been erased, and this call recorded them again
			unconfirmed = again.new.map(String);
		}
	}

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
			await keepClaimed([...keys.values()]);
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
