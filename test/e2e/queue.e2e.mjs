// npm run test:e2e -- --queue: the package in n8n's scaling mode, checked against the sandbox.
//
//   1. regular mode: one n8n process on PostgreSQL 17 takes the CallKaro Trigger's deliveries;
//   2. queue mode: main, 2 workers (Redis queue) and 1 webhook processor on the same database:
//      the CRM example through the webhook processor, 300 CRM deliveries spread over the workers,
//      the trigger's deliveries through the webhook processor, and a worker killed with SIGKILL
//      once about 60 of 200 Outbound Call deliveries have called.
// In both modes the trigger's repeat targets run on a workflow that already has stored data
// (50 distinct events twice each one after the other -> 50 executions; 20 copies at once -> 1;
// 10 distinct events twice each, all at once -> 10), the answer times of 200 deliveries,
// 50 at once, are measured (p50 / p99 / max; on version 1.1 and on version 1 of the trigger), and
// the README's Remove Duplicates recipe runs (one event twice -> 1 call; 20 copies at once reported).
//
// global-setup.mjs has built (unless --skip-build) and packed the package and installed n8n.
// Figures are logged as measured and all at the end as JSON; CALLKARO_E2E_QUEUE_JSON=FILE keeps
// them. Steps that later tests build on are once() steps, so `-t` may pick any test.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import {
	clusterCli,
	clusterEnv,
	startCluster,
	startN8nProcess,
} from '../../scripts/n8n/cluster.mjs';
import { n8nVersion } from '../../scripts/n8n/install.mjs';
import {
	activateArgs,
	credentialFile,
	ensureOwner,
	freePort,
	installCommunityPackage,
	n8nLogin,
	ownerEnv,
	secondsSince,
	stopAll,
} from '../../scripts/n8n/host.mjs';
import { queryPostgres, startPostgres, startRedis } from '../../scripts/n8n/postgres.mjs';
import {
	CREDENTIAL,
	assignWebhookWorkflow,
	cpuMs,
	executionCount,
	leadNumber,
	pool,
	postJson,
	processTree,
	sandboxState,
	settle,
	waitForPublished,
	webhookNode,
	workflow,
} from '../../scripts/n8n/webhook-load.mjs';
import { DEMO_API_KEY, startSandbox } from '../sandbox/sandbox.mjs';
import { callEndedEvent } from '../support/callEnded.ts';
import { OWNER, once, packed, percentile, readExample } from './harness.mjs';
// the lock's row and bounds as the package computes them (dist: the e2e runs the built package)
import { DEFAULT_GUARD_TIMING } from '../../dist/src/guard/guard.js';
import { lockDurations, plainRowElements, plainRowSize } from '../../dist/src/guard/guardLock.js';

// no step has a fixed length on a shared machine: 200 deliveries at 50 at once took 30 s a
// delivery at a load of 20
import.meta.jest.setTimeout(10 * 60_000);

const t0 = Date.now();
const log = (m) => process.stdout.write(`[e2e-queue ${secondsSince(t0).padStart(6)}] ${m}\n`);
const figures = {};

// ---------------------------------------------------------------------------------------------
// the workflows under test

const TRIGGER_WORKFLOW = 'ckQueueTrigger01';
const TRIGGER_WEBHOOK_ID = 'c0ffee00-0000-4000-8000-00000000a001';
const TRIGGER_V1_WORKFLOW = 'ckQueueTrigV1001';
const TRIGGER_V1_WEBHOOK_ID = 'c0ffee00-0000-4000-8000-00000000a003';
const DEDUPE_WORKFLOW = 'ckQueueDedupe001';
const DEDUPE_WEBHOOK_ID = 'c0ffee00-0000-4000-8000-00000000a002';
const ASSIGN_WORKFLOW = 'ckQueueAssign001';
const OUTBOUND_WORKFLOW = 'ckQueueOutbnd001';
// the guard's lock across workers (issue 26): one workflow per check, so that each starts fresh
const LOCK_WORKFLOW = 'ckQueueLock00001';
const FIRST_WORKFLOW = 'ckQueueFirst0001';
const SHARED_WORKFLOW = 'ckQueueShared001';
const TIMED_ON_WORKFLOW = 'ckQueueTimedOn01';
const TIMED_OFF_WORKFLOW = 'ckQueueTimedOf01';
// the guard's lock through faults injected in PostgreSQL (issue 31)
const FAULT_WORKFLOW = 'ckQueueFaults001';

/** A CallKaro Trigger on a fixed webhook id. */
const triggerNode = (typeVersion, webhookId, parameters = {}) => ({
	name: 'CallKaro Trigger',
	type: 'n8n-nodes-callkaro.callKaroTrigger',
	typeVersion,
	webhookId,
	parameters,
});
const noOp = { name: 'Next', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };

/** Outbound Call with the sandbox's agent; `parameters` adds the phone and what differs. */
const outboundCallNode = (parameters) => ({
	name: 'CallKaro Outbound Call',
	type: 'n8n-nodes-callkaro.callKaroOutboundCall',
	typeVersion: 1,
	credentials: CREDENTIAL,
	parameters: { agentId: 'agent_sales_01', options: { defaultCountryCode: '91' }, ...parameters },
});

/** A webhook that answers when the workflow has finished, for the guard's cost. */
const answerAtEnd = (pathName) => {
	const hook = webhookNode(pathName);
	return { ...hook, parameters: { ...hook.parameters, responseMode: 'lastNode' } };
};

const crm = readExample('crm-to-assign-workflow.json');
/** Outbound Call with Skip Numbers Called Before, on the phone of each delivery's body. */
const GUARDED_CALL = outboundCallNode({ phoneNumber: '={{ $json.body.phone }}', skipBefore: true });

