// The item runner's phases one by one, without n8n's engine (nodes/shared/runItems.ts). The
// engine runs them together in runItems.cases.ts and the contract.
import type { INode } from 'n8n-workflow';

import { bareErrorItemJson, errorItemJson } from '../../../nodes/shared/errors';
import type { ItemGuard } from '../../../nodes/shared/guard';
import {
	answerRepeats,
	claimKeys,
	findRepeats,
	prepareItems,
	releaseKeys,
	routeOutputs,
	sendItems,
	stopError,
} from '../../../nodes/shared/runItems';
import type { FirstItem, ItemResult, PreparedItem, RunState } from '../../../nodes/shared/runState';
import { CallKaroApiError } from '../../../src/client/errors';
import { invalidInput } from '../../../src/input/inputError';
import type { GuardSubject } from '../../../src/guard/guard';
import type { RunVocabulary } from '../../../src/run/runReport';

const node = { name: 'CallKaro', type: 'test', parameters: {} } as unknown as INode;
const vocabulary: RunVocabulary = {
	noun: 'calls',
	effect: 'placed',
	rerun: 'running it again calls them again',
};

function placed(key: string): ItemResult {
	return { output: 0, json: { key }, outcome: 'placed', tookEffect: true };
}

const refused = () =>
	new CallKaroApiError('Not found (HTTP 404)', {
		kind: 'not-found',
		httpStatus: 404,
		attempts: 1,
		outcomeUnknown: false,
	});

const lost = () =>
	new CallKaroApiError('No answer from CallKaro', {
		kind: 'network',
		attempts: 1,
		outcomeUnknown: true,
	});

/** Items by key: 'bad' fails to prepare, 'refused' and 'lost' fail when sent; `sent` logs sends. */
function run(keys: string[], continueOnFail = false) {
	const sent: string[] = [];
	const prepare = (itemIndex: number): PreparedItem => {
		const key = keys[itemIndex];
		if (key === 'bad') throw invalidInput('Phone Number', 'is not a phone number', 'Check it');
		const answerRepeat = (first: FirstItem): ItemResult => ({
			output: 0,
			json: { key, duplicateOf: first.itemIndex, firstFailed: 'failed' in first.outcome },
			outcome: 'skipped as duplicate',
			tookEffect: false,
		});
		return {
			send: async () => {
				sent.push(key);
				if (key.startsWith('refused')) throw refused();
				if (key.startsWith('lost')) throw lost();
				return placed(key);
			},
			guarded: {
				subject: { target: 'agent', toNumber: key },
				skipped: {
					output: 1,
					json: { key, status: 'skipped' },
					outcome: 'skipped',
					tookEffect: false,
				},
				answerRepeat,
			},
			repeat: { key, answer: answerRepeat },
		};
	};
	const state = prepareItems(
		{ getNode: () => node, continueOnFail: () => continueOnFail },
		keys.length,
		prepare,
		false,
	);
	return { state, sent };
}

const send = async (state: RunState) => await sendItems(state, { concurrency: 2 });

/** A guard whose store saw `seenBefore` in an earlier execution; it records what it releases. */
function scriptedGuard(seenBefore: string[] = []) {
	const released: number[][] = [];
	const guard: ItemGuard = {
		keyOf: (subject: GuardSubject) => subject.toNumber,
		claim: async (keys) =>
			new Set([...keys].filter(([, key]) => seenBefore.includes(key)).map(([item]) => item)),
		release: async (items) => {
			released.push(items);
		},
		storeFailures: () => [],
		hints: async () => [],
	};
	return { guard, released };
}

/** Output routing of an ordinary run: not an AI tool, no error output. */
const PLAIN = { asTool: false, errorJson: errorItemJson };

