#!/usr/bin/env node
// npm run test:e2e [-- --n8n 1.123.81] [--skip-build] [--keep] [--verbose] [jest options, e.g. -t crm]
// Runs the e2e jest project (jest.e2e.config.cjs, scripts/e2e/*.e2e.mjs) against the n8n version
// asked for (default 2.41.1 on Node 24; 1.123.81 runs on this machine's Node 20). Every other
// argument goes to jest as it is. See scripts/README-e2e.md.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const options = {
	n8n: { type: 'string' },
	'skip-build': { type: 'boolean' },
	keep: { type: 'boolean' },
	verbose: { type: 'boolean' },
};
const args = process.argv.slice(2);
const { values, tokens } = parseArgs({ args, options, strict: false, tokens: true });
// what parseArgs did not take as one of ours goes to jest, in order
const ours = new Set();
for (const t of tokens) {
	if (t.kind !== 'option' || !(t.name in options)) continue;
	ours.add(t.index);
	if (t.value !== undefined && !t.inlineValue) ours.add(t.index + 1);
}
const env = { ...process.env };
if (values.n8n) env.CALLKARO_N8N_VERSION = values.n8n;
if (values['skip-build']) env.CALLKARO_E2E_SKIP_BUILD = '1';
if (values.keep) env.CALLKARO_E2E_KEEP = '1';
if (values.verbose) env.CALLKARO_E2E_VERBOSE = '1';
env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --experimental-vm-modules --no-warnings=ExperimentalWarning`;

const jest = createRequire(import.meta.url)
	.resolve('jest/package.json')
	.replace(/package\.json$/, 'bin/jest.js');
const r = spawnSync(
	process.execPath,
	[
		jest,
		'--config',
		'jest.e2e.config.cjs',
		'--selectProjects',
		'e2e',
		...args.filter((_, i) => !ours.has(i)),
	],
	{ stdio: 'inherit', env, cwd: new URL('../..', import.meta.url) },
);
process.exit(r.status ?? 1);
