// How big the seeded searches run: a sample in `npm test`, the whole size in `npm run test:deep`
// (CALLKARO_DEEP=1, which .ci/run runs). Read here because the strict n8n lint forbids `process`
// in .ts files.
/* global process */

/** Whether this is the deep run. */
export const deepRun = () => process.env.CALLKARO_DEEP === '1';

/**
 * Whether the case at `index` runs in variant `turn` of `turns` (say stop, Continue On Fail and the
 * error output): every case in every variant in the deep run; in `npm test` case i in variant
 * i mod turns, so each case and each variant still runs.
 */
export const inTurn = (index, turn, turns = 3) => deepRun() || index % turns === turn;

/** A search's size: its own variable if set, else the deep or the sample size. */
export function scaled(variable, sample, deep) {
	const given = process.env[variable];
	if (given !== undefined && given !== '') return Number(given);
	return deepRun() ? deep : sample;
}
