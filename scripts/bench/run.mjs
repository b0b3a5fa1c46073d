#!/usr/bin/env node
// npm run bench -- [--json FILE] [--md FILE]
//
// The benchmark of n8n-nodes-callkaro, inside the real n8n of the e2e setup (2.41.1 on Node 24,
// cached under ~/.cache/callkaro-n8n/), against the sandbox on 127.0.0.1. A script, not a test:
// it prints every figure next to its target (met / missed) and never fails on a missed target.
// It exits 1 only when a run does not do what it should (fewer than N successful requests), since
// its figures would then mean nothing. Every comparison is measured in the same run, back to back.
//
// Workflows: Manual Trigger -> Code (N items { phone }) -> the node under test, run with
// `n8n execute`; items/s = N / that node's own executionTime. The nodes under test:
//   ours     CallKaro Assign Workflow (phoneNumber = {{ $json.phone }}), at a given Concurrency;
//   minimal  bench-minimal-node.js: the least a node can do with the same helper, credential and
//            Concurrency scheme (so ours / minimal is what the package itself costs);
//   http     n8n's HTTP Request node v4.2, the same POST, X-API-KEY from a Header Auth credential;
//   plain    the same with the key as a plain header (no credential work per request).
//
// Options: --json FILE, --md FILE (the figures as Markdown), --skip-build, --tarball FILE (bench
// that package; our_modules_require_ms still reads dist/), --items N (10000), --rounds N (2: each
// throughput run is repeated and its best round counts, for both sides of a ratio alike),
// --only KEY,... (just those runs, e.g. ours50; no figures), --cpu-prof DIR (write a V8 CPU
// profile of each `n8n execute` there), --keep (the temp folder), --verbose (n8n's output).
// Time limits: each `n8n execute` 240 s, the whole run CALLKARO_BENCH_TIMEOUT_MS (25 min).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { ensureN8n } from '../n8n/install.mjs';
import {
	PROJECT_ROOT,
	buildPackage,
	describeFailure,
	freePort,
	installCommunityPackage,
	n8nEnv,
	packPackage,
	parseTrailingJson,
	runCommand,
	runN8n,
	secondsSince,
	stopAll,
	tempDir,
} from '../n8n/host.mjs';

// npm run bench -- --queue: the queue-mode figures instead (scripts/bench/queue.mjs)
if (process.argv.includes('--queue')) {
	const { queueBench } = await import('./queue.mjs');
	process.exit(await queueBench());
}

const BENCH_DIR = path.join(PROJECT_ROOT, 'scripts', 'bench');
const LATENCY_MS = 25;
const WORKFLOW_ID = 'wf_welcome';
const CODE_NODE = 'Generate Items';
const NODE_UNDER_TEST = 'Node Under Test';

const t0 = Date.now();
const log = (m) => console.log(`[bench ${secondsSince(t0).padStart(6)}] ${m}`);
const round = (x, digits = 3) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : null);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

// ---------------------------------------------------------------------------------------------
// the sandboxes, and the n8n install with the package in it

/** Sandboxes in this process, on 127.0.0.1, one per latency. */
async function startSandboxes(latencies = [LATENCY_MS, 0]) {
	const { startSandbox, DEMO_API_KEY } = await import(
		pathToFileURL(path.join(PROJECT_ROOT, 'test', 'sandbox', 'sandbox.mjs')).href
	);
	const options = { port: 0, host: '127.0.0.1', runDurationMs: 0, requestLogLimit: 100 };
	const sandboxes = {};
	for (const latencyMs of latencies)
		sandboxes[latencyMs] = await startSandbox({ ...options, latencyMs });
	return { sandboxes, apiKey: DEMO_API_KEY };
}

/** The cached n8n, and the package (the tree, built and packed, or a tarball) installed into userFolder. */
async function preparePackage({ work, userFolder, tarball, skipBuild }) {
	if (!tarball) {
		if (!skipBuild) await buildPackage({ log });
		({ tarball } = await packPackage({ outDir: work, log }));
	}
	const host = await ensureN8n({ log });
	await installCommunityPackage({ tarball, userFolder, log });
	return host;
}

// ---------------------------------------------------------------------------------------------
// the runs: key -> node, Concurrency, sandbox latency, items

