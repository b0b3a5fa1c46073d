#!/usr/bin/env node
// `npm run scan`: the lint legs of n8n's verification gate (`@n8n/scan-community-package`),
// run locally on this checkout and on the tarball `npm pack` makes of it, plus checks of what
// the tarball contains. The gate's provenance step is left out: it needs a version published
// from GitHub Actions. Run `npm run build` first; the tarball is packed from `dist/`.
//
// The lint config is not re-created here. It is the scanner's own `buildScanConfig()`, run
// with the scanner's own ESLint, fast-glob and plugin copies, with the options and file
// patterns of the scanner's `analyzePackage()` (allowInlineConfig: false, overrideConfigFile:
// true, the same ignores). Only errors fail, as in the gate.
//
//   node scripts/scan/run.mjs [--tarball FILE.tgz] [--timeout SECONDS] [--keep] [--quiet]

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCANNER_PKG = '@n8n/scan-community-package';

// The gate's tarball leg (scanner.mjs, analyzePackageByName).
const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];
// Modules the scanner's `no-restricted-imports` allows on n8n Cloud. The rule also exempts
// anything in devDependencies ("bundled at build"), but `n8n-node build` does not bundle,
// so here a compiled `require` of any other bare module fails.
const HOST_MODULES = new Set([
	'n8n-workflow',
	'ai-node-sdk',
	'@n8n/ai-node-sdk',
	'lodash',
	'moment',
	'p-limit',
	'luxon',
	'zod',
	'crypto',
	'node:crypto',
]);
const TOP_LEVEL_ALLOWED = new Set(['package.json', 'README.md', 'LICENSE']);
const DIST_EXTENSIONS = ['.js', '.js.map', '.d.ts', '.d.ts.map', '.json', '.svg', '.png'];
const FORBIDDEN_SEGMENTS = new Set([
	'test',
	'tests',
	'__tests__',
	'__mocks__',
	'fixtures',
	'scripts',
	'e2e',
	'sandbox',
	'bench',
	'coverage',
	'examples',
	'node_modules',
	'.github',
	'.ci',
]);
const FORBIDDEN_NAME =
	/(\.(test|spec|soak|bench)\.[cm]?[jt]s(\.map)?$)|(^\.env)|(^tsconfig.*\.json$)|(^jest\.config)|(^eslint\.config)|(\.tgz$)/;

function parseArgs(argv) {
	const opts = { tarball: null, timeout: 300, keep: false, quiet: false };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--tarball') opts.tarball = path.resolve(argv[++i] ?? '');
		else if (a === '--timeout') opts.timeout = Number(argv[++i]);
		else if (a === '--keep') opts.keep = true;
		else if (a === '--quiet') opts.quiet = true;
		else if (a === '--help' || a === '-h') {
			console.log(
				'Usage: npm run scan [-- --tarball FILE.tgz] [--timeout SECONDS] [--keep] [--quiet]\n' +
					'  --tarball  scan this tarball instead of packing the checkout\n' +
					'  --timeout  give up after this many seconds (default 300)\n' +
					'  --keep     keep the temporary folder with the unpacked tarball\n' +
					'  --quiet    list only errors, not warnings',
			);
			process.exit(0);
		} else {
			console.error(`Unknown argument: ${a} (try --help)`);
			process.exit(2);
		}
	}
	if (opts.tarball && !fs.existsSync(opts.tarball)) {
		console.error(`--tarball: no such file: ${opts.tarball}`);
		process.exit(2);
	}
	if (!Number.isFinite(opts.timeout) || opts.timeout <= 0) {
		console.error('--timeout takes a positive number of seconds');
		process.exit(2);
	}
	return opts;
}

const opts = parseArgs(process.argv.slice(2));
const started = Date.now();
const secs = (t0) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
let tmpDir = null;
const cleanup = () => {
	if (tmpDir && !opts.keep) fs.rmSync(tmpDir, { recursive: true, force: true });
};
const watchdog = setTimeout(() => {
	console.error(`\nscan: gave up after ${opts.timeout} s (--timeout)`);
	cleanup();
	process.exit(2);
}, opts.timeout * 1000);
watchdog.unref();

// ---------------------------------------------------------------------------------------------
// Load the scanner's own pieces.

