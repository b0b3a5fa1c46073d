// Installed, updated and removed the way users do it: n8n's own Community Nodes installer, through
// the REST calls of Settings → Community Nodes (POST, PATCH and DELETE /rest/community-packages),
// from a real npm registry (Verdaccio, scripts/n8n/registry.mjs) to which the packed tarball is
// published with `npm publish`, as the release workflow publishes. A newer version (the same
// build, its version bumped in a copy) is then published, and the panel's update and removal are
// checked against the workflows, the credential and the trigger that use the nodes.
//
// Its own n8n (a user folder with no package copied in: n8n's installer puts it there), started
// several times, since the n8n CLI (import, execute) runs only while the server is stopped.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { startN8nProcess } from '../../scripts/n8n/cluster.mjs';
import {
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	CREDENTIAL_TYPE,
	PACKAGE_NAME,
	PROJECT_ROOT,
	activateArgs,
	credentialFile,
	describeFailure,
	ensureOwner,
	freePort,
	n8nEnv,
	n8nLogin,
	ownerEnv,
	parseTrailingJson,
	readPackageJson,
	runCommand,
	runN8n,
	stopAll,
	triggerExample,
} from '../../scripts/n8n/host.mjs';
import { n8nPaths } from '../../scripts/n8n/install.mjs';
import { startRegistry } from '../../scripts/n8n/registry.mjs';
import { DEMO_API_KEY, startSandbox } from '../sandbox/sandbox.mjs';
import { OWNER, once, packed, postJson, readExample } from './harness.mjs';

const V1 = n8nPaths().target.major === 1;
const pkg = readPackageJson();
const NEXT = pkg.version.replace(/\d+$/, (patch) => String(Number(patch) + 1));
const sheet = readExample('sheet-rows-outbound-call.json');
const trigger = triggerExample();
const NODE_TYPES = pkg.n8n.nodes.map((file) => {
	const name = path.basename(file, '.node.js');
	return `${PACKAGE_NAME}.${name[0].toLowerCase()}${name.slice(1)}`;
});
/** What n8n answers when its registry is not npmjs.org and it has no licence for that. */
const NOT_LICENSED = /Your license does not allow for feat:communityNodes:customRegistry/;
const UNRECOGNIZED = `Unrecognized node type: ${PACKAGE_NAME}.callKaroOutboundCall`;

let work;
let registry;
let sandbox;
let running = null;
const timings = {};
const log = (m) => console.log(`[installer] ${m}`);

beforeAll(async () => {
	work = fs.mkdtempSync(path.join(packed().work, 'installer-'));
	sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
	registry = await startRegistry({ dir: path.join(work, 'registry'), log });
	registry.writeNpmrc(path.join(userFolder(), '.n8n', 'nodes'), { cache: npmCache() });
});
afterAll(async () => {
	await running?.stop();
	await registry?.close();
	await sandbox?.close();
	await stopAll(5000);
	if (Object.keys(timings).length) log(`timings (s): ${JSON.stringify(timings)}`);
});

const userFolder = () => path.join(work, 'n8n-user');
const npmCache = () => path.join(work, 'npm-cache');
/** The settings every start and CLI run gets: npm's registry.npmjs.org through the gateway. */
const baseEnv = () => ({
	...registry.npmEnv,
	// n8n's defaults, set to say what the installer needs: community packages on, unverified ones
	// (anything not on n8n's vetted list) allowed
	N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
	N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
	// a place of its own for npm's cache: the gateway's answers stay out of ~/.npm
	npm_config_cache: npmCache(),
});

async function cli(args) {
	const env = n8nEnv({
		userFolder: userFolder(),
		port: await freePort(),
		brokerPort: await freePort(),
		extra: baseEnv(),
	});
	return runN8n(args, { env, timeoutMs: 180_000 });
}
async function mustCli(args, expected = /(?:)/) {
	const r = await cli(args);
	if (r.code !== 0 || !expected.test(r.stdout)) throw new Error(describeFailure(r));
	return r;
}

