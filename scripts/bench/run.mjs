#!/usr/bin/env node
// npm run bench -- --json FILE
//
// The benchmark of n8n-nodes-callkaro, inside the real n8n of the e2e setup (2.41.1 on Node 24,
// cached under ~/.cache/callkaro-n8n/), against the sandbox on 127.0.0.1. A script, not a test:
// it measures, prints every figure next to its target (met / missed) and writes a JSON object;
// it never fails on a missed target. It exits 1 only when a run does not do what it should
// (e.g. fewer than N successful requests), since its figures would then mean nothing.
//
// Every comparison is measured in the same run, so the noise of the machine is shared:
//   - our node (CallKaro Assign Workflow) vs n8n's HTTP Request node v4.2 sending the same
//     POST {sandbox}/workflow/assign, 25 ms latency: items/s from each node's own executionTime;
//   - CPU per item of both at 0 ms latency: CPU time of the `n8n execute` process, minus the same
//     workflow with 1 item, divided by the items;
//   - our node at Concurrency 10 vs a raw undici client at concurrency 10 (in this process), and
//     vs the same node at Concurrency 1;
//   - peak RSS growth of n8n over a 20,000-item run, ours vs the HTTP Request node;
//   - the cold require of every node and credential module from dist/ (fresh processes).
//
// Options: --json FILE, --md FILE (the figures as a Markdown table), --skip-build, --tarball FILE
// (benchmark that package; cold_require_ms still reads dist/), --items N (10000), --mem-items N
// (20000), --seq-items N (Concurrency 1 run, 1000), --no-plain-header (skip the HTTP Request run
// with a plain header), --keep (the temp folder), --verbose (n8n's output of every run).
// Time limits: each `n8n execute` 240 s, the whole run CALLKARO_BENCH_TIMEOUT_MS (25 min).
import { randomUUID } from 'node:crypto';
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

// ---------------------------------------------------------------------------------------------
// options

const { values: opts } = parseArgs({
	options: {
		json: { type: 'string' },
		md: { type: 'string' },
		'skip-build': { type: 'boolean' },
		tarball: { type: 'string' },
		items: { type: 'string', default: '10000' },
		'mem-items': { type: 'string', default: '20000' },
		'seq-items': { type: 'string', default: '1000' },
		'no-plain-header': { type: 'boolean' },
		keep: { type: 'boolean' },
		verbose: { type: 'boolean' },
	},
});
const count = (name) => {
	const value = Number(opts[name]);
	if (!Number.isInteger(value) || value < 1)
		throw new Error(`--${name} must be a whole number >= 1`);
	return value;
};
const CALLER_DIR = process.env.INIT_CWD || process.cwd();
const fromCaller = (file) => file && path.resolve(CALLER_DIR, file);
const JSON_FILE = fromCaller(opts.json);
const MD_FILE = fromCaller(opts.md);
const TARBALL = fromCaller(opts.tarball);
const ITEMS = count('items');
const MEM_ITEMS = count('mem-items');
const SEQ_ITEMS = count('seq-items');
const LATENCY_MS = 25;
const CONCURRENCY = 20; // the headline run
const CONCURRENCY_VS_RAW = 10;
const PLAIN_HEADER = !opts['no-plain-header'];
const VERBOSE = opts.verbose;
const TOTAL_TIMEOUT_MS = Number(process.env.CALLKARO_BENCH_TIMEOUT_MS || 25 * 60_000);
const EXECUTE_TIMEOUT_MS = 240_000;

const TARGETS = {
	vs_http_request_node_ratio: { op: '>=', value: 1.5 },
	cpu_vs_http_request_node_ratio: { op: '<=', value: 0.6 },
	assign_vs_raw_ratio: { op: '>=', value: 0.85 },
	assign_vs_sequential_ratio: { op: '>=', value: 8 },
	mem_vs_http_request_node_ratio: { op: '<=', value: 1.0 },
	cold_require_ms: { op: '<=', value: 50 },
};