const rootRequire = createRequire(path.join(ROOT, 'package.json'));
let scannerPath;
try {
	scannerPath = rootRequire.resolve(`${SCANNER_PKG}/scanner/scanner.mjs`);
} catch {
	console.error(`scan: ${SCANNER_PKG} is not installed; run npm ci`);
	process.exit(2);
}
const scannerRequire = createRequire(scannerPath);
const scannerVersion = rootRequire(`${SCANNER_PKG}/package.json`).version;
// scanner.mjs makes a temp folder on import and removes it only with graceful cleanup on.
scannerRequire('tmp').setGracefulCleanup();
const scanner = await import(pathToFileURL(scannerPath).href);
if (typeof scanner.buildScanConfig !== 'function' || !Array.isArray(scanner.SOURCE_FILE_PATTERNS)) {
	console.error(
		`scan: ${SCANNER_PKG}@${scannerVersion} no longer exports buildScanConfig and ` +
			'SOURCE_FILE_PATTERNS; update scripts/scan/run.mjs to its new API',
	);
	process.exit(2);
}
const { ESLint } = await import(pathToFileURL(scannerRequire.resolve('eslint')).href);
const glob = scannerRequire('fast-glob');
const pluginPkgPath = path.join(
	path.dirname(scannerRequire.resolve('@n8n/eslint-plugin-community-nodes')),
	'..',
	'package.json',
);
const pluginVersion = JSON.parse(fs.readFileSync(pluginPkgPath, 'utf8')).version;
const basePluginVersion = scannerRequire('eslint-plugin-n8n-nodes-base/package.json').version;

// Same options, patterns and ignores as scanner.mjs analyzePackage().
async function lintLeg(dir, patterns) {
	const t0 = Date.now();
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await scanner.buildScanConfig(),
	});
	const files = glob.sync(patterns, {
		cwd: dir,
		absolute: true,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	const results = files.length ? await eslint.lintFiles(files) : [];
	const errors = results.reduce((n, r) => n + r.errorCount, 0);
	const warnings = results.reduce((n, r) => n + r.warningCount, 0);
	const byRule = new Map();
	for (const r of results)
		for (const m of r.messages) {
			const key = `${m.severity === 2 ? 'error' : 'warn'} ${m.ruleId ?? '(no rule: parse error or file skipped)'}`;
			byRule.set(key, (byRule.get(key) ?? 0) + 1);
		}
	const shown = results
		.map((r) =>
			opts.quiet
				? { ...r, messages: r.messages.filter((m) => m.severity === 2), warningCount: 0 }
				: r,
		)
		.filter((r) => r.messages.length > 0);
	const report = shown.length ? await (await eslint.loadFormatter('stylish')).format(shown) : '';
	return { files: files.length, errors, warnings, byRule, report, time: secs(t0) };
}

// A scan that passes because its config stopped matching anything would be worse than none, so
// first check that the scanner's config still bites: rule sets wired to the right files,
// inline disables ignored, and a few known violations caught.
async function canary(dir) {
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await scanner.buildScanConfig(),
	});
	const active = async (file, prefix) => {
		const cfg = await eslint.calculateConfigForFile(path.join(dir, file));
		return Object.entries(cfg?.rules ?? {}).filter(
			([id, v]) =>
				id.startsWith(prefix) &&
				(Array.isArray(v) ? v[0] : v) !== 0 &&
				(Array.isArray(v) ? v[0] : v) !== 'off',
		).length;
	};
	const counts = {
		community: await active('nodes/X/X.node.js', '@n8n/community-nodes/'),
		nodes: await active('nodes/X/X.node.ts', 'n8n-nodes-base/'),
		credentials: await active('credentials/X.credentials.ts', 'n8n-nodes-base/'),
		packageJson: await active('package.json', 'n8n-nodes-base/'),
	};
	const problems = Object.entries(counts)
		.filter(([, n]) => n === 0)
		.map(([k]) => `no ${k} rules are active`);

	const code = '// eslint-disable-next-line\nconsole.log(process.env.X);\nmodule.exports = {};\n';
	const [js] = await eslint.lintText(code, { filePath: path.join(dir, 'dist/nodes/X/X.node.js') });
	const fired = new Set(js.messages.map((m) => m.ruleId));
	for (const rule of ['no-console', '@n8n/community-nodes/no-restricted-globals'])
		if (!fired.has(rule)) problems.push(`${rule} did not fire through an eslint-disable comment`);
	const pkgText = JSON.stringify({ name: 'n8n-nodes-x', dependencies: { axios: '1' } });
	const [pj] = await eslint.lintText(pkgText, { filePath: path.join(dir, 'package.json') });
	if (!pj.messages.some((m) => m.ruleId === '@n8n/community-nodes/no-runtime-dependencies'))
		problems.push('no-runtime-dependencies did not fire on a package.json with dependencies');
	return { counts, problems };
}

