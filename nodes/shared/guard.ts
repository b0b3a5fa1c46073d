import type { ICheckProcessedOptions, IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import {
	DEFAULT_CLAIM_TIMING,
	DEFAULT_HISTORY_SIZE,
	HISTORY_NEARLY_FULL,
	createSerializer,
	dayWindow,
	guardKey,
} from '../../src/guard';
import type { ClaimTiming, GuardSubject, GuardWindow } from '../../src/guard';
import { count, itemList } from '../../src/runReport';
import { IST_ZONE } from '../../src/schedule';
import type { DuplicateGuardWording } from './descriptions';

export interface GuardSettings {
	window: GuardWindow;
	historySize: number;
	historyName: string;
	inEditorRuns: boolean;
}

/** Claims keys before sending and gives back those whose request certainly did not take effect. */
export interface ItemGuard {
	/** The key that stands for a subject: items of one run with the same key are repeats. */
	keyOf(subject: GuardSubject): string;
	/**
	 * Records each item's key; returns the items whose key an earlier execution recorded. Throws
	 * when the store fails, before anything is sent.
	 */
	claim(keys: Map<number, string>): Promise<Set<number>>;
	/** Gives back these items' keys. A store failure becomes a warning of hints(): what was sent stands. */
	release(itemIndices: number[]): Promise<void>;
	/** What the store failed to do after the claim, for a run that stops with an error. */
	storeFailures(): string[];
	/** Warnings for the run: the history is nearly full, or the store failed after the claim. */
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
	// India's day by default, like Schedule Time and Calling Hours (not the workflow's zone).
	const zone = (context.getNodeParameter('guardTimeZone', 0, '') as string).trim() || IST_ZONE;
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
	naming: Pick<DuplicateGuardWording, 'displayName' | 'verb'>,
	timing: ClaimTiming = DEFAULT_CLAIM_TIMING,
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
	const now = new Date();
	const keys = new Map<number, string>();
	// After the claim the requests go out, so a store failure must not undo the run's outputs.
	const failures: string[] = [];
	const warn = (what: string, error: Error, consequence?: string) => {
		const because = `because n8n's store of processed items failed (${error.message})`;
		failures.push(
			`"${naming.displayName}" ${what}, ${because}${consequence ? `: ${consequence}` : ''}.`,
		);
	};

	/**
	 * n8n keeps a node's history as one list that each call reads, then writes back whole. A
	 * second n8n process (another worker) that read it before these keys were written, and writes
	 * after, puts its older list back: the keys are gone, and a later execution of the same number
	 * (another delivery, or n8n 1.x re-running a dead worker's job) would call again. So they are
	 * checked once such a write has had time to land, and recorded again if it erased them.
	 */
	async function keepClaimed(claimedKeys: string[]): Promise<void> {
		let unconfirmed = claimedKeys;
		for (let check = 0; check < timing.checks && unconfirmed.length > 0; check++) {
			await sleep(timing.settleMs);
			const again = await serialize(
				async () => await helpers.checkProcessedAndRecord(unconfirmed, SCOPE, options),
			);
			// reported new: they had been erased, and this call recorded them again
			unconfirmed = again.new.map(String);
		}
	}

	async function historyNearlyFull(): Promise<NodeExecutionHint[]> {
		if (typeof helpers.getProcessedDataCount !== 'function') return [];
		const held = await serialize(async () => await helpers.getProcessedDataCount(SCOPE, options));
		if (held < settings.historySize * HISTORY_NEARLY_FULL) return [];
		return [
			{
				type: 'warning',
				message: `"${naming.displayName}" remembers the last ${count(settings.historySize)} numbers and now holds ${count(held)}. Beyond that the oldest are forgotten and no longer skipped: raise History Size.`,
			},
		];
	}

	return {
		keyOf: (subject) => guardKey(subject, settings.window, settings.historyName, now),

		async claim(claims) {
			const skipped = new Set<number>();
			if (claims.size === 0) return skipped;
			const checked = await serialize(
				async () => await helpers.checkProcessedAndRecord([...claims.values()], SCOPE, options),
			).catch((error: Error) => {
				throw storeError(`n8n's store of processed items failed (${error.message})`);
			});
			const seenBefore = new Set(checked.processed.map(String));
			for (const [itemIndex, key] of claims) {
				if (seenBefore.has(key)) skipped.add(itemIndex);
				else keys.set(itemIndex, key);
			}
			// The claim stands without the re-check; only a worker's stale write could erase it.
			await keepClaimed([...keys.values()]).catch((error: Error) =>
				warn(
					'could not check its records again',
					error,
					`a number another n8n worker erased from them may be ${naming.verb} again by a later execution`,
				),
			);
			return skipped;
		},

		async release(itemIndices) {
			const released = itemIndices.filter((itemIndex) => keys.has(itemIndex));
			if (released.length === 0) return;
			const releasedKeys = released.map((itemIndex) => keys.get(itemIndex)!);
			await serialize(
				async () => await helpers.removeProcessed(releasedKeys, SCOPE, options),
			).catch((error: Error) =>
				warn(
					`could not forget ${itemList(released)}`,
					error,
					`later executions skip their numbers, although they were not ${naming.verb}`,
				),
			);
		},

		storeFailures: () => [...failures],

		async hints() {
			const nearlyFull = await historyNearlyFull().catch((error: Error) => {
				warn('could not tell how full its history is', error);
				return [];
			});
			const warnings = failures.map(
				(message): NodeExecutionHint => ({ type: 'warning', location: 'outputPane', message }),
			);
			return [...nearlyFull, ...warnings];
		},
	};
}
