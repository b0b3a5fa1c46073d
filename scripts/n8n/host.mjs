// The one child-process module of scripts/ (npm start, the e2e, the bench, the editor check), and
// the n8n plumbing they share. Every child runs in its own process group, is tracked, and is
// killed when this process exits.
//
//   processes  runCommand(cmd, args, { timeoutMs, env, cwd, stdio, onSpawn }) -> { code, signal,
//                timedOut, stdout, stderr, ms }   (never rejects on a non-zero exit)
//              startProcess(cmd, args, { env, cwd, onStdout, onStderr }) -> child (long-running)
//              stopProcess(child, graceMs)   SIGTERM to its group, SIGKILL after graceMs
//              stopAll(graceMs)              the same for every child still running
//              describeFailure(result)       one message with the command's output tail
//   package    buildPackage, packPackage, installCommunityPackage (as n8n's installer does)
//   n8n        n8nEnv (127.0.0.1, telemetry off, own broker port), runN8n (CLI, output via
//              files), startN8nServer (-> { url, child, stop, output }), ownerEnv / ensureOwner /
//              n8nLogin, activateArgs (publish 2.x / activate 1.x), parseTrailingJson, nodeOutputs,
//              credentialFile, triggerExample
//   misc       freePort, portInUse, waitForHttp, tempDir, secondsSince
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { n8nPaths, node24Env } from './install.mjs';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PACKAGE_NAME = 'n8n-nodes-callkaro';
export const CREDENTIAL_NAME = 'CallKaro Sandbox';
export const CREDENTIAL_TYPE = 'callKaroApi';
/** Fixed id of the "CallKaro Sandbox" credential (n8n ids are 16 alphanumerics). */
export const CREDENTIAL_ID = 'CkSandboxCred001';
export const RESOLVE_PROBE = path.join(PROJECT_ROOT, 'scripts', 'n8n', 'resolve-probe.cjs');

// ---------------------------------------------------------------------------------------------
// child processes: every one is tracked, bounded in time, and stopped when this process exits

const live = new Set();
const alive = (child) => child.exitCode === null && child.signalCode === null;

/** Signals a child's whole process group (every child here is spawned detached, as its leader). */
export function killTree(child, signal = 'SIGTERM') {
	try {
		process.kill(-child.pid, signal);
	} catch {} // the group is gone already
}
process.on('exit', () => {
	for (const child of live) killTree(child, 'SIGKILL');
});

/** SIGTERM to a child's process group, SIGKILL after graceMs; resolves once it has exited. */
export async function stopProcess(child, graceMs = 15_000) {
	if (alive(child)) {
		const closed = new Promise((r) => child.once('close', r));
		killTree(child, 'SIGTERM');
		const timer = setTimeout(() => killTree(child, 'SIGKILL'), graceMs);
		await closed;
		clearTimeout(timer);
	}
	killTree(child, 'SIGKILL'); // anything of its group still there (n8n's task runner)
}

/** Stops every tracked child (stopProcess on each). */
export const stopAll = (graceMs = 10_000) =>
	Promise.all([...live].map((child) => stopProcess(child, graceMs)));

/**
 * Runs a command to completion with a time limit. Resolves { code, signal, stdout, stderr, ms };
 * never rejects for a non-zero exit (check code), rejects only if it cannot start.
 */
export function runCommand(
	cmd,
	args,
	{
		cwd = PROJECT_ROOT,
		env = process.env,
		timeoutMs,
		label = cmd,
		onSpawn,
		stdio = ['ignore', 'pipe', 'pipe'],
	} = {},
) {
	if (!timeoutMs) throw new Error('runCommand needs timeoutMs');
	return new Promise((resolve, reject) => {
		const started = Date.now();
		const child = spawn(cmd, args, { cwd, env, stdio, detached: true });
		live.add(child);
		onSpawn?.(child);
		let stdout = '';
		let stderr = '';
		let timedOut = false;
		child.stdout?.on('data', (d) => (stdout += d));
		child.stderr?.on('data', (d) => (stderr += d));
		const timer = setTimeout(() => {
			timedOut = true;
			killTree(child, 'SIGTERM');
			setTimeout(() => killTree(child, 'SIGKILL'), 5000).unref();
		}, timeoutMs);
		child.on('error', (err) => {
			clearTimeout(timer);
			live.delete(child);
			reject(err);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			live.delete(child);
			killTree(child, 'SIGKILL'); // a CLI that exits leaves no helpers behind (n8n's task runner)
			resolve({
				code: timedOut ? null : code,
				signal,
				timedOut,
				stdout,
				stderr,
				ms: Date.now() - started,
				label,
			});
		});
	});
}

