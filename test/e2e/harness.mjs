// What every *.e2e.mjs file builds on: a fresh n8n user folder prepared by host.mjs's
// prepareN8n() (the packed tarball community-installed, the "CallKaro Sandbox" credential, the
// examples and the file's own workflows), the sandbox, and the n8n CLI and server to drive them.
// global-setup.mjs has built and packed the package and installed n8n before any file runs.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { startN8nProcess } from '../../scripts/n8n/cluster.mjs';
import {
	PROJECT_ROOT,
	describeFailure,
	ensureOwner,
	freePort,
	n8nEnv,
	n8nLogin,
	ownerEnv,
	parseTrailingJson,
	prepareN8n,
	readJson,
	runN8n,
	stopAll,
} from '../../scripts/n8n/host.mjs';
import { startSandbox } from '../sandbox/sandbox.mjs';

const EXAMPLES = path.join(PROJECT_ROOT, 'examples');
export const OWNER = { email: 'owner@example.com', password: 'CallKaro-e2e-1' };

export const readExample = (file) => readJson(path.join(EXAMPLES, file));
export const exampleFiles = () => fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));

/** What global-setup.mjs left: { work, tarball, files, n8nDir }. */
export const packed = () => readJson(path.join(process.env.CALLKARO_E2E_WORK, 'packed.json'));

/** The q-th percentile (0 to 100) of a list of numbers, by nearest rank, rounded. */
export function percentile(list, q) {
	const sorted = [...list].sort((a, b) => a - b);
	return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((q / 100) * sorted.length) - 1)]);
}

/** Memoises an async step, so that a test filtered in with -t still runs what it builds on. */
export function once(fn) {
	let promise;
	return () => (promise ??= fn());
}

/** POSTs a JSON body; returns the Response. */
export const postJson = (url, body, headers = {}) =>
	fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(60_000),
	});

/** Last output items of each node of an execution: { node: { error, outputs: [[json...]] } }. */
function nodeOutputs(execution) {
	return Object.fromEntries(
		Object.entries(execution.data.resultData.runData).map(([node, runs]) => {
			const last = runs.at(-1);
			const outputs = (last.data?.main ?? []).map((items) => (items ?? []).map((i) => i.json));
			return [node, { error: last.error?.message ?? null, outputs }];
		}),
	);
}

/**
 * fetch that throws unless the answer is 2xx; returns the parsed JSON. A GET is sent once more if
 * a kept-alive socket was closed under it.
 */
async function fetchJson(url, init, retry = !init?.method) {
	try {
		const res = await fetch(url, { signal: AbortSignal.timeout(30_000), ...init });
		if (!res.ok)
			throw new Error(`${init?.method ?? 'GET'} ${url}: HTTP ${res.status} ${await res.text()}`);
		return await res.json();
	} catch (err) {
		if (retry && /other side closed|ECONNRESET/.test(err.cause?.message ?? ''))
			return fetchJson(url, init, false);
		throw err;
	}
}

/**
 * Starts the sandbox (demo data) and prepares one n8n user folder with the examples (unless
 * `examples: false`) plus `workflows`, `publish` (ids) published, and `credentials` (objects for
 * `n8n import:credentials`, data in clear) beside the "CallKaro Sandbox" one; `env` is added to
 * n8n's environment (CLI and server). Returns:
 *   cli(args, opts)      `n8n <args>` -> { code, stdout, stderr, ms }; only before server()
 *   execute(id, opts)    `n8n execute --id --rawOutput` -> the last output items of each node
 *   server()             starts `n8n start` (once) and logs the owner in ->
 *                        { url, cookie, get(route), executions(workflowId), execution(id) }
 *   state(), admin(route, body)   the sandbox's state and admin API
 *   close()              stops n8n and the sandbox (afterAll)
 */
