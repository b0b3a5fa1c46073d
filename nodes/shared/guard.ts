import type { ICheckProcessedOptions, IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DEFAULT_CLOCK } from '../../src/schedule/clock';
import type { Clock } from '../../src/schedule/clock';
import {
	DEFAULT_GUARD_TIMING,
	DEFAULT_HISTORY_SIZE,
	HISTORY_NEARLY_FULL,
	createSerializer,
	dayWindow,
	guardKey,
} from '../../src/guard/guard';
import type { GuardSubject, GuardWindow } from '../../src/guard/guard';
import {
	LockHeldError,
	NumberLockRowError,
	SharedLockRowError,
	createWorkflowLock,
	withinTime,
} from '../../src/guard/guardLock';
import type { LockMemory, LockTiming } from '../../src/guard/guardLock';
import { count, itemList } from '../../src/run/runReport';
import { countSetting } from '../../src/input/input';
import { IST_ZONE } from '../../src/schedule/schedule';
import type { DuplicateGuardWording } from './descriptions';
import { lockRowOver } from './guardLockRow';
import { nodeTimeZone } from './schedule';

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
 * One queue per workflow in this n8n process: its guarded store calls wait here in memory, so that
 * at most one of them at a time looks for the workflow's lock in the database. Beside it, what the
 * process last saw of the lock's row.
 */
const queues = new Map<
	string,
	{ queue: ReturnType<typeof createSerializer>; memory: LockMemory }
>();
function queueOf(workflowId: string) {
	let queue = queues.get(workflowId);
	if (!queue) queues.set(workflowId, (queue = { queue: createSerializer(), memory: {} }));
	return queue;
}

const SCOPE = 'node';