const WORKFLOWS = [
	workflow(TRIGGER_WORKFLOW, 'Queue e2e: CallKaro Trigger', [
		triggerNode(1.1, TRIGGER_WEBHOOK_ID),
		noOp,
	]),
	workflow(TRIGGER_V1_WORKFLOW, 'Queue e2e: CallKaro Trigger version 1', [
		triggerNode(1, TRIGGER_V1_WEBHOOK_ID),
		noOp,
	]),
	// the README's recipe for several webhook processors. Keep Repeated Deliveries is on, so that
	// every delivery starts an execution, as a repeat that reached another processor would.
	workflow(DEDUPE_WORKFLOW, 'Queue e2e: CallKaro Trigger, Remove Duplicates on callId', [
		triggerNode(1.1, DEDUPE_WEBHOOK_ID, { options: { keepRepeats: true } }),
		{
			name: 'Remove Duplicates',
			type: 'n8n-nodes-base.removeDuplicates',
			typeVersion: 2,
			parameters: {
				operation: 'removeItemsSeenInPreviousExecutions',
				logic: 'removeItemsWithAlreadySeenKeyValues',
				dedupeValue: '={{ $json.callId }}',
				options: {},
			},
		},
		outboundCallNode({ phoneNumber: '={{ $json.to }}' }),
	]),
	assignWebhookWorkflow({
		id: ASSIGN_WORKFLOW,
		name: 'Queue e2e: Webhook to Assign Workflow',
		pathName: 'callkaro-queue-assign',
	}),
	workflow(OUTBOUND_WORKFLOW, 'Queue e2e: Webhook to Outbound Call (Skip Numbers Called Before)', [
		webhookNode('callkaro-queue-outbound'),
		GUARDED_CALL,
	]),
	workflow(LOCK_WORKFLOW, 'Queue e2e: the guard under load', [
		webhookNode('ck-lock-rounds'),
		GUARDED_CALL,
	]),
	workflow(FAULT_WORKFLOW, 'Queue e2e: the guard through faults in PostgreSQL', [
		webhookNode('ck-lock-faults'),
		GUARDED_CALL,
	]),
	workflow(FIRST_WORKFLOW, 'Queue e2e: the guard, a history created by two workers', [
		webhookNode('ck-first-history-two'),
		GUARDED_CALL,
	]),
	workflow(SHARED_WORKFLOW, 'Queue e2e: the guard after Remove Duplicates with Scope Workflow', [
		webhookNode('ck-shared-workflow-row-3'),
		{
			name: 'Remove Duplicates',
			type: 'n8n-nodes-base.removeDuplicates',
			typeVersion: 2,
			parameters: {
				operation: 'removeItemsSeenInPreviousExecutions',
				logic: 'removeItemsWithAlreadySeenKeyValues',
				dedupeValue: '={{ $json.body.phone }}',
				options: { scope: 'workflow' },
			},
		},
		GUARDED_CALL,
	]),
	workflow(TIMED_ON_WORKFLOW, 'Queue e2e: guard on, answered at the end', [
		answerAtEnd('ck-timed-on'),
		GUARDED_CALL,
	]),
	workflow(TIMED_OFF_WORKFLOW, 'Queue e2e: guard off, answered at the end', [
		answerAtEnd('ck-timed-guard-off'),
		outboundCallNode({ phoneNumber: '={{ $json.body.phone }}' }),
	]),
];

const callEnded = (callSid, to) => callEndedEvent({ callSid, ...(to ? { to } : {}) });

// ---------------------------------------------------------------------------------------------
// what both modes share: PostgreSQL, Redis, the sandbox, one user folder and its database

/** { work, userFolder, sandbox, pg, redis, queueEnv } */
const run = {};
const callsTo = async (phone) =>
	(await sandboxState(run.sandbox)).calls.filter((c) => `+${c.number}` === phone).length;

beforeAll(async () => {
	run.version = n8nVersion();
	log(`n8n ${run.version}: regular mode, then queue mode, on PostgreSQL 17 and Redis`);
	const { work: root, tarball } = packed();
	const work = (run.work = fs.mkdtempSync(path.join(root, 'queue-')));
	const userFolder = (run.userFolder = path.join(work, 'user'));
	await installCommunityPackage({ tarball, userFolder, log });
	run.sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
	const pg = (run.pg = await startPostgres({
		name: `e2e-${process.pid}`,
		port: await freePort(),
		logFile: path.join(work, 'postgres.log'),
	}));
	const redis = (run.redis = await startRedis({
		port: await freePort(),
		logFile: path.join(work, 'redis.log'),
	}));
	log(
		`sandbox ${run.sandbox.url}; PostgreSQL ${pg.version.split('-')[0]} :${pg.port}; Redis ${redis.version} :${redis.port}`,
	);
	// the database: credential, the CRM example and the workflows under test, published
	const env = (run.queueEnv = clusterEnv({ pg, redis, extra: ownerEnv(OWNER) }));
	const cred = path.join(work, 'credential.json');
	const credential = credentialFile({ baseUrl: run.sandbox.url, apiKey: DEMO_API_KEY });
	fs.writeFileSync(cred, JSON.stringify(credential));
	await clusterCli(['import:credentials', `--input=${cred}`], { userFolder, env });
	const wfFile = path.join(work, 'workflows.json');
	fs.writeFileSync(wfFile, JSON.stringify([crm, ...WORKFLOWS]));
	await clusterCli(['import:workflow', `--input=${wfFile}`], { userFolder, env });
	for (const wf of [crm, ...WORKFLOWS]) await clusterCli(activateArgs(wf.id), { userFolder, env });
	log(`imported and published ${[crm, ...WORKFLOWS].map((w) => w.name).join(', ')}`);
});

afterAll(async () => {
	await run.sandbox?.close();
	await run.redis?.stop();
	await run.pg?.stop();
	if (run.pg) fs.rmSync(run.pg.dataDir, { recursive: true, force: true });
	if (figures.queue_spread && figures.regular_spread) {
		figures.queue_vs_regular_ratio_2_workers = Number(
			(figures.queue_spread.executions_per_s / figures.regular_spread.executions_per_s).toFixed(2),
		);
	}
	const report = JSON.stringify({ n8n: run.version, figures }, null, 2);
	if (process.env.CALLKARO_E2E_QUEUE_JSON)
		fs.writeFileSync(process.env.CALLKARO_E2E_QUEUE_JSON, report);
	log(`figures:\n${report}`);
	await stopAll(5000);
});

// ---------------------------------------------------------------------------------------------
// the steps each mode runs; `ctx` is { mode, main, cookie, hooks (where production webhooks
// arrive: main in regular mode, the webhook processor in queue mode), cluster (queue mode) }

