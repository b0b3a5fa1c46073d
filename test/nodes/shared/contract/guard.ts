// The duplicate-call guard, on the nodes whose row has one (nodes/shared/guard.ts).
import type * as DeduplicationHelpersModule from 'n8n-core/dist/execution-engine/node-execution-context/utils/deduplication-helper-functions';
import type { DeduplicationHelperFunctions, IDataObject, INodeParameters } from 'n8n-workflow';

import { DEFAULT_GUARD_TIMING } from '../../../../src/guard/guard';
import { electionDigits, lockDurations, lockElements } from '../../../../src/guard/guardLock';
import { storedHash } from '../../../../nodes/shared/guardLockRow';
import { ENGINE_SETTLE_MS } from '../../../engine/deduplication';
import type { StoreCall } from '../../../engine/deduplication';
import { useVirtualClock } from '../../../engine/virtualClock';
import type { RunResult } from '../../../engine/harness';
import {
	NODE_NAME,
	apiRequests,
	fastBackoff,
	pairedItems,
	runnerFor,
	workflowError,
} from '../../fixtures';
import type { RunNodeOptions } from '../../fixtures';
import type { ActionNodeRow, SandboxOf, StoreOf } from '../contract';
import { arranged, inInputOrder, sentKeys } from './support';

// the module object itself, not a copy of its exports: the spy below replaces what n8n-core calls
const deduplicationHelpers = jest.requireActual<typeof DeduplicationHelpersModule>(
	'n8n-core/dist/execution-engine/node-execution-context/utils/deduplication-helper-functions',
);

/** How long a lock left behind delays the next executions, with the engine tests' timing, in whole seconds. */
/**
 * Moves the virtual clock, which starts at the real time, clear of the rescue instants: near one,
 * a zone holds a create back, and a test that times a wait would depend on the time of day.
 */
async function clearOfRescueInstants(clock: ReturnType<typeof useVirtualClock>): Promise<void> {
	const { rescuePeriod } = lockDurations(DEFAULT_GUARD_TIMING);
	await clock.time.sleep(rescuePeriod - (clock.now() % rescuePeriod) + rescuePeriod / 10);
}

const recoverySeconds = () =>
	Math.ceil(lockDurations({ ...DEFAULT_GUARD_TIMING, settleMs: ENGINE_SETTLE_MS }).recovery / 1000);

