// The jest projects that drive a real n8n, run through scripts/run-jest.mjs: `npm run test:e2e`
// (scripts/e2e/, see scripts/README-e2e.md) and `npm run check:editor` (scripts/editor/, in
// Debian's Chromium). Native ESM (--experimental-vm-modules): the scripts are .mjs.
const project = (displayName, more) => ({
	displayName,
	testEnvironment: 'node',
	rootDir: __dirname,
	roots: [`<rootDir>/scripts/${displayName}`],
	transform: {},
	...more,
});

/** @type {import('jest').Config} */
module.exports = {
	rootDir: __dirname,
	maxWorkers: 1, // one n8n at a time on a small machine
	verbose: true,
	testTimeout: 5 * 60_000, // each test, and each beforeAll (one n8n set-up)
	projects: [
		project('e2e', {
			testMatch: ['**/*.e2e.mjs'],
			globalSetup: '<rootDir>/scripts/e2e/global-setup.mjs',
			globalTeardown: '<rootDir>/scripts/e2e/global-teardown.mjs',
		}),
		project('editor', { testMatch: ['**/*.editor.mjs'] }),
	],
};