/** The guard's settings from the node's parameters (read once, from the first item), or undefined when off. */
export function readGuardSettings(context: IExecuteFunctions): GuardSettings | undefined {
	if (!context.getNodeParameter('skipBefore', 0, false)) return undefined;
	const windowKind = context.getNodeParameter('guardWindow', 0, 'ever') as 'ever' | 'day';
	// The node's Time Zone from version 2 on; version 1's Day Time Zone, else India's day, like
	// Schedule Time and Calling Hours (not the workflow's zone).
	const nodeZone = windowKind === 'day' ? nodeTimeZone(context, 0) : undefined;
	const zone =
		nodeZone ?? ((context.getNodeParameter('guardTimeZone', 0, '') as string).trim() || IST_ZONE);
	const zoneField = nodeZone === undefined ? 'Day Time Zone' : 'Time Zone';
	return {
		window: windowKind === 'day' ? dayWindow(zone, zoneField) : { kind: 'ever' },
		historySize: countSetting(
			context.getNodeParameter('guardHistorySize', 0, DEFAULT_HISTORY_SIZE),
			'History Size',
			1,
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
	timing: LockTiming = DEFAULT_GUARD_TIMING,
	clock: Clock = DEFAULT_CLOCK,
	random: () => number = Math.random,
): ItemGuard {
	const { helpers } = context;
	const node = context.getNode();
	const needsStore = `The option needs n8n's store of processed items (n8n 1.64 or later). Update n8n, or turn "${naming.displayName}" off to send without it.`;
	const storeError = (reason: string, description = needsStore) =>
		new NodeOperationError(
			node,
			`"${naming.displayName}" cannot work: ${reason}. Nothing was sent`,
			{ description },
		);
	if (
		typeof helpers.checkProcessedAndRecord !== 'function' ||
		typeof helpers.getProcessedDataCount !== 'function' ||
		typeof helpers.removeProcessed !== 'function' ||
		typeof helpers.clearAllProcessedItems !== 'function'
	) {
		throw storeError('this n8n has no store of processed items');
	}
	const sharedRowError = () =>
		new NodeOperationError(
			node,
			`"${naming.displayName}" cannot work: another node of this workflow keeps its history for the whole workflow, where this option keeps its lock. Nothing was sent`,
			{
				description: `A Remove Duplicates node with Scope set to Workflow does this. Set its Scope to Node (its default): the two then keep separate records, and neither is deleted.`,
			},
		);
	const numberRowError = () =>
		new NodeOperationError(
			node,
			`"${naming.displayName}" cannot work: the workflow-wide record where this option keeps its lock holds a number, left by an earlier version of this node or kept by another node of this workflow. Nothing was sent`,
			{
				description: `A lock left by an earlier version of this node: clear it once with a Remove Duplicates node (Operation: Clear Deduplication History, Mode: Clean Database, Options: Scope: Workflow), then rerun. A Remove Duplicates node with Keep Items Where set to Value Is Higher than Any Previous Value and Scope set to Workflow: set its Scope to Node.`,
			},
		);
	const heldError = (error: LockHeldError) =>
		new NodeOperationError(
			node,
			`"${naming.displayName}" cannot work: this workflow's lock was held for ${Math.round(error.waitedMs / 1000)} s, by other executions or left behind by one that stopped. Nothing was sent`,
			{
				description: `The lock clears by itself: a lock left behind is cleared within ${Math.ceil(error.clearsWithinMs / 1000)} s, counted from when n8n's database accepts changes again. Running the execution again is safe (n8n's Retry On Fail does). Executions of this workflow wait their turns for the lock: with more than 20 n8n processes running them at once, split the leads by number over several workflows, each with its own guard (see Running at scale in the package's docs).`,
			},
		);
	const options: ICheckProcessedOptions = { mode: 'entries', maxEntries: settings.historySize };
	const now = new Date();
	const keys = new Map<number, string>();
	const { queue, memory } = queueOf(context.getWorkflow().id ?? '');
	// After the claim the requests go out, so a store failure must not undo the run's outputs.
	const failures: string[] = [];
	const warn = (what: string, error: Error, consequence?: string) => {
		const because = `because n8n's store of processed items failed (${error.message})`;
		const failure = `"${naming.displayName}" ${what}, ${because}${consequence ? `: ${consequence}` : ''}.`;
		if (!failures.includes(failure)) failures.push(failure);
	};
	const lock = createWorkflowLock(
		lockRowOver(helpers),
		timing,
		clock,
		context.getExecutionId?.() ?? '',
		random,
		memory,
	);

	/** Runs one history call under the workflow's lock, one at a time in this process. */
	async function locked<T>(task: () => Promise<T>): Promise<T> {
		const { value, releaseError } = await queue(async () => await lock.hold(task)).catch(
			(error: unknown) => {
				if (error instanceof SharedLockRowError) throw sharedRowError();
				if (error instanceof NumberLockRowError) throw numberRowError();
				throw error;
			},
		);
		if (releaseError) {
			warn(
				'could not give back its lock',
				releaseError,
				`this workflow's next guarded executions wait up to ${Math.ceil(lock.recoveryMs / 1000)} s for it`,
			);
		}
		return value;
	}

	async function historyNearlyFull(): Promise<NodeExecutionHint[]> {
		// a read: it needs no lock, but a time limit like every store call
		const held = await withinTime(
			helpers.getProcessedDataCount(SCOPE, options),
			timing.callLimitMs,
			clock,
			"n8n's store",
		);
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
			const checked = await locked(
				async () => await helpers.checkProcessedAndRecord([...claims.values()], SCOPE, options),
			).catch((error: Error) => {
				if (error instanceof NodeOperationError) throw error;
				if (error instanceof LockHeldError) throw heldError(error);
				throw storeError(
					`n8n's store of processed items failed (${error.message})`,
					`Nothing was sent, so running the execution again is safe (n8n's Retry On Fail does); a number the store recorded just before it failed is then skipped as ${naming.verb} before. If it fails every time: ${needsStore}`,
				);
			});
			const seenBefore = new Set(checked.processed.map(String));
			for (const [itemIndex, key] of claims) {
				if (seenBefore.has(key)) skipped.add(itemIndex);
				else keys.set(itemIndex, key);
			}
			return skipped;
		},

		async release(itemIndices) {
			const released = itemIndices.filter((itemIndex) => keys.has(itemIndex));
			if (released.length === 0) return;
			const releasedKeys = released.map((itemIndex) => keys.get(itemIndex)!);
			await locked(async () => await helpers.removeProcessed(releasedKeys, SCOPE, options)).catch(
				(error: Error) =>
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
