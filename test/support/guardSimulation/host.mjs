// What the guard's simulation takes from its host: the strict lint keeps process, console and
// timers out of .ts files.

import { scaled } from '../testScale.mjs';

/**
 * How many seeded schedules to run (CALLKARO_SIM_SEEDS; 150 in `npm test`, 2,000 in the deep run),
 * or the one to replay (CALLKARO_SIM_SEED).
 */
export const simulationSeeds = () => scaled('CALLKARO_SIM_SEEDS', 150, 2000);
export const replaySeed = () => process.env.CALLKARO_SIM_SEED;

/** Schedules per scale of the edge search (CALLKARO_EDGE_SEEDS). */
export const edgeSeeds = () => scaled('CALLKARO_EDGE_SEEDS', 40, 1000);
/** The scales of the bounds the edge search draws to (CALLKARO_EDGE_SCALES, comma-separated). */
export const edgeScales = () =>
	(process.env.CALLKARO_EDGE_SCALES ?? '0.25,0.5,0.75,1,1.25,1.5,2').split(',').map(Number);

/** Prints a line of the simulation's figures. */
export const report = (text) => process.stdout.write(`${text}\n`);

/** Resolves once every promise that can move on has (after the microtasks queued before it). */
export const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