const EXIT_PROBE = path.join(PROJECT_ROOT, 'scripts', 'bench', 'exit-probe.cjs');
const COLD_REQUIRE = path.join(PROJECT_ROOT, 'scripts', 'bench', 'cold-require.cjs');
const WORKFLOW_ID = 'wf_welcome';
const OUR_NODE = 'CallKaro Assign Workflow';
const HTTP_NODE = 'HTTP Request';
const CODE_NODE = 'Generate Items';

const t0 = Date.now();
const log = (m) => console.log(`[bench ${secondsSince(t0).padStart(6)}] ${m}`);
const round = (x, digits = 3) =>
	x === null || x === undefined || !Number.isFinite(x) ? null : Number(x.toFixed(digits));
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// ---------------------------------------------------------------------------------------------
// one `n8n execute`, watched: its pid is the Node process itself (no shell), /proc/<pid> is
// sampled while it runs, and exit-probe.cjs records CPU time and VmHWM at process.exit()

/** What a command prints, or an error. */
async function output(cmd, args, opts) {
	const r = await runCommand(cmd, args, { timeoutMs: 60_000, ...opts });
	if (r.code !== 0) throw new Error(describeFailure(r));
	return r.stdout.trim();
}
const CLK_TCK = Number(await output('getconf', ['CLK_TCK']).catch(() => '')) || 100;
function readProc(pid) {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		// after "pid (comm) ": state is field 3, utime 14, stime 15 -> indexes 11, 12
		const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
		const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
		const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
		return { t: Date.now(), cpuMs, rssKb: kb('VmRSS'), hwmKb: kb('VmHWM') };
	} catch {
		return null;
	}
}

/** Linear interpolation of the sampled CPU time at time t. */
function cpuAt(samples, t) {
	if (!samples.length) return NaN;
	if (t <= samples[0].t) return samples[0].cpuMs;
	for (let i = 1; i < samples.length; i++) {
		const a = samples[i - 1];
		const b = samples[i];
		if (t <= b.t) return a.cpuMs + ((b.cpuMs - a.cpuMs) * (t - a.t)) / Math.max(1, b.t - a.t);
	}
	return samples[samples.length - 1].cpuMs;
}

async function executeWatched(workflowId, { env, pollMs = 20 }) {
	const probeFile = path.join(tempDir('callkaro-bench-exec-'), 'probe.jsonl');
	const samples = [];
	let poller;
	let pid;
	const r = await runN8n(['execute', `--id=${workflowId}`, '--rawOutput'], {
		env: { ...env, CALLKARO_BENCH_PROBE: probeFile },
		preload: EXIT_PROBE,
		timeoutMs: EXECUTE_TIMEOUT_MS,
		onSpawn: (child) => {
			pid = child.pid;
			const sample = () => {
				const s = readProc(pid);
				if (s) samples.push(s);
			};
			sample();
			poller = setInterval(sample, pollMs);
		},
	});
	clearInterval(poller);
	let probe = null;
	try {
		probe = fs
			.readFileSync(probeFile, 'utf8')
			.trim()
			.split('\n')
			.map((l) => JSON.parse(l))
			.find((p) => p.pid === pid);
	} catch {}
	fs.rmSync(path.dirname(probeFile), { recursive: true, force: true });
	return { ...r, samples, pid, probe: probe ?? null };
}

// ---------------------------------------------------------------------------------------------
// workflows: Manual Trigger -> Code (N items, distinct numbers) -> the node under test

/** A distinct Indian mobile number per scenario (code 10..99) and item. */
const phoneOf = (code, i) => `+919${code}${String(i).padStart(7, '0')}`;

function workflow({ id, name, items, code, target }) {
	const jsCode = [
		`const n = ${items};`,
		'const out = new Array(n);',
		`for (let i = 0; i < n; i++) out[i] = { json: { phone: '+919${code}' + String(i).padStart(7, '0') } };`,
		'return out;',
	].join('\n');
	return {
		id,
		name,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: randomUUID(),
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: randomUUID(),
				name: CODE_NODE,
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: { mode: 'runOnceForAllItems', language: 'javaScript', jsCode },
			},
			{ id: randomUUID(), position: [440, 0], ...target },
		],
		connections: {
			Start: { main: [[{ node: CODE_NODE, type: 'main', index: 0 }]] },
			[CODE_NODE]: { main: [[{ node: target.name, type: 'main', index: 0 }]] },
		},
	};
}