/** Starts a long-running child in its own process group; returns it (tracked until it exits). */
export function startProcess(
	cmd,
	args,
	{ cwd = PROJECT_ROOT, env = process.env, onStdout, onStderr } = {},
) {
	const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	live.add(child);
	child.on('close', () => live.delete(child));
	child.stdout.on('data', (d) => onStdout?.(d.toString()));
	child.stderr.on('data', (d) => onStderr?.(d.toString()));
	return child;
}

export function describeFailure(result, tailChars = 4000) {
	const why = result.timedOut ? 'timed out' : `exit ${result.code ?? result.signal}`;
	const out = `${result.stdout}\n${result.stderr}`.trim();
	return `${result.label} ${why} after ${(result.ms / 1000).toFixed(1)}s\n${out.slice(-tailChars)}`;
}

// ---------------------------------------------------------------------------------------------
// the package

/** `npm run build` in the project (output shown only on failure). */
export async function buildPackage({ log }) {
	log('building the package (npm run build)...');
	const r = await runCommand('npm', ['run', 'build'], {
		env: { ...process.env, CI: 'true', FORCE_COLOR: '0' },
		timeoutMs: 5 * 60_000,
		label: 'npm run build',
	});
	if (r.code !== 0) throw new Error(describeFailure(r));
	for (const rel of readPackageJson().n8n.nodes.concat(readPackageJson().n8n.credentials)) {
		if (!fs.existsSync(path.join(PROJECT_ROOT, rel)))
			throw new Error(`build did not produce ${rel}`);
	}
	log(`  built (${(r.ms / 1000).toFixed(1)}s)`);
	return r.ms;
}

export function readPackageJson() {
	return JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'));
}

/** `npm pack` into outDir; returns the tarball's path. Scripts are skipped (the build ran already). */
export async function packPackage({ outDir, log }) {
	fs.mkdirSync(outDir, { recursive: true });
	const r = await runCommand(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', outDir],
		{
			timeoutMs: 2 * 60_000,
			label: 'npm pack',
		},
	);
	if (r.code !== 0) throw new Error(describeFailure(r));
	const info = JSON.parse(r.stdout.slice(r.stdout.indexOf('[')))[0];
	const tarball = path.join(outDir, info.filename);
	log(`  packed ${info.filename}: ${info.entryCount} files, ${(info.size / 1024).toFixed(0)} KiB`);
	return { tarball, files: info.files.map((f) => f.path) };
}

/**
 * Installs a packed tarball into <userFolder>/.n8n/nodes the way n8n 2.41's Community Nodes
 * installer does (CommunityPackagesService.downloadPackage): unpack into
 * nodes/node_modules/<name>, drop devDependencies/peerDependencies/optionalDependencies from its
 * package.json (it has no dependencies to `npm install`), and record it in nodes/package.json.
 * n8n then loads every nodes/node_modules/n8n-nodes-* at start-up; its node types are
 * `n8n-nodes-callkaro.<node>`.
 *
 * Peer dependencies (n8n-workflow) and the libraries the package does not ship (zod, luxon) are
 * not installed: they resolve from the host n8n, which puts its own module paths on NODE_PATH
 * before loading nodes. For that to be the only way they resolve, the real path of the nodes
 * folder must not sit under a folder with a node_modules holding them (such as this project):
 * pass nodesRealDir outside the project and .n8n/nodes becomes a symlink to it.
 */
