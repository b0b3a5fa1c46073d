// n8n's processed-data store ("deduplication") for engine tests. n8n-core only defines the
// interface: every `this.helpers.checkProcessedAndRecord`... throws until
// `DataDeduplicationService.init()` is given an implementation, which n8n's cli supplies with its
// database. This one keeps the same rows in memory and behaves like the cli's DeduplicationHelper:
// md5 (base64) hashes of the values, one row per workflow and context ('' for scope 'workflow',
// `n:<node id>` for scope 'node'), FIFO trimming to `maxEntries`, an error when a row was saved
// in another mode, and a read, then a write, with no lock between them.
import { createHash } from 'node:crypto';

import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationMode,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';
import { UnexpectedError, UserError, sleep } from 'n8n-workflow';

import { DEFAULT_CLAIM_TIMING } from '../../src/guard';

interface ProcessedRow {
	mode: DeduplicationMode;
	data: string[];
}

const MODE_MISMATCH =
	'Deduplication data was originally saved with an incompatible setting of the ‘Keep Items Where’ parameter. Try ’Clean Database’ operation to reset.';

function rowKey(scope: DeduplicationScope, { node, workflow }: ICheckProcessedContextData): string {
	if (scope === 'node' && !node) {
		throw new UserError("No node information has been provided and so cannot use scope 'node'");
	}
	return `${workflow.id}|${scope === 'node' ? `n:${node!.id}` : ''}`;
}

function hashOf(value: DeduplicationItemTypes): string {
	return createHash('md5').update(value.toString()).digest('base64');
}

function onlyEntries(options: ICheckProcessedOptions): void {
	if (options.mode !== 'entries') {
		throw new UnexpectedError(`The in-memory store implements mode 'entries' only`);
	}
}

/** Lets other calls run between a read and a write, as a database round trip does. */
async function roundTrip(): Promise<void> {
	await sleep(0);
}

/** The store's calls a test can make fail. */
export type StoreCall = 'checkProcessedAndRecord' | 'removeProcessed' | 'getProcessedDataCount';

export class InMemoryDeduplicator implements IDataDeduplicator {
	/** The stored rows, by `<workflow id>|<context>`, as n8n's processed_data table holds them. */
	readonly rows = new Map<string, ProcessedRow>();

	/** Calls to fail: by call, how many of its calls still succeed first. */
	private readonly failing = new Map<StoreCall, number>();

	/** Makes `call` throw (as a database that went away does) once `succeeding` more calls of it have passed. */
	failAfter(call: StoreCall, succeeding = 0): void {
		this.failing.set(call, succeeding);
	}

	/** Forgets the calls set to fail. */
	healAll(): void {
		this.failing.clear();
	}

	private maybeFail(call: StoreCall): void {
		const succeeding = this.failing.get(call);
		if (succeeding === undefined) return;
		if (succeeding > 0) this.failing.set(call, succeeding - 1);
		else throw new UnexpectedError(`The database is unreachable (${call})`);
	}

	private staleWrite?: { rowsReadEarlier: Map<string, ProcessedRow>; items: string[] };

	private async read(key: string): Promise<ProcessedRow | undefined> {
		await roundTrip();
		const row = this.rows.get(key);
		return row && { mode: row.mode, data: [...row.data] };
	}

	private async write(key: string, row: ProcessedRow): Promise<void> {
		await roundTrip();
		this.rows.set(key, row);
		const stale = this.staleWrite;
		const readEarlier = stale?.rowsReadEarlier.get(key);
		if (stale && readEarlier) {
			this.staleWrite = undefined;
			this.rows.set(key, { mode: readEarlier.mode, data: [...readEarlier.data, ...stale.items] });
		}
	}

	/**
	 * Another n8n process (a second worker) reads the rows now, adds `items` and writes its list
	 * back right after the next write of a row it read: that write is lost, as n8n's read, then
	 * write, lets happen between processes.
	 */
	writeStaleAfterNextWrite(items: DeduplicationItemTypes[]): void {
		const rowsReadEarlier = new Map(
			[...this.rows].map(([key, row]) => [key, { mode: row.mode, data: [...row.data] }]),
		);
		this.staleWrite = { rowsReadEarlier, items: items.map(hashOf) };
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		this.maybeFail('checkProcessedAndRecord');
		const key = rowKey(scope, contextData);
		const row = await this.read(key);
		if (row && row.mode !== options.mode) throw new UserError(MODE_MISMATCH);
		onlyEntries(options);
		const hashes = items.map(hashOf);
		if (!row) {
			// Like n8n: a first list is recorded as it is, so its own repeats all count as new.
			const data = options.maxEntries ? hashes.slice(-options.maxEntries) : hashes;
			await this.write(key, { mode: options.mode, data });
			return { new: items, processed: [] };
		}
		const output: IDeduplicationOutput = { new: [], processed: [] };
		hashes.forEach((hash, index) => {
			if (row.data.includes(hash)) output.processed.push(items[index]);
			else {
				output.new.push(items[index]);
				row.data.push(hash);
			}
		});
		if (options.maxEntries) row.data.splice(0, row.data.length - options.maxEntries);
		await this.write(key, row);
		return output;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		this.maybeFail('removeProcessed');
		onlyEntries(options);
		const key = rowKey(scope, contextData);
		const row = await this.read(key);
		if (!row) return;
		for (const hash of items.map(hashOf)) {
			const index = row.data.indexOf(hash);
			if (index !== -1) row.data.splice(index, 1);
		}
		await this.write(key, row);
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		await roundTrip();
		this.rows.delete(rowKey(scope, contextData));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<number> {
		this.maybeFail('getProcessedDataCount');
		const row = await this.read(rowKey(scope, contextData));
		return options.mode === 'entries' ? (row?.data.length ?? 0) : 0;
	}
}

let installed: InMemoryDeduplicator | undefined;

/**
 * Gives n8n-core the in-memory store (once per test file: n8n-core allows one init per process,
 * and jest loads n8n-core afresh for each file) and empties it before each test. The guard checks
 * its claims again at once instead of a second later: this store's stale writes land on the next
 * write, not after a time.
 */
export function useDeduplicationStore(): () => InMemoryDeduplicator {
	beforeAll(async () => {
		if (!installed) {
			installed = new InMemoryDeduplicator();
			await DataDeduplicationService.init(installed);
		}
	});
	beforeEach(() => {
		installed?.rows.clear();
		installed?.healAll();
		jest.replaceProperty(DEFAULT_CLAIM_TIMING, 'settleMs', 0);
	});
	return () => {
		if (!installed) throw new UnexpectedError('The deduplication store is not installed yet');
		return installed;
	};
}