function ourNode({ concurrency, credential }) {
	return {
		name: OUR_NODE,
		type: 'n8n-nodes-callkaro.callKaroAssignWorkflow',
		typeVersion: 1,
		parameters: {
			phoneNumber: '={{ $json.phone }}',
			workflowId: WORKFLOW_ID,
			attributeSource: 'none',
			schedule: 'now',
			options: { concurrency },
		},
		credentials: { callKaroApi: credential },
	};
}

function httpNode({ url, apiKey, credential }) {
	const auth = credential
		? { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' }
		: {
				authentication: 'none',
				sendHeaders: true,
				headerParameters: { parameters: [{ name: 'X-API-KEY', value: apiKey }] },
			};
	return {
		name: HTTP_NODE,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url,
			...auth,
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
		...(credential ? { credentials: { httpHeaderAuth: credential } } : {}),
	};
}

// ---------------------------------------------------------------------------------------------
// running a scenario and checking that it did N successful requests

function checkOutputs(kind, outputs, items) {
	const started = outputs[0] ?? [];
	const others = outputs.slice(1).reduce((n, o) => n + (o?.length ?? 0), 0);
	const ok =
		kind === 'ours'
			? started.filter((i) => i.json?.status === 'started' && i.json.runId).length
			: started.filter((i) => i.json?.status === 'done' && i.json.run_id).length;
	return { ok, others, total: started.length + others, expected: items };
}

async function runScenario(ctx, s) {
	const sandbox = s.latencyMs === 0 ? ctx.sandbox0 : ctx.sandbox25;
	sandbox.reset();
	const loadAvgBefore = round(os.loadavg()[0], 2);
	const r = await executeWatched(s.id, { env: ctx.env });
	if (VERBOSE) console.log(r.stdout.slice(-3000), r.stderr.slice(-3000));
	if (r.code !== 0) throw new Error(`${s.label}: ${describeFailure(r)}`);
	const execution = parseTrailingJson(r.stdout);
	const runData = execution?.data?.resultData?.runData ?? {};
	const nodeName = s.kind === 'ours' ? OUR_NODE : HTTP_NODE;
	const task = runData[nodeName]?.[0];
	if (!task) throw new Error(`${s.label}: no run data for "${nodeName}"`);
	if (task.error) throw new Error(`${s.label}: the node failed: ${task.error.message}`);
	const outputs = checkOutputs(s.kind, task.data?.main ?? [], s.items);
	const runs = sandbox.state.runs.length;
	const requests = sandbox.state.requestCount;
	if (
		outputs.ok !== s.items ||
		outputs.total !== s.items ||
		runs !== s.items ||
		requests !== s.items
	) {
		throw new Error(
			`${s.label}: expected ${s.items} successful requests; node output ${JSON.stringify(outputs)}, sandbox runs ${runs}, requests ${requests}`,
		);
	}
	const executionTimeMs = task.executionTime;
	const windowStart = task.startTime;
	const windowEnd = task.startTime + task.executionTime;
	const inWindow = r.samples.filter((x) => x.t >= windowStart && x.t <= windowEnd);
	const result = {
		label: s.label,
		node: s.kind === 'ours' ? 'callKaroAssignWorkflow' : `httpRequest v4.2 (${s.auth})`,
		items: s.items,
		concurrency: s.concurrency ?? null,
		latencyMs: s.latencyMs,
		executionTimeMs,
		itemsPerSec: round((s.items * 1000) / executionTimeMs, 1),
		msPerItem: round(executionTimeMs / s.items, 4),
		codeNodeMs: runData[CODE_NODE]?.[0]?.executionTime ?? null,
		processWallMs: r.ms,
		processCpuMs: r.probe ? round((r.probe.cpuUserUs + r.probe.cpuSystemUs) / 1000, 1) : null,
		peakRssKb: r.probe?.vmHwmKb ?? r.samples.at(-1)?.hwmKb ?? null,
		// sampled every 20 ms: the CPU used while the node ran, and the largest RSS seen then
		nodeWindowCpuMs: round(cpuAt(r.samples, windowEnd) - cpuAt(r.samples, windowStart), 1),
		nodeWindowPeakRssKb: inWindow.length ? Math.max(...inWindow.map((x) => x.rssKb)) : null,
		samples: r.samples.length,
		pid: r.pid,
		sandboxRuns: runs,
		sandboxRequests: requests,
		// 1-minute load average of the machine before and after the run (2 cores: above 2 means
		// other work competed for the CPU)
		loadAvg1: [loadAvgBefore, round(os.loadavg()[0], 2)],
	};
	sandbox.reset();
	log(
		`  ${s.label.padEnd(44)} ${String(result.itemsPerSec).padStart(8)} items/s  ${result.msPerItem.toFixed(3)} ms/item  ` +
			`node ${(executionTimeMs / 1000).toFixed(2)} s, process ${(r.ms / 1000).toFixed(1)} s, CPU ${(result.processCpuMs / 1000).toFixed(2)} s, ` +
			`peak RSS ${(result.peakRssKb / 1024).toFixed(0)} MiB, load ${result.loadAvg1.join('->')}`,
	);
	return result;
}

/** The raw client: undici, `concurrency` requests in flight, the same requests, in this process. */
async function runRaw(ctx, { items, concurrency, code, latencyMs }) {
	const { Agent, request } = await import('undici');
	const sandbox = latencyMs === 0 ? ctx.sandbox0 : ctx.sandbox25;
	sandbox.reset();
	const dispatcher = new Agent({ connections: concurrency });
	const url = `${sandbox.url}/workflow/assign`;
	let next = 0;
	let ok = 0;
	const loadAvgBefore = round(os.loadavg()[0], 2);
	const started = performance.now();
	async function worker() {
		while (next < items) {
			const i = next++;
			const res = await request(url, {
				method: 'POST',
				dispatcher,
				headers: { 'content-type': 'application/json', 'x-api-key': ctx.apiKey },
				body: JSON.stringify({ to_number: phoneOf(code, i), workflow_id: WORKFLOW_ID }),
			});
			const body = await res.body.json();
			if (res.statusCode === 200 && body.run_id) ok++;
		}
	}
	await Promise.all(Array.from({ length: concurrency }, worker));
	const ms = performance.now() - started;
	await dispatcher.close();
	const runs = sandbox.state.runs.length;
	if (ok !== items || runs !== items)
		throw new Error(`raw undici: ${ok} of ${items} requests succeeded, sandbox runs ${runs}`);
	sandbox.reset();
	const result = {
		label: `raw undici, concurrency ${concurrency}, ${latencyMs} ms`,
		items,
		concurrency,
		latencyMs,
		wallMs: round(ms, 1),
		itemsPerSec: round((items * 1000) / ms, 1),
		msPerItem: round(ms / items, 4),
		sandboxRuns: runs,
		loadAvg1: [loadAvgBefore, round(os.loadavg()[0], 2)],
	};
	log(
		`  ${result.label.padEnd(44)} ${String(result.itemsPerSec).padStart(8)} items/s  ${result.msPerItem.toFixed(3)} ms/item, load ${result.loadAvg1.join('->')}`,
	);
	return result;
}

async function coldRequire(runs = 5) {
	const variants = { cold: [], n8nWorkflowWarm: [] };
	for (let i = 0; i < runs; i++) {
		for (const [key, extra] of [
			['cold', []],
			['n8nWorkflowWarm', ['--warm=n8n-workflow']],
		]) {
			const out = await output(process.execPath, [COLD_REQUIRE, ...extra], {
				env: { ...process.env, NODE_OPTIONS: '' },
			});
			variants[key].push(JSON.parse(out.split('\n').pop()));
		}
	}
	return {
		medianMs: round(median(variants.cold.map((v) => v.ms)), 1),
		runsMs: variants.cold.map((v) => round(v.ms, 1)),
		filesLoaded: variants.cold[0].filesLoaded,
		n8nWorkflowWarmMedianMs: round(median(variants.n8nWorkflowWarm.map((v) => v.ms)), 1),
		n8nWorkflowWarmRunsMs: variants.n8nWorkflowWarm.map((v) => round(v.ms, 1)),
		n8nWorkflowWarmFilesLoaded: variants.n8nWorkflowWarm[0].filesLoaded,
		modules: variants.cold[0].modules,
		node: process.version,
	};
}

// ---------------------------------------------------------------------------------------------
// report

function verdict(name, value) {
	const t = TARGETS[name];
	if (value === null || value === undefined) return 'n/a';
	return (t.op === '>=' ? value >= t.value : value <= t.value) ? 'met' : 'missed';
}

function figuresTable(result) {
	const rows = Object.keys(TARGETS).map((name) => ({
		name,
		value: result[name],
		target: `${TARGETS[name].op} ${TARGETS[name].value}`,
		verdict: verdict(name, result[name]),
	}));
	return rows;
}

function markdown(result, rows) {
	const m = result.measurements;
	const lines = [
		`Measured ${result.date} on ${result.machine.cpuModel} x${result.machine.cpus}, ${result.machine.totalMemGiB} GiB, ` +
			`n8n ${result.n8n_version} on Node ${result.n8n_node_version}; bench process Node ${result.node_version}; ` +
			`sandbox latency ${result.latency_ms} ms, ${result.items} items.`,
		'',
		'| figure | value | target | |',
		'| --- | --- | --- | --- |',
		...rows.map((r) => `| \`${r.name}\` | ${r.value} | ${r.target} | ${r.verdict} |`),
		'',
		'| run | items | items/s | ms/item | CPU ms/item |',
		'| --- | --- | --- | --- | --- |',
		...Object.values(m.runs).map(
			(r) =>
				`| ${r.label} | ${r.items} | ${r.itemsPerSec} | ${r.msPerItem} | ${r.cpuMsPerItem ?? ''} |`,
		),
	];
	return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------

async function main() {
	const watchdog = setTimeout(async () => {
		log(`giving up after ${TOTAL_TIMEOUT_MS / 1000} s`);
		await stopAll(3000);
		process.exit(1);
	}, TOTAL_TIMEOUT_MS);
	watchdog.unref();

	const loadAvgAtStart = os.loadavg().map((x) => round(x, 2));
	const work = tempDir('callkaro-bench-');
	const userFolder = path.join(work, 'n8n-user');
	log(`work folder ${work}`);
	let tarball = TARBALL;
	if (tarball) log(`package: ${tarball}`);
	else {
		if (!opts['skip-build']) await buildPackage({ log });
		({ tarball } = await packPackage({ outDir: work, log }));
	}
	const host = await ensureN8n({ log });
	await installCommunityPackage({ tarball, userFolder, log });
	const n8nNodeVersion = await output(host.nodeBin, ['--version']);

	const { startSandbox, DEMO_API_KEY } = await import(
		pathToFileURL(path.join(PROJECT_ROOT, 'test', 'sandbox', 'sandbox.mjs')).href
	);
	const sandboxOptions = { port: 0, host: '127.0.0.1', runDurationMs: 0, requestLogLimit: 100 };
	const sandbox25 = await startSandbox({ ...sandboxOptions, latencyMs: LATENCY_MS });
	const sandbox0 = await startSandbox({ ...sandboxOptions, latencyMs: 0 });
	log(`sandboxes (in this process): ${sandbox25.url} (${LATENCY_MS} ms), ${sandbox0.url} (0 ms)`);

	const env = n8nEnv({ userFolder, port: await freePort(), brokerPort: await freePort() });
	const ctx = { env, work, sandbox25, sandbox0, apiKey: DEMO_API_KEY };
	try {
		// credentials (clear data: import:credentials encrypts it)
		const cred = {
			ours25: { id: 'CkBenchCred25ms1', name: `CallKaro Sandbox ${LATENCY_MS} ms` },
			ours0: { id: 'CkBenchCred00ms1', name: 'CallKaro Sandbox 0 ms' },
			header: { id: 'CkBenchHeaderAu1', name: 'CallKaro X-API-KEY (Header Auth)' },
		};
		const credFile = path.join(work, 'credentials.json');
		fs.writeFileSync(
			credFile,
			JSON.stringify([
				{
					...cred.ours25,
					type: 'callKaroApi',
					data: { apiKey: DEMO_API_KEY, baseUrl: sandbox25.url },
				},
				{
					...cred.ours0,
					type: 'callKaroApi',
					data: { apiKey: DEMO_API_KEY, baseUrl: sandbox0.url },
				},
				{
					...cred.header,
					type: 'httpHeaderAuth',
					data: { name: 'X-API-KEY', value: DEMO_API_KEY },
				},
			]),
		);
		log('n8n import:credentials ...');
		let r = await runN8n(['import:credentials', `--input=${credFile}`], {
			env,
			timeoutMs: 180_000,
		});
		if (r.code !== 0 || !/Successfully imported 3 credentials/.test(r.stdout))
			throw new Error(describeFailure(r));

		// scenarios; code = the number prefix, distinct per scenario
		const scenarios = [];
		let nextCode = 10;
		const add = (s) => {
			const code = nextCode++;
			const id = `CkBench${String(code).padStart(2, '0')}${s.key}`
				.replace(/[^A-Za-z0-9]/g, '')
				.padEnd(16, '0')
				.slice(0, 16);
			const sandbox = s.latencyMs === 0 ? sandbox0 : sandbox25;
			const target =
				s.kind === 'ours'
					? ourNode({
							concurrency: s.concurrency,
							credential: s.latencyMs === 0 ? cred.ours0 : cred.ours25,
						})
					: httpNode({
							url: `${sandbox.url}/workflow/assign`,
							apiKey: DEMO_API_KEY,
							credential: s.auth === 'plain header' ? null : cred.header,
						});
			const scenario = { ...s, code, id, label: s.label };
			scenario.workflow = workflow({ id, name: `bench ${s.label}`, items: s.items, code, target });
			scenarios.push(scenario);
			return scenario;
		};
		// key, node, items, latency (ms); the HTTP Request node uses the header-auth credential
		// unless it is `plain`, and ours runs at Concurrency CONCURRENCY unless told otherwise
		const HA = 'header-auth credential';
		const [C, L, C10] = [CONCURRENCY, LATENCY_MS, CONCURRENCY_VS_RAW];
		const S = {};
		for (const [key, kind, items, latencyMs, label, concurrency = C] of [
			['ours', 'ours', ITEMS, L, `ours C${C}, ${L} ms`],
			['http', 'http', ITEMS, L, `HTTP Request (credential), ${L} ms`],
			['ours10', 'ours', ITEMS, L, `ours C${C10}, ${L} ms`, C10],
			['ours1', 'ours', SEQ_ITEMS, L, `ours C1, ${L} ms`, 1],
			...(PLAIN_HEADER
				? [['httpPlain', 'plain', ITEMS, L, `HTTP Request (plain header), ${L} ms`]]
				: []),
			['cpuOursBase', 'ours', 1, 0, `ours C${C}, 0 ms, 1 item`],
			['cpuHttpBase', 'http', 1, 0, 'HTTP Request (credential), 0 ms, 1 item'],
			['cpuOurs', 'ours', ITEMS, 0, `ours C${C}, 0 ms`],
			['cpuHttp', 'http', ITEMS, 0, 'HTTP Request (credential), 0 ms'],
			['memOursBase', 'ours', 1, L, `ours C${C}, ${L} ms, 1 item`],
			['memHttpBase', 'http', 1, L, `HTTP Request (credential), ${L} ms, 1 item`],
			['memOurs', 'ours', MEM_ITEMS, L, `ours C${C}, ${L} ms, ${MEM_ITEMS} items`],
			['memHttp', 'http', MEM_ITEMS, L, `HTTP Request (credential), ${L} ms, ${MEM_ITEMS} items`],
		]) {
			S[key] =
				kind === 'ours'
					? add({ key, kind, items, latencyMs, label, concurrency })
					: add({
							key,
							kind: 'http',
							auth: kind === 'plain' ? 'plain header' : HA,
							items,
							latencyMs,
							label,
						});
		}
		S.httpPlain ??= null;
		const rawCode = nextCode++;
		const wfFile = path.join(work, 'workflows.json');
		fs.writeFileSync(wfFile, JSON.stringify(scenarios.map((s) => s.workflow)));
		log(`n8n import:workflow (${scenarios.length} workflows) ...`);
		r = await runN8n(['import:workflow', `--input=${wfFile}`], { env, timeoutMs: 180_000 });
		if (r.code !== 0) throw new Error(describeFailure(r));

		const runs = {};
		const run = async (key) => {
			runs[key] = await runScenario(ctx, S[key]);
			return runs[key];
		};
		log(
			`throughput at ${LATENCY_MS} ms latency, ${ITEMS} items (items/s from each node's own executionTime):`,
		);
		await run('ours');
		await run('http');
		log(`CPU at 0 ms latency (process CPU of n8n execute, minus the 1-item run):`);
		await run('cpuOursBase');
		await run('cpuHttpBase');
		await run('cpuOurs');
		await run('cpuHttp');
		log(
			`latency-bound: Concurrency ${CONCURRENCY_VS_RAW} vs a raw undici client, and vs Concurrency 1 (${SEQ_ITEMS} items):`,
		);
		await run('ours10');
		runs.raw = await runRaw(ctx, {
			items: ITEMS,
			concurrency: CONCURRENCY_VS_RAW,
			code: rawCode,
			latencyMs: LATENCY_MS,
		});
		await run('ours1');
		if (S.httpPlain) {
			log('extra: the HTTP Request node with the key as a plain header (no credential):');
			await run('httpPlain');
		}
		log(
			`memory: ${MEM_ITEMS} items at ${LATENCY_MS} ms (peak RSS of n8n execute, minus the 1-item run):`,
		);
		await run('memOursBase');
		await run('memHttpBase');
		await run('memOurs');
		await run('memHttp');
		log('cold require of every node and credential module from dist/ (5 fresh processes each):');
		const cold = await coldRequire(5);
		log(
			`  all cold: median ${cold.medianMs} ms ${JSON.stringify(cold.runsMs)}; with n8n-workflow already loaded: median ${cold.n8nWorkflowWarmMedianMs} ms`,
		);

		// CPU per item: (CPU of the N-item run - CPU of the 1-item run) / N
		const cpuPerItem = (big, base) => (big.processCpuMs - base.processCpuMs) / big.items;
		const cpuOurs = cpuPerItem(runs.cpuOurs, runs.cpuOursBase);
		const cpuHttp = cpuPerItem(runs.cpuHttp, runs.cpuHttpBase);
		runs.cpuOurs.cpuMsPerItem = round(cpuOurs, 4);
		runs.cpuHttp.cpuMsPerItem = round(cpuHttp, 4);
		const windowCpu = (x) => x.nodeWindowCpuMs / x.items;
		const memGrowth = (big, base) => (big.peakRssKb - base.peakRssKb) / 1024;
		const memOurs = memGrowth(runs.memOurs, runs.memOursBase);
		const memHttp = memGrowth(runs.memHttp, runs.memHttpBase);

		const cpus = os.cpus();
		const result = {
			vs_http_request_node_ratio: round(runs.ours.itemsPerSec / runs.http.itemsPerSec),
			cpu_vs_http_request_node_ratio: round(cpuOurs / cpuHttp),
			assign_vs_raw_ratio: round(runs.ours10.itemsPerSec / runs.raw.itemsPerSec),
			assign_vs_sequential_ratio: round(runs.ours10.itemsPerSec / runs.ours1.itemsPerSec),
			mem_vs_http_request_node_ratio: round(memOurs / memHttp),
			cold_require_ms: cold.medianMs,
			items: ITEMS,
			concurrency: CONCURRENCY,
			latency_ms: LATENCY_MS,
			n8n_version: host.version,
			n8n_node_version: n8nNodeVersion,
			package: TARBALL ? path.basename(TARBALL) : 'the tree (built and packed)',
			node_version: process.version,
			machine: {
				cpuModel: cpus[0]?.model ?? 'unknown',
				cpus: cpus.length,
				totalMemGiB: round(os.totalmem() / 1024 ** 3, 1),
				platform: `${os.platform()} ${os.release()} ${os.arch()}`,
				loadAvgAtStart,
				loadAvgAtEnd: os.loadavg().map((x) => round(x, 2)),
			},
			date: new Date().toISOString(),
			targets: Object.fromEntries(
				Object.entries(TARGETS).map(([k, t]) => [k, `${t.op} ${t.value}`]),
			),
			verdicts: {},
			derived: {
				ours_items_per_sec: runs.ours.itemsPerSec,
				http_request_node_items_per_sec: runs.http.itemsPerSec,
				http_request_node_plain_header_items_per_sec: runs.httpPlain?.itemsPerSec ?? null,
				vs_http_request_node_plain_header_ratio: runs.httpPlain
					? round(runs.ours.itemsPerSec / runs.httpPlain.itemsPerSec)
					: null,
				ours_cpu_ms_per_item_0ms: round(cpuOurs, 4),
				http_request_node_cpu_ms_per_item_0ms: round(cpuHttp, 4),
				ours_execution_ms_per_item_0ms: runs.cpuOurs.msPerItem,
				http_request_node_execution_ms_per_item_0ms: runs.cpuHttp.msPerItem,
				ours_node_window_cpu_ms_per_item_0ms: round(windowCpu(runs.cpuOurs), 4),
				http_request_node_window_cpu_ms_per_item_0ms: round(windowCpu(runs.cpuHttp), 4),
				cpu_node_window_vs_http_request_node_ratio: round(
					windowCpu(runs.cpuOurs) / windowCpu(runs.cpuHttp),
				),
				ours_c10_items_per_sec: runs.ours10.itemsPerSec,
				raw_undici_c10_items_per_sec: runs.raw.itemsPerSec,
				latency_bound_c10_items_per_sec: round((CONCURRENCY_VS_RAW * 1000) / LATENCY_MS, 1),
				ours_c1_items_per_sec: runs.ours1.itemsPerSec,
				ours_mem_growth_mib: round(memOurs, 1),
				http_request_node_mem_growth_mib: round(memHttp, 1),
				ours_node_window_rss_growth_mib: round(
					(runs.memOurs.nodeWindowPeakRssKb - runs.memOursBase.peakRssKb) / 1024,
					1,
				),
				http_request_node_window_rss_growth_mib: round(
					(runs.memHttp.nodeWindowPeakRssKb - runs.memHttpBase.peakRssKb) / 1024,
					1,
				),
				cold_require_runs_ms: cold.runsMs,
				cold_require_files_loaded: cold.filesLoaded,
				cold_require_with_n8n_workflow_loaded_ms: cold.n8nWorkflowWarmMedianMs,
				cold_require_with_n8n_workflow_loaded_runs_ms: cold.n8nWorkflowWarmRunsMs,
				cold_require_node_version: cold.node,
			},
			notes: [
				"items/s = items / the node's own executionTime from `n8n execute --rawOutput` (not the process wall time).",
				"CPU = utime+stime of the `n8n execute` Node process (process.cpuUsage() at exit), minus the same workflow with 1 item, over the items; the Code node runs in n8n's task runner, a separate process, so it is not counted.",
				'Memory = VmHWM of the `n8n execute` Node process at exit, minus that of the same workflow with 1 item.',
				'The sandboxes and the raw client run in the bench process and share the 2 cores with n8n, for both nodes alike.',
			],
			measurements: { runs, coldRequire: cold },
		};
		const rows = figuresTable(result);
		for (const row of rows) result.verdicts[row.name] = row.verdict;

		console.log('');
		console.log('figure                              value      target    ');
		for (const row of rows)
			console.log(
				`${row.name.padEnd(34)} ${String(row.value).padStart(8)}   ${row.target.padEnd(8)}  ${row.verdict}`,
			);
		console.log('');
		console.log('raw measurements:');
		for (const [k, v] of Object.entries(result.derived))
			console.log(`  ${k.padEnd(52)} ${JSON.stringify(v)}`);
		if (JSON_FILE) {
			fs.mkdirSync(path.dirname(JSON_FILE), { recursive: true });
			fs.writeFileSync(JSON_FILE, `${JSON.stringify(result, null, 2)}\n`);
			log(`wrote ${JSON_FILE}`);
		}
		if (MD_FILE) {
			fs.writeFileSync(MD_FILE, markdown(result, rows));
			log(`wrote ${MD_FILE}`);
		}
	} finally {
		await sandbox25.close();
		await sandbox0.close();
		if (opts.keep) log(`kept ${work}`);
		else fs.rmSync(work, { recursive: true, force: true });
	}
}

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
