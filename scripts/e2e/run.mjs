#!/usr/bin/env node
// npm run test:e2e — the example workflows, run by a real n8n against the local sandbox.
//
//   build -> npm pack -> install n8n (cached) -> community-install the tarball into a fresh
//   n8n user folder -> start the sandbox (demo data) -> import the "CallKaro Sandbox" credential
//   and the examples -> run them with `n8n execute` (the campaign example places three calls in a
//   new campaign) -> start `n8n start` and call the published webhook and form -> the sandbox
//   ends the campaign's calls and posts call_ended to the published CallKaro Trigger example ->
//   check n8n's output, its executions (REST API) and the sandbox's state.
//
// Options: --skip-build (use dist/ as it is), --keep (leave the temp folder), --verbose,
//   --n8n 1.123.81 (the n8n 1.x target, on this machine's Node 20, instead of 2.41.1).
// Prints "N passed, N failed" last; exits 1 on any failure. Every child process has a time limit.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { ensureN8n, n8nPaths } from '../n8n/install.mjs';
import {
	activateArgs,
	ensureOwner,
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	PROJECT_ROOT,
	RESOLVE_PROBE,
	buildPackage,
	credentialFile,
	describeFailure,
	freePort,
	getExecution,
	installCommunityPackage,
	listExecutions,
	n8nEnv,
	n8nLogin,
	nodeOutputs,
	ownerEnv,
	packPackage,
	parseTrailingJson,
	runN8n,
	secondsSince,
	shadowingModules,
	startN8nServer,
	stopAll,
	tempDir,
	triggerExample,
} from '../n8n/host.mjs';

const args = new Set(process.argv.slice(2));
// --n8n 1.123.81 runs the n8n 1.x target instead of 2.41.1 (read lazily by install.mjs)
const n8nFlag = process.argv.indexOf('--n8n');
if (n8nFlag > 0 && process.argv[n8nFlag + 1])
	process.env.CALLKARO_N8N_VERSION = process.argv[n8nFlag + 1];
const VERBOSE = args.has('--verbose');
const TOTAL_TIMEOUT_MS = Number(process.env.CALLKARO_E2E_TIMEOUT_MS || 30 * 60_000);
const EXAMPLES = path.join(PROJECT_ROOT, 'examples');
const OWNER = { email: 'owner@example.com', password: 'CallKaro-e2e-1' };

const t0 = Date.now();
const log = (m) => console.log(`[e2e ${secondsSince(t0).padStart(6)}] ${m}`);
let passed = 0;
let failed = 0;
const failures = [];

function check(name, ok, detail) {
	if (ok) {
		passed++;
		console.log(`  ok   ${name}`);
	} else {
		failed++;
		failures.push(name);
		console.log(
			`  FAIL ${name}${
				detail === undefined
					? ''
					: `\n       ${String(typeof detail === 'string' ? detail : JSON.stringify(detail))
							.slice(0, 3000)
							.replace(/\n/g, '\n       ')}`
			}`,
		);
	}
	return ok;
}

/** Runs fn; an exception counts as one failed check named name. */
async function step(name, fn) {
	try {
		return await fn();
	} catch (err) {
		check(name, false, err.stack || err.message);
		return undefined;
	}
}

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const digits = (s) => String(s).replace(/\D/g, '');

/**
 * The CLI's `execute` can start a workflow only at a Manual Trigger (or Execute Workflow
 * Trigger). For the webhook and form examples the e2e runs a copy whose trigger node is
 * replaced, under the same name, by a Set node emitting what that trigger would emit; a Manual
 * Trigger starts it. Everything after the trigger is the example unchanged, except that the
 * credential is referenced by name only, so the import must find "CallKaro Sandbox" by name.
 */
function cliVariant(workflow, { id, triggerName, sample }) {
	const wf = structuredClone(workflow);
	wf.id = id;
	wf.name = `${workflow.name} (e2e: manual start)`;
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
	for (const node of wf.nodes) {
		if (node.credentials?.callKaroApi)
			node.credentials.callKaroApi = { id: null, name: CREDENTIAL_NAME };
	}
	return wf;
}

async function getState(sandboxUrl) {
	const res = await fetch(`${sandboxUrl}/__sandbox/state`, { signal: AbortSignal.timeout(10_000) });
	if (!res.ok) throw new Error(`GET /__sandbox/state: HTTP ${res.status}`);
	return await res.json();
}

