// Bad input and CallKaro's refusals: what an item that fails gives under stop, Continue On Fail
// and the error output (nodes/shared/errors.ts, nodes/shared/runItems.ts).
import type { IDataObject } from 'n8n-workflow';

import { DEMO_API_KEY, OTHER_API_KEY } from '../../../sandbox/sandbox.mjs';
import {
	NODE_NAME,
	WRONG_API_KEY,
	apiRequests,
	expectNoSecrets,
	failedItemJson,
	fastBackoff,
	pairedItems,
	refusedItemJson,
	runnerFor,
	stoppedRunDescription,
	workflowError,
} from '../../fixtures';
import type { ErrorDetails } from '../../fixtures';
import type { ActionNodeRow, BadInputCase, SandboxOf } from '../contract';
import { inTurn } from '../../../support/testScale.mjs';
import { arranged, otherMainOutputs, sentKeys, sorted, withOptions } from './support';

const ALL_KEYS = [DEMO_API_KEY, OTHER_API_KEY, WRONG_API_KEY];

/**
 * The bad-input cases of failing mode `mode` (0 stop, 1 Continue On Fail, 2 the error output), in
 * turn (a row of fewer than 3 cases repeats one in `npm test`).
 */
function casesInMode(cases: BadInputCase[], mode: number): BadInputCase[] {
	const inMode = cases.filter((_, index) => inTurn(index, mode));
	return inMode.length > 0 ? inMode : [cases[mode % cases.length]];
}

