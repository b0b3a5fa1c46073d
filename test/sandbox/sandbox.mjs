// @ts-check
/**
 * Entry point of the CallKaro sandbox for tests and scripts:
 *   import { startSandbox, DEMO_API_KEY } from './sandbox.mjs';
 * See README.md beside this file.
 */
export { startSandbox, isLoopback } from './server.mjs';
export { DEMO_API_KEY, DEMO_DATA, OTHER_API_KEY, demoData } from './demoData.mjs';
export { DataError, buildAccounts, readDataFile } from './data.mjs';
export { formatIst, parseScheduleAt, IST_OFFSET_MS } from './validate.mjs';
export { FAULT_ENDPOINTS, FAULT_OUTCOMES, mulberry32 } from './faults.mjs';
export { DIALECTS, maskKey } from './engine.mjs';
