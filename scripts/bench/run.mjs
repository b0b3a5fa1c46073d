#!/usr/bin/env node
// npm run bench: the package inside the e2e's real n8n (2.41.1) against the sandbox on 127.0.0.1,
// next to what a builder could use instead, measured back to back in the same run. A script, not a
// test: it prints each figure next to its target and never fails on a missed target, only when a
// run does not do its job (its figures would mean nothing). Method and results: RESULTS.md.
// Workflows: Manual Trigger -> Code (N items { phone }) -> the node under test, run with
// `n8n execute`; items/s = N / that node's executionTime. --queue: queue.mjs's figures instead.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { DEMO_API_KEY, startSandbox } from '../../test/sandbox/sandbox.mjs';
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
	runN8n,
	runOrThrow,
	secondsSince,
	tempDir,
} from '../n8n/host.mjs';

if (process.argv.includes('--queue')) {
	const { queueBench } = await import('./queue.mjs');
	process.exit(await queueBench());
}

const { values: opts } = parseArgs({
	options: {
		json: { type: 'string' },
		md: { type: 'string' }, // the figures and the runs as Markdown
		'skip-build': { type: 'boolean' },
		tarball: { type: 'string' }, // bench that package (our_modules_require_ms still reads dist/)
		items: { type: 'string', default: '10000' },
		rounds: { type: 'string', default: '2' }, // repeated runs keep their best round, both sides alike
		only: { type: 'string' }, // run keys (ours50,plain): just those runs, no figures
		'cpu-prof': { type: 'string' }, // a folder for a V8 CPU profile of each `n8n execute`
		keep: { type: 'boolean' }, // the temp folder
		verbose: { type: 'boolean' }, // n8n's output
	},
});
const [ITEMS, ROUNDS] = ['items', 'rounds'].map((name) => {
	const value = Number(opts[name]);
	if (!Number.isInteger(value) || value < 1)
		throw new Error(`--${name} must be a whole number >= 1`);
	return value;
});
const fromCaller = (file) => file && path.resolve(process.env.INIT_CWD || process.cwd(), file);

const BENCH_DIR = path.join(PROJECT_ROOT, 'scripts', 'bench');
const L = 25; // the sandbox's latency, ms
const WORKFLOW_ID = 'wf_welcome';
const CODE_NODE = 'Generate Items';
const NODE_UNDER_TEST = 'Node Under Test';

const t0 = Date.now();
const log = (m) => console.log(`[bench ${secondsSince(t0).padStart(6)}] ${m}`);
const round = (x, digits = 3) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : null);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

// The nodes under test: ours (Assign Workflow) at a Concurrency; minimal (bench-minimal-node.js,
// the least a node can do with the same helper, credential and Concurrency scheme); http (HTTP
// Request v4.2, the key from a Header Auth credential); plain (the key as a plain header).
// latency and items as given when not L and ITEMS; `repeated` runs again in every round
const RUNS = [
	{ key: 'ours50', node: 'ours', concurrency: 50, repeated: true },
	{ key: 'plain', node: 'plain', repeated: true },
	{ key: 'ours20', node: 'ours', concurrency: 20, repeated: true },
	{ key: 'minimal20', node: 'minimal', concurrency: 20, repeated: true },
	{ key: 'http', node: 'http', repeated: true },
	{ key: 'ours10', node: 'ours', concurrency: 10 },
	{ key: 'ours1', node: 'ours', concurrency: 1, items: Math.ceil(ITEMS / 10) },
	// 1-item runs: the process's own CPU and memory, subtracted from the N-item runs below
	{ key: 'oursBase', node: 'ours', concurrency: 20, latencyMs: 0, items: 1 },
	{ key: 'httpBase', node: 'http', latencyMs: 0, items: 1 },
	{ key: 'oursCpu', node: 'ours', concurrency: 20, latencyMs: 0 },
	{ key: 'httpCpu', node: 'http', latencyMs: 0 },
	{ key: 'oursMem', node: 'ours', concurrency: 20, items: 2 * ITEMS },
	{ key: 'httpMem', node: 'http', items: 2 * ITEMS },
].map((given, i) => {
	const run = { latencyMs: L, items: ITEMS, ...given };
	run.prefix = 10 + i; // numbers +919<prefix><7 digits>: distinct per run, so never a 409
	run.id = `CkBench${run.prefix}${run.key}`.padEnd(16, '0').slice(0, 16); // n8n wants 16 characters
	const concurrency = run.concurrency ? ` C${run.concurrency}` : '';
	run.label = `${run.node}${concurrency}, ${run.latencyMs} ms, ${run.items} items`;
	return run;
});

