#!/usr/bin/env node
// Installs (once) and caches n8n, and the Node it needs, outside the clone, under
// ~/.cache/callkaro-n8n/.
//
//   node scripts/n8n/install.mjs            install or reuse, then print the paths
//   node scripts/n8n/install.mjs --json     same, print the paths as JSON
//
// Environment: CALLKARO_N8N_CACHE (cache root, default ~/.cache/callkaro-n8n),
// CALLKARO_N8N_VERSION (default 2.41.1; 1.123.81 is the n8n 1.x target).
//
// Why it looks like this (measured on the project's machines):
// - n8n 2.x requires Node >= 24; the npm registry ships Node itself as the package
//   node-<platform>-<arch> (what the `node` package installs), so nothing is downloaded
//   from outside npm. n8n 1.123.x runs on the machine's own Node 20.
// - n8n 2.41.1 resolves only with linkedom overridden to 0.18.14 (1.123.81: xlsx to 0.18.5),
//   and is installed with --ignore-scripts (isolated-vm and friends would compile for minutes
//   or fail); only sqlite3, the database driver, is then rebuilt, against the target Node.
// - The overrides live in the cache's own package.json, never in the project's.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { describeFailure, runCommand } from './host.mjs';

const RECIPE = 1; // bump when the install steps change, to start a new cache entry

/**
 * What to install for the n8n version in CALLKARO_N8N_VERSION (read on every call, so a
 * script may set it before its first use).
 */
export function target() {
	const n8n = process.env.CALLKARO_N8N_VERSION || '2.41.1';
	const major = Number(n8n.split('.')[0]);
	if (major >= 2) {
		return {
			n8n,
			major,
			node: process.env.CALLKARO_NODE24_VERSION || '24.21.0', // from the npm registry
			overrides: { linkedom: '0.18.14' },
			env: {},
		};
	}
	return {
		n8n,
		major,
		node: null, // the Node running this script (n8n 1.123 wants >= 20.19)
		overrides: { xlsx: '0.18.5' },
		env: { N8N_EXPRESSION_ENGINE: 'legacy' },
	};
}

export function cacheRoot() {
	return process.env.CALLKARO_N8N_CACHE || path.join(os.homedir(), '.cache', 'callkaro-n8n');
}

function nodePackageName() {
	return `node-${process.platform}-${process.arch}`;
}

/** Paths of a finished install (whether or not it exists yet). */
export function n8nPaths() {
	const t = target();
	const root = cacheRoot();
	let nodeDir = null;
	let nodeHome = path.dirname(path.dirname(process.execPath));
	let nodeBin = process.execPath;
	if (t.node) {
		nodeDir = path.join(root, `node-${t.node}`);
		nodeHome = path.join(nodeDir, 'node_modules', nodePackageName());
		nodeBin = path.join(nodeHome, 'bin', 'node');
	}
	const nodeKey = t.node ?? `system${process.versions.node.split('.')[0]}`;
	const n8nDir = path.join(root, `n8n-${t.n8n}-node${nodeKey}-r${RECIPE}`);
	const n8nMain = path.join(n8nDir, 'node_modules', 'n8n', 'bin', 'n8n');
	return { root, nodeDir, nodeHome, nodeBin, n8nDir, n8nMain, target: t };
}

const t0 = Date.now();
function secs(since = t0) {
	return `${((Date.now() - since) / 1000).toFixed(1)}s`;
}

async function run(cmd, args, { cwd, env, timeoutMs, log, label }) {
	const started = Date.now();
	// a heartbeat so a long npm install does not look hung
	const beat = setInterval(() => log(`  ... ${label} still running (${secs(started)})`), 30_000);
	const r = await runCommand(cmd, args, { cwd, env, timeoutMs, label }).finally(() =>
		clearInterval(beat),
	);
	if (r.code !== 0) throw new Error(describeFailure(r));
	return r;
}

function npmCommand() {
	// the npm that came with the Node running this script; it runs on whichever `node` is first on PATH
	const sibling = path.join(
		path.dirname(process.execPath),
		process.platform === 'win32' ? 'npm.cmd' : 'npm',
	);
	return fs.existsSync(sibling) ? sibling : 'npm';
}