/** The trigger's repeat targets and answer times, on a workflow that already has stored data. */
function triggerTests(ctx) {
	const prefix = `${ctx.mode}-${Date.now()}`;
	const url = (webhookId) => `${ctx.hooks}/webhook/${webhookId}/webhook`;
	const seed = once(async () => {
		const before = await executionCount(ctx.main, ctx.cookie, TRIGGER_WORKFLOW);
		const answer = await postJson(url(TRIGGER_WEBHOOK_ID), callEnded(`${prefix}-seed`));
		await settle(ctx.main, ctx.cookie, TRIGGER_WORKFLOW, before + 1);
		return answer;
	});

	test('a delivery that starts the workflow is answered 200 { "message": "Workflow was started" }', async () => {
		const answer = await seed();
		expect([answer.status, answer.json?.message]).toEqual([200, 'Workflow was started']);
	});

	const post = (id) => postJson(url(TRIGGER_WEBHOOK_ID), callEnded(`${prefix}-${id}`));
	test.each([
		[
			'50 distinct events, each twice one after the other',
			50,
			async () => {
				for (let i = 0; i < 50; i++) {
					await post(`seq-${i}`);
					await post(`seq-${i}`);
				}
			},
		],
		[
			'20 copies of one event at once',
			1,
			() => Promise.all(Array.from({ length: 20 }, () => post('copy'))),
		],
		[
			'10 distinct events twice each, all at once',
			10,
			() => Promise.all([...Array(10).keys(), ...Array(10).keys()].map((i) => post(`burst-${i}`))),
		],
	])('trigger: %s -> %i execution(s)', async (name, wanted, deliver) => {
		await seed();
		const before = await executionCount(ctx.main, ctx.cookie, TRIGGER_WORKFLOW);
		await deliver();
		await settle(ctx.main, ctx.cookie, TRIGGER_WORKFLOW, before + wanted, 120_000);
		await sleep(2000); // a little longer, so that executions beyond the wanted ones would show
		const got =
			(await settle(ctx.main, ctx.cookie, TRIGGER_WORKFLOW, before + wanted, 60_000)) - before;
		figures[`${ctx.mode}_${name}`] = got;
		log(`${ctx.mode}: ${name} -> ${got} executions (want ${wanted})`);
		expect(got).toBe(wanted);
	});

	// Measured, not asserted: on a busy 2-core machine the times say more about the machine than
	// about the package. Version 1 (saved workflows): n8n 2.x spends more per delivery on it.
	test.each([
		['1.1', 'trigger', TRIGGER_WORKFLOW, TRIGGER_WEBHOOK_ID],
		['1', 'trigger_v1', TRIGGER_V1_WORKFLOW, TRIGGER_V1_WEBHOOK_ID],
	])(
		'trigger version %s: answer times of 200 deliveries, 50 at once (p50 / p99 / max, measured)',
		async (_version, name, workflowId, webhookId) => {
			const before = await executionCount(ctx.main, ctx.cookie, workflowId);
			const load = os.loadavg()[0];
			const ids = Array.from({ length: 200 }, (_v, i) => `${prefix}-${name}-load-${i}`);
			const answers = await pool(ids, 50, (id) => postJson(url(webhookId), callEnded(id)));
			const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
			const times = {
				p50_ms: percentile(ms, 50),
				p99_ms: percentile(ms, 99),
				max_ms: Math.round(ms.at(-1)),
				load_average_1min: [Number(load.toFixed(1)), Number(os.loadavg()[0].toFixed(1))],
				not_200: answers
					.filter((a) => a.status !== 200)
					.map((a) => `${a.status} ${a.text}`.slice(0, 80)),
			};
			figures[`${ctx.mode}_${name}_answer_200_at_50`] = times;
			log(`${ctx.mode}: ${name}, 200 deliveries, 50 at once: ${JSON.stringify(times)}`);
			const started = answers.filter((a) => a.status === 200).length;
			await settle(ctx.main, ctx.cookie, workflowId, before + started);
		},
	);
}

/**
 * The README's recipe for several webhook processors: n8n's Remove Duplicates node on callId
 * right after the trigger. One event delivered twice one after the other must place 1 call
 * (sandbox state); 20 copies at once are reported.
 */
function removeDuplicatesTest(ctx, firstLead) {
	test('Remove Duplicates on callId after the trigger (Keep Repeated Deliveries on): one event twice -> 1 call; 20 copies at once reported', async () => {
		const { main, cookie } = ctx;
		const url = `${ctx.hooks}/webhook/${DEDUPE_WEBHOOK_ID}/webhook`;
		const prefix = `${ctx.mode}-${Date.now()}-dedupe`;
		const before = await executionCount(main, cookie, DEDUPE_WORKFLOW);
		const failedBefore = await executionCount(main, cookie, DEDUPE_WORKFLOW, ['error', 'crashed']);
		const sequential = leadNumber(firstLead, 0);
		// the second once the first execution has finished: in queue mode an answered delivery is
		// only queued, and two executions running side by side are not what the recipe promises
		for (let i = 1; i <= 2; i++) {
			await postJson(url, callEnded(`${prefix}-seq`, sequential));
			await settle(main, cookie, DEDUPE_WORKFLOW, before + i);
		}
		const together = leadNumber(firstLead, 1);
		const answers = await Promise.all(
			Array.from({ length: 20 }, () => postJson(url, callEnded(`${prefix}-together`, together))),
		);
		const executions = (await settle(main, cookie, DEDUPE_WORKFLOW, before + 22)) - before;
		const result = {
			executions,
			failed:
				(await executionCount(main, cookie, DEDUPE_WORKFLOW, ['error', 'crashed'])) - failedBefore,
			sequential_2_calls: await callsTo(sequential),
			concurrent_20_answered_200: answers.filter((a) => a.status === 200).length,
			concurrent_20_calls: await callsTo(together),
		};
		figures[`${ctx.mode}_remove_duplicates`] = result;
		log(`${ctx.mode}: Remove Duplicates: ${JSON.stringify(result)}`);
		expect(result).toMatchObject({ sequential_2_calls: 1, executions: 22, failed: 0 });
		expect(result.concurrent_20_calls).toBeGreaterThanOrEqual(1);
	});
}

/** Execution ids each worker ran, from its log ("Worker started execution N"). */
const executionsByWorker = (cluster) =>
	Object.fromEntries(
		cluster.workers.map((w) => [
			w.name,
			[...w.output().matchAll(/Worker started execution (\d+)/g)].map((m) => m[1]),
		]),
	);

/**
 * 300 CRM-style deliveries (distinct leads, 20 at a time) to "Webhook -> Assign Workflow": the
 * sandbox must show 300 enrolments and no number twice, n8n 0 failed executions (and in queue
 * mode, executions on both workers). Measures the executions per second and the CPU each role used
 * per execution.
 */
function spreadTest(ctx, firstLead) {
	test('300 CRM deliveries, 20 at a time: 300 enrolments, no number twice, 0 failed', async () => {
		const { main, cookie, cluster } = ctx;
		const before = await executionCount(main, cookie, ASSIGN_WORKFLOW);
		const failedBefore = await executionCount(main, cookie, ASSIGN_WORKFLOW, ['error', 'crashed']);
		const spreadStart = cluster ? executionsByWorker(cluster) : null;
		const pids = {
			main: [main.pid],
			...(cluster && {
				webhook_processor: [cluster.webhook.pid],
				...Object.fromEntries(cluster.workers.map((w) => [w.name, [w.pid]])),
			}),
			postgres: processTree(run.pg.child.pid),
			redis: cluster ? [run.redis.child.pid] : [],
		};
		const cpuBefore = Object.fromEntries(Object.entries(pids).map(([r, p]) => [r, cpuMs(p)]));
		const selfBefore = process.cpuUsage();
		const leads = Array.from({ length: 300 }, (_v, i) => leadNumber(firstLead, i));
		const tSpread = Date.now();
		const hook = `${ctx.hooks}/webhook/callkaro-queue-assign`;
		const answers = await pool(leads, 20, (phone) => postJson(hook, { phone }));
		const total = (await settle(main, cookie, ASSIGN_WORKFLOW, before + 300)) - before;
		const spreadSeconds = (Date.now() - tSpread) / 1000;
		const self = process.cpuUsage(selfBefore);
		const perExecution = (ms) => Number((ms / 300).toFixed(2));
		const cpu = Object.fromEntries(
			Object.entries(pids).map(([r, p]) => [r, perExecution(cpuMs(p) - cpuBefore[r])]),
		);
		cpu.sandbox_and_load_generator = perExecution((self.user + self.system) / 1000);
		const enrolled = (await sandboxState(run.sandbox)).runs.filter((r) =>
			leads.includes(`+${r.number}`),
		);
		const perNumber = new Map();
		for (const r of enrolled) perNumber.set(r.number, (perNumber.get(r.number) ?? 0) + 1);
		const byWorker = cluster && executionsByWorker(cluster);
		const result = {
			answered_200: answers.filter((a) => a.status === 200).length,
			executions: total,
			failed:
				(await executionCount(main, cookie, ASSIGN_WORKFLOW, ['error', 'crashed'])) - failedBefore,
			enrolments: enrolled.length,
			numbers_enrolled_twice: [...perNumber.values()].filter((n) => n > 1).length,
			...(cluster && {
				by_worker: Object.fromEntries(
					Object.entries(byWorker).map(([w, ids]) => [w, ids.length - spreadStart[w].length]),
				),
			}),
			executions_per_s: Number((300 / spreadSeconds).toFixed(1)),
			cpu_ms_per_execution: cpu,
		};
		figures[`${ctx.mode}_spread`] = result;
		log(`${ctx.mode}: 300 CRM deliveries, 20 at a time: ${JSON.stringify(result)}`);
		expect(result).toMatchObject({ enrolments: 300, numbers_enrolled_twice: 0, failed: 0 });
		if (cluster) expect(Object.values(result.by_worker).every((n) => n > 0)).toBe(true);
	});
}

// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// the guard's lock across processes (issue 26)

/** Runs SQL on the run's PostgreSQL (n8n's processed_data table, and the faults injected in it). */
const processedData = async (sql, params = []) => await queryPostgres(run.pg, sql, params);
/** The number of entries in a row: the guard's history (`n:<node id>`) or the workflow-wide row (''). */
const entries = async (workflowId, context) => {
	const [row] = await processedData(
		'SELECT value FROM processed_data WHERE "workflowId" = $1 AND context = $2',
		[workflowId, context],
	);
	const value = typeof row?.value === 'string' ? JSON.parse(row.value) : row?.value;
	return Array.isArray(value?.data) ? value.data.length : null;
};
/**
 * The executions of a workflow after `afterId` that did not finish well, by status and the error
 * they show (read from n8n's own tables): what a failed fault test prints.
 */
const unfinished = async (workflowId, afterId) => {
	const rows = await processedData(
		`SELECT e.status, d.data FROM execution_entity e LEFT JOIN execution_data d ON d."executionId" = e.id
		WHERE e."workflowId" = $1 AND e.id > $2 AND e.status NOT IN ('success')`,
		[workflowId, afterId],
	);
	const tally = {};
	for (const { status, data } of rows) {
		// n8n keeps execution data flattened: a JSON array whose strings include the error's message
		const strings = (() => {
			try {
				return JSON.parse(data ?? '[]').filter((v) => typeof v === 'string');
			} catch {
				return [];
			}
		})();
		const message = strings.find((v) => /cannot work|did not answer|too late|failed|Error/.test(v));
		const key = `${status}: ${message ?? '(no message)'}`;
		tally[key] = (tally[key] ?? 0) + 1;
	}
	return tally;
};
const lastExecutionId = async () =>
	Number((await processedData('SELECT max(id)::int AS id FROM execution_entity'))[0]?.id ?? 0);
const callsPer = async (phones) => {
	const calls = (await sandboxState(run.sandbox)).calls;
	return phones.map((phone) => calls.filter((c) => `+${c.number}` === phone).length);
};

/** What a worker killed while holding the lock leaves: the row its create wrote, as n8n stores it. */
async function plantDeadHoldersLock(workflowId) {
	const hashes = plainRowElements(Date.now(), DEFAULT_GUARD_TIMING).map((element) =>
		createHash('md5').update(element).digest('base64'),
	);
	const value = JSON.stringify({ mode: 'latestIncrementalKey', data: hashes });
	await processedData(
		'INSERT INTO processed_data ("workflowId", context, value) VALUES ($1, \'\', $2)',
		[workflowId, value],
	);
}
/**
 * docs/running-at-scale.md ("The lock"): a lock left by a dead holder delays the next execution by
 * at most `recovery`; one whose election stalled too (a delete refused) by `recoveryAfterStall`.
 */
const {
	recovery: LOCK_RECOVERY_MS,
	recoveryAfterStall: LOCK_RECOVERY_AFTER_STALL_MS,
	deadAge,
	slot,
	electionStall: LOCK_ELECTION_STALL_MS,
} = lockDurations(DEFAULT_GUARD_TIMING);
/** A row of fewer elements than a plain row of the first slot holds an election's value. */
const SMALLEST_PLAIN_ROW = plainRowSize(0, DEFAULT_GUARD_TIMING);
/** A planted row is left once its slot is deadAge old: its slot began up to a slot before it. */
const LOCK_LEFT_AFTER_MS = deadAge - slot;

/**
 * The guard through faults injected in PostgreSQL itself, with 3 workers: a lock row planted as a
 * killed holder leaves it, a BEFORE DELETE trigger that refuses to delete the lock row for 15 s and
 * for 60 s, and a pg_sleep that stalls a holder's history write 12 s (past the stale timeout).
 */
