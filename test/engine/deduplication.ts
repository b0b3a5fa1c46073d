// n8n's processed-data store ("deduplication") for engine tests. n8n-core only defines the
// interface: every `this.helpers.checkProcessedAndRecord`... throws until
// `DataDeduplicationService.init()` is given an implementation, which n8n's cli supplies with its
// database. This one keeps the same rows in memory and behaves like the cli's DeduplicationHelper:
// md5 (base64) hashes of the values, one row per workflow and context ('' for scope 'workflow',
// `n:<node id>` for scope 'node'), FIFO trimming to `maxEntries`, mode 'latestIncrementalKey' (one
// number, raised, never lowered; a single list given where there is no row is stored as it is, and
// never compared), an error when a row was saved in another mode, and a read, then a
// write, with no lock between them: a row is created by an insert that fails with a duplicate key
// when another call created it meanwhile, an update writes back the whole row it read (over what
// another call wrote meanwhile) and changes nothing where the row was deleted meanwhile.
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
import { UnexpectedError, UserError } from 'n8n-workflow';

import { DEFAULT_GUARD_TIMING } from '../../src/guard/guard';
import { plainRowElements } from '../../src/guard/guardLock';
import { roundTrip, useVirtualClock } from './virtualClock';

interface ProcessedRow {
	mode: DeduplicationMode;
	data: string[] | number;
}

const copyOf = (row: ProcessedRow): ProcessedRow => ({
	mode: row.mode,
	data: Array.isArray(row.data) ? [...row.data] : row.data,
});

const MODE_MISMATCH =
	'Deduplication data was originally saved with an incompatible setting of the ‘Keep Items Where’ parameter. Try ’Clean Database’ operation to reset.';

const INVALID_NUMBER = 'Invalid value. Only numbers are supported in mode "latestIncrementalKey"';

function rowKey(scope: DeduplicationScope, { node, workflow }: ICheckProcessedContextData): string {
	if (scope === 'node' && !node) {
		throw new UserError("No node information has been provided and so cannot use scope 'node'");
	}
	return `${workflow.id}|${scope === 'node' ? `n:${node!.id}` : ''}`;
}

function hashOf(value: DeduplicationItemTypes): string {
	return createHash('md5').update(value.toString()).digest('base64');
}

function modeImplemented(options: ICheckProcessedOptions): void {
	if (options.mode === 'latestDate') {
		throw new UnexpectedError(`The in-memory store implements no mode 'latestDate'`);
	}
}

/** The store's calls a test can make fail. */
export type StoreCall =
	| 'checkProcessedAndRecord'
	| 'removeProcessed'
	| 'getProcessedDataCount'
	| 'clearAllProcessedItems';

export class InMemoryDeduplicator implements IDataDeduplicator {
	/** The stored rows, by `<workflow id>|<context>`, as n8n's processed_data table holds them. */
	readonly rows = new Map<string, ProcessedRow>();

	/** Calls to fail: by call, how many of its calls still succeed first. */
	private readonly failing = new Map<StoreCall, number>();

	/** Makes `call` throw (as a database that went away does) once `succeeding` more calls of it have passed. */
	failAfter(call: StoreCall, succeeding = 0): void {
		this.failing.set(call, succeeding);
	}

	/** Forgets the calls set to fail, and what other processes were set to do. */
	healAll(): void {
		this.failing.clear();
		this.staleWrite = undefined;
		this.heldElsewhere = undefined;
	}

	private maybeFail(call: StoreCall): void {
		const succeeding = this.failing.get(call);
		if (succeeding === undefined) return;
		if (succeeding > 0) this.failing.set(call, succeeding - 1);
		else throw new UnexpectedError(`The database is unreachable (${call})`);
	}

	private staleWrite?: {
		rowsReadEarlier: Map<string, ProcessedRow>;
		items: string[];
		/** 'next write': right after the next write of a row read; 'election': right after an election's first shrink of the lock row. */
		after: 'next write' | 'election';
	};

	/** Another process's lock: its row's key, and how many more looks at it see it before it is given back. */
	private heldElsewhere?: { key: string; looks: number };

	private async read(key: string): Promise<ProcessedRow | undefined> {
		await roundTrip();
		const row = this.rows.get(key);
		return row && copyOf(row);
	}