const cpuPerItem = (r, key) => (r[key].cpuMs - r[`${key.slice(0, -3)}Base`].cpuMs) / r[key].items;
const memGrowthMiB = (r, key) => (r[key].peakRssKb - r[`${key.slice(0, -3)}Base`].peakRssKb) / 1024;

// figure -> target, and how it comes from the runs (r) and the in-process probes (module load,
// request guard)
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
	our_modules_require_ms: ['<=', 25, (r, probes) => probes.requireTime.medianMs],
	// the request schemas parsed as the last guard before sending, against the node's whole CPU
	request_guard_cpu_share: [
		'<=',
		0.01,
		(r, probes) => probes.requestGuard.assign.guardUs / (1000 * cpuPerItem(r, 'oursCpu')),
	],
};

/** Credentials in clear (`n8n import:credentials` encrypts them): one per sandbox, and Header Auth. */
function credentials(sandboxes) {
	const callKaro = (id, latencyMs) => ({
		id,
		name: `CallKaro Sandbox ${latencyMs} ms`,
		type: 'callKaroApi',
		data: { apiKey: DEMO_API_KEY, baseUrl: sandboxes[latencyMs].url },
	});
	return {
		[L]: callKaro('CkBenchCred25ms1', L),
		0: callKaro('CkBenchCred00ms1', 0),
		header: {
			id: 'CkBenchHeaderAu1',
			name: 'CallKaro X-API-KEY',
			type: 'httpHeaderAuth',
			data: { name: 'X-API-KEY', value: DEMO_API_KEY },
		},
	};
}

const ref = ({ id, name }) => ({ id, name });

function nodeUnderTest(run, creds) {
	const fields = { phoneNumber: '={{ $json.phone }}', workflowId: WORKFLOW_ID };
	const callKaroApi = ref(creds[run.latencyMs]);
	if (run.node === 'ours') {
		const options = { concurrency: run.concurrency };
		return {
			type: 'n8n-nodes-callkaro.callKaroAssignWorkflow',
			typeVersion: 1,
			parameters: { ...fields, attributeSource: 'none', schedule: 'now', options },
			credentials: { callKaroApi },
		};
	}
	if (run.node === 'minimal')
		return {
			type: 'CUSTOM.benchMinimalNode',
			typeVersion: 1,
			parameters: { ...fields, concurrency: run.concurrency },
			credentials: { callKaroApi },
		};
	const plainHeader = { parameters: [{ name: 'X-API-KEY', value: DEMO_API_KEY }] };
	const auth =
		run.node === 'plain'
			? { authentication: 'none', sendHeaders: true, headerParameters: plainHeader }
			: { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' };
	const body = [
		{ name: 'to_number', value: fields.phoneNumber },
		{ name: 'workflow_id', value: WORKFLOW_ID },
	];
	return {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: `${creds[run.latencyMs].data.baseUrl}/workflow/assign`,
			...auth,
			sendBody: true,
			contentType: 'json',
			specifyBody: 'keypair',
			bodyParameters: { parameters: body },
			options: {},
		},
		...(run.node === 'http' && { credentials: { httpHeaderAuth: ref(creds.header) } }),
	};
}

