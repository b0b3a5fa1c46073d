// n8n's scaling mode on one machine, on 127.0.0.1: PostgreSQL 17 and Redis (postgres.mjs), a main
// process (the editor and REST API), workers that take executions from the Redis queue, and a
// webhook processor that takes the production webhooks. Every process shares one user folder
// (the community package and the encryption key) and has its own task-broker port and host id.
// Used by `npm start -- --queue`, the queue-mode end-to-end run and the benchmark.
import fs from 'node:fs';
import path from 'node:path';

import { n8nPaths } from './install.mjs';
import {
	freePort,
	killTree,
	n8nEnv,
	runN8n,
	describeFailure,
	startProcess,
	stopProcess,
} from './host.mjs';
import { postgresEnv } from './postgres.mjs';

const HOST_NAME_PRELOAD = path.join(
	path.dirname(new URL(import.meta.url).pathname),
	'host-name.cjs',
);

/**
 * The environment of every process of the cluster. `queue: false` gives a single regular-mode
 * process on the same database (the baseline the benchmark compares with).
 */
export function clusterEnv({ pg, redis, queue = true, webhookProcessor = true, extra = {} }) {
	return {
		...postgresEnv(pg),
		...(queue
			? {
					EXECUTIONS_MODE: 'queue',
					QUEUE_BULL_REDIS_HOST: '127.0.0.1',
					QUEUE_BULL_REDIS_PORT: String(redis.port),
					// the webhook processor alone takes production webhooks
					N8N_DISABLE_PRODUCTION_MAIN_PROCESS: webhookProcessor ? 'true' : 'false',
				}
			: { EXECUTIONS_MODE: 'regular' }),
		// a stop waits at most this long for running executions (default 30 s)
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		N8N_RUNNERS_MODE: 'internal',
		// n8n 2.x takes an expression isolate for every delivery to a trigger that is not its own
		// Webhook node, and for every execution; a burst empties the pool, so each is built on the
		// spot. Lazily, one is built only for an expression, which a trigger with fixed settings
		// (and a workflow without expressions) never evaluates. n8n 1.x has no isolates.
		N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true',
		...extra,
	};
}

/**
 * Starts one n8n process: `role` is 'main', 'worker' or 'webhook'. Its output goes to logFile.
 * Resolves once it is ready: main and the webhook processor answer /healthz/readiness (main has
 * also registered its published workflows), a worker says it is ready.
 */
export async function startN8nProcess({
	role,
	name,
	userFolder,
	port,
	env,
	logFile,
	concurrency = 10,
	readyTimeoutMs = 180_000,
}) {
	const { nodeBin, n8nMain } = n8nPaths();
	const brokerPort = await freePort();
	const args = {
		main: ['start'],
		worker: ['worker', `--concurrency=${concurrency}`],
		webhook: ['webhook'],
	}[role];
	const processEnv = n8nEnv({
		userFolder,
		port: port ?? (await freePort()),
		brokerPort,
		extra: { ...env, CALLKARO_HOST_NAME: `callkaro-${name}` },
	});
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	const log = fs.createWriteStream(logFile, { flags: 'w' });
	let output = '';
	const keep = (d) => {
		output = (output + d).slice(-64_000);
		log.write(d);
	};
	const child = startProcess(nodeBin, ['--require', HOST_NAME_PRELOAD, n8nMain, ...args], {
		env: processEnv,
		onStdout: keep,
		onStderr: keep,
	});
	const ready = {
		main: /Editor is now accessible via/,
		worker: /n8n worker is now ready/,
		webhook: /Webhook listener waiting for requests/,
	}[role];
	const deadline = Date.now() + readyTimeoutMs;
	while (!ready.test(output)) {
		if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
			killTree(child, 'SIGKILL');
			throw new Error(
				`n8n ${role} "${name}" did not start (${child.exitCode ?? child.signalCode ?? 'timed out'}); log ${logFile}:\n${output.slice(-3000)}`,
			);
		}
		await new Promise((r) => setTimeout(r, 200));
	}
	return {
		role,
		name,
		port: role === 'worker' ? null : Number(processEnv.N8N_PORT),
		brokerPort,
		url: role === 'worker' ? null : `http://127.0.0.1:${processEnv.N8N_PORT}`,
		logFile,
		child,
		pid: child.pid,
		output: () => output,
		/** SIGTERM (n8n's graceful stop), then SIGKILL after graceMs. */
		async stop(graceMs = 20_000) {
			await stopProcess(child, graceMs);
			log.end();
		},
	};
}

/** Runs an n8n CLI command (import, publish) against the cluster's database. */
export async function clusterCli(args, { userFolder, env }) {
	const r = await runN8n(args, {
		env: n8nEnv({ userFolder, brokerPort: await freePort(), extra: env }),
		timeoutMs: 180_000,
	});
	if (r.code !== 0) throw new Error(describeFailure(r));
	return r;
}

/**
 * Starts main, then the workers and the webhook processor (main runs the database migrations
 * first). Returns { main, workers, webhook, processes, stop() }; stop() ends the webhook
 * processor, main, then the workers, so that no new work arrives while running work finishes.
 */
export async function startCluster({
	userFolder,
	env,
	logDir,
	mainPort,
	webhookPort,
	workers = 2,
	concurrency = 10,
	webhookProcessor = true,
}) {
	const started = [];
	const stop = async () => {
		const order = [
			...started.filter((p) => p.role === 'webhook'),
			...started.filter((p) => p.role === 'main'),
			...started.filter((p) => p.role === 'worker'),
		];
		for (const p of order) await p.stop();
	};
	try {
		const main = await startN8nProcess({
			role: 'main',
			name: 'main',
			userFolder,
			port: mainPort,
			env,
			logFile: path.join(logDir, 'main.log'),
		});
		started.push(main);
		const others = await Promise.all([
			...Array.from(
				{ length: workers },
				async (_v, i) =>
					await startN8nProcess({
						role: 'worker',
						name: `worker-${i + 1}`,
						userFolder,
						env,
						concurrency,
						logFile: path.join(logDir, `worker-${i + 1}.log`),
					}).then((p) => (started.push(p), p)),
			),
			...(webhookProcessor
				? [
						startN8nProcess({
							role: 'webhook',
							name: 'webhook-1',
							userFolder,
							port: webhookPort,
							env,
							logFile: path.join(logDir, 'webhook-1.log'),
						}).then((p) => (started.push(p), p)),
					]
				: []),
		]);
		return {
			main,
			workers: others.filter((p) => p.role === 'worker'),
			webhook: others.find((p) => p.role === 'webhook') ?? null,
			processes: started,
			stop,
		};
	} catch (err) {
		await stop();
		throw err;
	}
}