async function main() {
	const watchdog = setTimeout(async () => {
		console.log(`[e2e] giving up after ${TOTAL_TIMEOUT_MS / 1000}s`);
		await stopAll(3000);
		console.log(`${passed} passed, ${failed + 1} failed`);
		process.exit(1);
	}, TOTAL_TIMEOUT_MS);
	watchdog.unref();

	const work = tempDir('callkaro-e2e-');
	const userFolder = path.join(work, 'n8n-user');
	log(`work folder ${work}`);

	// 1. build and pack
	if (!args.has('--skip-build')) await buildPackage({ log });
	const { tarball, files } = await packPackage({ outDir: work, log });
	const pkg = readJson(path.join(PROJECT_ROOT, 'package.json'));
	check(
		'the tarball holds every node and credential file named in package.json',
		[...pkg.n8n.nodes, ...pkg.n8n.credentials].every((f) => files.includes(f)),
		{ missing: [...pkg.n8n.nodes, ...pkg.n8n.credentials].filter((f) => !files.includes(f)) },
	);
	check(
		'the tarball ships no node_modules (zod, luxon, n8n-workflow come from the host n8n)',
		!files.some((f) => f.includes('node_modules/')),
	);

	// 2. n8n
	const t1 = Date.now();
	const host = await ensureN8n({ log: (m) => log(m) });
	log(`n8n ${host.version} ${host.fresh ? 'installed' : 'from cache'} (${secondsSince(t1)})`);

	// 3. community install into a fresh user folder (outside the project tree)
	const installed = await installCommunityPackage({ tarball, userFolder, log });
	const shadows = shadowingModules(installed.packageDir);
	check(
		'no zod/luxon/n8n-workflow sits above the installed package (only the host can supply them)',
		shadows.length === 0,
		shadows,
	);

	// 4. sandbox
	const sandboxModule = path.join(PROJECT_ROOT, 'test', 'sandbox', 'sandbox.mjs');
	if (!fs.existsSync(sandboxModule)) throw new Error(`the sandbox is missing: ${sandboxModule}`);
	const { startSandbox, DEMO_API_KEY } = await import(pathToFileURL(sandboxModule).href);
	const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
	log(`sandbox on ${sandbox.url}`);

	try {
		const { campaign } = await runCli({ work, userFolder, sandbox, DEMO_API_KEY, host });
		await step(
			'server phase',
			async () => await runServer({ userFolder, sandbox, demoApiKey: DEMO_API_KEY, campaign }),
		);
	} finally {
		await sandbox.close();
	}
	if (args.has('--keep')) log(`kept ${work}`);
	else fs.rmSync(work, { recursive: true, force: true });
}