function workflow(run, creds) {
	const jsCode = [
		`const out = new Array(${run.items});`,
		`for (let i = 0; i < out.length; i++) out[i] = { json: { phone: '+919${run.prefix}' + String(i).padStart(7, '0') } };`,
		'return out;',
	].join('\n');
	const node = (name, x, rest) => ({ id: `${run.id}-${x}`, name, position: [x * 220, 0], ...rest });
	const code = { mode: 'runOnceForAllItems', language: 'javaScript', jsCode };
	const to = (name) => ({ main: [[{ node: name, type: 'main', index: 0 }]] });
	return {
		id: run.id,
		name: `bench ${run.label}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			node('Start', 0, { type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} }),
			node(CODE_NODE, 1, { type: 'n8n-nodes-base.code', typeVersion: 2, parameters: code }),
			node(NODE_UNDER_TEST, 2, nodeUnderTest(run, creds)),
		],
		connections: { Start: to(CODE_NODE), [CODE_NODE]: to(NODE_UNDER_TEST) },
	};
}

/** `n8n import:credentials` or `import:workflow` of a list. */
async function importAll(what, list, { env, work }) {
	const file = path.join(work, `${what}.json`);
	fs.writeFileSync(file, JSON.stringify(list));
	const r = await runN8n([`import:${what}`, `--input=${file}`], { env, timeoutMs: 180_000 });
	if (r.code !== 0) throw new Error(describeFailure(r));
}

/** Successful output items: ours says status 'started'; the others pass the sandbox's answer on. */
const succeeded = (run, json) =>
	run.node === 'ours' ? json?.status === 'started' && json.runId : json?.run_id;

/**
 * One `n8n execute`, with exit-probe.cjs preloaded (its CPU time and VmHWM as it exits); then N
 * successful output items, N runs and N requests in the sandbox, or the run failed.
 */
async function execute(run, { env, sandboxes }) {
	const sandbox = sandboxes[run.latencyMs];
	sandbox.reset();
	const probeFile = path.join(tempDir('callkaro-bench-probe-'), 'probe.jsonl');
	const cpuProf = opts['cpu-prof'] && `--cpu-prof --cpu-prof-dir=${fromCaller(opts['cpu-prof'])}`;
	const loadBefore = os.loadavg()[0];
	const r = await runN8n(['execute', `--id=${run.id}`, '--rawOutput'], {
		env: { ...env, CALLKARO_BENCH_PROBE: probeFile, NODE_OPTIONS: cpuProf || '' },
		preload: path.join(BENCH_DIR, 'exit-probe.cjs'),
		timeoutMs: 240_000,
	});
	const probe = JSON.parse(fs.readFileSync(probeFile, 'utf8').split('\n')[0]);
	fs.rmSync(path.dirname(probeFile), { recursive: true, force: true });
	if (opts.verbose) console.log(r.stdout.slice(-3000), r.stderr.slice(-3000));
	if (r.code !== 0) throw new Error(`${run.label}: ${describeFailure(r)}`);
	const task = parseTrailingJson(r.stdout)?.data?.resultData?.runData?.[NODE_UNDER_TEST]?.[0];
	if (!task) throw new Error(`${run.label}: no run data for the node under test`);
	if (task.error) throw new Error(`${run.label}: the node failed: ${task.error.message}`);
	const outputs = task.data?.main ?? [];
	const ok = (outputs[0] ?? []).filter((item) => succeeded(run, item.json)).length;
	const total = outputs.reduce((n, o) => n + (o?.length ?? 0), 0);
	const { runs, requestCount } = sandbox.state;
	if ([ok, total, runs.length, requestCount].some((n) => n !== run.items))
		throw new Error(
			`${run.label}: expected ${run.items} successful requests; ${ok} of ${total} output items succeeded, sandbox runs ${runs.length}, requests ${requestCount}`,
		);
	sandbox.reset();
	const result = {
		label: run.label,
		items: run.items,
		executionTimeMs: task.executionTime,
		itemsPerSec: round((run.items * 1000) / task.executionTime, 1),
		cpuMs: round(probe.cpuUs / 1000, 1),
		peakRssKb: probe.vmHwmKb,
		processWallMs: r.ms,
		// the machine's 1-minute load average before and after (2 cores: above 2, work competed)
		loadAvg1: [round(loadBefore, 2), round(os.loadavg()[0], 2)],
	};
	const cpu = `CPU ${(result.cpuMs / 1000).toFixed(2)} s`;
	const rss = `peak RSS ${(result.peakRssKb / 1024).toFixed(0)} MiB`;
	const items = `${String(result.itemsPerSec).padStart(7)} items/s`;
	log(`  ${run.label.padEnd(32)} ${items}  ${cpu}  ${rss}  load ${result.loadAvg1.join('->')}`);
	return result;
}

/** A probe script's JSON line from each of `count` fresh processes. */
async function probeRuns(file, count) {
	const env = { ...process.env, NODE_OPTIONS: '' };
	const runs = [];
	for (let i = 0; i < count; i++) {
		const r = await runOrThrow(process.execPath, [path.join(BENCH_DIR, file)], { env });
		runs.push(JSON.parse(r.stdout));
	}
	return runs;
}

/** Our modules' load time in 5 fresh processes (require-time.cjs), with n8n-workflow loaded first. */
async function requireTimes() {
	const runs = await probeRuns('require-time.cjs', 5);
	const runsMs = runs.map((r) => round(r.ms, 1));
	const { filesLoaded } = runs[0];
	return { medianMs: median(runsMs), runsMs, filesLoaded, node: process.version };
}

/** CPU µs per call of the last guard and of the whole mapping (request-guard.cjs), median of 3. */
async function requestGuardTimes() {
	const runs = await probeRuns('request-guard.cjs', 3);
	const medians = (node) =>
		Object.fromEntries(
			['guardUs', 'prepareUs'].map((k) => [k, round(median(runs.map((r) => r[node][k])), 2)]),
		);
	return { assign: medians('assign'), outbound: medians('outbound') };
}

function figures(runs, probes) {
	return Object.entries(FIGURES).map(([name, [op, target, of]]) => {
		const value = round(of(runs, probes), 4);
		const met = op === '>=' ? value >= target : value <= target;
		const verdict = value === null ? 'n/a' : met ? 'met' : 'missed';
		return { name, value, target: `${op} ${target}`, verdict };
	});
}

function markdown({ machine: m, measurements: { runs, requireTime, requestGuard }, ...result }) {
	const load = `1-minute load average ${m.loadAvgAtStart[0]} at the start, ${m.loadAvgAtEnd[0]} at the end`;
	const n8n = `n8n ${result.n8n_version} on Node ${result.n8n_node_version}`;
	const runRow = ([key, r]) => {
		const cpu = key.endsWith('Cpu') ? round(cpuPerItem(runs, key), 3) : '';
		const rss = round(r.peakRssKb / 1024, 0);
		return `| ${r.label} | ${r.roundsItemsPerSec.join(', ')} | ${cpu} | ${rss} | ${r.loadAvg1.join('→')} |`;
	};
	return [
		`Measured ${result.date} on ${m.cpuModel} x${m.cpus}, ${m.totalMemGiB} GiB (${load}); ${n8n}; ` +
			`sandbox latency ${L} ms; best of ${result.rounds} rounds.`,
		'',
		'| figure | value | target | |',
		'| --- | --- | --- | --- |',
		...result.figures.map((f) => `| \`${f.name}\` | ${f.value} | ${f.target} | ${f.verdict} |`),
		'',
		'| run | items/s (each round) | CPU ms/item (0 ms runs) | peak RSS MiB | load |',
		'| --- | --- | --- | --- | --- |',
		...Object.entries(runs).map(runRow),
		'',
		`Our modules' load (n8n-workflow already loaded): ${requireTime.runsMs.join(', ')} ms, ` +
			`${requireTime.filesLoaded} files.`,
		'',
		...['assign', 'outbound'].map(
			(node) =>
				`Request guard, ${node}: ${requestGuard[node].guardUs} µs of CPU per request; the whole ` +
				`mapping of an item (guard included) ${requestGuard[node].prepareUs} µs.`,
		),
		'',
	].join('\n');
}

