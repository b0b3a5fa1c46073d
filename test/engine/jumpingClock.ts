// A clock for engine tests: each wait of a node run (a retry's, the pace's) resolves at once and
// moves the clock on by its length, so a Retry-After of 1 s costs no time. Only the waits move it,
// so what a run waits does not depend on how fast the machine runs it (on a busy machine the real
// time between two requests would count toward their pace). The waits are recorded;
// jest.restoreAllMocks() puts real time back.
import { DEFAULT_CLOCK } from '../../src/schedule/clock';

export function useJumpingClock(): { waits: number[]; now: () => number } {
	const waits: number[] = [];
	const startedAt = Date.now();
	let jumped = 0;
	const now = () => startedAt + jumped;
	jest.spyOn(DEFAULT_CLOCK, 'now').mockImplementation(now);
	jest.spyOn(DEFAULT_CLOCK, 'sleep').mockImplementation(async (ms) => {
		waits.push(ms);
		jumped += ms;
		await Promise.resolve();
	});
	return { waits, now };
}