async function runCli({ work, userFolder, sandbox, DEMO_API_KEY, host }) {
	const env = n8nEnv({ userFolder, port: await freePort(), brokerPort: await freePort() });
	const cli = async (cmdArgs, opts = {}) => {
		const r = await runN8n(cmdArgs, { env, timeoutMs: 180_000, ...opts });
		if (VERBOSE) console.log(r.stdout, r.stderr);
		return r;
	};

	// credential: clear data in the file, `import:credentials` encrypts it
	const credFile = path.join(work, 'credential.json');
	fs.writeFileSync(
		credFile,
		JSON.stringify(credentialFile({ baseUrl: sandbox.url, apiKey: DEMO_API_KEY }), null, 2),
	);
	let r = await cli(['import:credentials', `--input=${credFile}`]);
	check(
		'n8n import:credentials takes the "CallKaro Sandbox" credential (unencrypted data)',
		r.code === 0 && /Successfully imported 1 credential/.test(r.stdout),
		describeFailure(r),
	);

	const crm = readJson(path.join(EXAMPLES, 'crm-to-assign-workflow.json'));
	const form = readJson(path.join(EXAMPLES, 'form-delete-scheduled-call.json'));
	const sheet = readJson(path.join(EXAMPLES, 'sheet-rows-outbound-call.json'));
	const campaignWf = readJson(path.join(EXAMPLES, 'campaign-outbound-calls.json'));
	const trigger = triggerExample(EXAMPLES);

	// the webhook and form examples in their CLI variants (credential by name only)
	const tomorrow = new Date(Date.now() + 24 * 3600_000);
	tomorrow.setUTCSeconds(0, 0);
	const crmLead = {
		phone: '+91 98200 11111',
		name: 'Asha',
		city: 'Pune',
		plan: 'Pro',
		callAt: tomorrow.toISOString(),
	};
	const variants = [
		cliVariant(crm, {
			id: 'ckE2eCrmCli00001',
			triggerName: 'CRM Lead Webhook',
			sample: {
				headers: { 'content-type': 'application/json' },
				params: {},
				query: {},
				body: crmLead,
			},
		}),
		cliVariant(form, {
			id: 'ckE2eFormCli0001',
			triggerName: 'Cancel Call Form',
			sample: {
				'Phone Number': '+91-98200-22223',
				Agent: 'agent_sales_01',
				submittedAt: new Date().toISOString(),
				formMode: 'production',
			},
		}),
	];

	// one import (each n8n CLI start costs seconds): the examples' files byte for byte, plus the
	// variants, one file each
	const exampleFiles = fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));
	const importDir = path.join(work, 'import');
	fs.mkdirSync(importDir);
	for (const f of exampleFiles) fs.copyFileSync(path.join(EXAMPLES, f), path.join(importDir, f));
	for (const v of variants)
		fs.writeFileSync(path.join(importDir, `e2e-${v.id}.json`), JSON.stringify(v, null, 2));
	const total = exampleFiles.length + variants.length;
	r = await cli(['import:workflow', '--separate', `--input=${importDir}`]);
	check(
		`n8n import:workflow takes all ${exampleFiles.length} examples as shipped and the ${variants.length} CLI variants`,
		r.code === 0 && r.stdout.includes(`Successfully imported ${total} workflows`),
		describeFailure(r),
	);

	// exported back, every CallKaro node points at the imported credential (the variants name it
	// by name only, so the import found it by name)
	r = await cli([
		'export:workflow',
		'--all',
		'--pretty',
		`--output=${path.join(work, 'exported.json')}`,
	]);
	await step('export:workflow', async () => {
		if (r.code !== 0) throw new Error(describeFailure(r));
		const exported = readJson(path.join(work, 'exported.json'));
		// every CallKaro node but the trigger (which calls no API) has the credential
		const apiNodes = (workflows) =>
			workflows.flatMap((w) =>
				w.nodes.filter(
					(n) => n.type.startsWith('n8n-nodes-callkaro.') && !n.type.endsWith('Trigger'),
				),
			);
		const shipped = apiNodes([
			...exampleFiles.map((f) => readJson(path.join(EXAMPLES, f))),
			...variants,
		]);
		const callKaroNodes = apiNodes(exported);
		check(
			`the ${callKaroNodes.length} CallKaro API nodes of the imported workflows use credential ${CREDENTIAL_ID}`,
			callKaroNodes.length === shipped.length &&
				callKaroNodes.every((n) => n.credentials?.callKaroApi?.id === CREDENTIAL_ID),
			callKaroNodes.map((n) => n.credentials),
		);
		const triggers = exported.flatMap((w) =>
			w.nodes.filter((n) => n.type === 'n8n-nodes-callkaro.callKaroTrigger'),
		);
		check(
			`the CallKaro Trigger example keeps its fixed webhookId (production path /webhook/${trigger?.webhookPath})`,
			!!trigger &&
				triggers.length === 1 &&
				`${triggers[0].webhookId}/webhook` === trigger.webhookPath,
			triggers.map((n) => n.webhookId),
		);
	});

	const execute = async (id, opts) => {
		const res = await cli(['execute', `--id=${id}`, '--rawOutput'], opts);
		if (res.code !== 0) throw new Error(describeFailure(res));
		return { ms: res.ms, out: nodeOutputs(parseTrailingJson(res.stdout)) };
	};

	// --- sheet rows -> outbound call (the example as shipped; it starts at a Manual Trigger)
	const resolveLog = path.join(work, 'resolve.log');
	await step('sheet-rows-outbound-call runs', async () => {
		const before = (await getState(sandbox.url)).calls.length;
		const { ms, out } = await execute(sheet.id, {
			preload: RESOLVE_PROBE,
			env: { ...env, CALLKARO_RESOLVE_LOG: resolveLog },
		});
		log(`  n8n execute sheet-rows-outbound-call: ${(ms / 1000).toFixed(1)}s`);
		const items = out['CallKaro Outbound Call']?.outputs?.[0] ?? [];
		check(
			'sheet example: 3 rows in, 3 calls out, each with a call id',
			items.length === 3 && items.every((i) => i.callId),
			out['CallKaro Outbound Call'],
		);
		check(
			'sheet example: numbers normalised (+91 default country code for the bare one)',
			items.map((i) => i.toNumber).join() === '+919820022221,+919820022222,+919820022223',
			items.map((i) => i.toNumber),
		);
		check(
			'sheet example: the third row is scheduled (IST wall-clock), the others call now',
			items[0]?.scheduleAt === null &&
				items[1]?.scheduleAt === null &&
				/T11:00:00$/.test(items[2]?.scheduleAt ?? ''),
			items.map((i) => i.scheduleAt),
		);
		const state = await getState(sandbox.url);
		const calls = state.calls.slice(before);
		check(
			'sandbox: 3 calls by agent_sales_01, 2 queued + 1 scheduled',
			calls.length === 3 &&
				calls.every((c) => c.agentId === 'agent_sales_01') &&
				calls.filter((c) => c.status === 'queued').length === 2 &&
				calls.filter((c) => c.status === 'scheduled').length === 1,
			calls.map((c) => [c.agentId, c.status]),
		);
		// the node keeps several requests in flight, so the sandbox may see them in any order
		const byId = new Map(calls.map((c) => [c.id, c]));
		check(
			"sandbox: the call ids n8n printed are the sandbox's, number for number",
			items.every((i) => byId.get(i.callId)?.number === digits(i.toNumber)),
			{
				items: items.map((i) => [i.callId, i.toNumber]),
				calls: calls.map((c) => [c.id, c.number]),
			},
		);
		const rows = [
			['919820022221', 'Ravi', 'Mumbai', 'Pro'],
			['919820022222', 'Meera', 'Chennai', 'Basic'],
			['919820022223', 'Kabir', 'Delhi', 'Enterprise'],
		];
		check(
			'sandbox: each call carries its row as metadata',
			rows.every(([number, name, city, plan]) => {
				const m = calls.find((c) => c.number === number)?.options?.metadata;
				return (
					m?.lead_name === name && m.city === city && m.plan === plan && m.source === 'google-sheet'
				);
			}),
			calls.map((c) => [c.number, c.options]),
		);
		const last = state.requests.at(-1);
		check(
			"sandbox: requests carried the credential's X-API-KEY",
			state.requests
				.slice(-3)
				.every(
					(q) =>
						q.status === 200 && q.headers['x-api-key'] && q.headers['x-api-key'] !== DEMO_API_KEY,
				),
			last?.headers,
		);
	});
	await step('module resolution', async () => {
		const lines = fs.existsSync(resolveLog)
			? fs
					.readFileSync(resolveLog, 'utf8')
					.trim()
					.split('\n')
					.map((l) => JSON.parse(l))
			: [];
		const hostModules = path.join(host.n8nDir, 'node_modules') + path.sep;
		for (const request of ['zod/v4', 'luxon', 'n8n-workflow']) {
			const hits = lines.filter((l) => l.request === request);
			check(
				`inside n8n, the package's require('${request}') resolves to the host n8n's copy`,
				hits.length > 0 && hits.every((h) => h.resolved.startsWith(hostModules)),
				hits.length ? hits.map((h) => h.resolved) : 'not required by the package during this run',
			);
		}
	});

	// --- form -> delete scheduled call (deletes the call the sheet example scheduled)
	await step('form-delete-scheduled-call runs', async () => {
		const { ms, out } = await execute('ckE2eFormCli0001');
		log(`  n8n execute form-delete-scheduled-call (CLI variant): ${(ms / 1000).toFixed(1)}s`);
		const item = out['CallKaro Delete Scheduled Call']?.outputs?.[0]?.[0];
		check(
			'form example: deleted, for +919820022223 / agent_sales_01',
			item?.deleted === true &&
				item.toNumber === '+919820022223' &&
				item.agentId === 'agent_sales_01',
			out['CallKaro Delete Scheduled Call'],
		);
		const state = await getState(sandbox.url);
		const scheduled = state.scheduledCalls.filter((c) => c.number === '919820022223');
		check(
			'sandbox: that scheduled call is now deleted (DELETED_SCH_CALL_ONE)',
			scheduled.length === 1 &&
				scheduled[0].status === 'deleted' &&
				scheduled[0].hangupReason === 'DELETED_SCH_CALL_ONE',
			scheduled,
		);
	});

	// --- CRM -> assign workflow: first Started, then Already Running
	await step('crm-to-assign-workflow runs', async () => {
		let { ms, out } = await execute('ckE2eCrmCli00001');
		log(`  n8n execute crm-to-assign-workflow (CLI variant): ${(ms / 1000).toFixed(1)}s`);
		const started = out['Mark Lead: Call Scheduled']?.outputs?.[0]?.[0];
		check(
			'crm example: first lead goes out of "Started" into the Set branch',
			started?.crmStatus === 'callkaro_started' &&
				started.phone === '+919820011111' &&
				!!started.callkaroRunId &&
				!out['Already In Workflow'],
			{ started, assign: out['CallKaro Assign Workflow'] },
		);
		check(
			"crm example: scheduled at the lead's callAt",
			started?.firstCallAtUtc === tomorrow.toISOString(),
			started?.firstCallAtUtc,
		);
		let state = await getState(sandbox.url);
		const runs = state.runs.filter((x) => x.number === '919820011111');
		check(
			'sandbox: one scheduled wf_welcome run for the lead, with the same run id',
			runs.length === 1 &&
				runs[0].workflowId === 'wf_welcome' &&
				runs[0].status === 'scheduled' &&
				runs[0].id === started?.callkaroRunId,
			runs,
		);
		const contact = state.contacts.find((c) => c.number === '919820011111');
		check(
			"sandbox: the lead's CRM attributes were saved (First Name, City, Plan)",
			contact?.values?.['First Name'] === 'Asha' &&
				contact.values.City === 'Pune' &&
				contact.values.Plan === 'Pro',
			contact,
		);

		({ ms, out } = await execute('ckE2eCrmCli00001'));
		const again = out['Already In Workflow']?.outputs?.[0]?.[0];
		check(
			'crm example: the same lead again goes out of "Already Running" into the NoOp branch',
			again?.status === 'already-running' && !out['Mark Lead: Call Scheduled'],
			{ again, assign: out['CallKaro Assign Workflow'] },
		);
		state = await getState(sandbox.url);
		check(
			'sandbox: still one run for the lead',
			state.runs.filter((x) => x.number === '919820011111').length === 1,
		);
	});

	// --- create campaign -> outbound calls that join it (the example as shipped)
	let campaign;
	await step('campaign-outbound-calls runs', async () => {
		const { ms, out } = await execute(campaignWf.id);
		log(`  n8n execute campaign-outbound-calls: ${(ms / 1000).toFixed(1)}s`);
		const created = out['CallKaro Create Campaign']?.outputs?.[0] ?? [];
		const batchId = created[0]?.batchId;
		check(
			'campaign example: one campaign created, its batchId in the output',
			created.length === 1 &&
				typeof batchId === 'string' &&
				batchId.length > 0 &&
				created[0].campaignType === 'v1',
			out['CallKaro Create Campaign'],
		);
		const items = out['CallKaro Outbound Call']?.outputs?.[0] ?? [];
		check(
			'campaign example: 3 rows in, 3 calls placed, each with a call id',
			items.length === 3 && items.every((i) => i.placed === true && i.callId),
			out['CallKaro Outbound Call'],
		);
		const state = await getState(sandbox.url);
		const found = state.campaigns.filter((c) => c.batchId === batchId);
		check(
			'sandbox: the campaign exists: v1, agent_sales_01, "Renewals (n8n example)"',
			found.length === 1 &&
				found[0].version === 'v1' &&
				found[0].agentId === 'agent_sales_01' &&
				found[0].name === 'Renewals (n8n example)',
			state.campaigns,
		);
		const calls = items.map((i) => state.calls.find((c) => c.id === i.callId));
		check(
			'sandbox: the 3 calls joined the campaign (batch_id) and it lists exactly them',
			calls.every(
				(c) => c?.batchId === batchId && c.agentId === 'agent_sales_01' && c.status === 'queued',
			) &&
				[...(found[0]?.callIds ?? [])].sort().join() ===
					items
						.map((i) => i.callId)
						.sort()
						.join(),
			{ calls: calls.map((c) => c && [c.id, c.batchId, c.status]), campaign: found[0] },
		);
		const rows = {
			919820044441: ['Priya', 'Pro'],
			919820044442: ['Arjun', 'Basic'],
			919820044443: ['Sana', 'Enterprise'],
		};
		check(
			'sandbox: each campaign call carries its row as metadata',
			calls.length === 3 &&
				calls.every((c) => {
					const m = c?.options?.metadata;
					const [name, plan] = rows[c?.number] ?? [];
					return m?.lead_name === name && m.plan === plan && m.source === 'n8n-campaign';
				}),
			calls.map((c) => c && [c.number, c.options]),
		);
		campaign = {
			batchId,
			calls: calls.map((c) => ({
				callId: c.id,
				number: c.number,
				leadName: c.options?.metadata?.lead_name,
			})),
		};
	});

	// publish the webhook, form and CallKaro Trigger examples for the server phase
	for (const id of [crm.id, form.id, trigger?.workflowId].filter(Boolean)) {
		const activate = activateArgs(id);
		r = await cli(activate);
		check(`n8n ${activate.join(' ')}`, r.code === 0, describeFailure(r));
	}
	return { campaign };
}