function guardFaultTests(ctx) {
	const deliver = (phone) => postJson(`${ctx.hooks}/webhook/ck-lock-faults`, { phone });
	/** Waits until each number has a call, or `timeoutMs`; returns how long after `since` that was. */
	const calledBy = async (phones, since, timeoutMs) => {
		for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(250)) {
			if ((await callsPer(phones)).every((n) => n > 0)) return Date.now() - since;
		}
		return null;
	};
	const failedExecutions = () =>
		executionCount(ctx.main, ctx.cookie, FAULT_WORKFLOW, ['error', 'crashed']);
	const outcome = async (phones) => {
		const calls = await callsPer(phones);
		return {
			numbers: phones.length,
			called_once: calls.filter((n) => n === 1).length,
			called_twice: calls.filter((n) => n > 1).length,
			never_called: calls.filter((n) => n === 0).length,
		};
	};

	/**
	 * Until every number of `all` has a call or `deadline`: when the first of `first` (among `all`)
	 * and when all were called (ms after `since`), and whether an election over the lock row stalled
	 * (its value unchanged for electionStall: the lock is then rescued, as docs/running-at-scale.md
	 * says).
	 */
	const watchCalls = async (first, all, since, deadline) => {
		const watched = {
			firstCall: null,
			allCalled: null,
			electionStalled: false,
			electionValues: [],
		};
		let last;
		let unchangedSince = Date.now();
		for (; Date.now() < deadline; await sleep(250)) {
			const size = await entries(FAULT_WORKFLOW, '');
			const election = size > 0 && size < SMALLEST_PLAIN_ROW;
			if (size !== last) {
				last = size;
				unchangedSince = Date.now();
				if (election) watched.electionValues.push(size);
			} else if (election && Date.now() - unchangedSince >= LOCK_ELECTION_STALL_MS) {
				watched.electionStalled = true;
			}
			const calls = await callsPer(all);
			if (watched.firstCall === null && first.some((phone) => calls[all.indexOf(phone)] > 0)) {
				watched.firstCall = Date.now() - since;
			}
			if (calls.every((n) => n > 0)) {
				watched.allCalled = Date.now() - since;
				break;
			}
		}
		return watched;
	};

	test("3 workers: a dead holder's lock row, then 120 leads and 20 copies of one lead at once -> each called once, after an election removed it", async () => {
		const before = await executionCount(ctx.main, ctx.cookie, FAULT_WORKFLOW);
		const failedBefore = await failedExecutions();
		const lastBefore = await lastExecutionId();
		await plantDeadHoldersLock(FAULT_WORKFLOW);
		const phones = Array.from({ length: 120 }, (_v, i) => leadNumber(48_000_000, i));
		const repeated = leadNumber(48_000_000, 500);
		const started = Date.now();
		const answers = await Promise.all([
			...phones.map(deliver),
			...Array.from({ length: 20 }, () => deliver(repeated)),
		]);
		// as long as the docs' bound for a lock left behind whose election stalled too
		const watched = await watchCalls(
			[repeated],
			[...phones, repeated],
			started,
			started + LOCK_RECOVERY_AFTER_STALL_MS + 30_000,
		);
		await settle(ctx.main, ctx.cookie, FAULT_WORKFLOW, before + 140);
		const result = (figures.queue_fault_dead_holder = {
			...(await outcome([...phones, repeated])),
			first_call_after_ms: watched.firstCall,
			all_called_after_ms: watched.allCalled,
			election_stalled: watched.electionStalled,
			election_values_seen: watched.electionValues,
			failed_executions: (await failedExecutions()) - failedBefore,
			lock_left_behind: (await entries(FAULT_WORKFLOW, '')) !== null,
			not_succeeded: await unfinished(FAULT_WORKFLOW, lastBefore),
			deliveries_not_accepted: answers.filter((answer) => answer.status !== 200).length,
		});
		log(`queue, 3 workers: a dead holder's lock, then 140 deliveries: ${JSON.stringify(result)}`);
		expect(result).toMatchObject({
			called_once: 121,
			called_twice: 0,
			never_called: 0,
			failed_executions: 0,
			deliveries_not_accepted: 0,
		});
		expect(result.first_call_after_ms).toBeGreaterThanOrEqual(LOCK_LEFT_AFTER_MS);
		// docs/running-at-scale.md: within recovery, or, when the election over the row stalled (a
		// lock call slower than the timing assumption allows, on a busy machine), once it is rescued
		expect(result.all_called_after_ms).toBeLessThan(
			(result.election_stalled ? LOCK_RECOVERY_AFTER_STALL_MS : LOCK_RECOVERY_MS) + 30_000,
		);
	}, 900_000);

	for (const faultSeconds of [15, 60]) {
		test(`3 workers: the lock row cannot be deleted for ${faultSeconds} s -> 20 leads then 20 more, each called once; recovered after the fault, none failed (no Remove Duplicates diagnosis)`, async () => {
			const failedBefore = await failedExecutions();
			const lastBefore = await lastExecutionId();
			await processedData(`
			CREATE OR REPLACE FUNCTION ck_refuse_lock_delete() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN
				IF OLD."workflowId" = '${FAULT_WORKFLOW}' AND OLD.context = '' THEN
					RAISE EXCEPTION 'injected fault: the lock row may not be deleted';
				END IF;
				RETURN OLD;
			END $$;
			DROP TRIGGER IF EXISTS ck_refuse_lock_delete ON processed_data;
			CREATE TRIGGER ck_refuse_lock_delete BEFORE DELETE ON processed_data
				FOR EACH ROW EXECUTE FUNCTION ck_refuse_lock_delete();`);
			const base = 49_000_000 + faultSeconds * 1000;
			const during = Array.from({ length: 20 }, (_v, i) => leadNumber(base, i));
			await Promise.all(during.map(deliver));
			await sleep(faultSeconds * 1000);
			await processedData('DROP TRIGGER ck_refuse_lock_delete ON processed_data');
			const faultEnded = Date.now();
			const after = Array.from({ length: 20 }, (_v, i) => leadNumber(base, 100 + i));
			await Promise.all(after.map(deliver));
			const recovered = await calledBy(
				[...during, ...after],
				faultEnded,
				LOCK_RECOVERY_AFTER_STALL_MS + 20_000,
			);
			await settle(ctx.main, ctx.cookie, FAULT_WORKFLOW, 0);
			const result = (figures[`queue_fault_delete_refused_${faultSeconds}s`] = {
				...(await outcome([...during, ...after])),
				all_called_after_the_fault_ms: recovered,
				failed_executions: (await failedExecutions()) - failedBefore,
				lock_left_behind: (await entries(FAULT_WORKFLOW, '')) !== null,
				not_succeeded: await unfinished(FAULT_WORKFLOW, lastBefore),
			});
			log(`queue, 3 workers: DELETE refused for ${faultSeconds} s: ${JSON.stringify(result)}`);
			expect(result).toMatchObject({ called_once: 40, called_twice: 0, never_called: 0 });
			expect(result.failed_executions).toBe(0);
			expect(result.lock_left_behind).toBe(false);
			// docs/running-at-scale.md: a row left behind is cleared within recovery (78 s), 162 s
			// when an election over it stalled too (its winner's delete refused)
			expect(result.all_called_after_the_fault_ms).toBeLessThan(
				LOCK_RECOVERY_AFTER_STALL_MS + 20_000,
			);
		}, 900_000);
	}

	test('3 workers: a holder stalled 12 s in its history write (past the 8 s bound of a history call, inside its 24 s window) -> one lead delivered 10 times is called once, 10 others once each', async () => {
		const failedBefore = await failedExecutions();
		const lastBefore = await lastExecutionId();
		await processedData(`
			CREATE TABLE IF NOT EXISTS ck_stall_armed (armed boolean);
			INSERT INTO ck_stall_armed VALUES (true);
			CREATE OR REPLACE FUNCTION ck_stall_history_write() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN
				IF NEW."workflowId" = '${FAULT_WORKFLOW}' AND NEW.context <> '' THEN
					DELETE FROM ck_stall_armed;
					IF FOUND THEN PERFORM pg_sleep(12); END IF;
				END IF;
				RETURN NEW;
			END $$;
			DROP TRIGGER IF EXISTS ck_stall_history_write ON processed_data;
			CREATE TRIGGER ck_stall_history_write BEFORE INSERT OR UPDATE ON processed_data
				FOR EACH ROW EXECUTE FUNCTION ck_stall_history_write();`);
		const repeated = leadNumber(49_500_000, 0);
		const others = Array.from({ length: 10 }, (_v, i) => leadNumber(49_500_000, 1 + i));
		const started = Date.now();
		let firstCall = null;
		try {
			await deliver(repeated);
			await sleep(500);
			await Promise.all([
				...Array.from({ length: 9 }, () => deliver(repeated)),
				...others.map(deliver),
			]);
			firstCall = await calledBy([repeated], started, 120_000);
			await calledBy(others, started, 120_000);
			await settle(ctx.main, ctx.cookie, FAULT_WORKFLOW, 0);
		} finally {
			await processedData('DROP TRIGGER IF EXISTS ck_stall_history_write ON processed_data');
		}
		const result = (figures.queue_fault_stalled_holder = {
			// the holder's call goes out once its stalled write has landed
			first_call_after_ms: firstCall,
			repeated_lead_calls: (await callsPer([repeated]))[0],
			...(await outcome(others)),
			failed_executions: (await failedExecutions()) - failedBefore,
			not_succeeded: await unfinished(FAULT_WORKFLOW, lastBefore),
		});
		log(`queue, 3 workers: a holder stalled 12 s: ${JSON.stringify(result)}`);
		expect(result).toMatchObject({
			repeated_lead_calls: 1,
			called_once: 10,
			called_twice: 0,
			never_called: 0,
			failed_executions: 0,
		});
		expect(result.first_call_after_ms).toBeGreaterThanOrEqual(11_000);
	});
}

