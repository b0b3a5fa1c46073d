// The engine tests' clock: n8n's engine runs for real, but every wait of a node run (a retry's,
// the pace's, the guard's polls and elections, every time limit) is an event of the guard
// simulation's virtual time (test/support/guardSimulation/virtualTime.ts), run in time order once
// nothing else can move. Only the waits move it: a Retry-After of 1 s costs no time, and a store
// call or an answer takes none, so what a run decides by the clock (a pace, the lock's windows)
// does not depend on how fast or how busy the machine is. The waits are recorded;
// jest.restoreAllMocks() (useSandbox's afterEach) puts real time back.
import { sleep } from 'n8n-workflow';

import { DEFAULT_CLOCK } from '../../src/schedule/clock';
import { VirtualTime } from '../support/guardSimulation/virtualTime';

export interface VirtualClock {
	/** The waits of the node runs (sleeps; not time limits), in ms. */
	waits: number[];
	now: () => number;
	time: VirtualTime;
}

/** The clock in place, by the `now` it put on DEFAULT_CLOCK: gone once mocks are restored. */
const installed = new WeakMap<object, VirtualClock>();

/** Puts DEFAULT_CLOCK on virtual time for the rest of the test (the clock in place, if there is one). */
export function useVirtualClock(): VirtualClock {
	const current = installed.get(DEFAULT_CLOCK.now);
	if (current) return current;
	const time = new VirtualTime(Date.now(), true);
	const clock: VirtualClock = { waits: [], now: () => time.now, time };
	const now = jest.spyOn(DEFAULT_CLOCK, 'now').mockImplementation(clock.now);
	jest.spyOn(DEFAULT_CLOCK, 'sleep').mockImplementation(async (ms, signal) => {
		clock.waits.push(ms);
		await time.sleep(ms, signal);
	});
	jest
		.spyOn(DEFAULT_CLOCK, 'expire')
		.mockImplementation(async (ms, signal) => await time.sleep(ms, signal));
	installed.set(now, clock);
	return clock;
}

/**
 * A round trip to a store in the same process: other calls may run before it ends. On the virtual
 * clock an event at the present time (it takes no time, so no time limit can pass during it),
 * else the next turn of real time.
 */
export async function roundTrip(): Promise<void> {
	const clock = installed.get(DEFAULT_CLOCK.now);
	await (clock ? clock.time.sleep(0) : sleep(0));
}
