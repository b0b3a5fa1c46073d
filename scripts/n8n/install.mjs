#!/usr/bin/env node
// `node scripts/n8n/install.mjs`: installs (once) n8n, and the Node it needs, under
// ~/.cache/callkaro-n8n/ (CALLKARO_N8N_CACHE), for the n8n version in CALLKARO_N8N_VERSION
// (default 2.41.1; 1.123.81 is the n8n 1.x target).
// - n8n 2.x requires Node >= 24: it comes from the npm registry package node-<platform>-<arch>
//   (what the `node` package installs). n8n 1.123.x runs on the machine's own Node 20.
// - n8n 2.41.1 resolves only with linkedom overridden to 0.18.14 (1.123.81: xlsx to 0.18.5), in
//   the cache's own package.json, never the project's. It is installed with --ignore-scripts
//   (isolated-vm and friends would compile for minutes or fail); only sqlite3, the database
//   driver, is rebuilt, against the target Node.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

import { runOrThrow, secondsSince } from './host.mjs';

const RECIPE = 1; // bump when the install steps change, to start a new cache entry
/**
 * The newest n8n 2.x that installs. The registry's `latest`, 2.41.3, does not: it pins 21 of n8n's
 * own packages to versions that were never published (@n8n/agents 0.26.2, n8n-core 2.41.2,
 * n8n-editor-ui 2.41.1, ...; the newest of each is one patch lower, 2.41.1's).
 */
export const DEFAULT_N8N = '2.41.1';

/** What to install for CALLKARO_N8N_VERSION (read on every call: scripts set it before use). */
export function target() {
	const n8n = process.env.CALLKARO_N8N_VERSION || DEFAULT_N8N;
	const major = Number(n8n.split('.')[0]);
	return major >= 2
		? { n8n, major, node: '24.21.0', overrides: { linkedom: '0.18.14' }, env: {} }
		: {
				n8n,
				major,
				node: null,
				overrides: { xlsx: '0.18.5' },
				env: { N8N_EXPRESSION_ENGINE: 'legacy' },
			};
}

export const cacheRoot = () =>
	process.env.CALLKARO_N8N_CACHE || path.join(os.homedir(), '.cache', 'callkaro-n8n');

const nodePackage = `node-${process.platform}-${process.arch}`;

/** Paths of a finished install (whether or not it exists yet). */
export function n8nPaths() {
	const t = target();
	const root = cacheRoot();
	const nodeDir = t.node ? path.join(root, `node-${t.node}`) : null;
	const nodeHome = nodeDir
		? path.join(nodeDir, 'node_modules', nodePackage)
		: path.dirname(path.dirname(process.execPath));
	const nodeBin = nodeDir ? path.join(nodeHome, 'bin', 'node') : process.execPath;
	const nodeKey = t.node ?? `system${process.versions.node.split('.')[0]}`;
	const n8nDir = path.join(root, `n8n-${t.n8n}-node${nodeKey}-r${RECIPE}`);
	const n8nMain = path.join(n8nDir, 'node_modules', 'n8n', 'bin', 'n8n');
	return { root, nodeDir, nodeHome, nodeBin, n8nDir, n8nMain, target: t };
}

/** Environment with the target's Node first on PATH, npm quiet. */
export function node24Env(extra = {}) {
	return {
		...process.env,
		...extra,
		PATH: `${path.dirname(n8nPaths().nodeBin)}${path.delimiter}${process.env.PATH}`,
		npm_config_update_notifier: 'false',
		npm_config_fund: 'false',
		npm_config_audit: 'false',
	};
}

/** npm, with a heartbeat so that a long install does not look hung. */
async function npm(args, { cwd, env = node24Env(), timeoutMs, log }) {
	const started = Date.now();
	const label = `npm ${args[0]}`;
	const beat = setInterval(
		() => log(`  ... ${label} still running (${secondsSince(started)})`),
		30_000,
	);
	const command = ['--no-audit', '--no-fund', '--loglevel=error', ...args];
	try {
		return await runOrThrow('npm', command, { cwd, env, timeoutMs, label });
	} finally {
		clearInterval(beat);
	}
}