// the whole run is bounded (each `n8n execute` is too, to 240 s); exiting kills what it started
const timeoutMs = Number(process.env.CALLKARO_BENCH_TIMEOUT_MS || 25 * 60_000);
setTimeout(() => {
	log('giving up: CALLKARO_BENCH_TIMEOUT_MS reached');
	process.exit(1);
}, timeoutMs).unref();

const only = opts.only?.split(',');
const chosen = only ? RUNS.filter((run) => only.includes(run.key)) : RUNS;
if (only && chosen.length !== only.length)
	throw new Error(`--only takes run keys: ${RUNS.map((run) => run.key).join(', ')}`);
const loadAvgAtStart = os.loadavg().map((x) => round(x, 2));
const work = tempDir('callkaro-bench-');
const userFolder = path.join(work, 'n8n-user');
const customDir = path.join(work, 'custom'); // n8n loads the minimal node from there
fs.mkdirSync(customDir);
const minimalNode = path.join(customDir, 'BenchMinimalNode.node.js');
fs.copyFileSync(path.join(BENCH_DIR, 'bench-minimal-node.js'), minimalNode);
let tarball = fromCaller(opts.tarball);
if (!tarball) {
	if (!opts['skip-build']) await buildPackage({ log });
	({ tarball } = await packPackage({ outDir: work, log }));
}
const host = await ensureN8n({ log });
await installCommunityPackage({ tarball, userFolder, log });
const sandboxOptions = { port: 0, host: '127.0.0.1', runDurationMs: 0, requestLogLimit: 100 };
const sandboxes = {};
for (const latencyMs of [L, 0])
	sandboxes[latencyMs] = await startSandbox({ ...sandboxOptions, latencyMs });
