// n8n's processed-data store for the guard's simulation, statement by statement. It follows the
// DeduplicationHelper of n8n 2.41 and 1.123 (dist/deduplication/deduplication-helper.js, the same
// in both): a call reads its row with findOne, then inserts it (which fails on the primary key when
// another call created it meanwhile) or writes back the whole row it read with update (which changes
// nothing where the row is gone); clearAllProcessedItems deletes the row. Each statement lands on
// the table at one moment of virtual time; the planner says when, and whether it fails or kills
// its process. A dead process issues nothing more and never sees an answer, but a statement it sent
// still lands, as PostgreSQL finishes a statement whose client died.
import { createHash } from 'node:crypto';

import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedOptions,
	IDeduplicationOutput,
} from 'n8n-workflow';

import type { VirtualTime } from './virtualTime';

interface ProcessedRow {
	mode: string;
	data: string[] | number;
}

export type StatementKind = 'read' | 'insert' | 'update' | 'delete';

export interface Statement {
	kind: StatementKind;
	scope: DeduplicationScope;
}

/** What becomes of one statement. */
export interface StatementPlan {
	/** Virtual ms from sending to landing on the table, and from landing to the answer. */
	landAfter: number;
	answerAfter: number;
	/** 'before': it never lands and fails; 'after': it lands, and the answer is an error. */
	fails?: 'before' | 'after';
	/** The process dies the moment the statement lands. */
	killsProcess?: boolean;
}

export interface SimulatedProcess {
	name: string;
	alive: boolean;
	/** Statements of this process that failed, with the time they did. */
	failedAt: number[];
}

const MODE_MISMATCH =
	'Deduplication data was originally saved with an incompatible setting of the ‘Keep Items Where’ parameter. Try ’Clean Database’ operation to reset.';

/** A promise that never settles: what a dead process waits on. */
const never = async (): Promise<never> => await new Promise<never>(() => undefined);

const hashOf = (value: DeduplicationItemTypes) =>
	createHash('md5').update(value.toString()).digest('base64');

const copyOf = (row: ProcessedRow): ProcessedRow => ({
	mode: row.mode,
	data: Array.isArray(row.data) ? [...row.data] : row.data,
});

export class ProcessedDataTable {
	readonly rows = new Map<string, ProcessedRow>();
	/** Every statement that landed, for a replayed seed: time, process, what. */
	readonly trace: string[] = [];

	constructor(
		private readonly time: VirtualTime,
		private readonly plan: (process: SimulatedProcess, statement: Statement) => StatementPlan,
		private readonly tracing = false,
	) {}

	private async statement<T>(
		process: SimulatedProcess,
		statement: Statement,
		apply: () => T,
	): Promise<T> {
		if (!process.alive) return await never();
		const plan = this.plan(process, statement);
		await this.time.sleep(plan.landAfter);
		let result: T | undefined;
		let error: unknown;
		if (plan.fails !== 'before') {
			try {
				result = apply();
			} catch (caught) {
				error = caught;
			}
			if (this.tracing) {
				const rows = [...this.rows].filter(([key]) => key.endsWith('|'));
				const lockRow = statement.scope === 'workflow' ? ` lock=${rows[0]?.[1].data ?? '-'}` : '';
				const outcome = error ? ` -> ${String(error)}` : '';
				this.trace.push(
					`${this.time.now.toFixed(1)} ${process.name} ${statement.kind} ${statement.scope}${lockRow}${outcome}`,
				);
			}
		}
		if (plan.killsProcess) process.alive = false;
		await this.time.sleep(plan.answerAfter);
		if (!process.alive) return await never();
		if (plan.fails) {
			process.failedAt.push(this.time.now);
			throw new Error(`The database connection failed (${statement.kind})`);
		}
		if (error) throw error;
		return result as T;
	}

	/** The helpers n8n gives one node of one workflow in one process. */
	helpersFor(process: SimulatedProcess, workflowId: string, nodeId: string) {
		const keyOf = (scope: DeduplicationScope) =>
			`${workflowId}|${scope === 'node' ? `n:${nodeId}` : ''}`;
		const read = async (scope: DeduplicationScope) =>
			await this.statement(process, { kind: 'read', scope }, () => {
				const row = this.rows.get(keyOf(scope));
				return row && copyOf(row);
			});
		const insert = async (scope: DeduplicationScope, row: ProcessedRow) =>
			await this.statement(process, { kind: 'insert', scope }, () => {
				if (this.rows.has(keyOf(scope))) {
					throw new Error('duplicate key value violates unique constraint "PK_processed_data"');
				}
				this.rows.set(keyOf(scope), row);
			});
		const update = async (scope: DeduplicationScope, row: ProcessedRow) =>
			await this.statement(process, { kind: 'update', scope }, () => {
				if (this.rows.has(keyOf(scope))) this.rows.set(keyOf(scope), copyOf(row));
			});

		return {
			checkProcessedAndRecord: async (
				items: DeduplicationItemTypes[],
				scope: DeduplicationScope,
				options: ICheckProcessedOptions,
			): Promise<IDeduplicationOutput> => {
				const row = await read(scope);
				if (row && row.mode !== options.mode) throw new Error(MODE_MISMATCH);
				const output: IDeduplicationOutput = { new: [], processed: [] };
				if (options.mode === 'latestIncrementalKey') {
					const largest = Math.max(...items.map(Number));
					if (!row) {
						await insert(scope, { mode: options.mode, data: largest });
						return { new: items, processed: [] };
					}
					if (Array.isArray(row.data)) return output;
					const stored = row.data;
					for (const item of items)
						(Number(item) > stored ? output.new : output.processed).push(item);
					await update(scope, { mode: row.mode, data: Math.max(stored, largest) });
					return output;
				}
				const hashes = items.map(hashOf);
				const trim = (data: string[]) =>
					options.maxEntries ? data.slice(Math.max(0, data.length - options.maxEntries)) : data;
				if (!row) {
					await insert(scope, { mode: options.mode, data: trim(hashes) });
					return { new: items, processed: [] };
				}
				if (!Array.isArray(row.data)) return output;
				const data = row.data;
				hashes.forEach((hash, index) => {
					if (data.includes(hash)) output.processed.push(items[index]);
					else {
						output.new.push(items[index]);
						data.push(hash);
					}
				});
				await update(scope, { mode: row.mode, data: trim(data) });
				return output;
			},

			removeProcessed: async (
				items: DeduplicationItemTypes[],
				scope: DeduplicationScope,
				options: ICheckProcessedOptions,
			): Promise<void> => {
				if (options.mode !== 'entries') throw new Error('Removing processed data is not possible');
				const row = await read(scope);
				if (!row || !Array.isArray(row.data)) return;
				const data = row.data;
				for (const hash of items.map(hashOf)) {
					const index = data.indexOf(hash);
					if (index !== -1) data.splice(index, 1);
				}
				await update(scope, row);
			},

			clearAllProcessedItems: async (scope: DeduplicationScope): Promise<void> =>
				await this.statement(process, { kind: 'delete', scope }, () => {
					this.rows.delete(keyOf(scope));
				}),

			getProcessedDataCount: async (
				scope: DeduplicationScope,
				options: ICheckProcessedOptions,
			): Promise<number> => {
				const row = await read(scope);
				return options.mode === 'entries' && Array.isArray(row?.data) ? row.data.length : 0;
			},
		};
	}
}