const { values: opts } = parseArgs({
	options: {
		json: { type: 'string' },
		md: { type: 'string' },
		'skip-build': { type: 'boolean' },
		tarball: { type: 'string' },
		items: { type: 'string', default: '10000' },
		rounds: { type: 'string', default: '2' },
		only: { type: 'string' },
		'cpu-prof': { type: 'string' },
		keep: { type: 'boolean' },
		verbose: { type: 'boolean' },
	},
});
const whole = (name) => {
	const value = Number(opts[name]);
	if (!Number.isInteger(value) || value < 1)
		throw new Error(`--${name} must be a whole number >= 1`);
	return value;
};
const fromCaller = (file) => file && path.resolve(process.env.INIT_CWD || process.cwd(), file);
const ITEMS = whole('items');
const ROUNDS = whole('rounds');
const L = LATENCY_MS;

// [key, node, concurrency, latency ms, items, repeated in every round]
const RUNS = [
	['ours50', 'ours', 50, L, ITEMS, true],
	['plain', 'plain', null, L, ITEMS, true],
	['ours20', 'ours', 20, L, ITEMS, true],
	['minimal20', 'minimal', 20, L, ITEMS, true],
	['http', 'http', null, L, ITEMS, true],
	['ours10', 'ours', 10, L, ITEMS, false],
	['ours1', 'ours', 1, L, Math.ceil(ITEMS / 10), false],
	// 1-item runs: the process's own CPU and memory, subtracted from the N-item runs below
	['oursBase', 'ours', 20, 0, 1, false],
	['httpBase', 'http', null, 0, 1, false],
	['oursCpu', 'ours', 20, 0, ITEMS, false],
	['httpCpu', 'http', null, 0, ITEMS, false],
	['oursMem', 'ours', 20, L, 2 * ITEMS, false],
	['httpMem', 'http', null, L, 2 * ITEMS, false],
].map(([key, node, concurrency, latencyMs, items, repeated], i) => ({
	key,
	node,
	concurrency,
	latencyMs,
	items,
	repeated,
	prefix: 10 + i, // numbers +919<prefix><7 digits>: distinct per run, so never a 409
	id: `CkBench${10 + i}${key}`.padEnd(16, '0').slice(0, 16), // n8n wants 16 characters
	label: `${node}${concurrency ? ` C${concurrency}` : ''}, ${latencyMs} ms, ${items} items`,
}));

const cpuPerItem = (r, key) => (r[key].cpuMs - r[`${key.slice(0, -3)}Base`].cpuMs) / r[key].items;
const memGrowthMiB = (r, key) => (r[key].peakRssKb - r[`${key.slice(0, -3)}Base`].peakRssKb) / 1024;

// figure -> target, and how it comes from the runs (r) and the module load (req)
const FIGURES = {
	vs_http_request_plain_ratio: ['>=', 1.0, (r) => r.ours50.itemsPerSec / r.plain.itemsPerSec],
	limit_ratio: ['>=', 0.85, (r) => r.ours20.itemsPerSec / ((20 * 1000) / L)],
	vs_minimal_helper_node_ratio: ['>=', 0.95, (r) => r.ours20.itemsPerSec / r.minimal20.itemsPerSec],
	vs_http_request_node_ratio: ['>=', 1.5, (r) => r.ours20.itemsPerSec / r.http.itemsPerSec],
	cpu_vs_http_request_node_ratio: [
		'<=',
		0.6,
		(r) => cpuPerItem(r, 'oursCpu') / cpuPerItem(r, 'httpCpu'),
	],
	assign_vs_sequential_ratio: ['>=', 8, (r) => r.ours10.itemsPerSec / r.ours1.itemsPerSec],
	mem_vs_http_request_node_ratio: [
		'<=',
		1.0,
		(r) => memGrowthMiB(r, 'oursMem') / memGrowthMiB(r, 'httpMem'),
	],
	our_modules_require_ms: ['<=', 25, (r, req) => req.medianMs],
};

// ---------------------------------------------------------------------------------------------
// workflows