const [port, brokerPort] = [await freePort(), await freePort()];
const env = n8nEnv({ userFolder, port, brokerPort, extra: { N8N_CUSTOM_EXTENSIONS: customDir } });
try {
	const creds = credentials(sandboxes);
	await importAll('credentials', Object.values(creds), { env, work });
	log(`n8n import:workflow (${chosen.length} workflows) ...`);
	const workflows = chosen.map((run) => workflow(run, creds));
	await importAll('workflow', workflows, { env, work });

	// the runs, in table order; those repeated run in every round and keep their best round
	const runs = {};
	for (let pass = 1; pass <= ROUNDS; pass++) {
		log(`round ${pass} of ${ROUNDS}:`);
		for (const run of chosen.filter((x) => pass === 1 || x.repeated)) {
			const result = await execute(run, { env, sandboxes });
			const rounds = [...(runs[run.key]?.roundsItemsPerSec ?? []), result.itemsPerSec];
			if (!runs[run.key] || result.itemsPerSec > runs[run.key].itemsPerSec) runs[run.key] = result;
			runs[run.key].roundsItemsPerSec = rounds;
		}
	}
	if (!only) {
		const requireTime = await requireTimes();
		log(`our modules' load with n8n-workflow loaded: ${requireTime.runsMs.join(', ')} ms`);
		const requestGuard = await requestGuardTimes();
		log(`request guard, CPU µs per request: ${JSON.stringify(requestGuard)}`);
		const cpus = os.cpus();
		const result = {
			figures: figures(runs, { requireTime, requestGuard }),
			rounds: ROUNDS,
			items: ITEMS,
			n8n_version: host.version,
			n8n_node_version: (await runOrThrow(host.nodeBin, ['--version'])).stdout.trim(),
			package: opts.tarball ? path.basename(opts.tarball) : 'the tree (built and packed)',
			machine: {
				cpuModel: cpus[0]?.model ?? 'unknown',
				cpus: cpus.length,
				totalMemGiB: round(os.totalmem() / 1024 ** 3, 1),
				loadAvgAtStart,
				loadAvgAtEnd: os.loadavg().map((x) => round(x, 2)),
			},
			date: new Date().toISOString(),
			measurements: { runs, requireTime, requestGuard },
		};
		console.log('');
		for (const { name, value, target, verdict } of result.figures)
			console.log(
				`${name.padEnd(34)} ${String(value).padStart(8)}   ${target.padEnd(7)}  ${verdict}`,
			);
		if (opts.json) fs.writeFileSync(fromCaller(opts.json), `${JSON.stringify(result, null, 2)}\n`);
		if (opts.md) fs.writeFileSync(fromCaller(opts.md), markdown(result));
	}
} finally {
	for (const sandbox of Object.values(sandboxes)) await sandbox.close();
	if (opts.keep) log(`kept ${work}`);
	else fs.rmSync(work, { recursive: true, force: true });
}
log(`done in ${secondsSince(t0)}`);
process.exit(0);
