// The one child-process module of scripts/ (npm start, the e2e, the bench, the editor check) and
// the n8n plumbing they share. Every child runs in its own process group, is tracked, and is
// killed when this process exits.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { n8nPaths, node24Env } from './install.mjs';
import { DEMO_API_KEY } from '../../test/sandbox/demoData.mjs';

export const PROJECT_ROOT = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const PACKAGE_NAME = 'n8n-nodes-callkaro';
export const CREDENTIAL_NAME = 'CallKaro Sandbox';
export const CREDENTIAL_TYPE = 'callKaroApi';
/** Fixed id of the "CallKaro Sandbox" credential (n8n ids are 16 alphanumerics). */
export const CREDENTIAL_ID = 'CkSandboxCred001';

export const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
export const readPackageJson = () => readJson(path.join(PROJECT_ROOT, 'package.json'));
export const tempDir = (prefix) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
export const secondsSince = (t) => `${((Date.now() - t) / 1000).toFixed(1)}s`;

const live = new Set();
const alive = (child) => child.exitCode === null && child.signalCode === null;

/** Signals a child's whole process group (every child here is spawned detached, as its leader). */
export function killTree(child, signal = 'SIGTERM') {
	try {
		process.kill(-child.pid, signal);
	} catch {} // the group is gone already
}
process.on('exit', () => live.forEach((child) => killTree(child, 'SIGKILL')));

function track(cmd, args, { cwd = PROJECT_ROOT, env = process.env, stdio }) {
	const child = spawn(cmd, args, { cwd, env, stdio, detached: true });
	live.add(child);
	child.on('close', () => {
		live.delete(child);
		killTree(child, 'SIGKILL'); // whatever of its group is left (n8n's task runner)
	});
	return child;
}

/** `signal` to a child's process group, SIGKILL after graceMs; resolves once it has exited. */
export async function stopProcess(child, graceMs = 15_000, signal = 'SIGTERM') {
	if (alive(child)) {
		const closed = once(child, 'close');
		killTree(child, signal);
		const timer = setTimeout(() => killTree(child, 'SIGKILL'), graceMs);
		await closed;
		clearTimeout(timer);
	}
	killTree(child, 'SIGKILL');
}

export const stopAll = (graceMs = 10_000) =>
	Promise.all([...live].map((child) => stopProcess(child, graceMs)));

/**
 * Runs a command to completion, stopped after timeoutMs. Resolves { code, signal, timedOut,
 * stdout, stderr, ms, label } (check code); rejects only if it cannot start.
 */
export async function runCommand(cmd, args, opts = {}) {
	const { timeoutMs = 60_000, label = [cmd, ...args].join(' '), ...spawnOpts } = opts;
	const started = Date.now();
	const child = track(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...spawnOpts });
	let [stdout, stderr, timedOut] = ['', '', false];
	child.stdout?.on('data', (d) => (stdout += d));
	child.stderr?.on('data', (d) => (stderr += d));
	const timer = setTimeout(() => {
		timedOut = true;
		void stopProcess(child, 5000);
	}, timeoutMs);
	try {
		const [code, signal] = await once(child, 'close');
		const ms = Date.now() - started;
		return { code: timedOut ? null : code, signal, timedOut, stdout, stderr, ms, label };
	} finally {
		clearTimeout(timer);
	}
}

/** runCommand that throws (with the output's tail) unless the command exits 0. */
export async function runOrThrow(cmd, args, opts) {
	const r = await runCommand(cmd, args, opts);
	if (r.code !== 0) throw new Error(describeFailure(r));
	return r;
}