/**
 * Builds `dir` in a `.partial-<pid>` folder (package.json, then `build(tmp)`), marks it complete
 * and moves it in place, unless it is complete already. Returns whether it built.
 */
async function installOnce(dir, packageJson, build) {
	if (fs.existsSync(path.join(dir, '.complete'))) return false;
	const tmp = `${dir}.partial-${process.pid}`;
	fs.rmSync(tmp, { recursive: true, force: true });
	fs.mkdirSync(tmp, { recursive: true });
	fs.writeFileSync(path.join(tmp, 'package.json'), JSON.stringify(packageJson, null, 2));
	await build(tmp);
	fs.writeFileSync(path.join(tmp, '.complete'), new Date().toISOString());
	fs.rmSync(dir, { recursive: true, force: true });
	fs.renameSync(tmp, dir);
	return true;
}

function mustRun(bin, args, what, opts) {
	const r = spawnSync(bin, args, { encoding: 'utf8', timeout: 120_000, ...opts });
	if (r.status !== 0)
		throw new Error(`${what} failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
	return r.stdout.trim();
}

async function installNode(p, log) {
	const version = p.target.node;
	return installOnce(p.nodeDir, { name: 'callkaro-node24', private: true }, async (tmp) => {
		log(`installing Node ${version} from the npm registry (${nodePackage})...`);
		const env = { ...process.env, npm_config_update_notifier: 'false' };
		await npm(['install', '--ignore-scripts', `${nodePackage}@${version}`], {
			cwd: tmp,
			env,
			timeoutMs: 10 * 60_000,
			log,
		});
		const bin = path.join(tmp, 'node_modules', nodePackage, 'bin', 'node');
		if (!mustRun(bin, ['--version'], 'node --version').startsWith(`v${version}`))
			throw new Error(`${bin} is not Node ${version}`);
	});
}

async function installN8n(p, log) {
	const { n8n, overrides } = p.target;
	const pkg = { name: 'callkaro-n8n-host', private: true, dependencies: { n8n }, overrides };
	return installOnce(p.n8nDir, pkg, async (tmp) => {
		// the cache's own .npmrc: no install scripts, no nodedir from the user's ~/.npmrc
		fs.writeFileSync(
			path.join(tmp, '.npmrc'),
			'ignore-scripts=true\nfund=false\naudit=false\nupdate-notifier=false\n',
		);
		// node-gyp builds against the target Node's headers (shipped in the registry package)
		const env = p.target.node ? node24Env({ npm_config_nodedir: p.nodeHome }) : node24Env();
		log(`installing n8n@${n8n} (first time only: about 3-5 minutes, ~3 GB)...`);
		let started = Date.now();
		await npm(['install', '--ignore-scripts'], { cwd: tmp, env, timeoutMs: 30 * 60_000, log });
		log(
			`  n8n installed (${secondsSince(started)}); building sqlite3 for Node ${p.target.node ?? process.versions.node}...`,
		);
		started = Date.now();
		// this one command must run scripts: they are the build
		const rebuild = ['rebuild', 'sqlite3', '--ignore-scripts=false', '--foreground-scripts=false'];
		await npm(rebuild, { cwd: tmp, env, timeoutMs: 15 * 60_000, log });
		mustRun(p.nodeBin, ['-e', "require('sqlite3')"], 'loading sqlite3', { cwd: tmp });
		log(`  sqlite3 built (${secondsSince(started)})`);
	});
}

/** `n8n --version`, on the target's Node. */
export function n8nVersion() {
	const p = n8nPaths();
	const env = node24Env({
		...p.target.env,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_USER_FOLDER: path.join(p.root, 'version-probe'),
	});
	const out = mustRun(p.nodeBin, [p.n8nMain, '--version'], 'n8n --version', { env });
	return /\d+\.\d+\.\d+\S*/.exec(out.split('\n').pop())?.[0] ?? out;
}

/** Holds `<root>/.<name>.lock` (a folder with the holder's pid) while fn runs; waits up to 30 min. */
async function withLock(root, name, log, fn) {
	fs.mkdirSync(root, { recursive: true });
	const lock = path.join(root, `.${name}.lock`);
	const pidFile = path.join(lock, 'pid');
	for (const deadline = Date.now() + 30 * 60_000; ; ) {
		try {
			fs.mkdirSync(lock);
			fs.writeFileSync(pidFile, String(process.pid));
			break;
		} catch (err) {
			if (err.code !== 'EEXIST') throw err;
		}
		const holder = Number(fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8'));
		let holderAlive = false;
		try {
			holderAlive = holder > 0 && process.kill(holder, 0);
		} catch {}
		if (!holderAlive) fs.rmSync(lock, { recursive: true, force: true });
		else if (Date.now() > deadline)
			throw new Error(`another install (pid ${holder}) holds ${lock} for too long`);
		else {
			log(`waiting for another install (pid ${holder}) to finish...`);
			await sleep(5000);
		}
	}
	try {
		return await fn();
	} finally {
		fs.rmSync(lock, { recursive: true, force: true });
	}
}

/** Installs the target's Node and n8n if needed; returns their paths. Safe to call concurrently. */
export async function ensureN8n({ log = (m) => console.log(`[n8n-install] ${m}`) } = {}) {
	const started = Date.now();
	const p = n8nPaths();
	const freshNode = p.target.node
		? await withLock(p.root, path.basename(p.nodeDir), log, () => installNode(p, log))
		: false;
	const fresh =
		(await withLock(p.root, path.basename(p.n8nDir), log, () => installN8n(p, log))) || freshNode;
	const version = n8nVersion();
	if (version !== p.target.n8n) throw new Error(`expected n8n ${p.target.n8n}, got ${version}`);
	const node = p.target.node ?? process.versions.node;
	log(
		`${fresh ? 'installed' : 'cached'}: n8n ${version} on Node ${node} (${secondsSince(started)}) in ${p.n8nDir}`,
	);
	return { ...p, version };
}

/**
 * The Node that n8n 2.x runs on (installed once, whatever CALLKARO_N8N_VERSION is): the local npm
 * registry of the installer e2e (scripts/n8n/registry.mjs) runs on it too. Returns its binary.
 */
export async function ensureNode2x({ log = (m) => console.log(`[n8n-install] ${m}`) } = {}) {
	const saved = process.env.CALLKARO_N8N_VERSION;
	process.env.CALLKARO_N8N_VERSION = DEFAULT_N8N;
	const p = n8nPaths();
	if (saved === undefined) delete process.env.CALLKARO_N8N_VERSION;
	else process.env.CALLKARO_N8N_VERSION = saved;
	await withLock(p.root, path.basename(p.nodeDir), log, () => installNode(p, log));
	return p.nodeBin;
}

/**
 * A cached npm install of `packageJson` (its dependencies and overrides) in `dir` under the cache,
 * with install scripts off, done once (under a lock); returns the folder.
 */
export async function ensureCachedPackages({ name, packageJson, nodeBin, log }) {
	const root = cacheRoot();
	const dir = path.join(root, name);
	await withLock(root, name, log, () =>
		installOnce(dir, packageJson, async (tmp) => {
			fs.writeFileSync(
				path.join(tmp, '.npmrc'),
				'ignore-scripts=true\nfund=false\naudit=false\nupdate-notifier=false\n',
			);
			const env = {
				...process.env,
				PATH: `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH}`,
				npm_config_update_notifier: 'false',
			};
			log(`installing ${Object.keys(packageJson.dependencies).join(', ')} into ${dir}...`);
			await npm(['install', '--ignore-scripts'], { cwd: tmp, env, timeoutMs: 10 * 60_000, log });
		}),
	);
	return dir;
}

if (process.argv[1] === fileURLToPath(import.meta.url))
	ensureN8n().catch((err) => {
		console.error(`[n8n-install] FAILED: ${err.message}`);
		process.exit(1);
	});