export function guard(row: ActionNodeRow, sandbox: SandboxOf, store: StoreOf) {
	if (!row.guard) return;
	const { displayName, skipped, skippedOutput, otherTarget, reopen } = row.guard;
	const scheduledAt = row.schedule!.parameters('={{ $json.at }}');
	const run = runnerFor(row.type);
	const guardOn = (extra: INodeParameters = {}) => row.parameters({ skipBefore: true, ...extra });
	// A production execution (an active workflow's trigger), unless a test says otherwise.
	const guarded = (
		parameters: INodeParameters,
		items: IDataObject[],
		more: Omit<RunNodeOptions, 'type' | 'parameters' | 'items'> = {},
	) => run(sandbox(), parameters, { items, mode: 'webhook', ...more });
	const jsonOf = (result: RunResult) => inInputOrder(row, result).map((item) => item.json);
	const skippedStatus = (key: string) => skipped(key).status;
	const at = (key: string, when: string) => ({ ...row.item(key), at: when });
	const refusal = row.apiErrors.find((errorCase) => errorCase.refused && !errorCase.faults)!;

	describe(`${displayName} (the duplicate-call guard)`, () => {
		it('skips in a second execution exactly the numbers the first one reached', async () => {
			const [a, b, c, d] = await arranged(row, sandbox(), 4);
			const first = await guarded(guardOn(), [a, b, c].map(row.item));
			expect(jsonOf(first)).toEqual([a, b, c].map((key) => row.succeeded(key)));
			expect(jsonOf(first).map((json) => json.guard)).toEqual(['recorded', 'recorded', 'recorded']);
			reopen?.(sandbox());

			const second = await guarded(guardOn(), [b, c, d].map(row.item));

			expect(sentKeys(row, sandbox())).toEqual([a, b, c, d]);
			expect(second.json(NODE_NAME, skippedOutput).slice(0, 2)).toEqual([
				{ ...skipped(b), guard: 'skipped' },
				{ ...skipped(c), guard: 'skipped' },
			]);
			const [, , placed] = jsonOf(second);
			expect(placed).toEqual(row.succeeded(d));
			expect(placed.guard).toBe('recorded');
			expect(pairedItems(inInputOrder(row, second))).toEqual([
				{ item: 0 },
				{ item: 1 },
				{ item: 2 },
			]);
		});

		it('pairs the number with the agent or workflow: another one may reach it', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			await guarded(guardOn(), [row.item(key)]);
			const other = await guarded(guardOn(), [{ ...row.item(key), ...otherTarget }]);

			expect(jsonOf(other)[0].guard).toBe('recorded');
			expect(row.done(sandbox())).toEqual([key, key]);
		});

		it('reaches a number once per run as well, whatever its schedule time', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			const result = await guarded(guardOn(scheduledAt), [
				at(key, '2030-01-01T10:00:00+05:30'),
				at(key, '2030-01-02T10:00:00+05:30'),
			]);

			const [sent, repeat] = jsonOf(result);
			expect(sent).toEqual(row.succeeded(key));
			expect(repeat).toMatchObject({ status: 'duplicate', duplicateOf: 0 });
			expect(sentKeys(row, sandbox())).toEqual([key]);
		});

		it('a repeat in the run says what became of its first item: refused, so not reached; the number is given back', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			// CallKaro refuses the first request with 429 on every attempt: certainly not reached
			sandbox().setFaults({ endpoint: row.faultEndpoint, sequence: Array(8).fill('429') });
			fastBackoff();

			const result = await guarded(guardOn(), [row.item(key), row.item(key)], {
				settings: { continueOnFail: true },
			});
			sandbox().clearFaults(row.faultEndpoint);

			const [refusedJson, repeat] = jsonOf(result);
			expect(refusedJson.details).toMatchObject({ httpStatus: 429 });
			expect(repeat).toMatchObject({ status: 'duplicate', duplicateOf: 0 });
			expect(String(repeat.message)).toMatch(/; item 0 was not (placed|sent) \(/);
			reopen?.(sandbox());
			// given back: the next execution reaches it
			const again = await guarded(guardOn(), [row.item(key)]);
			expect(jsonOf(again)[0].guard).toBe('recorded');
		});

		it('gives the number back after a refusal, but not after a lost answer', async () => {
			const [refused, lost] = await arranged(row, sandbox(), 2);
			const items = [
				{ ...row.item(refused), ...(await refusal.refused!(sandbox())) },
				row.item(lost),
			];
			const settings = { continueOnFail: true };
			const parameters = guardOn({ options: { concurrency: 1 } });
			sandbox().setFaults({ endpoint: row.faultEndpoint, sequence: ['ok', 'drop-after'] });
			fastBackoff();
			const first = await guarded(parameters, items, { settings });
			const [refusedJson, lostJson] = jsonOf(first);
			expect(refusedJson.details).toMatchObject({ kind: refusal.kind });
			// a node that never retries cannot know; one that retries learns it from the retry
			if (!row.retriesServerErrors) expect(lostJson.details).toMatchObject({ kind: 'network' });
			const sentBefore = sentKeys(row, sandbox()).length;

			const second = await guarded(parameters, items, { settings });

			// the refused number is sent again; the one that may have been reached is not
			expect(sentKeys(row, sandbox()).slice(sentBefore)).toEqual([refused]);
			expect(jsonOf(second)[1]).toMatchObject({ status: skippedStatus(lost), guard: 'skipped' });
			expect(row.done(sandbox())).toEqual([lost]);
		});

		it('gives back the numbers a stopped run never sent', async () => {
			const keys = await arranged(row, sandbox(), 4);
			const items = keys.map(row.item);
			const parameters = guardOn({ options: { concurrency: 1 } });
			const first = await guarded(parameters, [
				...items.slice(0, 2),
				{ ...items[2], ...(await refusal.refused!(sandbox())) },
				items[3],
			]);
			expect(first.status).toBe('error');
			reopen?.(sandbox());

			const second = await guarded(parameters, items);

			expect(jsonOf(second).map((json) => json.guard)).toEqual([
				'skipped',
				'skipped',
				'recorded',
				'recorded',
			]);
			expect(jsonOf(second).slice(2)).toEqual(keys.slice(2).map((key) => row.succeeded(key)));
		});

		it('with Once per Calendar Day, reaches a number again on another day only', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			const daily = guardOn({ ...scheduledAt, guardWindow: 'day', guardTimeZone: 'Asia/Kolkata' });
			await guarded(daily, [at(key, '2030-01-01T09:00:00+05:30')]);
			reopen?.(sandbox());
			const sameDay = await guarded(daily, [at(key, '2030-01-01T23:30:00+05:30')]);
			// 2030-01-01T20:00Z is already 2 January in India
			const nextDay = await guarded(daily, [at(key, '2030-01-01T20:00:00Z')]);

			expect(jsonOf(sameDay)[0]).toMatchObject({ status: skippedStatus(key) });
			expect(jsonOf(nextDay)[0]).toEqual(row.succeeded(key));
			expect(sentKeys(row, sandbox())).toEqual([key, key]);
		});

		it('neither checks nor records in editor runs, and says so', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			await guarded(guardOn(), [row.item(key)], { mode: 'manual' });
			reopen?.(sandbox());
			const again = await guarded(guardOn(), [row.item(key)], { mode: 'manual' });

			expect(sentKeys(row, sandbox())).toEqual([key, key]);
			expect(jsonOf(again)[0]).toEqual(row.succeeded(key));
			expect(jsonOf(again)[0].guard).toBe('notAppliedInEditorRun');
			expect(again.task(NODE_NAME).hints).toContainEqual({
				type: 'info',
				location: 'outputPane',
				message: `"${displayName}" neither checked nor recorded these numbers: this is a manual run from the editor. Turn on "Apply in Editor Runs" to use it here too.`,
			});
			expect(store().rows.size).toBe(0);
		});

		it('checks and records in editor runs when Apply in Editor Runs is on', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			const parameters = guardOn({ guardInEditorRuns: true });
			await guarded(parameters, [row.item(key)], { mode: 'manual' });
			reopen?.(sandbox());
			const again = await guarded(parameters, [row.item(key)], { mode: 'manual' });

			expect(jsonOf(again)[0]).toMatchObject({ status: skippedStatus(key), guard: 'skipped' });
			expect(sentKeys(row, sandbox())).toEqual([key]);
		});

		it('starts a fresh history under a new History Name', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			await guarded(guardOn(), [row.item(key)]);
			reopen?.(sandbox());
			const spring = guardOn({ guardHistoryName: 'spring' });
			const fresh = await guarded(spring, [row.item(key)]);
			const again = await guarded(spring, [row.item(key)]);

			expect(jsonOf(fresh)[0]).toEqual(row.succeeded(key));
			expect(jsonOf(again)[0]).toMatchObject({ status: skippedStatus(key) });
			expect(sentKeys(row, sandbox())).toEqual([key, key]);
		});

		it('reaches a number once when executions run at the same moment (one process)', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			const runs = await Promise.all(
				Array.from({ length: 8 }, async () => await guarded(guardOn(), [row.item(key)])),
			);

			expect(sentKeys(row, sandbox())).toEqual([key]);
			const [first, ...others] = runs
				.map((result) => jsonOf(result)[0])
				.sort((a, b) => String(a.guard).localeCompare(String(b.guard)));
			expect(first).toEqual(row.succeeded(key));
			expect(others).toEqual(
				Array.from({ length: 7 }, () => ({ ...skipped(key), guard: 'skipped' })),
			);
		});

		describe("across n8n processes: the workflow's lock", () => {
			const LOCK_ROW = 'test-workflow|';

			it('waits while another process holds it, then claims, and gives it back', async () => {
				const [key] = await arranged(row, sandbox(), 1);
				store().holdLockElsewhere('test-workflow', useVirtualClock().now(), 3);

				const result = await guarded(guardOn(), [row.item(key)]);

				expect(jsonOf(result)[0]).toEqual(row.succeeded(key));
				expect(store().rows.has(LOCK_ROW)).toBe(false);
			});

			it("removes a dead worker's lock by an election once it is deadAge old (from its creation slot), then claims: within recovery", async () => {
				const clock = useVirtualClock();
				jest.replaceProperty(DEFAULT_GUARD_TIMING, 'pollMs', 1000);
				jest.replaceProperty(DEFAULT_GUARD_TIMING, 'settleMs', 10_000);
				await clearOfRescueInstants(clock);
				const [key] = await arranged(row, sandbox(), 1);
				store().holdLockElsewhere('test-workflow', clock.now());
				const started = clock.now();

				const first = await guarded(guardOn(), [row.item(key)]);
				reopen?.(sandbox());
				const again = await guarded(guardOn(), [row.item(key)]);

				// the row is left once deadAge old from the start of its creation slot (75 s with
				// settleMs at 10 s); then the election's rounds, each waiting two lock calls for its check
				// (4 × 10 s), and polls: the store's calls take no time of the virtual clock
				const { slot, deadAge, lockCall, recovery } = lockDurations(DEFAULT_GUARD_TIMING);
				expect(deadAge).toBe(75_000);
				const slotStart = Math.floor(started / slot) * slot;
				const leftAfter = slotStart + deadAge - started;
				const rounds = electionDigits('').length;
				expect(clock.now() - started).toBeGreaterThanOrEqual(leftAfter + rounds * 2 * lockCall);
				expect(clock.now() - started).toBeLessThan(leftAfter + rounds * 2 * lockCall + 3_000);
				expect(clock.now() - started).toBeLessThanOrEqual(recovery);
				expect(jsonOf(first)[0]).toEqual(row.succeeded(key));
				expect(jsonOf(again)[0]).toMatchObject({ status: skippedStatus(key), guard: 'skipped' });
				expect(sentKeys(row, sandbox())).toEqual([key]);
				expect(store().rows.has(LOCK_ROW)).toBe(false);
			});

			it('a holder taken for dead that was only stalled: its late write lands while the taker waits, so its number is skipped', async () => {
				const clock = useVirtualClock();
				jest.replaceProperty(DEFAULT_GUARD_TIMING, 'pollMs', 1000);
				const [key] = await arranged(row, sandbox(), 1);
				await guarded(guardOn(), [row.item(key)]);
				reopen?.(sandbox());
				// the stalled holder's history, with the number it claimed, lands after an election began
				store().writeStaleAfterTakeover([]);
				const history = [...store().rows.keys()].find((rowKey) => !rowKey.endsWith('|'))!;
				store().rows.delete(history);
				store().holdLockElsewhere('test-workflow', clock.now());

				const result = await guarded(guardOn(), [row.item(key)]);

				expect(jsonOf(result)[0]).toMatchObject({ status: skippedStatus(key), guard: 'skipped' });
				expect(sentKeys(row, sandbox())).toEqual([key]);
			});

			const sharedRow = `"${displayName}" cannot work: another node of this workflow keeps its history for the whole workflow, where this option keeps its lock. Nothing was sent`;

			it('says so and sends nothing when Remove Duplicates keeps its history for the whole workflow; that history stays', async () => {
				const keys = await arranged(row, sandbox(), 2);
				const theirs = { mode: 'entries' as const, data: ['their hash'] };
				store().rows.set(LOCK_ROW, theirs);

				const result = await guarded(guardOn(), keys.map(row.item));

				expect(workflowError(result).message).toBe(sharedRow);
				expect(workflowError(result).description).toContain(
					'A Remove Duplicates node with Scope set to Workflow does this. Set its Scope to Node (its default): the two then keep separate records, and neither is deleted.',
				);
				expect(apiRequests(sandbox(), row.path)).toEqual([]);
				expect(store().rows.get(LOCK_ROW)).toEqual({ mode: 'entries', data: ['their hash'] });
			});

			const numberRow = `"${displayName}" cannot work: the workflow-wide record where this option keeps its lock holds a number, left by an earlier version of this node or kept by another node of this workflow. Nothing was sent`;

			it("a number in that row (an earlier version's lock, or Keep Items Where: Value Is Higher): waits `recovery` for it to go, then says how to clear it, sends nothing, and never deletes it", async () => {
				const clock = useVirtualClock();
				jest.replaceProperty(DEFAULT_GUARD_TIMING, 'pollMs', 1000);
				await clearOfRescueInstants(clock);
				const [key] = await arranged(row, sandbox(), 1);
				store().rows.set(LOCK_ROW, { mode: 'latestIncrementalKey', data: 1234 });
				const started = clock.now();

				const result = await guarded(guardOn(), [row.item(key)]);

				const { recovery } = lockDurations(DEFAULT_GUARD_TIMING);
				expect(clock.now() - started).toBeGreaterThanOrEqual(recovery);
				expect(clock.now() - started).toBeLessThan(recovery + 3_000);
				expect(workflowError(result).message).toBe(numberRow);
				expect(workflowError(result).description).toContain(
					'clear it once with a Remove Duplicates node (Operation: Clear Deduplication History, Mode: Clean Database, Options: Scope: Workflow), then rerun',
				);
				expect(apiRequests(sandbox(), row.path)).toEqual([]);
				expect(store().rows.get(LOCK_ROW)).toEqual({ mode: 'latestIncrementalKey', data: 1234 });
			});

			it('a lock row no election can clear while the database refuses deletes: waits as long as any recovery takes, then says how long it waited, that the lock clears by itself, and sends nothing', async () => {
				const clock = useVirtualClock();
				jest.replaceProperty(DEFAULT_GUARD_TIMING, 'pollMs', 1000);
				const [key] = await arranged(row, sandbox(), 1);
				// an election's row whose voters are gone (an earlier version's list row is treated alike)
				store().rows.set(LOCK_ROW, {
					mode: 'latestIncrementalKey',
					data: lockElements(0, 50).map(storedHash),
				});
				store().failAfter('clearAllProcessedItems', 0);
				const started = clock.now();

				const result = await guarded(guardOn(), [row.item(key)]);

				const { giveUpAfter, recoveryAfterStall } = lockDurations(DEFAULT_GUARD_TIMING);
				// it gives up at giveUpAfter, not after a sleep that runs past it
				expect(clock.now() - started).toBeGreaterThanOrEqual(giveUpAfter);
				expect(clock.now() - started).toBeLessThan(giveUpAfter + 5_000);
				const [before, after] = workflowError(result).message.split(/\d+(?= s,)/);
				expect([before, after]).toEqual([
					`"${displayName}" cannot work: this workflow's lock was held for `,
					' s, by other executions or left behind by one that stopped. Nothing was sent',
				]);
				expect(workflowError(result).description).toBe(
					`The lock clears by itself: a lock left behind is cleared within ${Math.ceil(recoveryAfterStall / 1000)} s, counted from when n8n's database accepts changes again. Running the execution again is safe (n8n's Retry On Fail does). Executions of this workflow wait their turns for the lock: with more than 20 n8n processes running them at once, split the leads by number over several workflows, each with its own guard (see Running at scale in the package's docs).`,
				);
				expect(apiRequests(sandbox(), row.path)).toEqual([]);
			});

			it("an earlier version's lock that its holder deletes meanwhile: then claims as usual", async () => {
				const [key] = await arranged(row, sandbox(), 1);
				store().holdNumberLockElsewhere('test-workflow', -(2 ** 52) - 2 ** 46, 3);

				const result = await guarded(guardOn(), [row.item(key)]);

				expect(jsonOf(result)[0]).toEqual(row.succeeded(key));
				expect(sentKeys(row, sandbox())).toEqual([key]);
				expect(store().rows.has(LOCK_ROW)).toBe(false);
			});
		});

		it('warns when the history is nearly full', async () => {
			const keys = await arranged(row, sandbox(), 9);
			const result = await guarded(guardOn({ guardHistorySize: 10 }), keys.map(row.item));

			expect(result.task(NODE_NAME).hints).toContainEqual({
				type: 'warning',
				message: `"${displayName}" remembers the last 10 numbers and now holds 9. Beyond that the oldest are forgotten and no longer skipped: raise History Size.`,
			});
		});

		describe('when the store fails after the claim, keeps every output and warns', () => {
			const { verb } = row.guard!;
			const failed = (what: string, step: string, consequence?: string) =>
				`"${displayName}" ${what}, because n8n's store of processed items failed (The database is unreachable (${step}))${consequence ? `: ${consequence}` : ''}.`;
			// [step, the store call that fails, calls of it that succeed first, the warning]
			const steps: Array<[string, StoreCall, number, string]> = [
				[
					'giving back the lock',
					'clearAllProcessedItems',
					0,
					failed(
						'could not give back its lock',
						'clearAllProcessedItems',
						// 175 ms, so 1 s, in the tests; 70 s in n8n
						`this workflow's next guarded executions wait up to ${recoverySeconds()} s for it`,
					),
				],
				[
					'giving back a refused number',
					'removeProcessed',
					0,
					failed(
						'could not forget item 0',
						'removeProcessed',
						`later executions skip their numbers, although they were not ${verb}`,
					),
				],
				[
					'counting the history',
					'getProcessedDataCount',
					0,
					failed('could not tell how full its history is', 'getProcessedDataCount'),
				],
			];

			it.each(steps)('%s', async (_, call, succeeding, warning) => {
				// a lock left behind is removed within recovery: of a clock that jumps
				useVirtualClock();
				jest.replaceProperty(DEFAULT_GUARD_TIMING, 'pollMs', 1000);
				const [refused, reached] = await arranged(row, sandbox(), 2);
				const items = [
					{ ...row.item(refused), ...(await refusal.refused!(sandbox())) },
					row.item(reached),
				];
				store().failAfter(call, succeeding);

				const result = await guarded(guardOn({ options: { concurrency: 1 } }), items, {
					settings: { continueOnFail: true },
				});

				expect(result.status).toBe('success');
				const [refusedJson, reachedJson] = jsonOf(result);
				expect(refusedJson.details).toMatchObject({ kind: refusal.kind });
				expect(reachedJson).toEqual(row.succeeded(reached));
				expect(result.task(NODE_NAME).hints).toContainEqual({
					type: 'warning',
					location: 'outputPane',
					message: warning,
				});
				expect(JSON.stringify(result.runData)).not.toContain('Nothing was sent');
				expect(row.done(sandbox())).toEqual([reached]);
			});

			it("a run stopped by an item says so under that item's error", async () => {
				const [reached, refused] = await arranged(row, sandbox(), 2);
				const items = [
					row.item(reached),
					{ ...row.item(refused), ...(await refusal.refused!(sandbox())) },
				];
				store().failAfter('removeProcessed');

				const result = await guarded(guardOn({ options: { concurrency: 1 } }), items);

				const error = workflowError(result);
				expect(error.message).toBe(refusal.message);
				expect(error.description).toContain(
					failed(
						'could not forget item 1',
						'removeProcessed',
						`later executions skip their numbers, although they were not ${verb}`,
					),
				);
				expect(row.done(sandbox())).toEqual([reached]);
			});

			it('fails, sending nothing, when the claim itself fails', async () => {
				const keys = await arranged(row, sandbox(), 2);
				store().failAfter('checkProcessedAndRecord');

				const result = await guarded(guardOn(), keys.map(row.item));

				expect(workflowError(result).message).toBe(
					`"${displayName}" cannot work: n8n's store of processed items failed (The database is unreachable (checkProcessedAndRecord)). Nothing was sent`,
				);
				expect(apiRequests(sandbox(), row.path)).toEqual([]);
			});
		});

		it('sends nothing and records nothing in a preview', async () => {
			const [key] = await arranged(row, sandbox(), 1);
			await guarded(guardOn({ options: { previewOnly: true } }), [row.item(key)]);

			expect(apiRequests(sandbox(), row.path)).toEqual([]);
			expect(store().rows.size).toBe(0);
		});
	});
}