/** guard_overhead_ms: the same delivery answered at the end, guard on against off, alternating. */
function guardCostTest(ctx, base) {
	// a figure, not a timed assertion (these machines are noisy): the target is p50 <= 50 ms, p99 <= 250 ms
	test('guard_overhead_ms: a guarded execution against the same with the guard off, printed', async () => {
		// n8n's webhook processor now and then never answers a delivery whose execution succeeded
		// (seen on both lines): such a delivery is counted, and left out of the times
		const unanswered = [];
		let next = 0;
		const post = async (id) => {
			const path_ = id === TIMED_ON_WORKFLOW ? 'ck-timed-on' : 'ck-timed-guard-off';
			const reply = await postJson(`${ctx.hooks}/webhook/${path_}`, {
				phone: leadNumber(base, next++),
			}).catch((error) => {
				if (error.name !== 'TimeoutError') throw error;
				unanswered.push(id);
				return null;
			});
			if (reply && reply.status !== 200)
				throw new Error(`${path_}: HTTP ${reply.status} ${reply.text}`);
			return reply?.ms;
		};
		const [ROUNDS, WARM_UP] = [60, 10];
		/** 60 deliveries each way, in turn, after ten of each that warm both up. */
		const measure = async () => {
			const [on, off] = [[], []];
			for (let i = 0; i < ROUNDS + WARM_UP; i++) {
				const [a, b] = [await post(TIMED_ON_WORKFLOW), await post(TIMED_OFF_WORKFLOW)];
				if (i >= WARM_UP && a !== undefined && b !== undefined) (on.push(a), off.push(b));
			}
			return {
				p50: percentile(on, 50) - percentile(off, 50),
				p99: percentile(on, 99) - percentile(off, 99),
				guard_on_ms: { p50: percentile(on, 50), p99: percentile(on, 99) },
				guard_off_ms: { p50: percentile(off, 50), p99: percentile(off, 99) },
				pairs_timed: on.length,
				load_average: os.loadavg().map((l) => Number(l.toFixed(2))),
			};
		};
		const before = {};
		for (const id of [TIMED_ON_WORKFLOW, TIMED_OFF_WORKFLOW])
			before[id] = await executionCount(ctx.main, ctx.cookie, id, ['success']);
		const measured = await measure();
		const succeeded = [];
		for (const id of [TIMED_ON_WORKFLOW, TIMED_OFF_WORKFLOW]) {
			await settle(ctx.main, ctx.cookie, id, 0);
			succeeded.push((await executionCount(ctx.main, ctx.cookie, id, ['success'])) - before[id]);
		}
		const cost = (figures[`${ctx.mode}_guard_overhead_ms`] = {
			...measured,
			unanswered: unanswered.length,
			executions_succeeded: succeeded,
		});
		log(`${ctx.mode}: guard_overhead_ms ${JSON.stringify(cost)}`);
		const each = ROUNDS + WARM_UP;
		expect(cost.executions_succeeded).toEqual([each, each]);
		expect(cost.unanswered).toBeLessThanOrEqual(3);
	});
}

