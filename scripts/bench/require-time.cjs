// Run by the benchmark in a fresh `node` process: loads n8n-workflow (inside n8n it is always
// loaded before any community node, and zod and luxon with it), then times (process.hrtime) the
// require of every node and credential module that package.json's `n8n` section names, from
// dist/. Prints { ms, modules, filesLoaded } as JSON.
'use strict';
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const pkg = require(path.join(root, 'package.json'));
const files = [...pkg.n8n.nodes, ...pkg.n8n.credentials].map((rel) => path.join(root, rel));

require('n8n-workflow');
const before = Object.keys(require.cache).length;
const start = process.hrtime.bigint();
for (const file of files) require(file);
const ms = Number(process.hrtime.bigint() - start) / 1e6;
process.stdout.write(
	`${JSON.stringify({ ms, modules: files.length, filesLoaded: Object.keys(require.cache).length - before })}\n`,
);
