// Plain CommonJS so that it may touch process.env: the strict n8n lint covers every .ts file.
const os = require('node:os');
const path = require('node:path');
const fs = require('node:fs');

// n8n-core writes settings under N8N_USER_FOLDER; keep the engine tests out of the home folder.
process.env.N8N_USER_FOLDER ??= fs.mkdtempSync(path.join(os.tmpdir(), 'callkaro-n8n-'));
// Engine tests provoke node errors on purpose; n8n-core would log each with a stack.
process.env.N8N_LOG_LEVEL ??= 'silent';
// The n8n server's clock is UTC in every run: node-postgres gives a DATE as midnight on it, and
// the corpus's items (test/fixtures/node-outputs) were written by a server in UTC.
process.env.TZ = 'UTC';

/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
	// TypeScript and the ES modules (the sandbox is ESM; jest's runtime loads CommonJS) through
	// esbuild (test/support/esbuildTransform.cjs); `npm run typecheck` checks the types
	transform: { '^.+\\.(ts|mjs)$': '<rootDir>/test/support/esbuildTransform.cjs' },
	// n8n's engine loads from one bundled file (test/support/engine/engineBundle.cjs)
	globalSetup: '<rootDir>/test/support/engine/engineBundle.cjs',
	moduleNameMapper: {
		'^n8n-workflow$': '<rootDir>/test/support/engine/n8n-workflow.cjs',
		'^n8n-core$': '<rootDir>/test/support/engine/n8n-core.cjs',
		'^n8n-core/dist/execution-engine/node-execution-context/utils/deduplication-helper-functions$':
			'<rootDir>/test/support/engine/deduplication-helper-functions.cjs',
	},
	testTimeout: 30000,
	// the longest files first, on a fresh clone too (test/support/testSequencer.cjs)
	testSequencer: '<rootDir>/test/support/testSequencer.cjs',
	// jest's default (cores - 1) is one worker on a 2-core machine, which leaves a core idle while
	// the engine tests wait for HTTP answers.
	maxWorkers: Math.max(2, os.availableParallelism() - 1),
};
