#!/usr/bin/env node
// npm start — a local n8n with n8n-nodes-callkaro installed, talking to the CallKaro sandbox.
//
//   1. builds the package (npm run build) and packs it (npm pack)
//   2. installs Node 24 + n8n 2.41.1 once into ~/.cache/callkaro-n8n (reused afterwards)
//   3. installs the tarball into <data>/.n8n/nodes as n8n's Community Nodes installer would
//   4. starts the sandbox with its demo data on 127.0.0.1:4010
//   5. imports the credential "CallKaro Sandbox" (pointed at the sandbox) and the examples/;
//      the sandbox posts call_ended to the CallKaro Trigger example's production URL
//   6. starts n8n on 127.0.0.1:5678 with its owner already set up, and prints where to click
// Ctrl-C stops both. Data (n8n's database, settings) lives in ~/.cache/callkaro-n8n/start/, outside the clone.
//
// --queue starts n8n's scaling mode instead (scripts/n8n/cluster.mjs): PostgreSQL 17 and Redis,
//   n8n main (the editor), 2 workers, 1 webhook processor (production webhooks) and the sandbox,
//   with its own data (--webhook-port N, default 5680; --postgres-port N, default 5442;
//   --redis-port N, default 6389; --workers N, default 2).
//
// Options: --port N (n8n, default 5678), --sandbox-port N (default 4010), --skip-build,
//   --n8n 1.123.81 (the n8n 1.x target, on this machine's Node 20; its own data folder),
//   --reset-examples (re-import the examples over your edits), --exit-when-ready (start,
//   print, stop: a smoke test). Env: CALLKARO_N8N_EMAIL, CALLKARO_N8N_PASSWORD.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { startCluster, clusterEnv } from './n8n/cluster.mjs';
import { cacheRoot, ensureN8n } from './n8n/install.mjs';
import { startPostgres, startRedis } from './n8n/postgres.mjs';
import {
	activateArgs,
	ensureOwner,
	CREDENTIAL_NAME,
	PROJECT_ROOT,
	buildPackage,
	credentialFile,
	describeFailure,
	freePort,
	installCommunityPackage,
	n8nEnv,
	ownerEnv,
	packPackage,
	portInUse,
	runN8n,
	secondsSince,
	startN8nServer,
	stopAll,
	triggerExample,
} from './n8n/host.mjs';

const { values: opts } = parseArgs({
	options: {
		port: { type: 'string', default: process.env.CALLKARO_N8N_PORT || '5678' },
		'sandbox-port': { type: 'string', default: process.env.CALLKARO_SANDBOX_PORT || '4010' },
		'skip-build': { type: 'boolean' },
		n8n: { type: 'string' }, // 1.123.81: the n8n 1.x target (read lazily by install.mjs)
		'reset-examples': { type: 'boolean' },
		'exit-when-ready': { type: 'boolean' },
		queue: { type: 'boolean' },
		'webhook-port': { type: 'string', default: '5680' },
		'postgres-port': { type: 'string', default: '5442' },
		'redis-port': { type: 'string', default: '6389' },
		workers: { type: 'string', default: '2' },
	},
});
if (opts.n8n) process.env.CALLKARO_N8N_VERSION = opts.n8n;
const N8N_PORT = Number(opts.port);
const SANDBOX_PORT = Number(opts['sandbox-port']);
const QUEUE = opts.queue === true;
const WEBHOOK_PORT = Number(opts['webhook-port']);
const POSTGRES_PORT = Number(opts['postgres-port']);
const REDIS_PORT = Number(opts['redis-port']);
const WORKERS = Number(opts.workers);
const OWNER = {
	email: process.env.CALLKARO_N8N_EMAIL || 'owner@example.com',
	password: process.env.CALLKARO_N8N_PASSWORD || 'CallKaro-Sandbox-1',
};
const N8N_MAJOR = Number((process.env.CALLKARO_N8N_VERSION || '2').split('.')[0]);
const PROJECT_KEY = createHash('sha256').update(PROJECT_ROOT).digest('hex').slice(0, 12);
// n8n's data lives outside the clone (n8n copies its editor's JavaScript there, which the strict
// lint would then read), one folder per clone; n8n 2.x migrates its database beyond what 1.x
// reads, so each major keeps its own.
const INSTANCE = `${PROJECT_KEY}-n8n${N8N_MAJOR}${QUEUE ? '-queue' : ''}`;
const LOCAL = path.join(cacheRoot(), 'start', INSTANCE);
const EXAMPLES = path.join(PROJECT_ROOT, 'examples');

