// The jest projects that drive a real n8n, run through scripts/run-jest.mjs: `npm run test:e2e`
// (test/e2e/, see test/e2e/README.md), `npm run test:e2e -- --queue` (n8n's scaling mode,
// test/e2e/queue.e2e.mjs) and `npm run check:editor` (test/editor/, in
// Debian's Chromium). Native ESM (--experimental-vm-modules): the tests are .mjs.
const project = (displayName, more) => ({
	displayName,
	testEnvironment: 'node',
	rootDir: __dirname,
	roots: [`<rootDir>/test/${displayName}`],
	transform: {},
	...more,
});
// build, pack and install n8n once per run; the files then share test/e2e/harness.mjs
const e2e = {
	roots: ['<rootDir>/test/e2e'],
	globalSetup: '<rootDir>/test/e2e/global-setup.mjs',
	globalTeardown: '<rootDir>/test/e2e/global-teardown.mjs',
};

/** @type {import('jest').Config} */
module.exports = {
	rootDir: __dirname,
	maxWorkers: 1, // one n8n at a time on a small machine
	verbose: true,
	testTimeout: 5 * 60_000, // each test, and each beforeAll (one n8n set-up)
	projects: [
		project('e2e', { ...e2e, testMatch: ['**/*.e2e.mjs'], testPathIgnorePatterns: ['/queue\\.'] }),
		// the test fixtures are TypeScript (CommonJS once compiled; ESM imports it as such)
		project('queue', {
			...e2e,
			testMatch: ['**/queue.e2e.mjs'],
			transform: { '\\.ts$': '<rootDir>/test/support/esbuildTransform.cjs' },
		}),
		project('editor', { testMatch: ['**/*.editor.mjs'] }),
	],
};
