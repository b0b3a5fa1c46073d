// The in-memory processed-data store behaves like n8n's own (cli DeduplicationHelper), as the
// nodes reach it: through n8n-core's DataDeduplicationService.
import { createHash } from 'node:crypto';

import { DataDeduplicationService } from 'n8n-core';
import type { ICheckProcessedContextData, INode } from 'n8n-workflow';

import { useDeduplicationStore } from './deduplication';

const node = { id: 'node-1', name: 'CallKaro' } as INode;
const context: ICheckProcessedContextData = { node, workflow: { id: 'wf-1', active: true } };
const entries = { mode: 'entries' as const };
const md5 = (value: string) => createHash('md5').update(value).digest('base64');

describe('in-memory processed-data store', () => {
	const store = useDeduplicationStore();
	const service = () => DataDeduplicationService.getInstance();

	it('stores md5 hashes, one row per workflow and node, and answers new or processed', async () => {
		expect(await service().checkProcessedAndRecord(['a', 'b'], 'node', context, entries)).toEqual({
			new: ['a', 'b'],
			processed: [],
		});
		expect(await service().checkProcessedAndRecord(['b', 'c'], 'node', context, entries)).toEqual({
			new: ['c'],
			processed: ['b'],
		});
		expect(store().rows.get('wf-1|n:node-1')).toEqual({
			mode: 'entries',
			data: [md5('a'), md5('b'), md5('c')],
		});
		// scope 'workflow' is another row
		expect(await service().checkProcessedAndRecord(['a'], 'workflow', context, entries)).toEqual({
			new: ['a'],
			processed: [],
		});
	});

	it("like n8n, counts a first list's own repeats as new, and later repeats as processed", async () => {
		expect(
			(await service().checkProcessedAndRecord(['a', 'a'], 'node', context, entries)).new,
		).toEqual(['a', 'a']);
		expect(await service().checkProcessedAndRecord(['b', 'b'], 'node', context, entries)).toEqual({
			new: ['b'],
			processed: ['b'],
		});
	});

	it('forgets the oldest entries beyond maxEntries', async () => {
		const options = { mode: 'entries' as const, maxEntries: 2 };
		await service().checkProcessedAndRecord(['a', 'b', 'c'], 'node', context, options);
		expect(await service().getProcessedDataCount('node', context, options)).toBe(2);
		expect(await service().checkProcessedAndRecord(['a', 'c'], 'node', context, options)).toEqual({
			new: ['a'],
			processed: ['c'],
		});
	});

	it('removes given entries, and clears a whole row', async () => {
		await service().checkProcessedAndRecord(['a', 'b'], 'node', context, entries);
		await service().removeProcessed(['a'], 'node', context, entries);
		expect(await service().checkProcessedAndRecord(['a', 'b'], 'node', context, entries)).toEqual({
			new: ['a'],
			processed: ['b'],
		});
		await service().clearAllProcessedItems('node', context, entries);
		expect(await service().getProcessedDataCount('node', context, entries)).toBe(0);
	});

	it('throws when a row was saved in another mode', async () => {
		await service().checkProcessedAndRecord([1], 'node', context, {
			mode: 'entries',
		});
		await expect(
			service().checkProcessedAndRecord([2], 'node', context, { mode: 'latestIncrementalKey' }),
		).rejects.toThrow('incompatible setting');
	});

	it('reads, then writes, with no lock: two calls at the same moment both see a value as new', async () => {
		await service().checkProcessedAndRecord(['seed'], 'node', context, entries);
		const [first, second] = await Promise.all([
			service().checkProcessedAndRecord(['x'], 'node', context, entries),
			service().checkProcessedAndRecord(['x'], 'node', context, entries),
		]);
		expect([first.new, second.new]).toEqual([['x'], ['x']]);
	});

	it("lets another process's older list overwrite a write, as between two n8n workers", async () => {
		await service().checkProcessedAndRecord(['seed'], 'node', context, entries);
		store().writeStaleAfterNextWrite(['theirs']);
		await service().checkProcessedAndRecord(['mine'], 'node', context, entries);

		expect(store().rows.get('wf-1|n:node-1')?.data).toEqual([md5('seed'), md5('theirs')]);
		expect(
			(await service().checkProcessedAndRecord(['mine'], 'node', context, entries)).new,
		).toEqual(['mine']);
	});

	it('creates a row with an insert: the loser of two creations at once gets a duplicate key', async () => {
		const results = await Promise.allSettled([
			service().checkProcessedAndRecord(['a'], 'node', context, entries),
			service().checkProcessedAndRecord(['b'], 'node', context, entries),
		]);
		expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
		expect(String((results[1] as PromiseRejectedResult).reason)).toContain('duplicate key');
	});

	it('writes nothing where the row was deleted between the read and the write', async () => {
		await service().checkProcessedAndRecord(['a'], 'node', context, entries);
		await Promise.all([
			service().checkProcessedAndRecord(['b'], 'node', context, entries),
			service().clearAllProcessedItems('node', context, entries),
		]);
		expect(store().rows.has('wf-1|n:node-1')).toBe(false);
	});

	it("keeps one number in mode 'latestIncrementalKey': new are the items above it, and it only rises", async () => {
		const latest = { mode: 'latestIncrementalKey' as const };
		expect(await service().checkProcessedAndRecord([5, 3], 'workflow', context, latest)).toEqual({
			new: [5, 3],
			processed: [],
		});
		expect(await service().checkProcessedAndRecord([4, 7], 'workflow', context, latest)).toEqual({
			new: [7],
			processed: [4],
		});
		expect(store().rows.get('wf-1|')).toEqual({ mode: 'latestIncrementalKey', data: 7 });
	});
});
