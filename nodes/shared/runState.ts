import type { IDataObject, INode, NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { GuardSubject } from '../../src/guard/guard';
import { toNodeError, toSettingError } from './errors';
import { isSettingError } from './toolMode';

// What the item runner (runItems.ts) keeps of a run, and what the nodes' operations and the
// reservations (the guard's keys, an AI tool's budget) read and write of it.

export interface ItemResult {
	/** Index of the node output the item goes to. */
	output: number;
	json: IDataObject;
	/** How the run's summary counts the item, e.g. 'placed', 'already running'. */
	outcome: string;
	/** The request took effect: a call placed, a run started, a scheduled call deleted. */
	tookEffect: boolean;
}

export type NodeError = NodeApiError | NodeOperationError;

/** What became of one item: its result, or its failure and whether it may still have taken effect. */
export type ItemOutcome =
	| { result: ItemResult }
	| { failed: NodeError; mayHaveTakenEffect: boolean };

/** The first item of a repeated key, once it is answered. */
export interface FirstItem {
	itemIndex: number;
	outcome: ItemOutcome;
}

/** What a first item's outcome did, in a node's words: "placed the call", "was not placed"... */
export interface FirstItemWording {
	tookEffect: string;
	mayHaveTakenEffect: string;
	notTaken: string;
}

/** What became of the first item of a repeated key, as its repeat says it. */
export function firstItemText(
	{ itemIndex, outcome }: FirstItem,
	wording: FirstItemWording,
): string {
	if ('failed' in outcome) {
		const fate = outcome.mayHaveTakenEffect ? wording.mayHaveTakenEffect : wording.notTaken;
		return `item ${itemIndex} ${fate} (${outcome.failed.message})`;
	}
	if (outcome.result.tookEffect) return `item ${itemIndex} ${wording.tookEffect}`;
	return `item ${itemIndex} was ${outcome.result.outcome}`;
}

/** One item read and checked, not yet sent. */
export interface PreparedItem {
	send: () => Promise<ItemResult>;
	/**
	 * Whom the request reaches, when the duplicate guard covers it; the item's output if an earlier
	 * execution reached that number, and if an earlier item of this run has the same key.
	 */
	guarded?: {
		subject: GuardSubject;
		skipped: ItemResult;
		answerRepeat: (first: FirstItem) => ItemResult;
	};
	/**
	 * What makes two items of a run the same request when the guard is off, and the output of a
	 * later one, given once the first is answered. With the guard on, its key decides.
	 */
	repeat?: { key: string; answer: (first: FirstItem) => ItemResult };
}

/** Reads and checks one item's parameters (synchronously), and returns what sends its request. */
export type ItemPreparer = (itemIndex: number) => PreparedItem;

/** The run as its phases leave it; each phase reads what the ones before it wrote. */
export interface RunState {
	node: INode;
	continueOnFail: boolean;
	/** The node runs as an AI agent's tool: a wrong setting stops it, whatever Continue On Fail says. */
	asTool: boolean;
	preview: boolean;
	/** Per input item: ready to send, or what stopped it from being read. */
	prepared: Array<{ item: PreparedItem } | { error: unknown }>;
	/** Item index → the earlier item of the run with the same key. */
	repeatOf: Map<number, number>;
	/** Items whose key the guard recorded in this run. */
	claimed: Set<number>;
	/** What became of each item answered so far. */
	outcomes: Map<number, ItemOutcome>;
	/** The failure that stops the run (no Continue On Fail): no item starts after it. */
	stoppedBy?: NodeError;
}

/**
 * Something the run claims for the items ready to send before anything is sent, and gives back
 * after for those that reached no one: the guard's keys, an AI tool's budget. A claim may answer
 * an item itself (skipped, refused), which then is not sent.
 */
export interface Reservation {
	claim(state: RunState): Promise<void>;
	release(state: RunState): Promise<void>;
}

export function failedBeforeSending(state: RunState, itemIndex: number, error: unknown): void {
	// A tool's model can fix its own arguments, never the builder's settings.
	const wrongSetting = state.asTool && isSettingError(error);
	const failed = wrongSetting
		? toSettingError(state.node, error, itemIndex)
		: toNodeError(state.node, error, itemIndex);
	state.outcomes.set(itemIndex, { failed, mayHaveTakenEffect: false });
	if (!state.continueOnFail || wrongSetting) state.stoppedBy ??= failed;
}

/** The items ready to send, in input order. */
export function readyItems(state: RunState): Array<[number, PreparedItem]> {
	return state.prepared.flatMap((entry, itemIndex) =>
		'item' in entry && !state.outcomes.has(itemIndex) ? [[itemIndex, entry.item]] : [],
	);
}