// ---------------------------------------------------------------------------------------------
// Pack and unpack.

function run(cmd, args, cwd, timeoutMs) {
	const r = spawnSync(cmd, args, {
		cwd,
		encoding: 'utf8',
		timeout: timeoutMs,
		maxBuffer: 64 << 20,
	});
	if (r.error || r.status !== 0) {
		throw new Error(
			`${cmd} ${args.join(' ')} failed: ${r.error?.message ?? `exit ${r.status}`}\n${r.stderr ?? ''}`,
		);
	}
	return r.stdout;
}

function packTarball(pkg) {
	const missing = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])].filter(
		(f) => !fs.existsSync(path.join(ROOT, f)),
	);
	if (missing.length) {
		throw new Error(`not built: ${missing.join(', ')} missing. Run npm run build first.`);
	}
	const out = run(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', tmpDir],
		ROOT,
		120_000,
	);
	const info = JSON.parse(out.slice(out.indexOf('[')))[0];
	return path.join(tmpDir, info.filename);
}

function listFiles(dir, base = dir) {
	const out = [];
	for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) out.push(...listFiles(p, base));
		else out.push(path.relative(base, p).split(path.sep).join('/'));
	}
	return out.sort();
}

// ---------------------------------------------------------------------------------------------
// What the tarball contains.