export async function installCommunityPackage({ tarball, userFolder, nodesRealDir, log }) {
	const n8nFolder = path.join(userFolder, '.n8n');
	const nodesLink = path.join(n8nFolder, 'nodes');
	fs.mkdirSync(n8nFolder, { recursive: true });
	let nodesDir = nodesLink;
	if (nodesRealDir) {
		fs.mkdirSync(nodesRealDir, { recursive: true });
		let current = null;
		try {
			current = fs.readlinkSync(nodesLink);
		} catch {}
		if (current !== nodesRealDir) {
			fs.rmSync(nodesLink, { recursive: true, force: true });
			fs.symlinkSync(nodesRealDir, nodesLink, 'dir');
		}
		nodesDir = nodesRealDir;
	}
	const packageDir = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	fs.rmSync(packageDir, { recursive: true, force: true });
	fs.mkdirSync(packageDir, { recursive: true });
	const tar = await runCommand('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1'], {
		timeoutMs: 60_000,
		label: 'tar',
	});
	if (tar.code !== 0) throw new Error(describeFailure(tar));
	const pkgPath = path.join(packageDir, 'package.json');
	const { devDependencies, peerDependencies, optionalDependencies, ...pkg } = JSON.parse(
		fs.readFileSync(pkgPath, 'utf8'),
	);
	fs.writeFileSync(pkgPath, JSON.stringify(pkg, null, 2));
	// n8n would `npm install` them; n8n Cloud refuses them (npm run scan), so there are none
	if (Object.keys(pkg.dependencies ?? {}).length > 0)
		throw new Error(`${PACKAGE_NAME} has runtime dependencies: ${Object.keys(pkg.dependencies)}`);
	// nodes/package.json as n8n keeps it
	const manifestPath = path.join(nodesDir, 'package.json');
	let manifest = { name: 'installed-nodes', private: true, dependencies: {} };
	try {
		manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
	} catch {}
	manifest.dependencies = { ...(manifest.dependencies || {}), [PACKAGE_NAME]: pkg.version };
	fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	log?.(
		`  installed ${PACKAGE_NAME}@${pkg.version} as a community package in ${path.join(nodesLink, 'node_modules', PACKAGE_NAME)}`,
	);
	return { packageDir, realPackageDir: fs.realpathSync(packageDir), version: pkg.version };
}

/** Lists the ancestors of dir whose node_modules holds any of names (should be none). */
export function shadowingModules(dir, names = ['zod', 'luxon', 'n8n-workflow', 'n8n-core']) {
	const found = [];
	let current = fs.realpathSync(dir);
	for (;;) {
		for (const name of names) {
			const candidate = path.join(current, 'node_modules', name);
			if (fs.existsSync(candidate)) found.push(candidate);
		}
		const parent = path.dirname(current);
		if (parent === current) break;
		current = parent;
	}
	return found;
}

// ---------------------------------------------------------------------------------------------
// n8n

/** Environment for n8n (CLI and server); the caller's own N8N_* / DB_* settings are dropped. */
export function n8nEnv({ userFolder, port = 5678, brokerPort, extra = {} } = {}) {
	const env = node24Env();
	for (const key of Object.keys(env)) {
		if (/^(N8N_|DB_|EXECUTIONS_|QUEUE_)/.test(key) || key === 'WEBHOOK_URL') delete env[key];
	}
	delete env.NODE_OPTIONS;
	delete env.NODE_PATH;
	Object.assign(env, {
		N8N_USER_FOLDER: userFolder,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PORT: String(port),
		N8N_PROTOCOL: 'http',
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		// every n8n process gets its own task-broker port (the default 5679 would collide)
		N8N_RUNNERS_BROKER_PORT: String(brokerPort ?? 5679),
		// no fetching the list of verified community nodes from api.n8n.io (unreachable here)
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		NODE_ENV: 'production',
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
	});
	const { target } = n8nPaths();
	// n8n 2.x: the MCP server registry only fetches a list from api.n8n.io (the module name
	// is unknown to 1.x, which would refuse to start)
	if (target.major >= 2) env.N8N_DISABLED_MODULES = 'mcp-registry';
	Object.assign(env, target.env, extra);
	return env;
}

/**
 * Runs `n8n <args>` with Node 24 (optionally with a --require preload). n8n's CLI ends with
 * process.exit(), which cuts off stdout written to a pipe beyond its buffer (a big execution
 * JSON), so stdout and stderr go to files and are read back afterwards.
 */
