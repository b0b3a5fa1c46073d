// our_modules_require_ms, in a fresh process: loads n8n-workflow first (n8n always has, and zod and
// luxon with it), then times the require of every node and credential of package.json's `n8n`
// section, from dist/. Prints { ms, filesLoaded } as JSON.
'use strict';
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const { n8n } = require(path.join(root, 'package.json'));
require('n8n-workflow');
const before = Object.keys(require.cache).length;
const start = process.hrtime.bigint();
for (const file of [...n8n.nodes, ...n8n.credentials]) require(path.join(root, file));
const ms = Number(process.hrtime.bigint() - start) / 1e6;
const filesLoaded = Object.keys(require.cache).length - before;
process.stdout.write(`${JSON.stringify({ ms, filesLoaded })}\n`);
