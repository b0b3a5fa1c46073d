import { AgentBudgets } from '../../../src/agent/agentBudget';

describe('AgentBudgets: what one tool may still do in one execution', () => {
	test('a key is reached once; past the limit nothing more; a release gives the slot back', () => {
		const budgets = new AgentBudgets();
		const first = budgets.claim('exec-1|Call', 'agent|+919820061001', 2);
		expect(first).not.toBe('duplicate');
		expect(budgets.claim('exec-1|Call', 'agent|+919820061001', 2)).toBe('duplicate');
		const second = budgets.claim('exec-1|Call', 'agent|+919820061002', 2);
		expect(budgets.claim('exec-1|Call', 'agent|+919820061003', 2)).toBe('limitReached');
		if (typeof second === 'string') throw new Error('claimed');
		second.release();
		expect(budgets.spent('exec-1|Call')).toBe(1);
		expect(budgets.claim('exec-1|Call', 'agent|+919820061003', 2)).not.toBe('limitReached');
	});

	test('each execution, and each tool, has a budget of its own; 0 is no limit', () => {
		const budgets = new AgentBudgets();
		budgets.claim('exec-1|Call', 'k', 1);
		expect(budgets.claim('exec-2|Call', 'k', 1)).not.toBe('duplicate');
		expect(budgets.claim('exec-1|Enrol', 'k', 1)).not.toBe('duplicate');
		for (let n = 0; n < 50; n++)
			expect(budgets.claim('exec-3|Call', `k${n}`, 0)).not.toBe('limitReached');
	});

	test('only the latest executions are remembered, so memory stays bounded', () => {
		const budgets = new AgentBudgets(2);
		budgets.claim('exec-1|Call', 'k', 1);
		budgets.claim('exec-2|Call', 'k', 1);
		budgets.claim('exec-3|Call', 'k', 1);
		expect(budgets.spent('exec-1|Call')).toBe(0);
		expect(budgets.spent('exec-3|Call')).toBe(1);
	});
});