/** Starts n8n (stopping the running one), logs the owner in; returns { url, cookie, rest }. */
async function start(name, extra = {}) {
	await running?.stop();
	running = null;
	const t = Date.now();
	running = await startN8nProcess({
		role: 'main',
		name,
		userFolder: userFolder(),
		env: { ...ownerEnv(OWNER), ...baseEnv(), ...extra },
		logFile: path.join(work, `n8n-${name}.log`),
	});
	timings[`start ${name}`] = (Date.now() - t) / 1000;
	const { url } = running;
	await ensureOwner(url, OWNER);
	const cookie = await n8nLogin(url, OWNER);
	/** A REST call as the owner -> { status, body }. */
	const rest = async (method, route, body) => {
		const res = await fetch(`${url}/rest${route}`, {
			method,
			headers: { cookie, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(180_000),
		});
		const text = await res.text();
		let json = null;
		try {
			json = JSON.parse(text);
		} catch {}
		return { status: res.status, body: json ?? text };
	};
	return { url, cookie, rest };
}
async function stop() {
	await running?.stop();
	running = null;
}

const callkaroTypes = async ({ url, cookie }) => {
	const types = await (await fetch(`${url}/types/nodes.json`, { headers: { cookie } })).json();
	return types.map((t) => t.name).filter((n) => n.startsWith(`${PACKAGE_NAME}.`));
};
const installedOnDisk = () => {
	const file = path.join(
		userFolder(),
		'.n8n',
		'nodes',
		'node_modules',
		PACKAGE_NAME,
		'package.json',
	);
	return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')).version : null;
};
const gatewayGot = (suffix) =>
	registry.gateway.requests.filter((r) => r.url.endsWith(suffix) && r.status === 200);

/** n8n execute of the sheet example: { code, out, stdout }. */
async function runSheet() {
	const r = await cli(['execute', `--id=${sheet.id}`, '--rawOutput']);
	let out = null;
	try {
		out = parseTrailingJson(r.stdout);
	} catch {}
	return { code: r.code, signal: r.signal, out, text: `${r.stdout}\n${r.stderr}` };
}

/** Posts call_ended for a sandbox call to the published trigger; returns the delivery. */
async function endCall(url, call, hangupReason) {
	const header = trigger.secretHeader;
	const admin = async (route, body) => (await postJson(`${sandbox.url}${route}`, body)).json();
	await admin('/__sandbox/webhooks', {
		url: `${url}/webhook/${trigger.webhookPath}`,
		headers: { [header.name]: header.value },
	});
	const { deliveries } = await admin('/__sandbox/calls/end', { callId: call.id, hangupReason });
	return deliveries.at(-1);
}
/**
 * Waits until the published trigger's production webhook is registered (n8n registers published
 * workflows after "Editor is now accessible"): a post without the secret header gets 401, not 404.
 */
async function triggerRegistered(url) {
	for (const deadline = Date.now() + 60_000; ; await sleep(250)) {
		const res = await postJson(`${url}/webhook/${trigger.webhookPath}`, {});
		await res.text();
		if (res.status !== 404) return res.status;
		if (Date.now() > deadline) throw new Error('the trigger webhook was not registered in 60 s');
	}
}
async function triggerExecutions(rest, count) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId: trigger.workflowId }));
	for (const deadline = Date.now() + 30_000; ; await sleep(250)) {
		const list = (await rest('GET', `/executions?filter=${filter}&limit=50`)).body.data.results;
		const settled = list.every((e) => !['new', 'running', 'waiting'].includes(e.status));
		if ((list.length >= count && settled) || Date.now() > deadline)
			return list.sort((a, b) => Number(a.id) - Number(b.id));
	}
}

// --- the steps, each once (a test filtered in with -t still runs the ones before it) ---

const refusedCustomRegistry = once(async () => {
	const { rest } = await start('custom-registry', {
		N8N_COMMUNITY_PACKAGES_REGISTRY: registry.url,
	});
	const answer = await rest('POST', '/community-packages', { name: PACKAGE_NAME });
	await stop();
	return answer;
});