	/** An INSERT: the primary key refuses a second row. */
	private async insert(key: string, row: ProcessedRow): Promise<void> {
		await roundTrip();
		if (this.rows.has(key)) {
			throw new UnexpectedError(
				'duplicate key value violates unique constraint "PK_processed_data"',
			);
		}
		this.rows.set(key, row);
	}

	/** An UPDATE of the whole row: nothing where the row is gone. */
	private async update(key: string, row: ProcessedRow): Promise<void> {
		await roundTrip();
		const before = this.rows.get(key);
		if (!before) return;
		this.rows.set(key, row);
		const stale = this.staleWrite;
		if (!stale) return;
		const electionShrank =
			key.endsWith('|') &&
			Array.isArray(before.data) &&
			Array.isArray(row.data) &&
			row.data.length < before.data.length;
		if (stale.after === 'election' && !electionShrank) return;
		for (const [readKey, readEarlier] of stale.rowsReadEarlier) {
			if (!Array.isArray(readEarlier.data)) continue;
			if (stale.after === 'next write' && readKey !== key) continue;
			this.staleWrite = undefined;
			const data = [...readEarlier.data, ...stale.items];
			this.rows.set(readKey, { mode: readEarlier.mode, data });
		}
	}

	/**
	 * Another n8n process (a second worker) reads the rows now, adds `items` and writes its list
	 * back right after the next write of a row it read: that write is lost, as n8n's read, then
	 * write, lets happen between processes.
	 */
	writeStaleAfterNextWrite(items: DeduplicationItemTypes[]): void {
		const rowsReadEarlier = new Map([...this.rows].map(([key, row]) => [key, copyOf(row)]));
		this.staleWrite = { rowsReadEarlier, items: items.map(hashOf), after: 'next write' };
	}

	/**
	 * The holder of the lock is stalled, not dead: its history write (the lists as they are now,
	 * plus `items`) lands right after another process, taking its row for left, starts an election
	 * over it (the election's first shrink of the lock row).
	 */
	writeStaleAfterTakeover(items: DeduplicationItemTypes[]): void {
		const rowsReadEarlier = new Map([...this.rows].map(([key, row]) => [key, copyOf(row)]));
		this.staleWrite = { rowsReadEarlier, items: items.map(hashOf), after: 'election' };
	}

	/**
	 * Another n8n process holds the guard's lock of workflow `workflowId`, taken when its clock read
	 * `since` (ms): the row its create wrote, a list of the lock's elements for that creation slot
	 * (with the guard's timing as it is now), each stored as n8n hashes it. It gives the lock back
	 * (deletes the row) once `looks` calls (a create or a count) have looked at it; never, as a
	 * killed worker, when `looks` is undefined.
	 */
	holdLockElsewhere(workflowId: string, since: number, looks?: number): void {
		const key = `${workflowId}|`;
		const data = plainRowElements(since, DEFAULT_GUARD_TIMING).map(hashOf);
		this.rows.set(key, { mode: 'latestIncrementalKey', data });
		this.heldElsewhere = looks === undefined ? undefined : { key, looks };
	}

	/** An earlier version's holder: its lock, a number, given back once `looks` calls have looked at it. */
	holdNumberLockElsewhere(workflowId: string, value: number, looks: number): void {
		const key = `${workflowId}|`;
		this.rows.set(key, { mode: 'latestIncrementalKey', data: value });
		this.heldElsewhere = { key, looks };
	}

	private looked(key: string): void {
		const held = this.heldElsewhere;
		if (held?.key !== key || --held.looks > 0) return;
		this.heldElsewhere = undefined;
		this.rows.delete(key);
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		this.maybeFail('checkProcessedAndRecord');
		modeImplemented(options);
		const key = rowKey(scope, contextData);
		const row = await this.read(key);
		if (row && row.mode !== options.mode) throw new UserError(MODE_MISMATCH);
		const output =
			options.mode === 'entries'
				? await this.recordEntries(key, row, items, options)
				: await this.recordLatest(key, row, items, options);
		this.looked(key);
		return output;
	}

