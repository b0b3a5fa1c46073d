// The jest projects that drive a real n8n: `npm run test:e2e` (scripts/e2e/, see
// scripts/README-e2e.md). Native ESM (run with --experimental-vm-modules): the scripts are .mjs.
/** @type {import('jest').Config} */
module.exports = {
	rootDir: __dirname,
	maxWorkers: 1, // one n8n at a time on a small machine
	verbose: true,
	testTimeout: 5 * 60_000, // each test, and each beforeAll (one n8n set-up)
	projects: [
		{
			displayName: 'e2e',
			testEnvironment: 'node',
			rootDir: __dirname,
			roots: ['<rootDir>/scripts/e2e'],
			testMatch: ['**/*.e2e.mjs'],
			transform: {},
			globalSetup: '<rootDir>/scripts/e2e/global-setup.mjs',
			globalTeardown: '<rootDir>/scripts/e2e/global-teardown.mjs',
		},
	],
};