export function badInput(row: ActionNodeRow, sandbox: SandboxOf) {
	const run = runnerFor(row.type);
	describe('bad input fails the item before anything is sent', () => {
		async function threeItems(bad: IDataObject) {
			const keys = await arranged(row, sandbox(), 3);
			const items = keys.map((key) => row.item(key));
			Object.assign(items[1], bad);
			return { keys, items };
		}

		it.each(casesInMode(row.badInput, 0))(
			'%s: stops the execution before the first request, naming the field and the item',
			async (_, extra, bad, message) => {
				const { keys, items } = await threeItems(bad);
				const parameters = withOptions(row.parameters(extra), { concurrency: 1 });
				const result = await run(sandbox(), parameters, { items });

				expect(workflowError(result)).toMatchObject({
					name: 'NodeOperationError',
					message,
					description: expect.stringMatching(
						/^Every item is checked before the first request: item 1 did not pass, so none of the 3 items was sent\. /,
					),
					context: { itemIndex: 1 },
				});
				// not even item 0, which is good: a fixed row and a second run call no one twice
				expect(sentKeys(row, sandbox())).toEqual([]);
				expect(row.done(sandbox())).toEqual([]);
				const numbers = row.keysArePhones ? [keys[1], '+919876501234'] : [];
				expectNoSecrets(result, { numbers });
			},
		);

		it.each(casesInMode(row.badInput, 1))(
			'%s: with continueOnFail the other items go through unharmed',
			async (_, extra, bad, message) => {
				const { keys, items } = await threeItems(bad);
				const result = await run(sandbox(), row.parameters(extra), {
					items,
					settings: { continueOnFail: true },
				});

				expect(result.status).toBe('success');
				const [output] = result.outputOf(NODE_NAME);
				expect(pairedItems(output)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
				// the message names the field and the item; nothing else, as nothing was sent
				expect(failedItemJson(output[1])).toEqual(refusedItemJson(message));
				expect(output.map((item) => item.json)).toEqual([
					row.succeeded(keys[0]),
					refusedItemJson(message),
					row.succeeded(keys[2]),
				]);
				for (const other of otherMainOutputs(row, result)) expect(other).toEqual([]);
				expect(sorted(sentKeys(row, sandbox()))).toEqual([keys[0], keys[2]]);
				expect(sorted(row.done(sandbox()))).toEqual([keys[0], keys[2]]);
			},
		);

		it.each(casesInMode(row.badInput, 2))(
			'%s: with the error output, the bad item goes there with the fields of its input item',
			async (_, extra, bad, message) => {
				const { keys, items } = await threeItems(bad);
				const result = await run(sandbox(), row.parameters(extra), {
					items,
					settings: { onError: 'continueErrorOutput' },
				});

				const outputs = result.outputOf(NODE_NAME);
				const failed = outputs[row.mainOutputs];
				expect(outputs[0].map((item) => [item.json[row.outputKey], item.pairedItem])).toEqual([
					[keys[0], { item: 0 }],
					[keys[2], { item: 2 }],
				]);
				for (const other of otherMainOutputs(row, result)) expect(other).toEqual([]);
				expect(pairedItems(failed)).toEqual([{ item: 1 }]);
				// n8n merges the fields of the input item into the error item
				expect(failedItemJson(failed[0])).toEqual({ ...items[1], ...refusedItemJson(message) });
				expect(result.json(`Output ${row.mainOutputs}`)).toEqual([failed[0].json]);
				expect(sorted(sentKeys(row, sandbox()))).toEqual([keys[0], keys[2]]);
			},
		);
	});
}

export function apiErrors(row: ActionNodeRow, sandbox: SandboxOf) {
	const run = runnerFor(row.type);
	describe('answers of CallKaro that fail an item', () => {
		describe.each(
			row.apiErrors.map((errorCase, index) => [errorCase.title, errorCase, index] as const),
		)('%s', (_title, errorCase, index) => {
			const failing = errorCase.allFail ? [0, 1, 2] : [errorCase.failingItem ?? 1];
			const succeeding = [0, 1, 2].filter((index) => !failing.includes(index));
			const attempts = errorCase.attempts ?? 1;
			const details: ErrorDetails = {
				kind: errorCase.kind,
				httpStatus: Number(errorCase.httpCode),
				serviceMessage: errorCase.serviceMessage,
				attempts,
				outcomeUnknown: errorCase.outcomeUnknown ?? false,
				description: errorCase.description,
			};
			const parameters = withOptions(row.parameters(), { concurrency: 1 });
			const requests = () => apiRequests(sandbox(), row.path);
			let keys: string[] = [];
			let items: IDataObject[] = [];

			beforeEach(async () => {
				keys = await arranged(row, sandbox(), 3);
				items = keys.map((key) => row.item(key));
				if (!errorCase.allFail)
					Object.assign(items[failing[0]], await errorCase.refused?.(sandbox()));
				fastBackoff();
				if (errorCase.faults) {
					sandbox().setFaults({ endpoint: row.faultEndpoint, ...errorCase.faults });
				}
			});

			if (inTurn(index, 0))
				it('stops the execution with a NodeApiError carrying the HTTP code and the item', async () => {
					const result = await run(sandbox(), parameters, {
						items,
						apiKey: errorCase.apiKey,
					});

					expect(workflowError(result)).toMatchObject({
						name: 'NodeApiError',
						message: errorCase.message,
						httpCode: errorCase.httpCode,
						// how far the run got, then the item's hint
						description: stoppedRunDescription(
							row.vocabulary,
							{ itemCount: 3, failingItem: failing[0], outcomeUnknown: details.outcomeUnknown },
							errorCase.description,
						),
						context: { itemIndex: failing[0] },
					});
					// the items after the failed one were never sent
					expect(requests()).toHaveLength(failing[0] + attempts);
					expect(row.done(sandbox())).toEqual(keys.slice(0, failing[0]));
					expectNoSecrets(result, { apiKeys: ALL_KEYS, numbers: row.keysArePhones ? keys : [] });
				});

			if (inTurn(index, 1))
				it('with continueOnFail: an error item in its place, the other items unharmed', async () => {
					const result = await run(sandbox(), parameters, {
						items,
						apiKey: errorCase.apiKey,
						settings: { continueOnFail: true },
					});

					expect(result.status).toBe('success');
					const [output] = result.outputOf(NODE_NAME);
					for (const other of otherMainOutputs(row, result)) expect(other).toEqual([]);
					expect(pairedItems(output)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
					output.forEach((item, index) => {
						if (failing.includes(index)) {
							// only error and details: what n8n routes to an error output
							expect(failedItemJson(item)).toEqual({ error: errorCase.message, details });
						} else {
							expect(item.json).toEqual(row.succeeded(keys[index]));
						}
					});
					expect(requests()).toHaveLength(succeeding.length + failing.length * attempts);
					expect(row.done(sandbox())).toEqual(succeeding.map((index) => keys[index]));
					expectNoSecrets(result, { apiKeys: ALL_KEYS });
				});

			if (inTurn(index, 2))
				it('with the error output: the failed item goes there, with the fields of its input item', async () => {
					const result = await run(sandbox(), parameters, {
						items,
						apiKey: errorCase.apiKey,
						settings: { onError: 'continueErrorOutput' },
					});

					expect(result.status).toBe('success');
					const outputs = result.outputOf(NODE_NAME);
					const [succeeded] = outputs;
					const failed = outputs[row.mainOutputs];
					expect(pairedItems(succeeded)).toEqual(succeeding.map((item) => ({ item })));
					for (const other of otherMainOutputs(row, result)) expect(other).toEqual([]);
					expect(pairedItems(failed)).toEqual(failing.map((item) => ({ item })));
					failed.forEach((item, position) => {
						expect(failedItemJson(item)).toEqual({
							...items[failing[position]],
							error: errorCase.message,
							details,
						});
					});
					// the node after the error output gets them as they are; the one after the first
					// output only the items that succeeded (and does not run when there are none)
					expect(result.json(`Output ${row.mainOutputs}`)).toEqual(failed.map((item) => item.json));
					if (succeeded.length) {
						expect(result.json('Output 0')).toEqual(succeeded.map((item) => item.json));
					} else {
						expect(result.runData['Output 0']).toBeUndefined();
					}
				});
		});
	});
}

export function requiredField(row: ActionNodeRow, sandbox: SandboxOf) {
	const run = runnerFor(row.type);
	it(`an empty ${row.requiredField} typed into the node stops the workflow before it starts`, async () => {
		const [key] = await arranged(row, sandbox(), 1);
		const result = await run(sandbox(), row.parameters({ [row.requiredField]: '' }), {
			items: [row.item(key)],
		});

		// n8n's own check of the node's required parameters
		expect(workflowError(result).name).toBe('WorkflowHasIssuesError');
		expect(apiRequests(sandbox(), row.path)).toEqual([]);
	});
}