	private async recordEntries(
		key: string,
		row: ProcessedRow | undefined,
		items: DeduplicationItemTypes[],
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		const hashes = items.map(hashOf);
		if (!row) {
			// Like n8n: a first list is recorded as it is, so its own repeats all count as new.
			const data = options.maxEntries ? hashes.slice(-options.maxEntries) : hashes;
			await this.insert(key, { mode: options.mode, data });
			return { new: items, processed: [] };
		}
		const data = row.data as string[];
		const output: IDeduplicationOutput = { new: [], processed: [] };
		hashes.forEach((hash, index) => {
			if (data.includes(hash)) output.processed.push(items[index]);
			else {
				output.new.push(items[index]);
				data.push(hash);
			}
		});
		if (options.maxEntries) data.splice(0, data.length - options.maxEntries);
		await this.update(key, row);
		return output;
	}

	/**
	 * Mode 'latestIncrementalKey': new are the items above the stored number, which becomes the
	 * largest. Like n8n, which compares only when there is more than one item or a row: a single item
	 * where there is no row is stored as it is (a list stays a list), a row holding a list is left
	 * as it is and nothing is new, and a list compared with a number is an invalid value.
	 */
	private async recordLatest(
		key: string,
		row: ProcessedRow | undefined,
		items: DeduplicationItemTypes[],
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		const only: unknown = items.length === 1 ? items[0] : undefined;
		const list = Array.isArray(only) ? only.map(String) : undefined;
		if (items.length > 1 && items.some((item) => Number.isNaN(Number(item)))) {
			throw new UserError(INVALID_NUMBER);
		}
		const sorted = [...items].sort((a, b) => Number(a) - Number(b));
		if (!row) {
			const data = list ?? Number(sorted[sorted.length - 1]);
			await this.insert(key, { mode: options.mode, data });
			return { new: items, processed: [] };
		}
		if (Array.isArray(row.data)) return { new: [], processed: [] };
		if (list) throw new UserError(INVALID_NUMBER);
		const stored = Number(row.data);
		const output: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of sorted) (Number(item) > stored ? output.new : output.processed).push(item);
		row.data = Math.max(stored, ...sorted.map(Number));
		await this.update(key, row);
		return output;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		this.maybeFail('removeProcessed');
		modeImplemented(options);
		const key = rowKey(scope, contextData);
		const row = await this.read(key);
		if (!row || !Array.isArray(row.data)) return;
		for (const hash of items.map(hashOf)) {
			const index = row.data.indexOf(hash);
			if (index !== -1) row.data.splice(index, 1);
		}
		await this.update(key, row);
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		this.maybeFail('clearAllProcessedItems');
		await roundTrip();
		this.rows.delete(rowKey(scope, contextData));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<number> {
		this.maybeFail('getProcessedDataCount');
		const key = rowKey(scope, contextData);
		const row = await this.read(key);
		// the lock's look at a row
		this.looked(key);
		return options.mode === 'entries' && Array.isArray(row?.data) ? row.data.length : 0;
	}
}

let installed: InMemoryDeduplicator | undefined;

/** The timing assumption's unit in engine tests, small: an election's waits and a holder's windows derive from it. */
export const ENGINE_SETTLE_MS = 10;

/**
 * Gives n8n-core the in-memory store (once per test file: n8n-core allows one init per process,
 * and jest loads n8n-core afresh for each file) and empties it before each test, and puts each
 * test on the virtual clock (virtualClock.ts): the guard's lock decides by its clock, and real
 * time would make its windows depend on the machine's speed. The guard looks at a busy lock, and
 * checks a claim after a broken lock, at once: this store's other processes act on the next call,
 * not after a time; an election waits some tens of ms of that clock.
 */
export function useDeduplicationStore(): () => InMemoryDeduplicator {
	beforeAll(async () => {
		if (!installed) {
			installed = new InMemoryDeduplicator();
			await DataDeduplicationService.init(installed);
		}
	});
	beforeEach(() => {
		useVirtualClock();
		installed?.rows.clear();
		installed?.healAll();
		jest.replaceProperty(DEFAULT_GUARD_TIMING, 'pollMs', 0);
		jest.replaceProperty(DEFAULT_GUARD_TIMING, 'settleMs', ENGINE_SETTLE_MS);
	});
	afterEach(() => jest.restoreAllMocks());
	return () => {
		if (!installed) throw new UnexpectedError('The deduplication store is not installed yet');
		return installed;
	};
}