export async function startE2e({
	examples = true,
	workflows = [],
	publish = [],
	credentials = [],
	env: extraEnv = {},
} = {}) {
	const { work: root, tarball, n8nDir } = packed();
	const work = fs.mkdtempSync(path.join(root, 'instance-'));
	const userFolder = path.join(work, 'n8n-user');
	const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
	const env = n8nEnv({
		userFolder,
		port: await freePort(),
		brokerPort: await freePort(),
		extra: extraEnv,
	});
	let running = null;

	const cli = async (args, opts = {}) => {
		if (running) throw new Error('n8n CLI commands run before n8n start (they share its database)');
		const r = await runN8n(args, { env, timeoutMs: 180_000, ...opts });
		if (process.env.CALLKARO_E2E_VERBOSE) console.log(r.stdout, r.stderr);
		return r;
	};
	const files = examples ? exampleFiles().map((f) => path.join(EXAMPLES, f)) : [];
	const sandboxUrl = sandbox.url;
	const installed = await prepareN8n({
		cli,
		tarball,
		userFolder,
		sandboxUrl,
		files,
		workflows,
		publish,
		credentials,
	});

	const server = once(async () => {
		const logFile = path.join(work, 'n8n.log');
		running = await startN8nProcess({
			role: 'main',
			name: 'main',
			userFolder,
			env: { ...ownerEnv(OWNER), ...extraEnv },
			logFile,
		});
		const { url } = running;
		await ensureOwner(url, OWNER);
		const cookie = await n8nLogin(url, OWNER);
		const get = (route) => fetchJson(`${url}${route}`, { headers: { cookie } });
		// the run data of an execution comes flatted; read it with the host n8n's own flatted
		const flatted = createRequire(path.join(n8nDir, 'node_modules', 'n8n', 'package.json'))(
			'flatted',
		);
		return {
			url,
			cookie,
			get,
			/** Executions of a workflow, newest first. */
			executions: async (workflowId) => {
				const filter = encodeURIComponent(JSON.stringify({ workflowId }));
				return (await get(`/rest/executions?filter=${filter}&limit=50`)).data.results;
			},
			execution: async (id) => {
				const { data } = await get(`/rest/executions/${id}`);
				if (typeof data.data === 'string') data.data = flatted.parse(data.data);
				return nodeOutputs(data);
			},
		};
	});

	return {
		work,
		sandbox,
		installed,
		cli,
		env,
		server,
		async execute(id, opts) {
			const r = await cli(['execute', `--id=${id}`, '--rawOutput'], opts);
			// n8n 2.41.1 on Node 24 sometimes segfaults while exiting, after it has printed the
			// whole run (about once in ten runs). The run printed is what the test judges.
			const crashedAfterRun = r.signal === 'SIGSEGV' && /"finished": true/.test(r.stdout);
			if (r.code !== 0 && !crashedAfterRun) throw new Error(describeFailure(r));
			if (crashedAfterRun) console.warn(`n8n execute --id=${id} crashed (SIGSEGV) after its run`);
			return nodeOutputs(parseTrailingJson(r.stdout));
		},
		state: () => fetchJson(`${sandbox.url}/__sandbox/state`),
		admin: (route, body) =>
			fetchJson(`${sandbox.url}${route}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			}),
		async close() {
			await running?.stop();
			await sandbox.close();
			await stopAll(5000);
		},
	};
}

/** Waits (at most 30 s) until the workflow has `count` executions, all finished; oldest first. */
export async function waitForExecutions(server, workflowId, count) {
	for (const deadline = Date.now() + 30_000; ; await sleep(250)) {
		const list = await server.executions(workflowId);
		const settled = list.every((e) => !['new', 'running', 'waiting'].includes(e.status));
		if (list.length >= count && settled) return list.sort((a, b) => Number(a.id) - Number(b.id));
		if (Date.now() > deadline)
			throw new Error(
				`${list.length} of ${count} executions of ${workflowId}: ${JSON.stringify(list.map((e) => [e.id, e.status]))}`,
			);
	}
}