function targetNode(run, { sandboxUrl, apiKey, credentials }) {
	const { id, name } = credentials[run.latencyMs];
	if (run.node === 'ours' || run.node === 'minimal') {
		const ours = run.node === 'ours';
		return {
			type: ours ? 'n8n-nodes-callkaro.callKaroAssignWorkflow' : 'CUSTOM.benchMinimalNode',
			typeVersion: 1,
			parameters: {
				phoneNumber: '={{ $json.phone }}',
				workflowId: WORKFLOW_ID,
				...(ours
					? { attributeSource: 'none', schedule: 'now', options: { concurrency: run.concurrency } }
					: { concurrency: run.concurrency }),
			},
			credentials: { callKaroApi: { id, name } },
		};
	}
	const plain = run.node === 'plain';
	return {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: `${sandboxUrl}/workflow/assign`,
			...(plain
				? {
						authentication: 'none',
						sendHeaders: true,
						headerParameters: { parameters: [{ name: 'X-API-KEY', value: apiKey }] },
					}
				: { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' }),
			sendBody: true,
			contentType: 'json',
			specifyBody: 'keypair',
			bodyParameters: {
				parameters: [
					{ name: 'to_number', value: '={{ $json.phone }}' },
					{ name: 'workflow_id', value: WORKFLOW_ID },
				],
			},
			options: {},
		},
		...(plain
			? {}
			: {
					credentials: {
						httpHeaderAuth: { id: credentials.header.id, name: credentials.header.name },
					},
				}),
	};
}

function workflow(run, context) {
	const jsCode = [
		`const out = new Array(${run.items});`,
		`for (let i = 0; i < out.length; i++) out[i] = { json: { phone: '+919${run.prefix}' + String(i).padStart(7, '0') } };`,
		'return out;',
	].join('\n');
	const node = (name, x, rest) => ({ id: `${run.id}-${x}`, name, position: [x * 220, 0], ...rest });
	return {
		id: run.id,
		name: `bench ${run.label}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			node('Start', 0, { type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} }),
			node(CODE_NODE, 1, {
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				parameters: { mode: 'runOnceForAllItems', language: 'javaScript', jsCode },
			}),
			node(NODE_UNDER_TEST, 2, targetNode(run, context)),
		],
		connections: {
			Start: { main: [[{ node: CODE_NODE, type: 'main', index: 0 }]] },
			[CODE_NODE]: { main: [[{ node: NODE_UNDER_TEST, type: 'main', index: 0 }]] },
		},
	};
}

// ---------------------------------------------------------------------------------------------
// one run: `n8n execute` with exit-probe.cjs preloaded (CPU time and VmHWM at process.exit()),
// then the checks: N successful output items, N runs and N requests in the sandbox

/** Successful output items: ours says status 'started'; the others pass the sandbox's answer on. */
const succeeded = (run, json) =>
	run.node === 'ours' ? json?.status === 'started' && json.runId : json?.run_id;

async function execute(run, { env, sandboxes, cpuProfDir }) {
	const sandbox = sandboxes[run.latencyMs];
	sandbox.reset();
	const probeFile = path.join(tempDir('callkaro-bench-probe-'), 'probe.jsonl');
	const profile = cpuProfDir ? `--cpu-prof --cpu-prof-dir=${cpuProfDir}` : '';
	const loadBefore = os.loadavg()[0];
	const r = await runN8n(['execute', `--id=${run.id}`, '--rawOutput'], {
		env: { ...env, CALLKARO_BENCH_PROBE: probeFile, NODE_OPTIONS: profile },
		preload: path.join(BENCH_DIR, 'exit-probe.cjs'),
		timeoutMs: 240_000,
	});
	const probe = JSON.parse(fs.readFileSync(probeFile, 'utf8').trim().split('\n')[0] ?? 'null');
	fs.rmSync(path.dirname(probeFile), { recursive: true, force: true });
	if (opts.verbose) console.log(r.stdout.slice(-3000), r.stderr.slice(-3000));
	if (r.code !== 0) throw new Error(`${run.label}: ${describeFailure(r)}`);
	const task = parseTrailingJson(r.stdout)?.data?.resultData?.runData?.[NODE_UNDER_TEST]?.[0];
	if (!task) throw new Error(`${run.label}: no run data for the node under test`);
	if (task.error) throw new Error(`${run.label}: the node failed: ${task.error.message}`);
	const outputs = task.data?.main ?? [];
	const ok = (outputs[0] ?? []).filter((item) => succeeded(run, item.json)).length;
	const total = outputs.reduce((n, o) => n + (o?.length ?? 0), 0);
	const runs = sandbox.state.runs.length;
	const { requestCount } = sandbox.state;
	if (ok !== run.items || total !== run.items || runs !== run.items || requestCount !== run.items)
		throw new Error(
			`${run.label}: expected ${run.items} successful requests; ${ok} of ${total} output items succeeded, sandbox runs ${runs}, requests ${requestCount}`,
		);
	sandbox.reset();
	const result = {
		label: run.label,
		items: run.items,
		executionTimeMs: task.executionTime,
		itemsPerSec: round((run.items * 1000) / task.executionTime, 1),
		cpuMs: round((probe.cpuUserUs + probe.cpuSystemUs) / 1000, 1),
		peakRssKb: probe.vmHwmKb,
		processWallMs: r.ms,
		// the machine's 1-minute load average before and after (2 cores: above 2, work competed)
		loadAvg1: [round(loadBefore, 2), round(os.loadavg()[0], 2)],
	};
	log(
		`  ${run.label.padEnd(32)} ${String(result.itemsPerSec).padStart(7)} items/s  CPU ${(result.cpuMs / 1000).toFixed(2)} s  ` +
			`peak RSS ${(result.peakRssKb / 1024).toFixed(0)} MiB  load ${result.loadAvg1.join('->')}`,
	);
	return result;
}

/** n8n import:credentials or import:workflow of a list (credentials in clear: n8n encrypts them). */
async function importAll(what, list, { env, work }) {
	const file = path.join(work, `${what}.json`);
	fs.writeFileSync(file, JSON.stringify(list));
	const r = await runN8n([`import:${what}`, `--input=${file}`], { env, timeoutMs: 180_000 });
	if (r.code !== 0) throw new Error(describeFailure(r));
}

/** Our modules' load time in fresh processes, n8n-workflow loaded first as it is inside n8n. */
async function requireTimes(times = 5) {
	const runsMs = [];
	let filesLoaded;
	for (let i = 0; i < times; i++) {
		const r = await runCommand(process.execPath, [path.join(BENCH_DIR, 'require-time.cjs')], {
			timeoutMs: 60_000,
			env: { ...process.env, NODE_OPTIONS: '' },
		});
		if (r.code !== 0) throw new Error(describeFailure(r));
		const out = JSON.parse(r.stdout.trim().split('\n').pop());
		runsMs.push(round(out.ms, 1));
		filesLoaded = out.filesLoaded;
	}
	return { medianMs: median(runsMs), runsMs, filesLoaded, node: process.version };
}

// ---------------------------------------------------------------------------------------------
// report

function figures(runs, req) {
	return Object.entries(FIGURES).map(([name, [op, target, of]]) => {
		const value = round(of(runs, req));
		const met = op === '>=' ? value >= target : value <= target;
		return {
			name,
			value,
			target: `${op} ${target}`,
			verdict: value === null ? 'n/a' : met ? 'met' : 'missed',
		};
	});
}

function markdown(result) {
	const { machine: m, measurements } = result;
	return [
		`Measured ${result.date} on ${m.cpuModel} x${m.cpus}, ${m.totalMemGiB} GiB (1-minute load average ` +
			`${m.loadAvgAtStart[0]} at the start, ${m.loadAvgAtEnd[0]} at the end); n8n ${result.n8n_version} on Node ` +
			`${result.n8n_node_version}; sandbox latency ${LATENCY_MS} ms; best of ${result.rounds} rounds.`,
		'',
		'| figure | value | target | |',
		'| --- | --- | --- | --- |',
		...result.figures.map((f) => `| \`${f.name}\` | ${f.value} | ${f.target} | ${f.verdict} |`),
		'',
		'| run | items/s (each round) | CPU ms/item (0 ms runs) | peak RSS MiB | load |',
		'| --- | --- | --- | --- | --- |',
		...Object.entries(measurements.runs).map(
			([key, r]) =>
				`| ${r.label} | ${r.roundsItemsPerSec.join(', ')} | ${key.endsWith('Cpu') ? round(cpuPerItem(measurements.runs, key), 3) : ''} | ` +
				`${round(r.peakRssKb / 1024, 0)} | ${r.loadAvg1.join('→')} |`,
		),
		'',
		`Our modules' load (n8n-workflow already loaded): ${measurements.requireTime.runsMs.join(', ')} ms, ` +
			`${measurements.requireTime.filesLoaded} files.`,
		'',
	].join('\n');
}

