// fast-check's parameters for the property tests (`*.property.test.ts`): a fixed seed, so that
// `npm test` is the same run every time and a failure is replayed by its seed; a sample in
// `npm test`, many more cases in `npm run test:deep`. fast-check shrinks a failure to its smallest
// value and prints the seed and path that replay it.
//   CALLKARO_PROPERTY_SEED=7 CALLKARO_PROPERTY_RUNS=100000 npx jest phone.property
/* global process */
import { deepRun } from './testScale.mjs';

const FIXED_SEED = 20261128;

/** `{ seed, numRuns }` for fc.assert: `sample` runs in npm test, `deep` in test:deep. */
export function propertyRuns(sample, deep = sample * 20) {
	const seed = process.env.CALLKARO_PROPERTY_SEED;
	const runs = process.env.CALLKARO_PROPERTY_RUNS;
	return {
		seed: seed ? Number(seed) : FIXED_SEED,
		numRuns: runs ? Number(runs) : deepRun() ? deep : sample,
	};
}
