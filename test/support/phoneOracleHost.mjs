// The phone oracle's size, read here because the strict n8n lint forbids `process` in .ts files.
/* global process */
import { scaled } from './testScale.mjs';

/** Numbers drawn per region and type (CALLKARO_PHONE_NUMBERS): 1 in `npm test`, 5 in the deep run. */
export const numbersPerType = () => scaled('CALLKARO_PHONE_NUMBERS', 1, 5);
/** Forms written of each number (CALLKARO_PHONE_FORMS): 4 drawn in `npm test`, all in the deep run. */
export const formsPerNumber = () => scaled('CALLKARO_PHONE_FORMS', 4, Infinity);
/** The seed of the draw (CALLKARO_PHONE_SEED). */
export const oracleSeed = () => Number(process.env.CALLKARO_PHONE_SEED ?? 38);
