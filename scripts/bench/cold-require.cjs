// Run by the benchmark in a fresh `node` process, from the project root:
//   node scripts/bench/cold-require.cjs [--warm=n8n-workflow,zod/v4,luxon]
// Requires every node and credential module that package.json's `n8n` section names (from
// dist/) and prints { ms, modules } as JSON, ms measured with process.hrtime around the requires.
// n8n-workflow, zod and luxon resolve from the project's node_modules. Modules named in --warm
// are required first, outside the timed part: inside n8n, n8n-workflow (and with it luxon and
// zod v3) is loaded before any community node.
'use strict';
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const pkg = require(path.join(root, 'package.json'));
const files = [...pkg.n8n.nodes, ...pkg.n8n.credentials].map((rel) => path.join(root, rel));

const warmArg = process.argv.find((arg) => arg.startsWith('--warm='));
for (const name of warmArg ? warmArg.slice('--warm='.length).split(',').filter(Boolean) : [])
	require(name);
const before = Object.keys(require.cache).length;
const start = process.hrtime.bigint();
for (const file of files) require(file);
const ms = Number(process.hrtime.bigint() - start) / 1e6;
process.stdout.write(
	`${JSON.stringify({ ms, modules: files.length, filesLoaded: Object.keys(require.cache).length - before })}\n`,
);