function guardLockTests(ctx) {
	const outbound = (phone) => postJson(`${ctx.hooks}/webhook/ck-lock-rounds`, { phone });

	test('the guard over 2 workers: 10 rounds of 20 deliveries of one lead at once -> 1 call each round', async () => {
		const before = await executionCount(ctx.main, ctx.cookie, LOCK_WORKFLOW);
		const phones = Array.from({ length: 10 }, (_v, r) => leadNumber(41_000_000, r));
		const byWorkerBefore = executionsByWorker(ctx.cluster);
		for (const phone of phones) {
			await Promise.all(Array.from({ length: 20 }, () => outbound(phone)));
			await settle(ctx.main, ctx.cookie, LOCK_WORKFLOW, before + 20 * (phones.indexOf(phone) + 1));
		}
		const byWorker = executionsByWorker(ctx.cluster);
		const result = (figures.queue_guard_rounds = {
			calls_per_round: await callsPer(phones),
			failed: await executionCount(ctx.main, ctx.cookie, LOCK_WORKFLOW, ['error', 'crashed']),
			executions_per_worker: Object.keys(byWorker).map(
				(w) => byWorker[w].length - byWorkerBefore[w].length,
			),
		});
		log(`queue: 10 rounds of 20 at once: ${JSON.stringify(result)}`);
		expect(result.calls_per_round).toEqual(phones.map(() => 1));
		expect(result.failed).toBe(0);
	});

	test('the guard over 2 workers: 200 distinct leads, then all 200 again -> 0 second calls, no key lost', async () => {
		const before = await executionCount(ctx.main, ctx.cookie, LOCK_WORKFLOW);
		const keysBefore = (await entries(LOCK_WORKFLOW, `n:${LOCK_WORKFLOW}-1`)) ?? 0;
		const phones = Array.from({ length: 200 }, (_v, i) => leadNumber(42_000_000, i));
		await pool(phones, 10, outbound);
		await settle(ctx.main, ctx.cookie, LOCK_WORKFLOW, before + 200);
		const keysAfterFirst = await entries(LOCK_WORKFLOW, `n:${LOCK_WORKFLOW}-1`);
		await pool(phones, 10, outbound);
		await settle(ctx.main, ctx.cookie, LOCK_WORKFLOW, before + 400);
		const calls = await callsPer(phones);
		const result = (figures.queue_guard_200_twice = {
			numbers_called: calls.filter((n) => n > 0).length,
			numbers_called_twice: calls.filter((n) => n > 1).length,
			keys_recorded_by_the_first_200: keysAfterFirst - keysBefore,
			keys_after_the_second_200:
				(await entries(LOCK_WORKFLOW, `n:${LOCK_WORKFLOW}-1`)) - keysBefore,
			lock_left_behind: (await entries(LOCK_WORKFLOW, '')) !== null,
			failed: await executionCount(ctx.main, ctx.cookie, LOCK_WORKFLOW, ['error', 'crashed']),
		});
		log(`queue: 200 leads twice: ${JSON.stringify(result)}`);
		expect(result).toMatchObject({
			numbers_called: 200,
			numbers_called_twice: 0,
			keys_recorded_by_the_first_200: 200,
			keys_after_the_second_200: 200,
			failed: 0,
		});
	});

	test(`a lock left by a dead worker: the next guarded execution goes on once the row is ${LOCK_LEFT_AFTER_MS / 1000} s old and an election removed it, and calls once`, async () => {
		await plantDeadHoldersLock(LOCK_WORKFLOW);
		const phone = leadNumber(43_000_000, 0);
		const started = Date.now();
		await Promise.all([outbound(phone), outbound(phone)]);
		let waited = null;
		for (
			const deadline = started + LOCK_RECOVERY_MS + 30_000;
			Date.now() < deadline;
			await sleep(200)
		) {
			if ((await callsPer([phone]))[0] > 0) {
				waited = Date.now() - started;
				break;
			}
		}
		await settle(ctx.main, ctx.cookie, LOCK_WORKFLOW, 0);
		const result = (figures.queue_guard_dead_lock = {
			call_placed_after_ms: waited,
			calls: (await callsPer([phone]))[0],
			lock_left_behind: (await entries(LOCK_WORKFLOW, '')) !== null,
		});
		log(`queue: a dead worker's lock: ${JSON.stringify(result)}`);
		expect(waited).toBeGreaterThanOrEqual(LOCK_LEFT_AFTER_MS);
		expect(waited).toBeLessThan(LOCK_RECOVERY_MS + 10_000);
		expect(result.calls).toBe(1);
	});

	test('Remove Duplicates with Scope Workflow in the same workflow: the guard says so and sends nothing; its data is kept', async () => {
		const hook = `${ctx.hooks}/webhook/ck-shared-workflow-row-3`;
		const phones = [leadNumber(44_000_000, 0), leadNumber(44_000_000, 1)];
		// one after the other: two first runs at once would race to create Remove Duplicates' row
		for (const [i, phone] of phones.entries()) {
			await postJson(hook, { phone });
			await settle(ctx.main, ctx.cookie, SHARED_WORKFLOW, i + 1);
		}
		const res = await fetch(
			`${ctx.main.url}/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: SHARED_WORKFLOW }))}&limit=1`,
			{ headers: { cookie: ctx.cookie } },
		);
		const [last] = (await res.json()).data.results;
		const detail = await (
			await fetch(`${ctx.main.url}/rest/executions/${last.id}`, { headers: { cookie: ctx.cookie } })
		).text();
		const result = (figures.queue_guard_shared_row = {
			failed: await executionCount(ctx.main, ctx.cookie, SHARED_WORKFLOW, ['error']),
			calls: (await callsPer(phones)).reduce((a, b) => a + b, 0),
			said: /another node of this workflow keeps its history for the whole workflow/.test(detail),
			remove_duplicates_entries: await entries(SHARED_WORKFLOW, ''),
		});
		log(`queue: Remove Duplicates with Scope Workflow: ${JSON.stringify(result)}`);
		expect(result).toEqual({ failed: 2, calls: 0, said: true, remove_duplicates_entries: 2 });
	});

	test('a history created by two workers at once: 20 distinct leads at once -> 20 calls, no item fails', async () => {
		const phones = Array.from({ length: 20 }, (_v, i) => leadNumber(45_000_000, i));
		const answers = await Promise.all(
			phones.map((phone) => postJson(`${ctx.hooks}/webhook/ck-first-history-two`, { phone })),
		);
		await settle(ctx.main, ctx.cookie, FIRST_WORKFLOW, 20);
		const result = (figures.queue_guard_first_history = {
			answered_200: answers.filter((a) => a.status === 200).length,
			success: await executionCount(ctx.main, ctx.cookie, FIRST_WORKFLOW, ['success']),
			failed: await executionCount(ctx.main, ctx.cookie, FIRST_WORKFLOW, ['error', 'crashed']),
			calls: (await callsPer(phones)).reduce((a, b) => a + b, 0),
			keys: await entries(FIRST_WORKFLOW, `n:${FIRST_WORKFLOW}-1`),
		});
		log(`queue: a history created by two workers at once: ${JSON.stringify(result)}`);
		expect(result).toEqual({ answered_200: 20, success: 20, failed: 0, calls: 20, keys: 20 });
	});
}

describe('regular mode: one n8n on PostgreSQL', () => {
	const ctx = { mode: 'regular' };
	beforeAll(async () => {
		const t = Date.now();
		ctx.main = await startN8nProcess({
			role: 'main',
			name: 'regular',
			userFolder: run.userFolder,
			env: clusterEnv({ pg: run.pg, redis: run.redis, queue: false, extra: ownerEnv(OWNER) }),
			logFile: path.join(run.work, 'regular.log'),
		});
		log(`regular mode: n8n ready in ${secondsSince(t)}`);
		ctx.hooks = ctx.main.url;
		await ensureOwner(ctx.main.url, OWNER);
		ctx.cookie = await n8nLogin(ctx.main.url, OWNER);
		for (const id of [
			TRIGGER_WORKFLOW,
			DEDUPE_WORKFLOW,
			TRIGGER_V1_WORKFLOW,
			TIMED_ON_WORKFLOW,
			TIMED_OFF_WORKFLOW,
		])
			await waitForPublished(ctx.main, ctx.cookie, id);
	});
	afterAll(() => ctx.main?.stop());

	triggerTests(ctx);
	removeDuplicatesTest(ctx, 50_000_000);
	spreadTest(ctx, 10_000_000);
	guardCostTest(ctx, 46_000_000);
});

