/** What a node's run did, in words a builder reads: the error of a run that stopped, and its summary. */

export interface RunVocabulary {
	/** What the node makes, in the plural: 'calls', 'workflow runs'. */
	noun: string;
	/** What happened to one that took effect: 'placed', 'started', 'deleted'. */
	effect: string;
	/** What running the node again does to those, e.g. 'running this node again calls them again'. */
	rerun: string;
	/** The same, when the duplicate guard recorded them: 'running this node again skips them'. */
	rerunWhenGuarded?: string;
}

/** Item indices (ascending) as 'item 4' or 'items 0–36, 40, 42–45'. */
export function itemList(indices: number[]): string {
	const ranges: string[] = [];
	for (let start = 0; start < indices.length; ) {
		let end = start;
		while (end + 1 < indices.length && indices[end + 1] === indices[end] + 1) end++;
		ranges.push(end === start ? String(indices[start]) : `${indices[start]}–${indices[end]}`);
		start = end + 1;
	}
	return `${indices.length === 1 ? 'item' : 'items'} ${ranges.join(', ')}`;
}

export function count(value: number): string {
	return value.toLocaleString('en-US');
}

/**
 * Says how far a run got before it stopped, e.g. "37 of 120 calls were placed (items 0–36);
 * running this node again calls them again unless Skip Numbers Called Before is on."
 */
export function partialRunText(
	vocabulary: RunVocabulary,
	itemCount: number,
	items: { tookEffect: number[]; mayHaveTakenEffect: number[] },
): string {
	const { tookEffect, mayHaveTakenEffect } = items;
	const done = tookEffect.length;
	const parts = [
		`${count(done)} of ${count(itemCount)} ${vocabulary.noun} ${done === 1 ? 'was' : 'were'} ${vocabulary.effect}${
			done > 0 ? ` (${itemList(tookEffect)})` : ''
		}`,
	];
	if (mayHaveTakenEffect.length > 0) {
		parts.push(`${itemList(mayHaveTakenEffect)} may have been ${vocabulary.effect} as well`);
	}
	if (done + mayHaveTakenEffect.length > 0) parts.push(vocabulary.rerun);
	return `${parts.join('; ')}.`;
}

/**
 * A bulk run's summary, e.g. "1,000 items: 980 started, 15 already running, 5 failed; 3 scheduled
 * in the past". `tally` holds each outcome with its count, in the order they should be read.
 */
export function runSummaryText(
	itemCount: number,
	tally: Array<[outcome: string, items: number]>,
	notes: string[] = [],
): string {
	const outcomes = tally
		.filter(([, items]) => items > 0)
		.map(([outcome, items]) => `${count(items)} ${outcome}`);
	return [
		`${count(itemCount)} ${itemCount === 1 ? 'item' : 'items'}: ${outcomes.join(', ')}`,
		...notes,
	]
		.filter(Boolean)
		.join('; ');
}
