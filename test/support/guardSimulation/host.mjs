// What the guard's simulation takes from its host: the strict lint keeps process, console and
// timers out of .ts files.

import { deepRun, scaled } from '../testScale.mjs';

export { deepRun };

/**
 * How many seeded schedules to run (CALLKARO_SIM_SEEDS; 20 in `npm test`, 2,000 in the deep run),
 * or the one to replay (CALLKARO_SIM_SEED).
 */
export const simulationSeeds = () => scaled('CALLKARO_SIM_SEEDS', 20, 2000);
export const replaySeed = () => process.env.CALLKARO_SIM_SEED;

/**
 * The edge search's runs: each scale of the bounds, and its schedules. `npm test` runs 15 at the
 * edge itself; the deep run 10,000 there and 1,000 at each other scale. CALLKARO_EDGE_SCALES
 * (comma-separated) and CALLKARO_EDGE_SEEDS set them.
 */
export function edgeRuns() {
	const given = process.env.CALLKARO_EDGE_SCALES;
	const scales = given
		? given.split(',').map(Number)
		: deepRun()
			? [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2]
			: [1];
	return scales.map((scale) => ({
		scale,
		seeds: scaled('CALLKARO_EDGE_SEEDS', 15, scale === 1 ? 10_000 : 1000),
	}));
}

/** Prints a line of the simulation's figures. */
export const report = (text) => process.stdout.write(`${text}\n`);

/** Resolves once every promise that can move on has (after the microtasks queued before it). */
export const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The numbers of busy processes the cost and waits are measured at: at 50 ms a statement up to 40,
 * at 10 ms (many more statements to simulate) up to 20 (CALLKARO_SIM_PROCESSES, comma-separated,
 * for any other).
 */
export const busyProcessCounts = (roundTripMs) =>
	(process.env.CALLKARO_SIM_PROCESSES ?? (roundTripMs >= 50 ? '1,2,5,8,12,15,20,40' : '1,2,5,8,20'))
		.split(',')
		.map(Number);