/**
 * The guard where n8n offers no working store: it fails with a clear error and never sends
 * unguarded. Its own test file, which gives n8n-core no store (one per process).
 */
export function describeGuardWithoutStore(rows: ActionNodeRow[], sandbox: SandboxOf): void {
	describe.each(rows.filter((row) => row.guard))('$displayName without a store', (row) => {
		const { displayName } = row.guard!;
		const run = runnerFor(row.type);
		const description = `The option needs n8n's store of processed items (n8n 1.64 or later). Update n8n, or turn "${displayName}" off to send without it.`;
		const guardedItems = (continueOnFail = false) =>
			run(sandbox(), row.parameters({ skipBefore: true }), {
				items: row.freshKeys(2).map(row.item),
				mode: 'webhook',
				settings: { continueOnFail },
			});

		it('fails, sending nothing, when the store does not answer', async () => {
			const result = await guardedItems();

			const error = workflowError(result);
			expect(error.message).toBe(
				`"${displayName}" cannot work: n8n's store of processed items failed (Instance needs to initialized before use. Make sure to call init()). Nothing was sent`,
			);
			expect(error.description).toBe(
				`0 of 2 ${row.vocabulary.noun} were ${row.vocabulary.effect}. Nothing was sent, so running the execution again is safe (n8n's Retry On Fail does); a number the store recorded just before it failed is then skipped as ${row.guard!.verb} before. If it fails every time: ${description}`,
			);
			expect(apiRequests(sandbox())).toEqual([]);
		});

		it('fails every item, sending nothing, on an n8n without the store (before 1.64)', async () => {
			jest
				.spyOn(deduplicationHelpers, 'getDeduplicationHelperFunctions')
				.mockReturnValue({} as DeduplicationHelperFunctions);

			const result = await guardedItems(true);

			const message = `"${displayName}" cannot work: this n8n has no store of processed items. Nothing was sent`;
			// not an error of a request, so its details say only what the node knows
			const details = {
				kind: 'other',
				httpStatus: null,
				serviceMessage: null,
				attempts: null,
				outcomeUnknown: null,
				description,
			};
			expect(result.json(NODE_NAME)).toEqual([
				{ error: message, details },
				{ error: message, details },
			]);
			expect(apiRequests(sandbox())).toEqual([]);
		});
	});
}