async function runServer({ userFolder, sandbox, demoApiKey, campaign }) {
	const port = await freePort();
	const env = n8nEnv({ userFolder, port, brokerPort: await freePort(), extra: ownerEnv(OWNER) });
	const t = Date.now();
	const server = await startN8nServer({
		env,
		port,
		readyTimeoutMs: 120_000,
		echo: VERBOSE ? (d) => process.stdout.write(d) : undefined,
	});
	log(`n8n start: ready on ${server.url} in ${secondsSince(t)}`);
	try {
		await ensureOwner(server.url, OWNER);
		const cookie = await n8nLogin(server.url, OWNER);
		check(
			'server: the owner, set up without the setup screen, can log in',
			cookie.includes('n8n-auth='),
		);

		let res = await fetch(`${server.url}/types/nodes.json`, {
			headers: { cookie },
			signal: AbortSignal.timeout(30_000),
		});
		const types = (await res.json()).map((t) => t.name);
		check(
			'server: the editor knows n8n-nodes-callkaro.callKaroAssignWorkflow / DeleteScheduledCall / OutboundCall / CreateCampaign / Trigger',
			[
				'callKaroAssignWorkflow',
				'callKaroDeleteScheduledCall',
				'callKaroOutboundCall',
				'callKaroCreateCampaign',
				'callKaroTrigger',
			].every((n) => types.includes(`n8n-nodes-callkaro.${n}`)),
			types.filter((n) => n.includes('allKaro')),
		);
		res = await fetch(`${server.url}/rest/credentials`, {
			headers: { cookie },
			signal: AbortSignal.timeout(15_000),
		});
		const creds = (await res.json()).data ?? [];
		check(
			'server: the owner sees the "CallKaro Sandbox" credential',
			creds.some(
				(c) => c.id === CREDENTIAL_ID && c.name === CREDENTIAL_NAME && c.type === 'callKaroApi',
			),
			creds,
		);

		// the real Webhook trigger of the CRM example
		const lead = { phone: '+91 98200 11112', name: 'Ishaan', city: 'Nagpur', plan: 'Enterprise' };
		res = await fetch(`${server.url}/webhook/callkaro-crm-lead`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(lead),
			signal: AbortSignal.timeout(60_000),
		});
		const reply = await res.json().catch(() => null);
		check(
			"server: POST /webhook/callkaro-crm-lead answers with the Set branch's item",
			res.status === 200 &&
				reply?.crmStatus === 'callkaro_started' &&
				reply.phone === '+919820011112',
			{ status: res.status, reply },
		);
		let state = await getState(sandbox.url);
		const run = state.runs.find((x) => x.number === '919820011112');
		check(
			'sandbox: the webhook lead (no callAt) started its wf_welcome run now',
			run?.workflowId === 'wf_welcome' &&
				run.status === 'running' &&
				run.id === reply?.callkaroRunId,
			run,
		);
		const contact = state.contacts.find((c) => c.number === '919820011112');
		check(
			"sandbox: the webhook lead's attributes were saved",
			contact?.values?.Plan === 'Enterprise' && contact.values.City === 'Nagpur',
			contact,
		);

		// the real Form trigger of the delete example: first schedule a call to cancel
		res = await fetch(`${server.url}/form/callkaro-cancel-call`, {
			signal: AbortSignal.timeout(30_000),
		});
		const html = await res.text();
		check(
			'server: GET /form/callkaro-cancel-call serves the form',
			res.status === 200 && html.includes('Cancel a scheduled CallKaro call'),
			res.status,
		);
		// schedule_at is IST wall-clock time, YYYY-MM-DDTHH:mm:ss
		const due = new Date(Date.now() + 2 * 3600_000 + 5.5 * 3600_000).toISOString().slice(0, 19);
		const scheduleRes = await fetch(`${sandbox.url}/call/outbound`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-api-key': demoApiKey },
			body: JSON.stringify({
				agent_id: 'agent_support_02',
				to_number: '+919820033333',
				schedule_at: due,
			}),
			signal: AbortSignal.timeout(10_000),
		});
		const scheduled = await scheduleRes.json().catch(() => null);
		state = await getState(sandbox.url);
		const pending = state.scheduledCalls.filter(
			(c) => c.number === '919820033333' && c.status === 'scheduled',
		);
		if (
			check('setup: a call to +919820033333 is scheduled in the sandbox', pending.length === 1, {
				status: scheduleRes.status,
				scheduled,
			})
		) {
			const body = new FormData();
			body.append('field-0', '+91 98200 33333');
			body.append('field-1', 'agent_support_02');
			res = await fetch(`${server.url}/form/callkaro-cancel-call`, {
				method: 'POST',
				body,
				signal: AbortSignal.timeout(60_000),
			});
			await res.text();
			check('server: submitting the form answers 200', res.status === 200, res.status);
			state = await getState(sandbox.url);
			const after = state.scheduledCalls.filter((c) => c.number === '919820033333');
			check(
				'sandbox: the form submission deleted the scheduled call',
				after.length === 1 && after[0].status === 'deleted',
				after,
			);
		}

		await step(
			'call_ended -> CallKaro Trigger',
			async () => await triggerFlow({ server, cookie, sandbox, campaign }),
		);
	} finally {
		const t2 = Date.now();
		await server.stop();
		log(`n8n stopped (${secondsSince(t2)})`);
	}
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function sandboxAdmin(sandboxUrl, route, body) {
	const res = await fetch(`${sandboxUrl}${route}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(30_000),
	});
	const json = await res.json().catch(() => null);
	if (!res.ok)
		throw new Error(`POST ${route}: HTTP ${res.status} ${JSON.stringify(json).slice(0, 500)}`);
	return json;
}

/** Waits (bounded) until the workflow has `count` executions, all finished; returns them, oldest first. */
async function waitForExecutions(server, cookie, workflowId, count, timeoutMs = 30_000) {
	const deadline = Date.now() + timeoutMs;
	let list = [];
	for (;;) {
		list = await listExecutions(server.url, cookie, workflowId);
		const settled = list.every((e) => !['new', 'running', 'waiting'].includes(e.status));
		if (list.length >= count && settled) break;
		if (Date.now() > deadline) {
			throw new Error(
				`${list.length} of ${count} executions of ${workflowId} after ${timeoutMs / 1000}s: ${JSON.stringify(list.map((e) => [e.id, e.status]))}`,
			);
		}
		await sleep(250);
	}
	return [...list].sort((a, b) => Number(a.id) - Number(b.id));
}

/**
 * The published "Call Ended" example: the sandbox ends the campaign's calls and posts
 * call_ended to the trigger's production URL; n8n runs the workflow once per call.
 */
async function triggerFlow({ server, cookie, sandbox, campaign }) {
	const trigger = triggerExample(EXAMPLES);
	if (
		!check(
			'setup: an example has a CallKaro Trigger with a secret header',
			!!trigger?.secretHeader?.value,
			trigger,
		)
	)
		return;
	if (
		!check(
			'setup: the campaign example placed 3 calls to end',
			campaign?.calls?.length === 3,
			campaign,
		)
	)
		return;
	const hookUrl = `${server.url}/webhook/${trigger.webhookPath}`;
	const header = trigger.secretHeader;
	const [connectedCall, unreachedCall, wrongSecretCall] = campaign.calls;
	const t = Date.now();

	// 1. not reached, delivered twice (duplicate delivery on): one execution, the repeat dropped
	await sandboxAdmin(sandbox.url, '/__sandbox/webhooks', {
		url: hookUrl,
		headers: { [header.name]: header.value },
		duplicate: true,
	});
	let ended = await sandboxAdmin(sandbox.url, '/__sandbox/calls/end', {
		callId: unreachedCall.callId,
		hangupReason: 'USER_UNAVAILABLE',
	});
	const [first, repeat] = ended.deliveries ?? [];
	check(
		`server: the sandbox's call_ended post to /webhook/${trigger.webhookPath} is answered 200 (execution started)`,
		ended.deliveries?.length === 2 &&
			first.attempt === 1 &&
			first.status === 200 &&
			!/ignored/.test(first.response),
		ended.deliveries,
	);
	check(
		'server: its duplicate delivery is answered 200 "ignored" (a repeat of the same callSid)',
		repeat?.attempt === 2 &&
			repeat.status === 200 &&
			/"status":"ignored"/.test(repeat.response) &&
			/repeat/.test(repeat.response),
		repeat,
	);
	let executions = await waitForExecutions(server, cookie, trigger.workflowId, 1);
	log(`  call_ended -> trigger execution finished in ${secondsSince(t)}`);
	check(
		'server: the trigger workflow ran exactly once for the two deliveries, and succeeded',
		executions.length === 1 &&
			executions[0].status === 'success' &&
			executions[0].mode === 'webhook',
		executions,
	);
	const run1 = nodeOutputs(await getExecution(server.url, cookie, executions[0].id));
	const event = run1[trigger.nodeName]?.outputs?.[0]?.[0];
	check(
		'trigger output: callId, agentId, to, callType, outcome notReached, USER_UNAVAILABLE, 0 s, batchId, metadata, endedAt (+05:30), isRepeat false',
		event?.callId === unreachedCall.callId &&
			event.agentId === 'agent_sales_01' &&
			event.to === `+${unreachedCall.number}` &&
			event.callType === 'outbound-api' &&
			event.outcome === 'notReached' &&
			event.hangupReason === 'USER_UNAVAILABLE' &&
			event.durationSeconds === 0 &&
			event.batchId === campaign.batchId &&
			event.metadata?.lead_name === unreachedCall.leadName &&
			event.metadata.source === 'n8n-campaign' &&
			/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+05:30$/.test(event.endedAt ?? '') &&
			event.isRepeat === false &&
			event.event === 'call_ended' &&
			event.data?.callSid === unreachedCall.callId,
		event,
	);
	const assigned = run1['CallKaro Assign Workflow']?.outputs?.[0]?.[0];
	check(
		'trigger workflow: "Not Reached" branch: Assign Workflow started wf_followup for the number',
		assigned?.workflowId === 'wf_followup' &&
			assigned.toNumber === `+${unreachedCall.number}` &&
			!!assigned.runId &&
			!run1['Update CRM'],
		{ assigned, nodes: Object.keys(run1) },
	);
	let state = await getState(sandbox.url);
	const runs = state.runs.filter((x) => x.number === unreachedCall.number);
	check(
		'sandbox: one wf_followup run for the unreached number, with the run id n8n printed',
		runs.length === 1 && runs[0].workflowId === 'wf_followup' && runs[0].id === assigned?.runId,
		runs,
	);
	const contact = state.contacts.find((c) => c.number === unreachedCall.number);
	check(
		"sandbox: the call metadata's lead_name came back and was saved as First Name",
		contact?.values?.['First Name'] === unreachedCall.leadName,
		contact,
	);

	// 2. a delivery with the wrong secret: 401, nothing runs
	await sandboxAdmin(sandbox.url, '/__sandbox/webhooks', {
		url: hookUrl,
		headers: { [header.name]: `${header.value}-wrong` },
		duplicate: false,
	});
	ended = await sandboxAdmin(sandbox.url, '/__sandbox/calls/end', {
		callId: wrongSecretCall.callId,
		hangupReason: 'USER_REJECTED',
	});
	check(
		`server: a delivery with a wrong ${header.name} is answered 401`,
		ended.deliveries?.length === 1 &&
			ended.deliveries[0].status === 401 &&
			/secret/.test(ended.deliveries[0].response),
		ended.deliveries,
	);

	// 3. connected, right secret: the "Update CRM" branch
	await sandboxAdmin(sandbox.url, '/__sandbox/webhooks', {
		url: hookUrl,
		headers: { [header.name]: header.value },
		duplicate: false,
	});
	ended = await sandboxAdmin(sandbox.url, '/__sandbox/calls/end', {
		callId: connectedCall.callId,
		hangupReason: 'CLIENT_INITIATED',
		durationSeconds: 95,
	});
	check(
		"server: the connected call's delivery is answered 200",
		ended.deliveries?.length === 1 && ended.deliveries[0].status === 200,
		ended.deliveries,
	);
	executions = await waitForExecutions(server, cookie, trigger.workflowId, 2);
	check(
		'server: two executions in all (the 401 delivery and the repeat started none), both succeeded',
		executions.length === 2 && executions.every((e) => e.status === 'success'),
		executions,
	);
	const run2 = nodeOutputs(await getExecution(server.url, cookie, executions[1].id));
	const crm = run2['Update CRM']?.outputs?.[0]?.[0];
	check(
		'trigger workflow: "Connected" branch: Update CRM gets phone, callId, 95 s, campaign, lead name, recording',
		crm?.crmStatus === 'call_connected' &&
			crm.phone === `+${connectedCall.number}` &&
			crm.callId === connectedCall.callId &&
			crm.durationSeconds === 95 &&
			crm.campaignId === campaign.batchId &&
			crm.leadName === connectedCall.leadName &&
			crm.recordingUrl.endsWith(`${connectedCall.callId}.mp3`) &&
			!run2['CallKaro Assign Workflow'],
		{ crm, nodes: Object.keys(run2) },
	);

	// the sandbox's record of what it posted and what n8n answered
	state = await getState(sandbox.url);
	const deliveries = state.webhookDeliveries
		.filter((d) => d.url === hookUrl)
		.map((d) => [d.callId, d.attempt, d.status]);
	check(
		'sandbox: webhookDeliveries: 200 + 200 (repeat) for the unreached call, 401 for the wrong secret, 200 for the connected call',
		JSON.stringify(deliveries) ===
			JSON.stringify([
				[unreachedCall.callId, 1, 200],
				[unreachedCall.callId, 2, 200],
				[wrongSecretCall.callId, 1, 401],
				[connectedCall.callId, 1, 200],
			]),
		deliveries,
	);
	check(
		'sandbox: the three calls are ended with their hangup reasons',
		campaign.calls
			.map((c) => state.calls.find((x) => x.id === c.callId))
			.map((c) => `${c?.status}:${c?.hangupReason}`)
			.join() === 'ended:CLIENT_INITIATED,ended:USER_UNAVAILABLE,ended:USER_REJECTED',
	);
	log(`  trigger flow done in ${secondsSince(t)}`);
}

main()
	.catch((err) => {
		check('e2e run', false, err.stack || err.message);
	})
	.finally(async () => {
		await stopAll(5000);
		log(`done in ${secondsSince(t0)} (n8n from ${n8nPaths().n8nDir})`);
		if (failures.length) console.log(`failed: ${failures.join(' | ')}`);
		console.log(`${passed} passed, ${failed} failed`);
		process.exit(failed > 0 || passed === 0 ? 1 : 0);
	});