const installed = once(async () => {
	await refusedCustomRegistry();
	await registry.publish(packed().tarball);
	const n8n = await start('install');
	const t = Date.now();
	const answer = await n8n.rest('POST', '/community-packages', { name: PACKAGE_NAME });
	timings.install = (Date.now() - t) / 1000;
	const list = await n8n.rest('GET', '/community-packages');
	const types = await callkaroTypes(n8n);
	await stop();
	return { answer, list, types };
});

/** The example workflows, the credential and the trigger published, by the CLI; the sheet run. */
const sheetRun = once(async () => {
	await installed();
	const dir = fs.mkdtempSync(path.join(work, 'import-'));
	const credential = path.join(dir, 'credential.json');
	const credentials = credentialFile({ baseUrl: sandbox.url, apiKey: DEMO_API_KEY });
	fs.writeFileSync(credential, JSON.stringify(credentials));
	await mustCli(
		['import:credentials', `--input=${credential}`],
		new RegExp(`imported ${credentials.length} credential`),
	);
	const wfDir = path.join(dir, 'workflows');
	fs.mkdirSync(wfDir);
	for (const file of ['sheet-rows-outbound-call.json', 'call-ended-trigger.json'])
		fs.copyFileSync(path.join(PROJECT_ROOT, 'examples', file), path.join(wfDir, file));
	await mustCli(['import:workflow', '--separate', `--input=${wfDir}`], /imported 2 workflow/);
	await mustCli(activateArgs(trigger.workflowId));
	const before = (await (await fetch(`${sandbox.url}/__sandbox/state`)).json()).calls.length;
	const run = await runSheet();
	const state = await (await fetch(`${sandbox.url}/__sandbox/state`)).json();
	return { run, calls: state.calls.slice(before) };
});

/** The running n8n with the trigger, after one call_ended; then the update to NEXT. */
const updated = once(async () => {
	const { calls } = await sheetRun();
	const n8n = await start('update');
	const registered = await triggerRegistered(n8n.url);
	const queued = calls.filter((c) => c.status === 'queued');
	const beforeDelivery = await endCall(n8n.url, queued[0], 'USER_UNAVAILABLE');
	const beforeExecutions = await triggerExecutions(n8n.rest, 1);

	// the newer version: the same build, its version bumped in a copy
	const copy = path.join(work, 'next');
	fs.mkdirSync(copy);
	const untar = await runCommand('tar', [
		'-xzf',
		packed().tarball,
		'-C',
		copy,
		'--strip-components=1',
	]);
	if (untar.code !== 0) throw new Error(describeFailure(untar));
	const manifest = path.join(copy, 'package.json');
	fs.writeFileSync(manifest, JSON.stringify({ ...readJsonFile(manifest), version: NEXT }, null, 2));
	await registry.publish(copy);

	const listBefore = await n8n.rest('GET', '/community-packages');
	const t = Date.now();
	const answer = await n8n.rest('PATCH', '/community-packages', { name: PACKAGE_NAME });
	timings.update = (Date.now() - t) / 1000;
	const listAfter = await n8n.rest('GET', '/community-packages');
	const types = await callkaroTypes(n8n);
	const afterDelivery = await endCall(n8n.url, queued[1], 'CLIENT_INITIATED');
	const afterExecutions = await triggerExecutions(n8n.rest, 2);
	const credentialTest = await n8n.rest('POST', '/credentials/test', {
		credentials: {
			id: CREDENTIAL_ID,
			name: CREDENTIAL_NAME,
			type: CREDENTIAL_TYPE,
			data: { apiKey: DEMO_API_KEY, baseUrl: sandbox.url },
		},
	});
	return {
		n8n,
		registered,
		beforeDelivery,
		beforeExecutions,
		listBefore,
		answer,
		listAfter,
		types,
		afterDelivery,
		afterExecutions,
		credentialTest,
		onDisk: installedOnDisk(),
	};
});
const readJsonFile = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** The sheet example run by the CLI after the update (the server stopped). */
const sheetAfterUpdate = once(async () => {
	await updated();
	await stop();
	const before = (await (await fetch(`${sandbox.url}/__sandbox/state`)).json()).calls.length;
	const run = await runSheet();
	const state = await (await fetch(`${sandbox.url}/__sandbox/state`)).json();
	return { run, calls: state.calls.slice(before) };
});