describe('queue mode: main, 2 workers, 1 webhook processor', () => {
	const ctx = { mode: 'queue' };
	beforeAll(async () => {
		const t = Date.now();
		ctx.cluster = await startCluster({
			userFolder: run.userFolder,
			env: run.queueEnv,
			logDir: path.join(run.work, 'logs'),
			workers: 2,
		});
		log(`queue mode: main, 2 workers and a webhook processor ready in ${secondsSince(t)}`);
		ctx.main = ctx.cluster.main;
		ctx.hooks = ctx.cluster.webhook.url;
		await ensureOwner(ctx.main.url, OWNER); // n8n 1.x, when regular mode did not run
		ctx.cookie = await n8nLogin(ctx.main.url, OWNER);
		for (const wf of [crm, ...WORKFLOWS]) await waitForPublished(ctx.main, ctx.cookie, wf.id);
	});
	afterAll(async () => {
		if (!ctx.cluster) return;
		const tStop = Date.now();
		await ctx.cluster.stop();
		figures.queue_stop_seconds = Number(((Date.now() - tStop) / 1000).toFixed(1));
		log(`cluster stopped in ${secondsSince(tStop)}; logs in ${run.work} (kept with --keep)`);
	});

	test('the CRM example, through the webhook processor, answers from its "Started" branch, run by one worker', async () => {
		const before = executionsByWorker(ctx.cluster);
		const reply = await postJson(`${ctx.hooks}/webhook/callkaro-crm-lead`, {
			phone: '+91 98200 11119',
			name: 'Asha',
			city: 'Pune',
			plan: 'Pro',
		});
		const after = executionsByWorker(ctx.cluster);
		const ranOn = Object.keys(after).filter((w) => after[w].length > before[w].length);
		log(`queue: the CRM example ran on ${ranOn}`);
		expect([reply.status, reply.json?.crmStatus]).toEqual([200, 'callkaro_started']);
		expect(ranOn).toHaveLength(1);
	});

	spreadTest(ctx, 30_000_000);
	triggerTests(ctx);
	removeDuplicatesTest(ctx, 50_000_010);

	test('Skip Numbers Called Before over 2 workers: 3 deliveries of one lead one after another -> 1 call; 20 at once reported', async () => {
		const url = `${ctx.hooks}/webhook/callkaro-queue-outbound`;
		const before = await executionCount(ctx.main, ctx.cookie, OUTBOUND_WORKFLOW);
		const sequential = leadNumber(40_000_000, 0);
		for (let i = 0; i < 3; i++) await postJson(url, { phone: sequential });
		const together = leadNumber(40_000_000, 1);
		await Promise.all(Array.from({ length: 20 }, () => postJson(url, { phone: together })));
		await settle(ctx.main, ctx.cookie, OUTBOUND_WORKFLOW, before + 23);
		const guard = (figures.queue_guard = {
			sequential_3_calls: await callsTo(sequential),
			concurrent_20_calls: await callsTo(together),
		});
		log(`queue: Skip Numbers Called Before over 2 workers: ${JSON.stringify(guard)}`);
		expect(guard.sequential_3_calls).toBe(1);
		expect(guard.concurrent_20_calls).toBeGreaterThanOrEqual(1);
	});

	guardLockTests(ctx);
	guardCostTest(ctx, 47_000_000);

	// A worker killed with SIGKILL once the sandbox has counted about 60 of 200 Outbound Call
	// deliveries' calls (the deliveries go on meanwhile). Main is restarted first to look for
	// executions whose worker died every minute (n8n's default: every 3 hours); not from the start,
	// because that check also marks as crashed an execution it catches between being stored and
	// being queued (seen once in 300 deliveries).
	const KILL_AT_CALLS = 60;
	const workerKill = once(async () => {
		await ctx.main.stop();
		ctx.main = await startN8nProcess({
			role: 'main',
			name: 'main',
			userFolder: run.userFolder,
			port: ctx.main.port,
			env: { ...run.queueEnv, N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL: '1' },
			logFile: path.join(run.work, 'logs', 'main-recovery.log'),
		});
		ctx.cluster.processes.push(ctx.main);
		ctx.cookie = await n8nLogin(ctx.main.url, OWNER);
		const numbers = new Set(Array.from({ length: 200 }, (_v, i) => leadNumber(20_000_000, i)));
		const ourCalls = async () =>
			(await sandboxState(run.sandbox)).calls.filter((c) => numbers.has(`+${c.number}`));
		// one statement, so one snapshot: four counts read one after another let an execution
		// finish between them and be missed by all (a CI run once tallied 197 of 200 that way)
		const tally = async () => {
			const rows = await processedData(
				'SELECT status, count(*)::int AS n FROM execution_entity WHERE "workflowId" = $1 GROUP BY status',
				[OUTBOUND_WORKFLOW],
			);
			const by = Object.fromEntries(rows.map((r) => [r.status, r.n]));
			const sum = (statuses) => statuses.reduce((n, s) => n + (by[s] ?? 0), 0);
			return {
				success: sum(['success']),
				failed_or_crashed: sum(['error', 'crashed']),
				unfinished: sum(['new', 'running', 'waiting']),
				total: rows.reduce((n, r) => n + r.n, 0),
			};
		};
		const baseline = await tally();

		const victim = ctx.cluster.workers[0];
		const hook = `${ctx.hooks}/webhook/callkaro-queue-outbound`;
		const delivering = pool([...numbers], 10, (phone) => postJson(hook, { phone }));
		delivering.catch(() => {}); // awaited below
		let killedAfter = null;
		for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(100)) {
			const placed = (await ourCalls()).length;
			if (placed < KILL_AT_CALLS) continue;
			process.kill(victim.pid, 'SIGKILL');
			killedAfter = placed;
			log(`SIGKILL to ${victim.name} (pid ${victim.pid}) after ${placed} calls`);
			break;
		}
		const answers = await delivering;
		// main finds executions whose worker died once a minute (N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL)
		let counts;
		for (const deadline = Date.now() + 150_000; ; await sleep(2000)) {
			const now = await tally();
			counts = Object.fromEntries(Object.entries(now).map(([k, v]) => [k, v - baseline[k]]));
			if ((counts.total >= 200 && counts.unfinished === 0) || Date.now() > deadline) break;
		}
		const callsPerNumber = new Map();
		for (const c of await ourCalls())
			callsPerNumber.set(c.number, (callsPerNumber.get(c.number) ?? 0) + 1);
		const result = (figures.queue_worker_killed = {
			deliveries_answered_200: answers.filter((a) => a.status === 200).length,
			killed_after_calls: killedAfter,
			...counts,
			numbers_called: callsPerNumber.size,
			numbers_called_twice: [...callsPerNumber.values()].filter((n) => n > 1).length,
		});
		log(`queue: worker killed during 200 Outbound Call deliveries: ${JSON.stringify(result)}`);
		return result;
	});

	test(`a worker is killed with SIGKILL once about ${KILL_AT_CALLS} of 200 Outbound Call deliveries have called`, async () => {
		const { killed_after_calls } = await workerKill();
		expect(killed_after_calls).toBeGreaterThanOrEqual(KILL_AT_CALLS);
		expect(killed_after_calls).toBeLessThan(200);
	});

	// n8n 2.x re-runs nothing; n8n 1.x re-runs the dead worker's executions on the other worker,
	// where Skip Numbers Called Before skips the numbers they recorded (rechecked against erasure
	// by another worker's older write), so no number may be called twice on either line.
	test('after the kill no number is called twice', async () => {
		const { numbers_called_twice } = await workerKill();
		expect(numbers_called_twice).toBe(0);
	});

	test('after the kill every delivery is accounted for (a finished execution, or one n8n lists as failed or crashed)', async () => {
		const { total, unfinished, success, failed_or_crashed } = await workerKill();
		expect({ total, unfinished, finished: success + failed_or_crashed }).toEqual({
			total: 200,
			unfinished: 0,
			finished: 200,
		});
	});

	describe('the guard through faults in PostgreSQL, with 3 workers', () => {
		beforeAll(async () => {
			// worker-1 was killed above: two more make 3
			for (const name of ['worker-3', 'worker-4']) {
				const worker = await startN8nProcess({
					role: 'worker',
					name,
					userFolder: run.userFolder,
					env: run.queueEnv,
					concurrency: 10,
					logFile: path.join(run.work, 'logs', `${name}.log`),
				});
				ctx.cluster.processes.push(worker);
				ctx.cluster.workers.push(worker);
			}
		});
		guardFaultTests(ctx);
	});

	test('n8n reports no host id clash', () => {
		const clashes = ctx.cluster.processes
			.filter((p) => /sharing the same hostId/.test(p.output()))
			.map((p) => p.name);
		expect(clashes).toEqual([]);
	});
});
