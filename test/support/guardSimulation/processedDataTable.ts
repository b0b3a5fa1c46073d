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
	/** The call's only statement (a count, a delete): it may take the whole call's bound. */
	whole?: boolean;
}

/** What becomes of one statement. */
export interface StatementPlan {
	/** Virtual ms from sending to landing on the table, and from landing to the answer. */
	landAfter: number;
	answerAfter: number;
	/**
	 * 'before': it never lands and fails; 'after': it lands, and the answer is an error; 'late': the
	 * answer is an error after `answerAfter` from sending, and the statement lands after all, at
	 * `landAfter` from sending.
	 */
	fails?: 'before' | 'after' | 'late';
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

const INVALID_NUMBER = 'Invalid value. Only numbers are supported in mode "latestIncrementalKey"';

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
	/** History calls whose read landed and whose write has not: whether the write was sent. */
	private readonly historyCalls = new Map<SimulatedProcess, { writing: boolean }>();
	/** A history call's read that landed while another's was between its read and its write. */
	readonly overlaps: string[] = [];
	/** Keys of the history that a write-back removed without meaning to (written over). */
	erasedKeys = 0;
	/** Statements that landed. */
	statements = 0;
	/** Bytes of row value each statement that landed read or wrote, by row (n8n stores the value as JSON). */
	readonly traffic = { lockRead: 0, lockWritten: 0, historyRead: 0, historyWritten: 0 };

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
		if (plan.fails === 'late') {
			this.time.after(plan.landAfter, () => {
				try {
					this.land(process, statement, apply);
				} catch {
					// its error reaches nobody: the call has answered already
				}
			});
			await this.time.sleep(plan.answerAfter);
			if (!process.alive) return await never();
			process.failedAt.push(this.time.now);
			throw new Error(`The database connection failed (${statement.kind})`);
		}
		await this.time.sleep(plan.landAfter);
		let result: T | undefined;
		let error: unknown;
		// a history write that never lands ends its call
		if (plan.fails === 'before' && statement.scope === 'node' && statement.kind !== 'read') {
			this.historyCalls.delete(process);
		}
		if (plan.fails !== 'before') {
			try {
				result = this.land(process, statement, apply);
			} catch (caught) {
				error = caught;
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

	/** A statement lands on the table: applied, traced, and watched for overlapping history calls. */
	private land<T>(process: SimulatedProcess, statement: Statement, apply: () => T): T {
		this.statements++;
		let error: unknown;
		let result: T | undefined;
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
		if (error) throw error;
		return result as T;
	}

	private count(scope: DeduplicationScope, way: 'Read' | 'Written', row?: ProcessedRow): void {
		if (!row) return;
		const bytes = JSON.stringify({ mode: row.mode, data: row.data }).length;
		this.traffic[`${scope === 'node' ? 'history' : 'lock'}${way}`] += bytes;
	}

	/** The helpers n8n gives one node of one workflow in one process. */
	helpersFor(process: SimulatedProcess, workflowId: string, nodeId: string) {
		const keyOf = (scope: DeduplicationScope) =>
			`${workflowId}|${scope === 'node' ? `n:${nodeId}` : ''}`;
		const history = (scope: DeduplicationScope) => scope === 'node';
		/** A read; `call` for the read of a history call still under way, which then writes the row back. */
		const read = async (scope: DeduplicationScope, call?: { open: boolean }, whole?: boolean) =>
			await this.statement(process, { kind: 'read', scope, whole }, () => {
				if (history(scope) && call?.open) {
					const others = [...this.historyCalls].filter(
						([other, call]) => other !== process && (other.alive || call.writing),
					);
					if (others.length > 0) {
						this.overlaps.push(
							`${this.time.now.toFixed(1)} ${process.name} read the history while ${others.map(([other]) => other.name).join(', ')} had not written it back`,
						);
					}
					this.historyCalls.set(process, { writing: false });
				}
				const row = this.rows.get(keyOf(scope));
				this.count(scope, 'Read', row);
				return row && copyOf(row);
			});
		const written = (scope: DeduplicationScope) => {
			if (history(scope)) this.historyCalls.delete(process);
		};
		const writing = (scope: DeduplicationScope) => {
			const call = this.historyCalls.get(process);
			if (history(scope) && call) call.writing = true;
		};
		const insert = async (scope: DeduplicationScope, row: ProcessedRow) => {
			writing(scope);
			return await this.statement(process, { kind: 'insert', scope }, () => {
				written(scope);
				if (this.rows.has(keyOf(scope))) {
					throw new Error('duplicate key value violates unique constraint "PK_processed_data"');
				}
				this.count(scope, 'Written', row);
				this.rows.set(keyOf(scope), row);
			});
		};
		/** Writes a row back; `removing` are the hashes the call means to take out. */
		const update = async (
			scope: DeduplicationScope,
			row: ProcessedRow,
			removing: string[] = [],
		) => {
			writing(scope);
			return await this.statement(process, { kind: 'update', scope }, () => {
				written(scope);
				const current = this.rows.get(keyOf(scope));
				if (!current) return;
				this.count(scope, 'Written', row);
				if (history(scope) && Array.isArray(current.data) && Array.isArray(row.data)) {
					const kept = new Set([...row.data, ...removing]);
					this.erasedKeys += current.data.filter((hash) => !kept.has(hash)).length;
				}
				this.rows.set(keyOf(scope), copyOf(row));
			});
		};
		/** Runs one call; when it ends, a history call that sent no write is no longer under way. */
		const ended = async <T>(
			scope: DeduplicationScope,
			run: (call: { open: boolean }) => Promise<T>,
		): Promise<T> => {
			const call = { open: true };
			try {
				return await run(call);
			} finally {
				call.open = false;
				const under = this.historyCalls.get(process);
				if (history(scope) && under && !under.writing) this.historyCalls.delete(process);
			}
		};

		return {
			checkProcessedAndRecord: async (
				items: DeduplicationItemTypes[],
				scope: DeduplicationScope,
				options: ICheckProcessedOptions,
			): Promise<IDeduplicationOutput> =>
				await ended(scope, async (call): Promise<IDeduplicationOutput> => {
					const row = await read(scope, call);
					if (row && row.mode !== options.mode) throw new Error(MODE_MISMATCH);
					const output: IDeduplicationOutput = { new: [], processed: [] };
					if (options.mode === 'latestIncrementalKey') {
						// n8n sorts the items by their number (none to compare when there is one) and
						// stores the largest as it is: a single list is stored as a list
						if (items.length > 1 && items.some((item) => Number.isNaN(Number(item))))
							throw new Error(INVALID_NUMBER);
						const largest = items.length === 1 ? items[0] : Math.max(...items.map(Number));
						if (!row) {
							await insert(scope, { mode: options.mode, data: largest as number | string[] });
							return { new: items, processed: [] };
						}
						if (Array.isArray(row.data)) return output;
						const stored = row.data;
						if (items.some((item) => Number.isNaN(Number(item)))) throw new Error(INVALID_NUMBER);
						for (const item of items)
							(Number(item) > stored ? output.new : output.processed).push(item);
						await update(scope, { mode: row.mode, data: Math.max(stored, Number(largest)) });
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
				}),

			removeProcessed: async (
				items: DeduplicationItemTypes[],
				scope: DeduplicationScope,
				options: ICheckProcessedOptions,
			): Promise<void> => {
				if (options.mode !== 'entries') throw new Error('Removing processed data is not possible');
				await ended(scope, async (call) => {
					const row = await read(scope, call);
					if (!row || !Array.isArray(row.data)) return;
					const data = row.data;
					const removing = items.map(hashOf);
					for (const hash of removing) {
						const index = data.indexOf(hash);
						if (index !== -1) data.splice(index, 1);
					}
					await update(scope, row, removing);
				});
			},

			clearAllProcessedItems: async (scope: DeduplicationScope): Promise<void> =>
				await this.statement(process, { kind: 'delete', scope, whole: true }, () => {
					this.rows.delete(keyOf(scope));
				}),

			getProcessedDataCount: async (
				scope: DeduplicationScope,
				options: ICheckProcessedOptions,
			): Promise<number> => {
				const row = await read(scope, undefined, true);
				return options.mode === 'entries' && Array.isArray(row?.data) ? row.data.length : 0;
			},
		};
	}
}
