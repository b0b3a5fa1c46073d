/**
 * What one tool of an AI agent may still do in one execution: each tool call is its own run of
 * the node, so the numbers it reached and how many are kept per execution, not per run. Claims
 * are synchronous, so parallel tool calls of one execution (which interleave only at awaits)
 * never both take the last slot.
 */

/** Why a claim was refused: the number was reached before, or the tool's calls are used up. */
export type BudgetRefusal = 'duplicate' | 'limitReached';

export interface BudgetClaim {
	/** Gives the slot and the key back: for a request that certainly reached no one. */
	release(): void;
}

/** Executions remembered at once; an execution whose tools run longer than this many others is forgotten. */
const REMEMBERED_EXECUTIONS = 1000;

/**
 * The spend of every (execution, tool) pair seen lately, oldest first. A process runs each
 * execution whole (in queue mode, on one worker), so a process-wide map is the execution's.
 */
export class AgentBudgets {
	/** The keys each (execution, tool) pair has reached. */
	private readonly spends = new Map<string, Set<string>>();

	constructor(private readonly remembered = REMEMBERED_EXECUTIONS) {}

	/**
	 * Takes a slot for `key` (the number with the agent or workflow) in the execution's budget of
	 * `maxCalls` (0: no limit), or says why not.
	 */
	claim(scope: string, key: string, maxCalls: number): BudgetClaim | BudgetRefusal {
		const reached = this.reachedBy(scope);
		if (reached.has(key)) return 'duplicate';
		if (maxCalls > 0 && reached.size >= maxCalls) return 'limitReached';
		reached.add(key);
		return { release: () => reached.delete(key) };
	}

	/** How many numbers the tool has reached in the execution. */
	spent(scope: string): number {
		return this.spends.get(scope)?.size ?? 0;
	}

	private reachedBy(scope: string): Set<string> {
		let reached = this.spends.get(scope);
		if (reached === undefined) {
			reached = new Set();
			this.spends.set(scope, reached);
			if (this.spends.size > this.remembered) {
				const [oldest] = this.spends.keys();
				this.spends.delete(oldest);
			}
		}
		return reached;
	}
}
