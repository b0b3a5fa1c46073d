#!/usr/bin/env node
// npm run scan [-- --tarball FILE.tgz] [--keep]: the lint legs of n8n's verification gate,
// run by the gate's own code (`analyzePackage` of @n8n/scan-community-package) on this checkout
// and on the tarball `npm pack` makes of it (after `npm run build`), plus what only this script
// adds: what the tarball holds, and that every `require` in it resolves inside it or to a module
// n8n provides. The gate's provenance step needs a version published from GitHub Actions.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { PROJECT_ROOT, packPackage, runOrThrow, tempDir } from '../n8n/host.mjs';

const { values: opts } = parseArgs({
	options: { tarball: { type: 'string' }, keep: { type: 'boolean' } },
});
const SCANNER = '@n8n/scan-community-package/scanner/scanner.mjs';
// the scanner makes a temp folder on import and removes it only with graceful cleanup on
createRequire(createRequire(import.meta.url).resolve(SCANNER))('tmp').setGracefulCleanup();
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(SCANNER);

// The modules n8n gives a community node on n8n Cloud (the scanner's no-restricted-imports
// also exempts devDependencies as "bundled", but `n8n-node build` does not bundle).
const HOST_MODULES = new Set(['n8n-workflow', 'luxon', 'zod', 'crypto', 'node:crypto']);
const SHIPPED =
	/^(package\.json|README\.md|LICENSE|dist\/.+\.(js|js\.map|d\.ts|d\.ts\.map|json|svg|png))$/;
const TOOLING =
	/(^|\/)(test|tests|__tests__|fixtures|scripts|e2e|sandbox|bench|examples|node_modules)\/|\.(test|spec|soak)\.[cm]?[jt]s/;

/** What the unpacked tarball holds, and where each of its requires goes. */
function checkContents(dir) {
	const files = fs
		.readdirSync(dir, { recursive: true })
		.filter((f) => fs.statSync(path.join(dir, f)).isFile())
		.map((f) => f.split(path.sep).join('/'));
	const have = new Set(files);
	const errors = files
		.filter((f) => !SHIPPED.test(f) || TOOLING.test(f))
		.map((f) => `not for the tarball: ${f}`);
	for (const f of ['package.json', 'README.md', 'LICENSE'])
		if (!have.has(f)) errors.push(`missing from the tarball: ${f}`);
	// the scanner checks `dependencies` and `peerDependencies`; these would install packages too
	const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
	for (const field of ['optionalDependencies', 'bundleDependencies', 'bundledDependencies'])
		if (Object.keys(pkg[field] ?? {}).length) errors.push(`package.json "${field}" must be empty`);
	for (const f of files.filter((x) => x.endsWith('.js'))) {
		const source = fs.readFileSync(path.join(dir, f), 'utf8');
		for (const [, , spec] of source.matchAll(/\brequire\(\s*(["'])([^"']+)\1\s*\)/g)) {
			if (spec.startsWith('.')) {
				const base = path.posix.join(path.posix.dirname(f), spec);
				if (![base, `${base}.js`, `${base}.json`, `${base}/index.js`].some((c) => have.has(c)))
					errors.push(`${f}: require('${spec}') does not resolve inside the tarball`);
			} else if (!HOST_MODULES.has(spec.split('/')[0]))
				errors.push(`${f}: require('${spec}') is not a module n8n provides to community nodes`);
		}
	}
	return { files: files.length, errors };
}

/** The scanner must still refuse what it exists to refuse, or its pass means nothing. */
async function canary(dir) {
	fs.mkdirSync(path.join(dir, 'nodes', 'X'), { recursive: true });
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify({ name: 'n8n-nodes-x', dependencies: { axios: '1' } }),
	);
	fs.writeFileSync(
		path.join(dir, 'nodes', 'X', 'X.node.js'),
		'// eslint-disable-next-line\nconsole.log(process.env.X);\nmodule.exports = {};\n',
	);
	const r = await analyzePackage(dir, ['**/*.js', 'package.json']);
	const caught = ['no-console', 'no-restricted-globals', 'no-runtime-dependencies'].filter((rule) =>
		r.details?.includes(rule),
	);
	if (caught.length < 3)
		throw new Error(`the scanner no longer catches what it should (caught only: ${caught})`);
}

const t0 = Date.now();
const work = tempDir('callkaro-scan-');
let failed = false;
try {
	await canary(path.join(work, 'canary'));
	const tarball = opts.tarball ?? (await packPackage({ outDir: work, log: console.log })).tarball;
	const unpacked = path.join(work, 'package');
	fs.mkdirSync(unpacked);
	await runOrThrow('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
	for (const [leg, dir, patterns] of [
		['source', PROJECT_ROOT, SOURCE_FILE_PATTERNS],
		['tarball', unpacked, ['**/*.js', 'package.json']],
	]) {
		const r = await analyzePackage(dir, patterns);
		console.log(`${leg} lint (${patterns.join(' ')}): ${r.passed ? 'pass' : r.message}`);
		if (r.details) console.log(r.details);
		failed ||= !r.passed;
	}
	const contents = checkContents(unpacked);
	console.log(`tarball contents: ${contents.files} files, ${contents.errors.length} errors`);
	for (const e of contents.errors) console.log(`  ${e}`);
	failed ||= contents.errors.length > 0;
} catch (err) {
	console.error(`scan: ${err.message}`);
	failed = true;
} finally {
	if (opts.keep) console.log(`kept ${work}`);
	else fs.rmSync(work, { recursive: true, force: true });
}
console.log(`${failed ? 'FAIL' : 'PASS'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);
