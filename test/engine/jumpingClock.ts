// A clock for engine tests: each wait of a node run (a retry's, the pace's) resolves at once and
// moves the clock on by its length, so a Retry-After of 1 s costs no time. The waits are recorded;
// jest.restoreAllMocks() puts real time back.
import { DEFAULT_CLOCK } from '../../src/schedule/clock';

export function useJumpingClock(): { waits: number[]; now: () => number } {
	const waits: number[] = [];
	let jumped = 0;
	const now = () => Date.now() + jumped;
	jest.spyOn(DEFAULT_CLOCK, 'now').mockImplementation(now);
	jest.spyOn(DEFAULT_CLOCK, 'sleep').mockImplementation(async (ms) => {
		waits.push(ms);
		jumped += ms;
		await Promise.resolve();
	});
	return { waits, now };
}