function checkContents(pkgDir) {
	const errors = [];
	const warnings = [];
	const files = listFiles(pkgDir);
	const fileSet = new Set(files);

	for (const f of files) {
		const parts = f.split('/');
		if (parts.length === 1) {
			if (!TOP_LEVEL_ALLOWED.has(f)) errors.push(`unexpected top-level file: ${f}`);
			continue;
		}
		if (parts[0] !== 'dist') {
			errors.push(`unexpected file outside dist/: ${f}`);
			continue;
		}
		const name = parts[parts.length - 1];
		const badSegment = parts.slice(1, -1).find((s) => FORBIDDEN_SEGMENTS.has(s));
		if (badSegment) errors.push(`test or tooling code shipped (${badSegment}/): ${f}`);
		else if (FORBIDDEN_NAME.test(name)) errors.push(`test or tooling file shipped: ${f}`);
		else if (!DIST_EXTENSIONS.some((ext) => name.endsWith(ext)))
			errors.push(`unexpected file type in dist/: ${f}`);
	}
	for (const f of TOP_LEVEL_ALLOWED) if (!fileSet.has(f)) errors.push(`missing from tarball: ${f}`);

	const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
	for (const field of [
		'dependencies',
		'optionalDependencies',
		'bundleDependencies',
		'bundledDependencies',
	]) {
		const v = pkg[field];
		const empty =
			v === undefined ||
			(Array.isArray(v)
				? v.length === 0
				: v && typeof v === 'object' && Object.keys(v).length === 0);
		if (!empty)
			errors.push(`package.json "${field}" must be absent or empty: ${JSON.stringify(v)}`);
	}
	const peers = pkg.peerDependencies;
	if (JSON.stringify(peers) !== JSON.stringify({ 'n8n-workflow': '*' })) {
		errors.push(
			`package.json "peerDependencies" must be exactly {"n8n-workflow":"*"}: ${JSON.stringify(peers)}`,
		);
	}

	const registered = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	for (const f of registered)
		if (!fileSet.has(f)) errors.push(`registered in package.json "n8n" but not in tarball: ${f}`);
	const registeredSet = new Set(registered);
	for (const f of files)
		if (/\.(node|credentials)\.js$/.test(f) && !registeredSet.has(f))
			warnings.push(`not registered in package.json "n8n": ${f}`);

	// Every require in shipped code: relative ones must resolve inside the tarball,
	// bare ones must be modules the n8n host provides.
	const requireRe = /\brequire\(\s*(["'])([^"']+)\1\s*\)/g;
	let requires = 0;
	for (const f of files.filter((x) => x.endsWith('.js'))) {
		const src = fs.readFileSync(path.join(pkgDir, f), 'utf8');
		for (const m of src.matchAll(requireRe)) {
			requires++;
			const spec = m[2];
			if (spec.startsWith('.')) {
				const base = path.posix.normalize(path.posix.join(path.posix.dirname(f), spec));
				const hit = [base, `${base}.js`, `${base}.json`, `${base}/index.js`].some((c) =>
					fileSet.has(c),
				);
				if (!hit) errors.push(`${f}: require('${spec}') does not resolve inside the tarball`);
			} else {
				const name = spec.startsWith('@')
					? spec.split('/').slice(0, 2).join('/')
					: spec.split('/')[0];
				if (!HOST_MODULES.has(name) && !HOST_MODULES.has(spec))
					errors.push(`${f}: require('${spec}') is not a module n8n provides to community nodes`);
			}
		}
	}
	return {
		files,
		errors,
		warnings,
		requires,
		size: files.reduce((n, f) => n + fs.statSync(path.join(pkgDir, f)).size, 0),
	};
}

// ---------------------------------------------------------------------------------------------

let failed = false;
try {
	const rootPkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	console.log(
		`scan: ${rootPkg.name}@${rootPkg.version} with ${SCANNER_PKG}@${scannerVersion} ` +
			`(@n8n/eslint-plugin-community-nodes@${pluginVersion}, eslint-plugin-n8n-nodes-base@${basePluginVersion}, eslint@${ESLint.version})`,
	);
	console.log('provenance: not checked (needs a version published from GitHub Actions)\n');

	tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'callkaro-scan-'));

	const check = await canary(ROOT);
	const c = check.counts;
	console.log(
		`canary: ${check.problems.length ? 'FAILED' : 'ok'} (active rules: ${c.community} community on every file, ` +
			`n8n-nodes-base ${c.nodes} on nodes/**/*.ts, ${c.credentials} on credentials/**/*.ts, ${c.packageJson} on package.json)`,
	);
	if (check.problems.length) {
		for (const p of check.problems) console.log(`  error  ${p}`);
		throw new Error(
			`the scanner's config no longer catches what it should; check ${SCANNER_PKG}@${scannerVersion}`,
		);
	}

	// 1. Source leg: the gate lints the provenance-attested commit; here, the working tree.
	const source = await lintLeg(ROOT, scanner.SOURCE_FILE_PATTERNS);

	// 2. Tarball leg.
	const t0 = Date.now();
	const tgz = opts.tarball ?? packTarball(rootPkg);
	const pkgDir = path.join(tmpDir, `${rootPkg.name}-${rootPkg.version}`);
	fs.mkdirSync(pkgDir, { recursive: true });
	run('tar', ['-xzf', tgz, '-C', pkgDir, '--strip-components=1'], tmpDir, 60_000);
	const packTime = secs(t0);
	const tarball = await lintLeg(pkgDir, TARBALL_FILE_PATTERNS);

	// 3. Contents.
	const contents = checkContents(pkgDir);

	for (const [label, leg] of [
		['source', source],
		['tarball', tarball],
	]) {
		if (leg.report) console.log(`--- ${label} lint${leg.report}`);
	}
	if (contents.errors.length || contents.warnings.length) {
		console.log('--- tarball contents');
		for (const e of contents.errors) console.log(`  error  ${e}`);
		if (!opts.quiet) for (const w of contents.warnings) console.log(`  warn   ${w}`);
		console.log('');
	}

	const line = (label, leg, patterns) =>
		`${label.padEnd(9)} ${String(leg.files).padStart(3)} files  ${leg.errors} errors  ${leg.warnings} warnings  ${leg.time.padStart(7)}  ${patterns.join(' ')}`;
	console.log('summary');
	console.log(line('source', source, scanner.SOURCE_FILE_PATTERNS));
	console.log(line('tarball', tarball, TARBALL_FILE_PATTERNS));
	for (const [label, leg] of [
		['source', source],
		['tarball', tarball],
	])
		for (const [rule, n] of [...leg.byRule].sort())
			console.log(`          ${label}: ${n} x ${rule}`);
	console.log(
		`contents  ${String(contents.files.length).padStart(3)} files  ${contents.errors.length} errors  ${contents.warnings.length} warnings  ` +
			`${(contents.size / 1024).toFixed(0)} KiB unpacked, ${contents.requires} requires checked, ` +
			`${opts.tarball ? `tarball ${path.basename(tgz)}` : `packed in ${packTime}`}`,
	);

	failed = source.errors > 0 || tarball.errors > 0 || contents.errors.length > 0;
	console.log(
		`\n${failed ? 'FAIL' : 'PASS'} in ${secs(started)}${opts.keep ? ` (kept ${tmpDir})` : ''}`,
	);
} catch (error) {
	console.error(`scan: ${error.message}`);
	failed = true;
} finally {
	cleanup();
}
process.exit(failed ? 1 : 0);
