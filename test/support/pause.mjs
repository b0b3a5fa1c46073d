// A pause for tests that wait on a real server (the sandbox's runs and sockets). Not n8n-workflow's
// `sleep`: importing n8n-workflow would load n8n's engine into a test file that needs none of it.
import { setTimeout as delay } from 'node:timers/promises';

/** Resolves after `ms` milliseconds. */
export const pause = async (ms) => await delay(ms);
