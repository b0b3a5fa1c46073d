#!/usr/bin/env node
// npm start: a local n8n with n8n-nodes-callkaro installed, talking to the CallKaro sandbox.
// Builds and packs the package, installs n8n once (scripts/n8n/install.mjs), installs the tarball
// as n8n's Community Nodes installer would, starts the sandbox (demo data), imports the
// "CallKaro Sandbox" credential and the examples/, starts n8n with its owner set up and prints
// where to click. Beside the sandbox, a scripted OpenAI-compatible model (test/support/
// scriptedModel.mjs, no key) drives the AI Agent example through the "Scripted Local Model"
// credential. Ctrl-C stops everything. n8n's data lives in ~/.cache/callkaro-n8n/start/.
// --queue: n8n's scaling mode instead (PostgreSQL 5442, Redis 6389, main, --workers N, a webhook
// processor on 5680). --exit-when-ready: start, print, stop (a smoke test).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { clusterCli, clusterEnv, startCluster } from './n8n/cluster.mjs';
import { cacheRoot, ensureN8n, n8nPaths } from './n8n/install.mjs';
import { startPostgres, startRedis } from './n8n/postgres.mjs';
import {
	CREDENTIAL_NAME,
	MODEL_CREDENTIAL_NAME,
	PROJECT_ROOT,
	buildPackage,
	ensureOwner,
	modelCredential,
	ownerEnv,
	packPackage,
	portInUse,
	prepareN8n,
	readJson,
	secondsSince,
	stopAll,
	triggerExample,
} from './n8n/host.mjs';
import { DEMO_API_KEY, startSandbox } from '../test/sandbox/sandbox.mjs';
import {
	AGENT_EXAMPLE_PATH,
	AGENT_EXAMPLE_REQUEST,
	exampleResponder,
	startScriptedModel,
} from '../test/support/scriptedModel.mjs';

const { values: opts } = parseArgs({
	options: {
		port: { type: 'string', default: '5678' },
		'sandbox-port': { type: 'string', default: '4010' },
		'model-port': { type: 'string', default: '4020' },
		'skip-build': { type: 'boolean' },
		n8n: { type: 'string' }, // 1.123.81: the n8n 1.x target, on this machine's Node 20
		'reset-examples': { type: 'boolean' }, // re-import them over your edits
		'exit-when-ready': { type: 'boolean' },
		queue: { type: 'boolean' },
		workers: { type: 'string', default: '2' },
	},
});
if (opts.n8n) process.env.CALLKARO_N8N_VERSION = opts.n8n;
const QUEUE = !!opts.queue;
const PORTS = {
	n8n: Number(opts.port),
	sandbox: Number(opts['sandbox-port']),
	model: Number(opts['model-port']),
};
if (QUEUE) Object.assign(PORTS, { webhook: 5680, postgres: 5442, redis: 6389 });
const OWNER = {
	email: process.env.CALLKARO_N8N_EMAIL || 'owner@example.com',
	password: process.env.CALLKARO_N8N_PASSWORD || 'CallKaro-Sandbox-1',
};
const { major } = n8nPaths().target;
// n8n's data lives outside the clone (n8n copies its editor's JavaScript there, which the strict
// lint would read), one folder per clone; n8n 2.x migrates its database beyond what 1.x reads
const PROJECT_KEY = createHash('sha256').update(PROJECT_ROOT).digest('hex').slice(0, 12);
const INSTANCE = `${PROJECT_KEY}-n8n${major}${QUEUE ? '-queue' : ''}`;
const LOCAL = path.join(cacheRoot(), 'start', INSTANCE);
const EXAMPLES_DIR = path.join(PROJECT_ROOT, 'examples');
const EXAMPLES = fs.readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.json'));
const example = (file) => readJson(path.join(EXAMPLES_DIR, file));

const t0 = Date.now();
const log = (m) => console.log(`[start ${secondsSince(t0).padStart(6)}] ${m}`);

let sandbox;
let model;
let cluster;
const services = [];
let stopping = false;