describe("the item runner's phases", () => {
	describe('prepare', () => {
		it('without Continue On Fail, a bad item stops the run before any item is sent', async () => {
			const { state, sent } = run(['a', 'b', 'bad', 'c', 'bad']);
			await send(state);

			expect(sent).toEqual([]);
			expect(state.stoppedBy?.context.itemIndex).toBe(2);
			expect(stopError(state, { vocabulary, guarded: false }, [])).toMatchObject({
				message: '"Phone Number" is not a phone number. Check it. [item 2]',
				description:
					'Every item is checked before the first request: items 2, 4 did not pass, so none of the 5 items was sent. Nothing was sent to CallKaro for this item.',
			});
		});

		it('with Continue On Fail, a bad item is an error item and the others are sent', async () => {
			const { state, sent } = run(['a', 'bad', 'b'], true);
			await send(state);

			expect(sent).toEqual(['a', 'b']);
			expect(stopError(state, { vocabulary, guarded: false }, [])).toBeUndefined();
			const [main] = routeOutputs(state, 1, PLAIN);
			expect(main.map((item) => [item.pairedItem, item.json.key ?? item.json.error])).toEqual([
				[{ item: 0 }, 'a'],
				[{ item: 1 }, '"Phone Number" is not a phone number. Check it. [item 1]'],
				[{ item: 2 }, 'b'],
			]);
		});

		it("for n8n 1.x's error output, an error item is { error, message }: 1.x moves only such items", async () => {
			const { state } = run(['a', 'bad'], true);
			await send(state);

			const [main] = routeOutputs(state, 1, { asTool: false, errorJson: bareErrorItemJson });
			expect(main.map((item) => item.json)).toEqual([
				{ key: 'a' },
				{
					error: '"Phone Number" is not a phone number. Check it. [item 1]',
					message: expect.any(String),
				},
			]);
		});
	});

	describe('repeats within a run', () => {
		it('are sent once, and answered with what became of their first item', async () => {
			const { state, sent } = run(['a', 'refused-b', 'a', 'refused-b'], true);
			findRepeats(state);
			await send(state);
			answerRepeats(state, false);

			expect(sent).toEqual(['a', 'refused-b']);
			expect(routeOutputs(state, 1, PLAIN)[0].map((item) => item.json)).toEqual([
				{ key: 'a' },
				expect.objectContaining({ error: 'Not found (HTTP 404)' }),
				{ key: 'a', duplicateOf: 0, firstFailed: false },
				{ key: 'refused-b', duplicateOf: 1, firstFailed: true },
			]);
		});

		it("take the guard's key when the guard is on, and say what became of their first item", async () => {
			const { state, sent } = run(['refused-a', 'b', 'c'], true);
			const { guard, released } = scriptedGuard();
			findRepeats(state, { keyOf: () => 'one key for all' });
			await claimKeys(state, guard);
			await send(state);
			answerRepeats(state, true);
			await releaseKeys(state, guard);

			expect(state.repeatOf).toEqual(
				new Map([
					[1, 0],
					[2, 0],
				]),
			);
			expect(sent).toEqual(['refused-a']);
			// the first was refused: its repeats say so, and its key is given back
			expect(routeOutputs(state, 1, PLAIN)[0].map((item) => item.json)).toEqual([
				expect.objectContaining({ error: 'Not found (HTTP 404)' }),
				{ key: 'b', duplicateOf: 0, firstFailed: true },
				{ key: 'c', duplicateOf: 0, firstFailed: true },
			]);
			expect(released).toEqual([[0]]);
		});

		it('of an item an earlier execution reached say it was skipped', async () => {
			const { state } = run(['a', 'a'], true);
			const { guard } = scriptedGuard(['a']);
			findRepeats(state, guard);
			await claimKeys(state, guard);
			await send(state);
			answerRepeats(state, true);

			expect(state.outcomes.get(1)).toEqual({
				result: expect.objectContaining({ json: { key: 'a', duplicateOf: 0, firstFailed: false } }),
			});
		});
	});

	describe('claim and release', () => {
		it('skip what an earlier execution recorded, and give back only what reached no one', async () => {
			const { state, sent } = run(['seen', 'a', 'refused-b', 'lost-c', 'd'], true);
			const { guard, released } = scriptedGuard(['seen']);
			findRepeats(state, guard);
			await claimKeys(state, guard);
			await send(state);
			await releaseKeys(state, guard);

			expect(sent).toEqual(['a', 'refused-b', 'lost-c', 'd']);
			expect(state.claimed).toEqual(new Set([1, 2, 3, 4]));
			// the refused one certainly reached no one; the lost answer may have
			expect(released).toEqual([[2]]);
			expect(routeOutputs(state, 2, PLAIN)[1].map((item) => item.json)).toEqual([
				{ key: 'seen', status: 'skipped', guard: 'skipped' },
			]);
		});

		it('give back the keys of items a stopped run never sent', async () => {
			const { state, sent } = run(['a', 'refused-b', 'c', 'd']);
			const { guard, released } = scriptedGuard();
			findRepeats(state, guard);
			await claimKeys(state, guard);
			await sendItems(state, { concurrency: 1 });
			await releaseKeys(state, guard);

			expect(sent).toEqual(['a', 'refused-b']);
			expect(released).toEqual([[1, 2, 3]]);
			expect(
				stopError(state, { vocabulary, guarded: false }, ['The store failed.'])?.description,
			).toBe(
				'1 of 4 calls was placed (item 0); running it again calls them again. Check the ID, and that it belongs to the account of the API key in the credential. The store failed.',
			);
		});

		it('fail every guarded item, sending nothing, when the claim fails', async () => {
			const { state, sent } = run(['a', 'b'], true);
			const { guard } = scriptedGuard();
			guard.claim = async () => {
				throw new Error('store down');
			};
			await claimKeys(state, guard);
			await send(state);

			expect(sent).toEqual([]);
			expect([...state.outcomes.values()].every((outcome) => 'failed' in outcome)).toBe(true);
		});
	});

	describe('route', () => {
		it('sends every item to output 0 as an AI tool', async () => {
			const { state } = run(['seen', 'a']);
			const { guard } = scriptedGuard(['seen']);
			await claimKeys(state, guard);
			await send(state);

			const outputs = routeOutputs(state, 2, { asTool: true, errorJson: errorItemJson });
			expect(outputs).toHaveLength(1);
			expect(outputs[0].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		});
	});
});
