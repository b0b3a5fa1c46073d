// The phone oracle's size, read here because the strict n8n lint forbids `process` in .ts files.
/* global process */

/** Numbers drawn per region and type (CALLKARO_PHONE_NUMBERS): 1 in `npm test`, more in the deep run. */
export const numbersPerType = () => Number(process.env.CALLKARO_PHONE_NUMBERS ?? 1);
/** The seed of the draw (CALLKARO_PHONE_SEED). */
export const oracleSeed = () => Number(process.env.CALLKARO_PHONE_SEED ?? 38);
