#!/usr/bin/env node
// Runs one jest project of jest.e2e.config.cjs, with this project's options turned into env:
//   npm run test:e2e     [-- --n8n 1.123.81] [--skip-build] [--keep] [--verbose] [jest options]
//   npm run check:editor [-- --port 5690] [--sandbox-port 4090] [--url URL] [--skip-build] [jest options]
// Every other argument (e.g. -t "crm example") goes to jest as it is.
// npm run test:e2e -- --queue [--n8n 1.123.81] [--skip-build] runs the project `queue` instead:
// n8n's scaling mode (test/e2e/queue.e2e.mjs: PostgreSQL, Redis, workers, a webhook processor).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const [command, ...args] = process.argv.slice(2);
const options = {
	n8n: { type: 'string', env: 'CALLKARO_N8N_VERSION' },
	'skip-build': { type: 'boolean', env: 'CALLKARO_E2E_SKIP_BUILD' },
	keep: { type: 'boolean', env: 'CALLKARO_E2E_KEEP' },
	verbose: { type: 'boolean', env: 'CALLKARO_E2E_VERBOSE' },
	port: { type: 'string', env: 'CALLKARO_EDITOR_PORT' },
	'sandbox-port': { type: 'string', env: 'CALLKARO_EDITOR_SANDBOX_PORT' },
	url: { type: 'string', env: 'CALLKARO_EDITOR_URL' },
	queue: { type: 'boolean' },
};
const { values, tokens } = parseArgs({ args, options, strict: false, tokens: true });
const env = { ...process.env };
for (const [name, value] of Object.entries(values))
	if (options[name]?.env) env[options[name].env] = value === true ? '1' : value;
const run = (file, argv) =>
	process.exit(spawnSync(process.execPath, [file, ...argv], { stdio: 'inherit', env }).status ?? 1);
const project = command === 'e2e' && values.queue ? 'queue' : command;

// what parseArgs did not take as one of ours goes to jest, in order
const ours = new Set();
for (const t of tokens.filter((t) => t.kind === 'option' && t.name in options)) {
	ours.add(t.index);
	if (t.value !== undefined && !t.inlineValue) ours.add(t.index + 1);
}
env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --experimental-vm-modules --no-warnings=ExperimentalWarning`;
// --selectProjects last: it takes every value that follows it, a path filter too
run(createRequire(import.meta.url).resolve('jest/bin/jest'), [
	...args.filter((_, i) => !ours.has(i)),
	...['--config', 'jest.e2e.config.cjs', '--selectProjects', project],
]);