async function shutdown(code) {
	if (stopping) return;
	stopping = true;
	console.log('\nstopping n8n and the sandbox...');
	await cluster?.stop().catch(() => {});
	for (const service of services.reverse()) await service.stop().catch(() => {});
	await sandbox?.close().catch(() => {});
	await model?.close().catch(() => {});
	await stopAll(3000);
	process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

async function main() {
	for (const [what, port] of Object.entries(PORTS))
		if (await portInUse(port)) throw new Error(`port ${port} (for ${what}) is in use on 127.0.0.1`);
	const runDir = path.join(LOCAL, 'run');
	fs.rmSync(runDir, { recursive: true, force: true });
	fs.mkdirSync(runDir, { recursive: true });

	if (!opts['skip-build']) await buildPackage({ log });
	const { tarball } = await packPackage({ outDir: runDir, log });
	await ensureN8n({ log });

	// calls that end in the sandbox are posted, as CallKaro would, to the published CallKaro
	// Trigger example, with the secret header it checks
	const trigger = triggerExample();
	const hookUrl = `http://127.0.0.1:${PORTS.webhook ?? PORTS.n8n}/webhook/${trigger.webhookPath}`;
	const { name, value } = trigger.secretHeader;
	sandbox = await startSandbox({
		port: PORTS.sandbox,
		host: '127.0.0.1',
		webhook: { url: hookUrl, headers: { [name]: value } },
		onRequest: (e) =>
			console.log(
				`[sandbox] ${e.method} ${e.path} -> ${e.status ?? 'dropped'}${e.fault ? ` [fault ${e.fault}]` : ''} ${e.durationMs}ms`,
			),
		onWebhookDelivery: (d) =>
			console.log(
				`[sandbox] call_ended ${d.callId}${d.attempt > 1 ? ' (repeat)' : ''} -> POST ${new URL(d.url).pathname} -> ${d.status ?? d.error}`,
			),
	});
	log(`sandbox listening on ${sandbox.url} (demo data); call_ended -> ${hookUrl}`);
	// the AI Agent example's model: scripted, no key, no internet
	model = await startScriptedModel({
		port: PORTS.model,
		responder: exampleResponder,
		log: (line) => console.log(line),
	});
	log(`scripted model listening on ${model.baseUrl} (credential "${MODEL_CREDENTIAL_NAME}")`);

	// queue mode: the credential and examples go into PostgreSQL, started first along with Redis
	let env = ownerEnv(OWNER);
	if (QUEUE) {
		const pgLog = path.join(LOCAL, 'postgres.log');
		services.push(await startPostgres({ name: INSTANCE, port: PORTS.postgres, logFile: pgLog }));
		services.push(await startRedis({ port: PORTS.redis, logFile: path.join(LOCAL, 'redis.log') }));
		const [pg, redis] = services;
		log(
			`PostgreSQL ${pg.version.split('-')[0]} on :${pg.port} (data ${pg.dataDir}); Redis ${redis.version} on :${redis.port}`,
		);
		env = clusterEnv({ pg, redis, extra: env });
	}
	const cli = (args) => clusterCli(args, { userFolder: LOCAL, env });

	// the examples are imported when they are not in the database yet (or with --reset-examples),
	// and those with a webhook, form or CallKaro trigger published, so their production URLs work
	const listed = (await cli(['list:workflow'])).stdout.split('\n');
	const existing = listed.map((line) => line.split('|')[0].trim());
	const files = EXAMPLES.filter((f) => opts['reset-examples'] || !existing.includes(example(f).id));
	const hasProductionUrl = /\.(webhook|formTrigger|callKaroTrigger)$/;
	const publish = files
		.map(example)
		.filter((wf) => wf.nodes.some((n) => hasProductionUrl.test(n.type)));
	// the package's real folder is outside the project, so that zod, luxon and n8n-workflow can
	// only come from the host n8n (as in a real install), never from this project's node_modules
	const nodesRealDir = path.join(cacheRoot(), 'local-nodes', `${PROJECT_KEY}-n8n${major}`);
	await prepareN8n({
		cli,
		tarball,
		userFolder: LOCAL,
		nodesRealDir,
		sandboxUrl: sandbox.url,
		files: files.map((file) => path.join(EXAMPLES_DIR, file)),
		publish: publish.map((wf) => wf.id),
		credentials: [modelCredential({ url: model.baseUrl })],
		log,
	});
	log(`credential "${CREDENTIAL_NAME}" -> ${sandbox.url}`);
	if (files.length > 0) log(`imported ${files.join(', ')}`);
	else log('examples already imported (--reset-examples re-imports them over your edits)');

	const tN8n = Date.now();
	const workers = QUEUE ? Number(opts.workers) : 0;
	log(
		QUEUE ? `starting n8n main, ${workers} workers and a webhook processor...` : 'starting n8n...',
	);
	cluster = await startCluster({
		userFolder: LOCAL,
		env,
		logDir: path.join(LOCAL, 'logs'),
		mainPort: PORTS.n8n,
		webhookPort: PORTS.webhook,
		workers,
		webhookProcessor: QUEUE,
	});
	await ensureOwner(cluster.main.url, OWNER);
	log(`n8n ready in ${secondsSince(tN8n)} (${secondsSince(t0)} since npm start)`);
	for (const p of cluster.processes)
		p.child.on('close', (code, signal) => {
			if (stopping) return;
			console.log(`n8n ${p.name} exited (${code ?? signal}); see ${p.logFile}`);
			void shutdown(1);
		});
	console.log(QUEUE ? queueBanner(trigger) : banner(trigger));
	if (opts['exit-when-ready']) await shutdown(0);
}

const endCallCurl = (
	url,
) => `curl -s -X POST ${url}/__sandbox/calls/end -H 'content-type: application/json' \\
        -d '{"number":"+919820044442","hangupReason":"USER_UNAVAILABLE"}'`;
const agentCurl = (
	url,
) => `curl -s -X POST ${url}/webhook/${AGENT_EXAMPLE_PATH} -H 'content-type: application/json' \\
        -d '${JSON.stringify(AGENT_EXAMPLE_REQUEST)}'`;
const crmCurl = (
	url,
) => `curl -s -X POST ${url}/webhook/callkaro-crm-lead -H 'content-type: application/json' \\
        -d '{"phone":"+91 98200 11111","name":"Asha","city":"Pune","plan":"Pro"}'`;

function banner(trigger) {
	const n8n = cluster.main.url;
	const id = (file) => example(file).id;
	return `
  n8n               ${n8n}
                    log in as ${OWNER.email} / ${OWNER.password}
  CallKaro sandbox  ${sandbox.url}  (API key ${DEMO_API_KEY}, demo data)
                    what it has seen: ${sandbox.url}/__sandbox/state
  credential        "${CREDENTIAL_NAME}" (Overview > Credentials) already points at the sandbox
  scripted model    ${model.baseUrl}  (credential "${MODEL_CREDENTIAL_NAME}", an OpenAI-compatible
                    stand-in for the AI Agent example: no key, no internet)

  Try first:
   1. ${n8n}/workflow/${id('sheet-rows-outbound-call.json')}
      "Sheet Rows to Outbound Calls": click "Execute workflow". Three calls are placed (one
      scheduled for tomorrow); the lines [sandbox] POST /call/outbound appear here.
   2. ${n8n}/form/callkaro-cancel-call
      Fill in +91 98200 22223 and agent_sales_01 to cancel the call scheduled in step 1.
   3. CRM webhook ("CRM to Assign Workflow", published):
      ${crmCurl(n8n)}
      Once: "Started" branch. Again: "Already Running" branch.
   4. ${n8n}/workflow/${id('campaign-outbound-calls.json')}
      "Campaign with Outbound Calls": click "Execute workflow": a campaign and three calls in it.
   5. End a call in the sandbox: it posts call_ended to "${trigger.workflowName}" (published), which runs:
      ${endCallCurl(sandbox.url)}   (after step 4; CLIENT_INITIATED = connected)
   6. "${example('ai-agent-outbound-call.json').name}" (published): an AI Agent with the CallKaro tools,
      allowed to call only the number in the request:
      ${agentCurl(n8n)}
      The agent calls both numbers it reads; the caller's is placed, the friend's is refused
      (Allowed Numbers). Lines [model] show what the scripted model answered.

  n8n's log: ${cluster.main.logFile}. Press Ctrl-C to stop n8n and the sandbox.
`;
}

function queueBanner(trigger) {
	const { main, workers, webhook } = cluster;
	const [pg, redis] = services;
	const rows = [
		['n8n main (editor, REST API)', main.url, main.logFile],
		...workers.map((w) => [`n8n ${w.name} (executions)`, `pid ${w.pid}`, w.logFile]),
		['n8n webhook processor (production webhooks)', webhook.url, webhook.logFile],
		[`PostgreSQL ${pg.version.split('-')[0]}`, `127.0.0.1:${pg.port}`, pg.logFile],
		[`Redis ${redis.version}`, `127.0.0.1:${redis.port}`, redis.logFile],
		['CallKaro sandbox', sandbox.url, '(this terminal)'],
	];
	const width = Math.max(...rows.map((r) => r[0].length));
	return `
  n8n in queue mode (scaling mode), every process on 127.0.0.1:
${rows.map(([role, where, file]) => `  ${role.padEnd(width)}  ${String(where).padEnd(24)}  log ${file}`).join('\n')}

  Log in to ${main.url} as ${OWNER.email} / ${OWNER.password}. Production webhooks go to the
  webhook processor (${webhook.url}/webhook/...); the workers run the executions.
  Try: the CRM webhook ("CRM to Assign Workflow", published) through the webhook processor:
      ${crmCurl(webhook.url)}
      Once: "Started". Again: "Already Running". Executions (main's editor) show which worker ran it.
  Ending a call in the sandbox posts call_ended to "${trigger.workflowName}" through the webhook processor.
  The AI Agent example's model: ${model.baseUrl} (scripted, credential "${MODEL_CREDENTIAL_NAME}").
  Examples: ${EXAMPLES.join(', ')}.
  Press Ctrl-C to stop everything.
`;
}

main().catch(async (err) => {
	console.error(`\nnpm start failed: ${err.message}`);
	await shutdown(1);
});