const uninstalled = once(async () => {
	await sheetAfterUpdate();
	const n8n = await start('uninstall');
	const t = Date.now();
	const answer = await n8n.rest('DELETE', `/community-packages?name=${PACKAGE_NAME}`);
	timings.uninstall = (Date.now() - t) / 1000;
	const list = await n8n.rest('GET', '/community-packages');
	const types = await callkaroTypes(n8n);
	const sheetWorkflow = await n8n.rest('GET', `/workflows/${sheet.id}`);
	const triggerWorkflow = await n8n.rest('GET', `/workflows/${trigger.workflowId}`);
	const { calls } = await sheetAfterUpdate();
	const delivery = await endCall(n8n.url, calls[0], 'USER_BUSY').catch((err) => ({
		error: err.message,
	}));
	await stop();
	const run = await runSheet();
	// a restart with the package gone: what the published trigger's webhook answers then
	const restarted = await start('after-uninstall');
	const res = await postJson(`${restarted.url}/webhook/${trigger.webhookPath}`, {});
	const webhookAfterRestart = { status: res.status, body: await res.text() };
	const logText = fs.readFileSync(running.logFile, 'utf8');
	await stop();
	return {
		answer,
		list,
		types,
		sheetWorkflow,
		triggerWorkflow,
		delivery,
		run,
		webhookAfterRestart,
		logText,
	};
});

// --- the tests ---

test('n8n takes community packages only from registry.npmjs.org without a licence: N8N_COMMUNITY_PACKAGES_REGISTRY is refused', async () => {
	const answer = await refusedCustomRegistry();
	expect(answer.status).toBeGreaterThanOrEqual(400);
	expect(JSON.stringify(answer.body)).toMatch(NOT_LICENSED);
	expect(installedOnDisk()).toBeNull();
});

test(`install from the panel: POST /rest/community-packages installs ${pkg.version} from the registry, with its five nodes`, async () => {
	const { answer, list, types } = await installed();
	expect(answer.status).toBe(200);
	const data = answer.body.data;
	expect(data).toMatchObject({ packageName: PACKAGE_NAME, installedVersion: pkg.version });
	expect(data.installedNodes.map((n) => n.type).sort()).toEqual([...NODE_TYPES].sort());
	expect(list.body.data).toEqual([
		expect.objectContaining({ packageName: PACKAGE_NAME, installedVersion: pkg.version }),
	]);
	expect(types).toEqual(expect.arrayContaining(NODE_TYPES));
	// n8n's npm fetched it from the registry, through the gateway
	expect(gatewayGot(`/${PACKAGE_NAME}-${pkg.version}.tgz`).length).toBeGreaterThan(0);
	// and nothing else: n8n's own calls to api.n8n.io (proxy-from-env reads npm_config_https_proxy)
	// are refused, which n8n takes as "no objection" (its package-status check)
	expect(registry.gateway.refused.filter((host) => !/^api\.n8n\.io:/.test(host))).toEqual([]);
	// n8n dropped the peer dependency (n8n-workflow) and installed nothing beside the package
	const nodes = path.join(userFolder(), '.n8n', 'nodes');
	expect(readJsonFile(path.join(nodes, 'package.json')).dependencies).toEqual({
		[PACKAGE_NAME]: pkg.version,
	});
	expect(
		fs.readdirSync(path.join(nodes, 'node_modules')).filter((d) => !d.startsWith('.')),
	).toEqual([PACKAGE_NAME]);
});

test('then the sheet example runs: 3 rows in, 3 calls placed in the sandbox', async () => {
	const { run, calls } = await sheetRun();
	if (run.out?.finished !== true)
		throw new Error(`the run did not finish:\n${run.text.slice(-2000)}`);
	const items = run.out.data.resultData.runData['CallKaro Outbound Call'].at(-1).data.main[0];
	expect(items.map((i) => i.json.placed)).toEqual([true, true, true]);
	expect(calls).toHaveLength(3);
});