/** Environment for running npm (and n8n) with the target's Node first on PATH. */
export function node24Env(extra = {}) {
	const { nodeBin } = n8nPaths();
	const env = { ...process.env, ...extra };
	env.PATH = `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH || ''}`;
	// keep npm quiet and self-contained; the user's ~/.npmrc may carry a nodedir for Node 20
	env.npm_config_update_notifier = 'false';
	env.npm_config_fund = 'false';
	env.npm_config_audit = 'false';
	return env;
}

function isComplete(dir) {
	return fs.existsSync(path.join(dir, '.complete'));
}

async function withLock(root, name, log, fn) {
	fs.mkdirSync(root, { recursive: true });
	const lock = path.join(root, `.${name}.lock`);
	const deadline = Date.now() + 30 * 60_000;
	for (;;) {
		try {
			fs.mkdirSync(lock);
			fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
			break;
		} catch (err) {
			if (err.code !== 'EEXIST') throw err;
			let holder = NaN;
			try {
				holder = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
			} catch {}
			let alive = false;
			if (holder) {
				try {
					process.kill(holder, 0);
					alive = true;
				} catch {}
			}
			if (!alive) {
				fs.rmSync(lock, { recursive: true, force: true });
				continue;
			}
			if (Date.now() > deadline)
				throw new Error(`another install (pid ${holder}) holds ${lock} for too long`);
			log(`waiting for another install (pid ${holder}) to finish...`);
			await new Promise((r) => setTimeout(r, 5000));
		}
	}
	try {
		return await fn();
	} finally {
		fs.rmSync(lock, { recursive: true, force: true });
	}
}

async function installNode24(log) {
	const p = n8nPaths();
	const NODE24_VERSION = p.target.node;
	if (!NODE24_VERSION) return false; // the running Node is used
	if (isComplete(p.nodeDir) && fs.existsSync(p.nodeBin)) return false;
	const tmp = `${p.nodeDir}.partial-${process.pid}`;
	fs.rmSync(tmp, { recursive: true, force: true });
	fs.mkdirSync(tmp, { recursive: true });
	fs.writeFileSync(
		path.join(tmp, 'package.json'),
		JSON.stringify({ name: 'callkaro-node24', private: true }, null, 2),
	);
	log(`installing Node ${NODE24_VERSION} from the npm registry (${nodePackageName()})...`);
	const r = await run(
		npmCommand(),
		[
			'install',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--loglevel=error',
			`${nodePackageName()}@${NODE24_VERSION}`,
		],
		{
			cwd: tmp,
			env: { ...process.env, npm_config_update_notifier: 'false' },
			timeoutMs: 10 * 60_000,
			log,
			label: 'npm install node',
		},
	);
	const bin = path.join(tmp, 'node_modules', nodePackageName(), 'bin', 'node');
	const v = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
	if (v.status !== 0 || !v.stdout.startsWith(`v${NODE24_VERSION}`))
		throw new Error(`Node ${NODE24_VERSION} did not run: ${v.stdout}${v.stderr}`);
	fs.writeFileSync(path.join(tmp, '.complete'), new Date().toISOString());
	fs.rmSync(p.nodeDir, { recursive: true, force: true });
	fs.renameSync(tmp, p.nodeDir);
	log(`Node ${NODE24_VERSION} ready (${secs(Date.now() - r.ms)})`);
	return true;
}