export async function runN8n(args, { env, timeoutMs = 120_000, preload, label, onSpawn } = {}) {
	const { nodeBin, n8nMain } = n8nPaths();
	const nodeArgs = preload ? ['--require', preload, n8nMain, ...args] : [n8nMain, ...args];
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'callkaro-n8n-cli-'));
	const outPath = path.join(dir, 'stdout');
	const errPath = path.join(dir, 'stderr');
	const out = fs.openSync(outPath, 'w');
	const err = fs.openSync(errPath, 'w');
	try {
		const r = await runCommand(nodeBin, nodeArgs, {
			env,
			timeoutMs,
			label: label || `n8n ${args[0]}`,
			stdio: ['ignore', out, err],
			onSpawn,
		});
		r.stdout = fs.readFileSync(outPath, 'utf8');
		r.stderr = fs.readFileSync(errPath, 'utf8');
		return r;
	} finally {
		fs.closeSync(out);
		fs.closeSync(err);
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * The pretty-printed JSON document in a CLI's stdout. n8n prints log lines before it and may
 * print some after it (e.g. while shutting down), so the document runs from the first line
 * that starts with "{" or "[" to the last line that is just "}" or "]".
 */
export function parseTrailingJson(stdout) {
	const lines = stdout.split('\n');
	const closers = [];
	lines.forEach((line, i) => {
		if (line === '}' || line === ']') closers.push(i);
	});
	for (let i = 0; i < lines.length; i++) {
		if (!(lines[i].startsWith('{') || lines[i].startsWith('['))) continue;
		for (const end of closers.filter((c) => c >= i).reverse()) {
			try {
				return JSON.parse(lines.slice(i, end + 1).join('\n'));
			} catch {}
		}
		try {
			return JSON.parse(lines[i]);
		} catch {}
	}
	throw new Error(
		`no JSON document in the output (${stdout.length} chars); it ends with:\n${stdout.slice(-600)}`,
	);
}

/** A credential file for `n8n import:credentials` (data in clear: the command encrypts it). */
export function credentialFile({ baseUrl, apiKey, id = CREDENTIAL_ID, name = CREDENTIAL_NAME }) {
	return [{ id, name, type: CREDENTIAL_TYPE, data: { apiKey, baseUrl } }];
}

/** Last output items of each node of an `n8n execute --rawOutput` result: { node: [[json...] per output] }. */
export function nodeOutputs(execution) {
	const runData = execution?.data?.resultData?.runData ?? {};
	const out = {};
	for (const [node, runs] of Object.entries(runData)) {
		const last = runs[runs.length - 1];
		out[node] = {
			error: last?.error ? last.error.message || String(last.error) : null,
			outputs: (last?.data?.main ?? []).map((items) => (items ?? []).map((item) => item.json)),
		};
	}
	return out;
}

// ---------------------------------------------------------------------------------------------
// misc

export function freePort(host = '127.0.0.1') {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, host, () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

export function portInUse(port, host = '127.0.0.1') {
	return new Promise((resolve) => {
		const socket = net.connect({ port, host });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
		socket.setTimeout(2000, () => {
			socket.destroy();
			resolve(false);
		});
	});
}

/** Polls url until it answers (any status < 500) or timeoutMs passes; also stops if child exits. */
export async function waitForHttp(url, { timeoutMs, child } = {}) {
	const deadline = Date.now() + timeoutMs;
	let lastError = '';
	while (Date.now() < deadline) {
		if (child && (child.exitCode !== null || child.signalCode !== null)) {
			throw new Error(
				`process exited (${child.exitCode ?? child.signalCode}) before ${url} answered`,
			);
		}
		try {
			const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
			if (res.status < 500) return res.status;
			lastError = `HTTP ${res.status}`;
		} catch (err) {
			lastError = err.message;
		}
		await new Promise((r) => setTimeout(r, 250));
	}
	throw new Error(`${url} did not answer within ${timeoutMs / 1000}s (${lastError})`);
}

export function tempDir(prefix) {
	return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function secondsSince(t) {
	return `${((Date.now() - t) / 1000).toFixed(1)}s`;
}

// ---------------------------------------------------------------------------------------------
// the n8n server

/**
 * Env that makes n8n 2.41 set up its owner at start-up (N8N_INSTANCE_OWNER_MANAGED_BY_ENV, with
 * a bcrypt hash made by the host n8n's own bcryptjs), so the owner-setup screen never shows.
 */
export function ownerEnv({ email, password, firstName = 'CallKaro', lastName = 'Builder' }) {
	const { n8nDir } = n8nPaths();
	const requireFromN8n = createRequire(path.join(n8nDir, 'node_modules', 'n8n', 'package.json'));
	const bcrypt = requireFromN8n('bcryptjs');
	return {
		N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
		N8N_INSTANCE_OWNER_EMAIL: email,
		N8N_INSTANCE_OWNER_FIRST_NAME: firstName,
		N8N_INSTANCE_OWNER_LAST_NAME: lastName,
		N8N_INSTANCE_OWNER_PASSWORD_HASH: bcrypt.hashSync(password, 10),
	};
}

/**
 * Starts `n8n start` and resolves once it answers on /healthz/readiness.
 * Returns { child, url, stop(), output() }.
 */
export async function startN8nServer({ env, port, readyTimeoutMs = 120_000, echo }) {
	const { nodeBin, n8nMain } = n8nPaths();
	let output = '';
	const keep = (d) => {
		output = (output + d).slice(-64_000);
		echo?.(d);
	};
	const child = startProcess(nodeBin, [n8nMain, 'start'], { env, onStdout: keep, onStderr: keep });
	const url = `http://127.0.0.1:${port}`;
	const stop = (graceMs) => stopProcess(child, graceMs);
	try {
		const deadline = Date.now() + readyTimeoutMs;
		await waitForHttp(`${url}/healthz/readiness`, { timeoutMs: readyTimeoutMs, child });
		// published workflows (webhooks, forms) are registered just before this line is printed
		while (!output.includes('Editor is now accessible via')) {
			if (child.exitCode !== null || child.signalCode !== null) throw new Error('n8n exited');
			if (Date.now() > deadline)
				throw new Error(`n8n did not finish starting within ${readyTimeoutMs / 1000}s`);
			await new Promise((r) => setTimeout(r, 200));
		}
	} catch (err) {
		await stop(5000);
		throw new Error(`${err.message}\n--- n8n output ---\n${output.slice(-4000)}`);
	}
	return { child, url, stop, output: () => output };
}

/** Logs in to the n8n REST API; returns the auth cookie header value. */
export async function n8nLogin(url, { email, password }) {
	const res = await fetch(`${url}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: email, password }),
		signal: AbortSignal.timeout(15_000),
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`login failed: HTTP ${res.status} ${text.slice(0, 300)}`);
	const cookies = res.headers.getSetCookie?.() ?? [];
	return cookies.map((c) => c.split(';')[0]).join('; ');
}

/** CLI arguments that make a workflow active (n8n 2.x "publish"; n8n 1.x "activate"). */
export function activateArgs(workflowId) {
	return n8nPaths().target.major >= 2
		? ['publish:workflow', `--id=${workflowId}`]
		: ['update:workflow', `--id=${workflowId}`, '--active=true'];
}

/**
 * Makes sure the instance has its owner. n8n 2.x does it at start-up from ownerEnv(); n8n 1.x
 * has no such setting, so the owner is set up through the REST API the setup screen uses.
 * Returns 'env', 'created' or 'existing'.
 */
export async function ensureOwner(
	url,
	{ email, password, firstName = 'CallKaro', lastName = 'Builder' },
) {
	if (n8nPaths().target.major >= 2) return 'env';
	const settings = await (
		await fetch(`${url}/rest/settings`, { signal: AbortSignal.timeout(15_000) })
	).json();
	if (!settings?.data?.userManagement?.showSetupOnFirstLoad) return 'existing';
	const res = await fetch(`${url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ email, password, firstName, lastName }),
		signal: AbortSignal.timeout(15_000),
	});
	if (!res.ok)
		throw new Error(`owner setup failed: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
	return 'created';
}

// ---------------------------------------------------------------------------------------------
// the CallKaro Trigger example

/** The CallKaro Trigger's webhook path (its description's `webhooks[0].path`). */
export const TRIGGER_WEBHOOK_PATH = 'webhook';

/**
 * Where the example with a CallKaro Trigger listens once published, and the secret header it
 * wants. n8n's production path for a trigger node with a webhookId is `<webhookId>/<path>`
 * (n8n-workflow `getNodeWebhookPath`, 1.x and 2.x alike; without a webhookId it would be
 * `<workflowId>/<node name>/<path>`), so the fixed webhookId in the example gives a fixed URL.
 * Returns null when no example has the trigger.
 */
export function triggerExample(examplesDir = path.join(PROJECT_ROOT, 'examples')) {
	for (const file of fs
		.readdirSync(examplesDir)
		.filter((f) => f.endsWith('.json'))
		.sort()) {
		const wf = JSON.parse(fs.readFileSync(path.join(examplesDir, file), 'utf8'));
		const node = wf.nodes?.find((n) => n.type === `${PACKAGE_NAME}.callKaroTrigger`);
		if (!node) continue;
		if (!node.webhookId) throw new Error(`${file}: the CallKaro Trigger has no fixed webhookId`);
		const p = node.parameters ?? {};
		return {
			file,
			workflowId: wf.id,
			workflowName: wf.name,
			nodeName: node.name,
			webhookPath: `${node.webhookId}/${TRIGGER_WEBHOOK_PATH}`,
			secretHeader:
				p.verifySecret === true
					? { name: p.headerName ?? 'X-CallKaro-Secret', value: p.secretHeaderValue }
					: null,
		};
	}
	return null;
}