// ---------------------------------------------------------------------------------------------

async function main() {
	setTimeout(
		async () => {
			log('giving up: CALLKARO_BENCH_TIMEOUT_MS reached');
			await stopAll(3000);
			process.exit(1);
		},
		Number(process.env.CALLKARO_BENCH_TIMEOUT_MS || 25 * 60_000),
	).unref();
	const only = opts.only?.split(',');
	const chosen = only ? RUNS.filter((run) => only.includes(run.key)) : RUNS;
	if (only && chosen.length !== only.length)
		throw new Error(`--only takes run keys: ${RUNS.map((run) => run.key).join(', ')}`);
	const loadAvgAtStart = os.loadavg().map((x) => round(x, 2));
	const work = tempDir('callkaro-bench-');
	const userFolder = path.join(work, 'n8n-user');
	const customDir = path.join(work, 'custom');
	fs.mkdirSync(customDir);
	fs.copyFileSync(
		path.join(BENCH_DIR, 'bench-minimal-node.js'),
		path.join(customDir, 'BenchMinimalNode.node.js'),
	);
	const host = await preparePackage({
		work,
		userFolder,
		tarball: fromCaller(opts.tarball),
		skipBuild: opts['skip-build'],
	});
	const { sandboxes, apiKey } = await startSandboxes();
	const env = n8nEnv({
		userFolder,
		port: await freePort(),
		brokerPort: await freePort(),
		extra: { N8N_CUSTOM_EXTENSIONS: customDir },
	});
	const cpuProfDir = fromCaller(opts['cpu-prof']);
	try {
		const cred = (id, name, type, data) => ({ id, name, type, data });
		const credentials = {
			[L]: cred('CkBenchCred25ms1', `CallKaro Sandbox ${L} ms`, 'callKaroApi', {
				apiKey,
				baseUrl: sandboxes[L].url,
			}),
			0: cred('CkBenchCred00ms1', 'CallKaro Sandbox 0 ms', 'callKaroApi', {
				apiKey,
				baseUrl: sandboxes[0].url,
			}),
			header: cred('CkBenchHeaderAu1', 'CallKaro X-API-KEY', 'httpHeaderAuth', {
				name: 'X-API-KEY',
				value: apiKey,
			}),
		};
		await importAll('credentials', Object.values(credentials), { env, work });
		const context = { apiKey, credentials };
		const workflows = chosen.map((run) =>
			workflow(run, { ...context, sandboxUrl: sandboxes[run.latencyMs].url }),
		);
		log(`n8n import:workflow (${workflows.length} workflows) ...`);
		await importAll('workflow', workflows, { env, work });

		// the runs, in table order; those repeated run in every round and keep their best round
		const runs = {};
		const rounds = {};
		for (let pass = 1; pass <= ROUNDS; pass++) {
			log(`round ${pass} of ${ROUNDS}:`);
			for (const run of chosen.filter((x) => pass === 1 || x.repeated)) {
				const result = await execute(run, { env, sandboxes, cpuProfDir });
				(rounds[run.key] ??= []).push(result.itemsPerSec);
				if (!runs[run.key] || result.itemsPerSec > runs[run.key].itemsPerSec)
					runs[run.key] = result;
			}
		}
		for (const key of Object.keys(runs)) runs[key].roundsItemsPerSec = rounds[key];
		if (only) return;
		const requireTime = await requireTimes();
		log(`our modules' load with n8n-workflow loaded: ${requireTime.runsMs.join(', ')} ms`);

		const cpus = os.cpus();
		const result = {
			figures: figures(runs, requireTime),
			rounds: ROUNDS,
			items: ITEMS,
			n8n_version: host.version,
			n8n_node_version: (
				await runCommand(host.nodeBin, ['--version'], { timeoutMs: 60_000 })
			).stdout.trim(),
			package: opts.tarball ? path.basename(opts.tarball) : 'the tree (built and packed)',
			machine: {
				cpuModel: cpus[0]?.model ?? 'unknown',
				cpus: cpus.length,
				totalMemGiB: round(os.totalmem() / 1024 ** 3, 1),
				loadAvgAtStart,
				loadAvgAtEnd: os.loadavg().map((x) => round(x, 2)),
			},
			date: new Date().toISOString(),
			measurements: { runs, requireTime },
		};
		console.log('');
		for (const f of result.figures)
			console.log(
				`${f.name.padEnd(34)} ${String(f.value).padStart(8)}   ${f.target.padEnd(7)}  ${f.verdict}`,
			);
		const jsonFile = fromCaller(opts.json);
		if (jsonFile) fs.writeFileSync(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
		if (opts.md) fs.writeFileSync(fromCaller(opts.md), markdown(result));
	} finally {
		for (const sandbox of Object.values(sandboxes)) await sandbox.close();
		if (opts.keep) log(`kept ${work}`);
		else fs.rmSync(work, { recursive: true, force: true });
	}
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
	main()
		.then(async () => {
			await stopAll(5000);
			log(`done in ${secondsSince(t0)}`);
			process.exit(0);
		})
		.catch(async (err) => {
			console.error(`[bench] FAILED: ${err.stack || err.message}`);
			await stopAll(3000);
			process.exit(1);
		});
}