/** Starts a long-running child in its own process group; returns it (tracked until it exits). */
export function startProcess(cmd, args, { onStdout, onStderr, ...opts } = {}) {
	const child = track(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
	child.stdout.on('data', (d) => onStdout?.(d.toString()));
	child.stderr.on('data', (d) => onStderr?.(d.toString()));
	return child;
}

export function describeFailure(r) {
	const why = r.timedOut ? 'timed out' : `exit ${r.code ?? r.signal}`;
	const out = `${r.stdout}\n${r.stderr}`.trim().slice(-4000);
	return `${r.label} ${why} after ${(r.ms / 1000).toFixed(1)}s\n${out}`;
}

/** `npm run build` (output shown only on failure); checks that it made every file n8n loads. */
export async function buildPackage({ log }) {
	log('building the package (npm run build)...');
	const env = { ...process.env, CI: 'true', FORCE_COLOR: '0' };
	const r = await runOrThrow('npm', ['run', 'build'], { env, timeoutMs: 5 * 60_000 });
	const { nodes, credentials } = readPackageJson().n8n;
	for (const rel of [...nodes, ...credentials])
		if (!fs.existsSync(path.join(PROJECT_ROOT, rel)))
			throw new Error(`build did not produce ${rel}`);
	log(`  built (${(r.ms / 1000).toFixed(1)}s)`);
}

/** `npm pack` into outDir (scripts skipped: the build ran already) -> { tarball, files }. */
export async function packPackage({ outDir, log }) {
	fs.mkdirSync(outDir, { recursive: true });
	const args = ['pack', '--json', '--ignore-scripts', '--pack-destination', outDir];
	const r = await runOrThrow('npm', args, { timeoutMs: 2 * 60_000, label: 'npm pack' });
	const [info] = JSON.parse(r.stdout.slice(r.stdout.indexOf('[')));
	log(`  packed ${info.filename}: ${info.entryCount} files, ${(info.size / 1024).toFixed(0)} KiB`);
	return { tarball: path.join(outDir, info.filename), files: info.files.map((f) => f.path) };
}

/**
 * Installs a packed tarball into <userFolder>/.n8n/nodes as n8n 2.41's Community Nodes installer
 * does (CommunityPackagesService.downloadPackage): unpacked into nodes/node_modules/<name>, its
 * dev/peer/optional dependencies dropped, recorded in nodes/package.json. zod, luxon and
 * n8n-workflow must then resolve from the host n8n only: pass nodesRealDir (outside any folder
 * whose node_modules holds them, such as this project) and .n8n/nodes becomes a symlink to it.
 */
export async function installCommunityPackage({ tarball, userFolder, nodesRealDir, log }) {
	const nodesLink = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(path.dirname(nodesLink), { recursive: true });
	if (nodesRealDir) {
		fs.mkdirSync(nodesRealDir, { recursive: true });
		fs.rmSync(nodesLink, { recursive: true, force: true }); // the link, not what it points to
		fs.symlinkSync(nodesRealDir, nodesLink, 'dir');
	}
	const nodesDir = nodesRealDir ?? nodesLink;
	const packageDir = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	fs.rmSync(packageDir, { recursive: true, force: true });
	fs.mkdirSync(packageDir, { recursive: true });
	const tarArgs = ['-xzf', tarball, '-C', packageDir, '--strip-components=1'];
	await runOrThrow('tar', tarArgs, { timeoutMs: 60_000 });
	const pkgPath = path.join(packageDir, 'package.json');
	const { devDependencies, peerDependencies, optionalDependencies, ...pkg } = readJson(pkgPath);
	// n8n would `npm install` them; n8n Cloud refuses them (npm run scan), so there are none
	if (Object.keys(pkg.dependencies ?? {}).length > 0)
		throw new Error(`${PACKAGE_NAME} has runtime dependencies: ${Object.keys(pkg.dependencies)}`);
	fs.writeFileSync(pkgPath, JSON.stringify(pkg, null, 2));
	const manifestPath = path.join(nodesDir, 'package.json');
	const manifest = fs.existsSync(manifestPath)
		? readJson(manifestPath)
		: { name: 'installed-nodes', private: true, dependencies: {} };
	manifest.dependencies[PACKAGE_NAME] = pkg.version;
	fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	log?.(`  installed ${PACKAGE_NAME}@${pkg.version} as a community package under ${nodesLink}`);
	return { packageDir, version: pkg.version };
}

/** The node_modules/{zod,luxon,n8n-workflow,n8n-core} in dir and its ancestors (should be none). */
export function shadowingModules(dir) {
	const dirs = [fs.realpathSync(dir)];
	while (dirs.at(-1) !== path.dirname(dirs.at(-1))) dirs.push(path.dirname(dirs.at(-1)));
	const names = ['zod', 'luxon', 'n8n-workflow', 'n8n-core'];
	const candidates = dirs.flatMap((d) => names.map((name) => path.join(d, 'node_modules', name)));
	return candidates.filter((candidate) => fs.existsSync(candidate));
}

/** Environment for n8n (CLI and server); the caller's own N8N_* / DB_* settings are dropped. */
export function n8nEnv({ userFolder, port = 5678, brokerPort = 5679, extra = {} } = {}) {
	const env = node24Env();
	for (const key of Object.keys(env))
		if (/^(N8N_|DB_|EXECUTIONS_|QUEUE_|NODE_OPTIONS$|NODE_PATH$|WEBHOOK_URL$)/.test(key))
			delete env[key];
	const { target } = n8nPaths();
	return Object.assign(env, {
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
		// each n8n process needs its own task-broker port (the default 5679 would collide)
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		// api.n8n.io is unreachable here: no list of verified community nodes, and on 2.x no MCP
		// registry (a module name 1.x does not know and would refuse to start with)
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		...(target.major >= 2 ? { N8N_DISABLED_MODULES: 'mcp-registry' } : {}),
		NODE_ENV: 'production',
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		...target.env,
		...extra,
	});
}

/**
 * `n8n <args>` on the target's Node (optionally with a --require preload). n8n's CLI ends with
 * process.exit(), which cuts off a big stdout written to a pipe: the output goes to files.
 */
export async function runN8n(
	args,
	{ env, timeoutMs = 120_000, preload, label = `n8n ${args[0]}` } = {},
) {
	const { nodeBin, n8nMain } = n8nPaths();
	const dir = tempDir('callkaro-n8n-cli-');
	const [out, err] = ['stdout', 'stderr'].map((f) => fs.openSync(path.join(dir, f), 'w'));
	try {
		const nodeArgs = [...(preload ? ['--require', preload] : []), n8nMain, ...args];
		const stdio = ['ignore', out, err];
		const r = await runCommand(nodeBin, nodeArgs, { env, timeoutMs, label, stdio });
		r.stdout = fs.readFileSync(path.join(dir, 'stdout'), 'utf8');
		r.stderr = fs.readFileSync(path.join(dir, 'stderr'), 'utf8');
		return r;
	} finally {
		[out, err].forEach((fd) => fs.closeSync(fd));
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * The pretty-printed JSON document in a CLI's stdout: from a line starting with "{" or "[" to
 * the last line that is only "}" or "]" (n8n logs lines before it, and sometimes after it).
 */
export function parseTrailingJson(stdout) {
	const lines = stdout.split('\n');
	const end = lines.findLastIndex((l) => l === '}' || l === ']');
	for (let i = 0; i < end; i++) {
		if (!/^[{[]/.test(lines[i])) continue;
		try {
			return JSON.parse(lines.slice(i, end + 1).join('\n'));
		} catch {}
	}
	throw new Error(`no JSON document in the output; it ends with:\n${stdout.slice(-600)}`);
}

/**
 * The "CallKaro Sandbox Webhook Secret" credential that the CallKaro Trigger example selects: the
 * secret header the sandbox sends with each call_ended delivery.
 */
export const SECRET_CREDENTIAL = {
	id: 'CkSandboxSecret1',
	name: 'CallKaro Sandbox Webhook Secret',
	type: 'callKaroWebhookSecretApi',
	data: { headerName: 'X-CallKaro-Secret', secretHeaderValue: 'callkaro-sandbox-secret' },
};

/**
 * A credential file for `n8n import:credentials` (data in clear: the command encrypts it): the
 * "CallKaro Sandbox" API credential, set to Another Server at baseUrl, and the example's secret.
 */
export const credentialFile = ({ baseUrl, apiKey }) => [
	{
		id: CREDENTIAL_ID,
		name: CREDENTIAL_NAME,
		type: CREDENTIAL_TYPE,
		data: { apiKey, environment: 'other', serverUrl: baseUrl },
	},
	SECRET_CREDENTIAL,
];

/** Fixed id and name of the "Scripted Local Model" credential (`openAiApi`, AI Agent examples). */
export const MODEL_CREDENTIAL_ID = 'CkScriptedLlm001';
export const MODEL_CREDENTIAL_NAME = 'Scripted Local Model';

/**
 * An `openAiApi` credential whose Base URL is a local OpenAI-compatible server (the scripted model
 * of test/support/scriptedModel.mjs needs no key; n8n requires one, so a placeholder goes in).
 */
export const modelCredential = ({ url, apiKey = 'no-key-needed-scripted-model' }) => ({
	id: MODEL_CREDENTIAL_ID,
	name: MODEL_CREDENTIAL_NAME,
	type: 'openAiApi',
	data: { apiKey, url, organizationId: '', header: false },
});

/**
 * Makes userFolder an n8n with this package, ready to start: community-installs the tarball,
 * imports the "CallKaro Sandbox" credential pointing at sandboxUrl (and `credentials`, more
 * credential objects, in the same import), then the workflow files (byte for byte) and objects in
 * one `import:workflow` (each n8n CLI start costs seconds), and publishes those in `publish`.
 * cli(args) runs `n8n <args>` against the user folder's database.
 */
export async function prepareN8n(opts) {
	const { cli, tarball, userFolder, nodesRealDir, sandboxUrl, log } = opts;
	const { files = [], workflows = [], publish = [], credentials = [] } = opts;
	const installed = await installCommunityPackage({ tarball, userFolder, nodesRealDir, log });
	const mustCli = async (args, expected = /(?:)/) => {
		const r = await cli(args);
		if (r.code !== 0 || !expected.test(r.stdout)) throw new Error(describeFailure(r));
	};
	const dir = tempDir('callkaro-import-');
	try {
		const credential = path.join(dir, 'credential.json');
		const data = [...credentialFile({ baseUrl: sandboxUrl, apiKey: DEMO_API_KEY }), ...credentials];
		fs.writeFileSync(credential, JSON.stringify(data));
		const importedCredentials = new RegExp(`imported ${data.length} credential`);
		await mustCli(['import:credentials', `--input=${credential}`], importedCredentials);
		const wfDir = path.join(dir, 'workflows');
		fs.mkdirSync(wfDir);
		for (const file of files) fs.copyFileSync(file, path.join(wfDir, path.basename(file)));
		for (const w of workflows)
			fs.writeFileSync(path.join(wfDir, `${w.id}.json`), JSON.stringify(w));
		const count = files.length + workflows.length;
		const imported = new RegExp(`imported ${count} workflow`);
		if (count > 0) await mustCli(['import:workflow', '--separate', `--input=${wfDir}`], imported);
		for (const id of publish) await mustCli(activateArgs(id));
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
	return installed;
}

export function freePort() {
	const server = net.createServer().listen(0, '127.0.0.1');
	return once(server, 'listening').then(() => {
		const { port } = server.address();
		return new Promise((resolve) => server.close(() => resolve(port)));
	});
}

/** Whether something listens on 127.0.0.1:port already (this process cannot listen there). */
export const portInUse = (port) =>
	new Promise((resolve) => {
		const server = net.createServer().once('error', () => resolve(true));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
	});

const OWNER_NAME = { firstName: 'CallKaro', lastName: 'Builder' };

/**
 * Env that makes n8n 2.x set up its owner at start-up (with a bcrypt hash made by the host n8n's
 * own bcryptjs), so the owner-setup screen never shows.
 */
export function ownerEnv({ email, password }) {
	const n8nPackage = path.join(n8nPaths().n8nDir, 'node_modules', 'n8n', 'package.json');
	const bcrypt = createRequire(n8nPackage)('bcryptjs');
	return {
		N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
		N8N_INSTANCE_OWNER_EMAIL: email,
		N8N_INSTANCE_OWNER_FIRST_NAME: OWNER_NAME.firstName,
		N8N_INSTANCE_OWNER_LAST_NAME: OWNER_NAME.lastName,
		N8N_INSTANCE_OWNER_PASSWORD_HASH: bcrypt.hashSync(password, 10),
	};
}

async function postJson(url, body) {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(15_000),
	});
	if (!res.ok)
		throw new Error(`POST ${url}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
	return res;
}

/**
 * Makes sure the instance has its owner: n8n 2.x did it at start-up from ownerEnv(); 1.x has no
 * such setting, so the owner is set up through the REST API the setup screen uses.
 */
export async function ensureOwner(url, { email, password }) {
	if (n8nPaths().target.major >= 2) return;
	const settings = await (await fetch(`${url}/rest/settings`)).json();
	if (settings?.data?.userManagement?.showSetupOnFirstLoad)
		await postJson(`${url}/rest/owner/setup`, { email, password, ...OWNER_NAME });
}

/** Logs in to the n8n REST API; returns the auth cookie header value. */
export async function n8nLogin(url, { email, password }) {
	const res = await postJson(`${url}/rest/login`, { emailOrLdapLoginId: email, password });
	return res.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.join('; ');
}

/** CLI arguments that make a workflow active (n8n 2.x "publish"; n8n 1.x "activate"). */
export const activateArgs = (workflowId) =>
	n8nPaths().target.major >= 2
		? ['publish:workflow', `--id=${workflowId}`]
		: ['update:workflow', `--id=${workflowId}`, '--active=true'];

/**
 * The example with a CallKaro Trigger: where it listens once published, and the secret header it
 * wants (its credential, SECRET_CREDENTIAL). n8n's production path for a trigger node with a webhookId is `<webhookId>/<path>`
 * (n8n-workflow getNodeWebhookPath, 1.x and 2.x), and the trigger's webhook path is `webhook`, so
 * the example's fixed webhookId gives a fixed URL.
 */
export function triggerExample() {
	const dir = path.join(PROJECT_ROOT, 'examples');
	for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
		const wf = readJson(path.join(dir, file));
		const node = wf.nodes.find((n) => n.type === `${PACKAGE_NAME}.callKaroTrigger`);
		if (!node) continue;
		if (!node.webhookId) throw new Error(`${file}: the CallKaro Trigger has no fixed webhookId`);
		const selected = node.credentials?.[SECRET_CREDENTIAL.type]?.id;
		if (selected !== SECRET_CREDENTIAL.id)
			throw new Error(`${file}: the CallKaro Trigger must select "${SECRET_CREDENTIAL.name}"`);
		const { headerName, secretHeaderValue } = SECRET_CREDENTIAL.data;
		return {
			workflowId: wf.id,
			workflowName: wf.name,
			nodeName: node.name,
			webhookPath: `${node.webhookId}/webhook`,
			secretHeader: { name: headerName, value: secretHeaderValue },
		};
	}
	throw new Error('no example has a CallKaro Trigger');
}