test('the published trigger receives call_ended before the update', async () => {
	const { registered, beforeDelivery, beforeExecutions } = await updated();
	expect(registered).toBe(401);
	expect(beforeDelivery).toMatchObject({ status: 200 });
	expect(beforeExecutions).toEqual([
		expect.objectContaining({ status: 'success', mode: 'webhook' }),
	]);
});

test(`update from the panel: the list shows ${NEXT} available, PATCH installs it in the running n8n`, async () => {
	const { listBefore, answer, listAfter, types, onDisk } = await updated();
	expect(listBefore.body.data).toEqual([
		expect.objectContaining({ installedVersion: pkg.version, updateAvailable: NEXT }),
	]);
	expect(answer.status).toBe(200);
	expect(answer.body.data).toMatchObject({ packageName: PACKAGE_NAME, installedVersion: NEXT });
	expect(listAfter.body.data).toEqual([expect.objectContaining({ installedVersion: NEXT })]);
	expect(listAfter.body.data[0].updateAvailable).toBeUndefined();
	expect(types).toEqual(expect.arrayContaining(NODE_TYPES));
	expect(onDisk).toBe(NEXT);
	expect(gatewayGot(`/${PACKAGE_NAME}-${NEXT}.tgz`).length).toBeGreaterThan(0);
});

test('after the update, without a restart: the trigger still receives call_ended, the credential test passes', async () => {
	const { afterDelivery, afterExecutions, credentialTest } = await updated();
	expect(afterDelivery).toMatchObject({ status: 200 });
	expect(afterExecutions).toHaveLength(2);
	expect(afterExecutions[1]).toMatchObject({ status: 'success', mode: 'webhook' });
	expect(credentialTest.status).toBe(200);
	expect(credentialTest.body.data).toMatchObject({
		status: 'OK',
		message: 'Connection successful!',
	});
});

test('after the update, the sheet example with the same credential places its 3 calls again', async () => {
	const { run, calls } = await sheetAfterUpdate();
	const items = run.out.data.resultData.runData['CallKaro Outbound Call'].at(-1).data.main[0];
	expect(items).toHaveLength(3);
	expect(calls.length).toBeGreaterThan(0);
});

test('uninstall from the panel: DELETE removes the package and its node types; the workflows stay', async () => {
	const { answer, list, types, sheetWorkflow, triggerWorkflow } = await uninstalled();
	expect(answer.status).toBe(200);
	expect(list.body.data).toEqual([]);
	expect(types).toEqual([]);
	expect(installedOnDisk()).toBeNull();
	expect(sheetWorkflow.status).toBe(200);
	expect(sheetWorkflow.body.data.nodes.map((n) => n.type)).toContain(
		`${PACKAGE_NAME}.callKaroOutboundCall`,
	);
	// the trigger's workflow stays published
	expect(triggerWorkflow.status).toBe(200);
	expect(triggerWorkflow.body.data.active).toBe(true);
});

test(`after the uninstall, a workflow that uses the nodes fails with "${UNRECOGNIZED}"; the trigger's webhook answers ${V1 ? 500 : 400}, after a restart too`, async () => {
	const { run, delivery, webhookAfterRestart, logText } = await uninstalled();
	expect(run.text).toContain(UNRECOGNIZED);
	// the running n8n still routes the webhook to the workflow, which cannot load its trigger
	expect(delivery.status).toBe(V1 ? 500 : 400);
	expect(JSON.parse(delivery.response).message).toBe(
		`Unrecognized node type: ${PACKAGE_NAME}.callKaroTrigger`,
	);
	// restarted: the webhook stays registered and answers the same (1.x also logs that the
	// workflow could not be activated)
	expect(webhookAfterRestart.status).toBe(delivery.status);
	expect(JSON.parse(webhookAfterRestart.body).message).toBe(
		`Unrecognized node type: ${PACKAGE_NAME}.callKaroTrigger`,
	);
	if (V1)
		expect(logText).toContain(
			`Issue on initial workflow activation try of "${trigger.workflowName}" (ID: ${trigger.workflowId}) (startup)`,
		);
});
