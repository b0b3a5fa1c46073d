// What every *.e2e.mjs file builds on: a fresh n8n user folder with the packed tarball
// community-installed, the sandbox, the "CallKaro Sandbox" credential and the workflows imported,
// and the n8n CLI and server to drive them. global-setup.mjs has built and packed the package
// and installed n8n (CALLKARO_N8N_VERSION) before any file runs.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { startN8nProcess } from '../n8n/cluster.mjs';
import {
	CREDENTIAL_NAME,
	PROJECT_ROOT,
	activateArgs,
	credentialFile,
	describeFailure,
	ensureOwner,
	freePort,
	installCommunityPackage,
	n8nEnv,
	n8nLogin,
	ownerEnv,
	parseTrailingJson,
	readJson,
	runN8n,
	stopAll,
} from '../n8n/host.mjs';
import { n8nPaths } from '../n8n/install.mjs';
import { DEMO_API_KEY, startSandbox } from '../../test/sandbox/sandbox.mjs';

const EXAMPLES = path.join(PROJECT_ROOT, 'examples');
export const OWNER = { email: 'owner@example.com', password: 'CallKaro-e2e-1' };
const VERBOSE = !!process.env.CALLKARO_E2E_VERBOSE;

export const readExample = (file) => readJson(path.join(EXAMPLES, file));
export const exampleFiles = () => fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));

/** What global-setup.mjs left: { work, tarball, files, n8nDir }. */
export const packed = () => readJson(path.join(process.env.CALLKARO_E2E_WORK, 'packed.json'));

/** Memoises an async step, so that a test filtered in with -t still runs what it builds on. */
export function once(fn) {
	let promise;
	return () => (promise ??= fn());
}

/** Last output items of each node of an execution: { node: { error, outputs: [[json...]] } }. */
export function nodeOutputs(execution) {
	const runData = execution.data.resultData.runData;
	return Object.fromEntries(
		Object.entries(runData).map(([node, runs]) => {
			const last = runs.at(-1);
			const outputs = (last.data?.main ?? []).map((items) => (items ?? []).map((i) => i.json));
			return [node, { error: last.error?.message ?? null, outputs }];
		}),
	);
}

/**
 * The CLI's `execute` can start a workflow only at a Manual Trigger. For the webhook and form
 * examples the e2e runs a copy whose trigger node is replaced, under the same name, by a Set node
 * emitting what that trigger would emit, started by a Manual Trigger. The credential is named by
 * name only, so the import must find "CallKaro Sandbox" by name.
 */
export function cliVariant(workflow, { id, triggerName, sample }) {
	const wf = structuredClone(workflow);
	Object.assign(wf, { id, name: `${workflow.name} (e2e: manual start)` });
	const trigger = wf.nodes.find((n) => n.name === triggerName);
	if (!trigger) throw new Error(`no node "${triggerName}" in ${workflow.name}`);
	delete trigger.webhookId;
	Object.assign(trigger, {
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		parameters: { mode: 'raw', jsonOutput: JSON.stringify(sample), options: {} },
	});
	const start = 'Manual Start (e2e)';
	wf.nodes.push({
		id: '9f9f9f9f-0000-4000-8000-00000000e2e0',
		name: start,
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [trigger.position[0] - 220, trigger.position[1]],
		parameters: {},
	});
	wf.connections[start] = { main: [[{ node: triggerName, type: 'main', index: 0 }]] };
	for (const node of wf.nodes)
		if (node.credentials?.callKaroApi)
			node.credentials.callKaroApi = { id: null, name: CREDENTIAL_NAME };
	return wf;
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
 * Sets up one n8n user folder: community-installs the tarball, starts the sandbox (demo data),
 * imports the credential and, in one `import:workflow` (each n8n CLI start costs seconds), the
 * examples byte for byte plus `workflows`. Returns:
 *   cli(args, opts)      `n8n <args>` -> { code, stdout, stderr, ms }; only before server()
 *   execute(id, opts)    `n8n execute --id --rawOutput` -> { ms, out: nodeOutputs }
 *   server()             publishes `publish` (workflow ids), starts `n8n start` (once), logs the
 *                        owner in -> { url, cookie, get(route), executions(workflowId), execution(id) }
 *   state(), admin(route, body)   the sandbox's state and admin API
 *   close()              stops n8n and the sandbox (afterAll)
 */
export async function startE2e({ workflows = [], publish = [] } = {}) {
	const { work: root, tarball } = packed();
	const work = fs.mkdtempSync(path.join(root, 'instance-'));
	const userFolder = path.join(work, 'n8n-user');
	const installed = await installCommunityPackage({ tarball, userFolder });
	const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
	const env = n8nEnv({ userFolder, port: await freePort(), brokerPort: await freePort() });
	let running = null;

	const cli = async (args, opts = {}) => {
		if (running) throw new Error('n8n CLI commands run before n8n start (they share its database)');
		const r = await runN8n(args, { env, timeoutMs: 180_000, ...opts });
		if (VERBOSE) console.log(r.stdout, r.stderr);
		return r;
	};
	const mustCli = async (args, expected = /(?:)/) => {
		const r = await cli(args);
		if (r.code !== 0 || !expected.test(r.stdout)) throw new Error(describeFailure(r));
	};

	// credential: clear data in the file, `import:credentials` encrypts it
	const credFile = path.join(work, 'credential.json');
	fs.writeFileSync(
		credFile,
		JSON.stringify(credentialFile({ baseUrl: sandbox.url, apiKey: DEMO_API_KEY })),
	);
	await mustCli(
		['import:credentials', `--input=${credFile}`],
		/Successfully imported 1 credential/,
	);
	const importDir = path.join(work, 'import');
	fs.mkdirSync(importDir);
	for (const f of exampleFiles()) fs.copyFileSync(path.join(EXAMPLES, f), path.join(importDir, f));
	for (const wf of workflows)
		fs.writeFileSync(path.join(importDir, `e2e-${wf.id}.json`), JSON.stringify(wf));
	const total = exampleFiles().length + workflows.length;
	await mustCli(
		['import:workflow', '--separate', `--input=${importDir}`],
		new RegExp(`Successfully imported ${total} workflows`),
	);

	const server = once(async () => {
		for (const id of publish) await mustCli(activateArgs(id));
		const logFile = path.join(work, 'n8n.log');
		running = await startN8nProcess({
			role: 'main',
			name: 'main',
			userFolder,
			env: ownerEnv(OWNER),
			logFile,
		});
		const { url } = running;
		await ensureOwner(url, OWNER);
		const cookie = await n8nLogin(url, OWNER);
		const get = (route) => fetchJson(`${url}${route}`, { headers: { cookie } });
		return {
			url,
			cookie,
			get,
			/** Executions of a workflow, newest first. */
			executions: async (workflowId) => {
				const filter = encodeURIComponent(JSON.stringify({ workflowId }));
				return (await get(`/rest/executions?filter=${filter}&limit=50`)).data.results;
			},
			/** One execution's last output items per node (its run data comes flatted). */
			execution: async (id) => {
				const { data } = await get(`/rest/executions/${id}`);
				const flatted = createRequire(
					path.join(n8nPaths().n8nDir, 'node_modules', 'n8n', 'package.json'),
				)('flatted');
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
			return { ms: r.ms, out: nodeOutputs(parseTrailingJson(r.stdout)) };
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
