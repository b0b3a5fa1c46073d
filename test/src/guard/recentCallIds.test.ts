import { RecentCallIds, RecentCallIdsByKey } from '../../../src/guard/recentCallIds';

describe('RecentCallIds', () => {
	it('tells whether an ID was seen, remembering it in the same step', () => {
		const recent = new RecentCallIds(10);
		expect(recent.checkAndAdd('a')).toBe(false);
		expect(recent.checkAndAdd('a')).toBe(true);
		expect(recent.checkAndAdd('b')).toBe(false);
		expect(recent.size).toBe(2);
	});

	it('drops the oldest beyond the limit; a repeat counts as recent again', () => {
		const recent = new RecentCallIds(3);
		for (const id of ['a', 'b', 'c']) recent.checkAndAdd(id);
		expect(recent.checkAndAdd('a')).toBe(true);
		expect(recent.checkAndAdd('d')).toBe(false);
		expect(recent.size).toBe(3);
		expect(recent.checkAndAdd('a')).toBe(true);
		expect(recent.checkAndAdd('b')).toBe(false);
	});
});

describe('RecentCallIdsByKey', () => {
	it('keeps one memory per key', () => {
		const memories = new RecentCallIdsByKey(10, 10);
		expect(memories.forKey('workflow 1').checkAndAdd('a')).toBe(false);
		expect(memories.forKey('workflow 2').checkAndAdd('a')).toBe(false);
		expect(memories.forKey('workflow 1').checkAndAdd('a')).toBe(true);
	});

	it('forgets the least recently used key beyond the limit', () => {
		const memories = new RecentCallIdsByKey(2, 10);
		memories.forKey('one').checkAndAdd('a');
		memories.forKey('two').checkAndAdd('a');
		memories.forKey('one');
		memories.forKey('three').checkAndAdd('a');
		expect(memories.forKey('one').checkAndAdd('a')).toBe(true);
		expect(memories.forKey('two').checkAndAdd('a')).toBe(false);
	});
});