async function installN8n(log) {
	const p = n8nPaths();
	const { n8n: N8N_VERSION, overrides: OVERRIDES } = p.target;
	const nodeLabel = `Node ${p.target.node ?? process.versions.node}`;
	if (isComplete(p.n8nDir) && fs.existsSync(p.n8nMain)) return false;
	const tmp = `${p.n8nDir}.partial-${process.pid}`;
	fs.rmSync(tmp, { recursive: true, force: true });
	fs.mkdirSync(tmp, { recursive: true });
	fs.writeFileSync(
		path.join(tmp, 'package.json'),
		JSON.stringify(
			{
				name: 'callkaro-n8n-host',
				private: true,
				dependencies: { n8n: N8N_VERSION },
				overrides: OVERRIDES,
			},
			null,
			2,
		),
	);
	// the cache's own .npmrc: scripts off (isolated-vm etc. are not needed), no nodedir from ~/.npmrc
	fs.writeFileSync(
		path.join(tmp, '.npmrc'),
		'ignore-scripts=true\nfund=false\naudit=false\nupdate-notifier=false\n',
	);
	// node-gyp builds against the target Node's own headers (shipped in the registry package);
	// for the running Node the user's npm config (e.g. nodedir=/usr) applies as it is
	const env = p.target.node ? node24Env({ npm_config_nodedir: p.nodeHome }) : node24Env();
	log(`installing n8n@${N8N_VERSION} into ${tmp} (first time only: about 3-5 minutes, ~3 GB)...`);
	let started = Date.now();
	await run(
		npmCommand(),
		['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
		{
			cwd: tmp,
			env,
			timeoutMs: 30 * 60_000,
			log,
			label: 'npm install n8n',
		},
	);
	log(`  n8n packages installed (${secs(started)}); building sqlite3 for ${nodeLabel}...`);
	started = Date.now();
	// scripts must run here (that is the build), so --ignore-scripts=false for this one command
	await run(
		npmCommand(),
		[
			'rebuild',
			'sqlite3',
			'--ignore-scripts=false',
			'--foreground-scripts=false',
			'--loglevel=error',
		],
		{
			cwd: tmp,
			env,
			timeoutMs: 15 * 60_000,
			log,
			label: 'npm rebuild sqlite3',
		},
	);
	log(`  sqlite3 built (${secs(started)})`);
	const main = path.join(tmp, 'node_modules', 'n8n', 'bin', 'n8n');
	// sqlite3 must load under Node 24
	const probe = spawnSync(p.nodeBin, ['-e', "require('sqlite3'); console.log('sqlite3 ok')"], {
		cwd: tmp,
		encoding: 'utf8',
		timeout: 60_000,
	});
	if (probe.status !== 0)
		throw new Error(`sqlite3 does not load under ${nodeLabel}:\n${probe.stderr}`);
	fs.writeFileSync(path.join(tmp, '.complete'), new Date().toISOString());
	fs.rmSync(p.n8nDir, { recursive: true, force: true });
	fs.renameSync(tmp, p.n8nDir);
	if (!fs.existsSync(p.n8nMain)) throw new Error(`n8n entry point missing: ${main}`);
	return true;
}

/** `n8n --version`, run with Node 24. */
export function n8nVersion() {
	const p = n8nPaths();
	const r = spawnSync(p.nodeBin, [p.n8nMain, '--version'], {
		encoding: 'utf8',
		timeout: 120_000,
		env: node24Env({
			...p.target.env,
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_USER_FOLDER: path.join(p.root, 'version-probe'),
		}),
	});
	if (r.status !== 0)
		throw new Error(`n8n --version failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
	const m = /\d+\.\d+\.\d+\S*/.exec(r.stdout.trim().split('\n').pop() || '');
	return m ? m[0] : r.stdout.trim();
}

/** Installs Node 24 and n8n if needed; returns their paths. Safe to call concurrently. */
export async function ensureN8n({ log = (m) => console.log(`[n8n-install] ${m}`) } = {}) {
	const started = Date.now();
	const p = n8nPaths();
	let fresh = false;
	await withLock(p.root, path.basename(p.n8nDir), log, async () => {
		fresh = (await installNode24(log)) || fresh;
		fresh = (await installN8n(log)) || fresh;
	});
	const version = n8nVersion();
	if (version !== p.target.n8n) throw new Error(`expected n8n ${p.target.n8n}, got ${version}`);
	const nodeVersion = p.target.node ?? process.versions.node;
	log(
		`${fresh ? 'installed' : 'cached'}: n8n ${version} on Node ${nodeVersion} (${secs(started)}) in ${p.n8nDir}`,
	);
	return { ...p, version, fresh, ms: Date.now() - started };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
	const { json } = parseArgs({ options: { json: { type: 'boolean' } } }).values;
	ensureN8n({ log: json ? (m) => console.error(`[n8n-install] ${m}`) : undefined })
		.then((r) => {
			if (json) console.log(JSON.stringify(r, null, 2));
		})
		.catch((err) => {
			console.error(`[n8n-install] FAILED: ${err.message}`);
			process.exit(1);
		});
}
