import { itemList, partialRunText, runSummaryText } from '../../../src/run/runReport';

const CALLS = {
	noun: 'calls',
	effect: 'placed',
	rerun: 'running this node again calls them again unless Skip Numbers Called Before is on',
};

const range = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, offset) => from + offset);

describe('itemList', () => {
	it('joins runs of items into ranges', () => {
		expect(itemList([4])).toBe('item 4');
		expect(itemList([0, 1, 2, 5, 7, 8])).toBe('items 0–2, 5, 7–8');
	});
});

describe('partialRunText', () => {
	it('says how many took effect, which, and what running again does', () => {
		expect(partialRunText(CALLS, 120, { tookEffect: range(0, 36), mayHaveTakenEffect: [] })).toBe(
			'37 of 120 calls were placed (items 0–36); running this node again calls them again unless Skip Numbers Called Before is on.',
		);
	});

	it('names the items whose outcome is unknown', () => {
		expect(partialRunText(CALLS, 10, { tookEffect: [0], mayHaveTakenEffect: [3] })).toBe(
			'1 of 10 calls was placed (item 0); item 3 may have been placed as well; running this node again calls them again unless Skip Numbers Called Before is on.',
		);
	});

	it('says plainly when nothing took effect', () => {
		expect(partialRunText(CALLS, 2_000, { tookEffect: [], mayHaveTakenEffect: [] })).toBe(
			'0 of 2,000 calls were placed.',
		);
	});
});

describe('runSummaryText', () => {
	it('counts each outcome and leaves out those that did not happen', () => {
		expect(
			runSummaryText(
				1000,
				[
					['started', 980],
					['already running', 15],
					['enrolled before', 0],
					['failed', 5],
				],
				['3 scheduled in the past', ''],
			),
		).toBe('1,000 items: 980 started, 15 already running, 5 failed; 3 scheduled in the past');
	});
});
