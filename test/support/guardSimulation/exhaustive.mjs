// What the guard's exhaustive check (test/nodes/shared/guard.exhaustive.test.ts) takes from its
// host: the strict lint keeps process out of .ts files.

import { deepRun, scaled } from '../testScale.mjs';

/**
 * The depth of a scenario's search: its sample depth in `npm test`, its deep depth in the deep run
 * (CALLKARO_DEEP=1), or CALLKARO_EXHAUSTIVE_DEPTH for every scenario.
 */
export const exhaustiveDepth = (sample, deep) => scaled('CALLKARO_EXHAUSTIVE_DEPTH', sample, deep);

export { deepRun };

/**
 * The one choice sequence to replay, with its statement trace: CALLKARO_EXHAUSTIVE_REPLAY set to
 * "<scenario>:<choices, comma-separated>", as a violation prints it; undefined when unset.
 */
export function exhaustiveReplay() {
	const given = process.env.CALLKARO_EXHAUSTIVE_REPLAY;
	if (!given) return undefined;
	const at = given.lastIndexOf(':');
	const choices = given.slice(at + 1).trim();
	return {
		scenario: given.slice(0, at),
		sequence: choices === '' ? [] : choices.split(',').map(Number),
	};
}