const t0 = Date.now();
const log = (m) => console.log(`[start ${secondsSince(t0).padStart(6)}] ${m}`);

let sandbox;
let server;
let cluster;
let services = [];
/** n8n's settings for queue mode (database, Redis), shared by every process and CLI command. */
let queueEnv = {};
let stopping = false;

async function shutdown(code) {
	if (stopping) return;
	stopping = true;
	console.log('\nstopping n8n and the sandbox...');
	try {
		await server?.stop(15_000);
		await cluster?.stop();
		for (const service of services.reverse()) await service.stop();
	} catch {}
	try {
		await sandbox?.close();
	} catch {}
	await stopAll(3000);
	process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

async function main() {
	for (const [port, what, opt] of [
		[N8N_PORT, 'n8n', '--port'],
		[SANDBOX_PORT, 'the sandbox', '--sandbox-port'],
		...(QUEUE
			? [
					[WEBHOOK_PORT, "n8n's webhook processor", '--webhook-port'],
					[POSTGRES_PORT, 'PostgreSQL', '--postgres-port'],
					[REDIS_PORT, 'Redis', '--redis-port'],
				]
			: []),
	]) {
		if (await portInUse(port)) {
			throw new Error(
				`port ${port} (for ${what}) is in use on 127.0.0.1: stop what holds it, or pick another with ${opt} N`,
			);
		}
	}
	fs.mkdirSync(LOCAL, { recursive: true });
	const runDir = path.join(LOCAL, 'run');
	fs.rmSync(runDir, { recursive: true, force: true });
	fs.mkdirSync(runDir, { recursive: true });

	// 1-2. build, pack, n8n
	if (!opts['skip-build']) await buildPackage({ log });
	const { tarball } = await packPackage({ outDir: runDir, log });
	await ensureN8n({ log: (m) => log(m) });

	// 3. the package, community-style. Its real folder is kept outside the project so that
	// zod, luxon and n8n-workflow can only come from the host n8n (as for a real install),
	// never from this project's own node_modules; <data>/.n8n/nodes links to it.
	await installCommunityPackage({
		tarball,
		userFolder: LOCAL,
		nodesRealDir: path.join(cacheRoot(), 'local-nodes', `${PROJECT_KEY}-n8n${N8N_MAJOR}`),
		log,
	});

	// 4. sandbox
	const sandboxModule = path.join(PROJECT_ROOT, 'test', 'sandbox', 'sandbox.mjs');
	if (!fs.existsSync(sandboxModule)) throw new Error(`the sandbox is missing: ${sandboxModule}`);
	const { startSandbox, DEMO_API_KEY } = await import(pathToFileURL(sandboxModule).href);
	// calls that end in the sandbox (POST /__sandbox/calls/end) are posted, as CallKaro would,
	// to the published CallKaro Trigger example, with the secret header it checks
	const trigger = triggerExample(EXAMPLES);
	const webhookBase = `http://127.0.0.1:${QUEUE ? WEBHOOK_PORT : N8N_PORT}`;
	const hookUrl = trigger ? `${webhookBase}/webhook/${trigger.webhookPath}` : null;
	sandbox = await startSandbox({
		port: SANDBOX_PORT,
		host: '127.0.0.1',
		webhook: hookUrl
			? {
					url: hookUrl,
					headers: trigger.secretHeader
						? { [trigger.secretHeader.name]: trigger.secretHeader.value }
						: {},
				}
			: undefined,
		onRequest: (e) =>
			console.log(
				`[sandbox] ${e.method} ${e.path} -> ${e.status ?? 'dropped'}${e.fault ? ` [fault ${e.fault}]` : ''} ${e.durationMs}ms`,
			),
		onWebhookDelivery: (d) =>
			console.log(
				`[sandbox] call_ended ${d.callId}${d.attempt > 1 ? ' (repeat)' : ''} -> POST ${new URL(d.url).pathname} -> ${d.status ?? d.error}`,
			),
	});
	log(
		`sandbox listening on ${sandbox.url} (demo data)${hookUrl ? `; call_ended -> ${hookUrl}` : ''}`,
	);

	// 5. credential + examples (in queue mode: into PostgreSQL, started first along with Redis)
	if (QUEUE) {
		const pg = await startPostgres({
			name: INSTANCE,
			port: POSTGRES_PORT,
			logFile: path.join(LOCAL, 'postgres.log'),
		});
		services.push(pg);
		const redis = await startRedis({ port: REDIS_PORT, logFile: path.join(LOCAL, 'redis.log') });
		services.push(redis);
		log(
			`PostgreSQL ${pg.version.split('-')[0]} on 127.0.0.1:${pg.port} (data ${pg.dataDir}); Redis ${redis.version} on 127.0.0.1:${redis.port}`,
		);
		queueEnv = clusterEnv({ pg, redis, extra: ownerEnv(OWNER) });
	}
	const brokerPort = (await portInUse(N8N_PORT + 1)) ? await freePort() : N8N_PORT + 1;
	const env = n8nEnv({
		userFolder: LOCAL,
		port: N8N_PORT,
		brokerPort,
		extra: { ...ownerEnv(OWNER), ...queueEnv },
	});
	const cli = async (args) => {
		const r = await runN8n(args, { env, timeoutMs: 180_000 });
		if (r.code !== 0) throw new Error(describeFailure(r));
		return r;
	};
	const credFile = path.join(runDir, 'credential.json');
	fs.writeFileSync(
		credFile,
		JSON.stringify(credentialFile({ baseUrl: sandbox.url, apiKey: DEMO_API_KEY }), null, 2),
	);
	await cli(['import:credentials', `--input=${credFile}`]);
	fs.rmSync(credFile, { force: true });
	log(`credential "${CREDENTIAL_NAME}" -> ${sandbox.url}`);

	const examples = fs
		.readdirSync(EXAMPLES)
		.filter((f) => f.endsWith('.json'))
		.map((f) => ({ file: f, wf: JSON.parse(fs.readFileSync(path.join(EXAMPLES, f), 'utf8')) }));
	const listed = (await cli(['list:workflow'])).stdout;
	const existing = new Set(listed.split('\n').map((l) => l.split('|')[0].trim()));
	const toImport = opts['reset-examples']
		? examples
		: examples.filter((e) => !existing.has(e.wf.id));
	if (toImport.length > 0) {
		const file = path.join(runDir, 'examples.json');
		fs.writeFileSync(file, JSON.stringify(toImport.map((e) => e.wf)));
		await cli(['import:workflow', `--input=${file}`]);
		// publish the ones with a webhook or form trigger, so their production URLs work at once
		for (const { wf } of toImport) {
			if (wf.nodes.some((n) => /\.(webhook|formTrigger|callKaroTrigger)$/.test(n.type)))
				await cli(activateArgs(wf.id));
		}
		log(`imported ${toImport.map((e) => e.file).join(', ')}`);
	} else {
		log('examples already imported (use --reset-examples to re-import them over your edits)');
	}

	// 6. n8n
	if (QUEUE) return await startQueueMode({ examples, trigger });
	const logFile = path.join(LOCAL, 'n8n.log');
	const logStream = fs.createWriteStream(logFile, { flags: 'w' });
	let ready = false;
	const echo = (chunk) => {
		logStream.write(chunk);
		if (!ready) return;
		for (const line of chunk.split('\n')) {
			if (line.trim() && !/^\s+at /.test(line)) console.log(`[n8n] ${line}`);
		}
	};
	log('starting n8n...');
	const tServer = Date.now();
	server = await startN8nServer({ env, port: N8N_PORT, readyTimeoutMs: 180_000, echo });
	ready = true;
	await ensureOwner(server.url, OWNER);
	log(`n8n ready in ${secondsSince(tServer)} (${secondsSince(t0)} since npm start)`);
	server.child.on('close', (code, signal) => {
		if (!stopping) {
			console.log(`n8n exited (${code ?? signal}); see ${path.relative(PROJECT_ROOT, logFile)}`);
			void shutdown(1);
		}
	});

	const n8n = server.url;
	const ids = Object.fromEntries(examples.map((e) => [e.file, e.wf.id]));
	console.log(`
  n8n               ${n8n}
                    log in as ${OWNER.email} / ${OWNER.password}
  CallKaro sandbox  ${sandbox.url}  (API key ${DEMO_API_KEY}, demo data)
                    what it has seen: ${sandbox.url}/__sandbox/state
  credential        "${CREDENTIAL_NAME}" (Overview > Credentials) already points at the sandbox

  Try first:
   1. ${n8n}/workflow/${ids['sheet-rows-outbound-call.json']}
      "Sheet Rows to Outbound Calls": click "Execute workflow". Three calls are placed (one
      scheduled for tomorrow); the lines [sandbox] POST /call/outbound appear here.
   2. ${n8n}/form/callkaro-cancel-call
      Fill in +91 98200 22223 and agent_sales_01 to cancel the call scheduled in step 1.
   3. CRM webhook ("CRM to Assign Workflow", published):
      curl -s -X POST ${n8n}/webhook/callkaro-crm-lead -H 'content-type: application/json' \\
        -d '{"phone":"+91 98200 11111","name":"Asha","city":"Pune","plan":"Pro"}'
      Once: "Started" branch. Again: "Already Running" branch.
   4. ${n8n}/workflow/${ids['campaign-outbound-calls.json']}
      "Campaign with Outbound Calls": click "Execute workflow": a campaign and three calls in it.${
				trigger
					? `
   5. End a call in the sandbox: it posts call_ended to "${trigger.workflowName}" (published), which runs:
      curl -s -X POST ${sandbox.url}/__sandbox/calls/end -H 'content-type: application/json' \\
        -d '{"number":"+919820044442","hangupReason":"USER_UNAVAILABLE"}'   (after step 4; CLIENT_INITIATED = connected)`
					: ''
			}

  n8n's log: ${path.relative(PROJECT_ROOT, logFile)}. Press Ctrl-C to stop n8n and the sandbox.
`);
	if (opts['exit-when-ready']) await shutdown(0);
}

/** Main, the workers and the webhook processor, then where to click. */
async function startQueueMode({ examples, trigger }) {
	log(`starting n8n main, ${WORKERS} workers and a webhook processor...`);
	const tCluster = Date.now();
	cluster = await startCluster({
		userFolder: LOCAL,
		env: queueEnv,
		logDir: path.join(LOCAL, 'logs'),
		mainPort: N8N_PORT,
		webhookPort: WEBHOOK_PORT,
		workers: WORKERS,
	});
	await ensureOwner(cluster.main.url, OWNER);
	log(`cluster ready in ${secondsSince(tCluster)} (${secondsSince(t0)} since npm start)`);
	for (const p of cluster.processes) {
		p.child.on('close', (code, signal) => {
			if (!stopping) {
				console.log(`n8n ${p.name} exited (${code ?? signal}); see ${p.logFile}`);
				void shutdown(1);
			}
		});
	}
	const [pg, redis] = services;
	const rows = [
		['n8n main (editor, REST API)', cluster.main.url, cluster.main.logFile],
		...cluster.workers.map((w) => [`n8n ${w.name} (executions)`, `pid ${w.pid}`, w.logFile]),
		['n8n webhook processor (production webhooks)', cluster.webhook.url, cluster.webhook.logFile],
		[`PostgreSQL ${pg.version.split('-')[0]}`, `127.0.0.1:${pg.port}`, pg.logFile],
		[`Redis ${redis.version}`, `127.0.0.1:${redis.port}`, redis.logFile],
		['CallKaro sandbox', sandbox.url, '(this terminal)'],
	];
	const width = Math.max(...rows.map((r) => r[0].length));
	const hooks = cluster.webhook.url;
	console.log(`
  n8n in queue mode (scaling mode), every process on 127.0.0.1:
${rows.map(([role, where, logFile]) => `  ${role.padEnd(width)}  ${String(where).padEnd(24)}  log ${logFile}`).join('\n')}

  Log in to ${cluster.main.url} as ${OWNER.email} / ${OWNER.password}. Production webhooks go to the
  webhook processor (${hooks}/webhook/...); the workers run the executions.
  Try: the CRM webhook ("CRM to Assign Workflow", published) through the webhook processor:
      curl -s -X POST ${hooks}/webhook/callkaro-crm-lead -H 'content-type: application/json' \\
        -d '{"phone":"+91 98200 11111","name":"Asha","city":"Pune","plan":"Pro"}'
      Once: "Started". Again: "Already Running". Executions (main's editor) show which worker ran it.${
				trigger
					? `
  Ending a call in the sandbox posts call_ended to "${trigger.workflowName}" through the webhook processor.`
					: ''
			}
  Examples: ${examples.map((e) => e.file).join(', ')}.
  Press Ctrl-C to stop everything.
`);
	if (opts['exit-when-ready']) await shutdown(0);
}

main().catch(async (err) => {
	console.error(`\nnpm start failed: ${err.message}`);
	await shutdown(1);
});
