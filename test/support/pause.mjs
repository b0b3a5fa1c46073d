// A pause for tests that wait on a real server (the sandbox's runs and sockets). Not n8n-workflow's
// `sleep`: importing n8n-workflow would load n8n's engine into a test file that needs none of it.
export { setTimeout as pause } from 'node:timers/promises';
