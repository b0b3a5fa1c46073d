// Load on n8n's production webhooks and what it costs, shared by the queue-mode e2e
// (test/e2e/queue.e2e.mjs) and the queue-mode benchmark (scripts/bench/queue.mjs): the workflows
// the deliveries start, bounded concurrent POSTs, n8n's execution counts through its REST API, the
// sandbox's state, and the CPU time of processes from /proc.
import fs from 'node:fs';

import { CREDENTIAL_ID, CREDENTIAL_NAME } from './host.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// workflows

export const CREDENTIAL = { callKaroApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };

/** A workflow whose nodes run one after the other. */
export function workflow(id, name, nodes) {
	const connections = {};
	for (let i = 0; i + 1 < nodes.length; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return {
		id,
		name,
		nodes: nodes.map((n, i) => ({ id: `${id}-${i}`, position: [i * 240, 0], ...n })),
		connections,
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

/** A production webhook on POST /webhook/<pathName> that answers as soon as it is received. */
export function webhookNode(pathName) {
	return {
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: `c0ffee00-0000-4000-8000-${pathName.length.toString().padStart(4, '0')}${Buffer.from(pathName).toString('hex').slice(0, 8)}`,
		parameters: { httpMethod: 'POST', path: pathName, responseMode: 'onReceived', options: {} },
	};
}

/**
 * "Webhook -> CallKaro Assign Workflow": each delivery `{ phone }` enrols one lead. `parameters`
 * are added to the Assign node's (e.g. `{ skipBefore: true }`).
 */
export function assignWebhookWorkflow({ id, name, pathName, parameters = {} }) {
	return workflow(id, name, [
		webhookNode(pathName),
		{
			name: 'CallKaro Assign Workflow',
			type: 'n8n-nodes-callkaro.callKaroAssignWorkflow',
			typeVersion: 1,
			credentials: CREDENTIAL,
			parameters: {
				phoneNumber: '={{ $json.body.phone }}',
				workflowId: 'wf_welcome',
				options: { defaultCountryCode: '91' },
				...parameters,
			},
		},
	]);
}

/** The i-th distinct lead number of a range (Indian mobile numbers). */
export const leadNumber = (base, i) => `+9198${String(base + i).padStart(8, '0')}`;

// ---------------------------------------------------------------------------------------------
// HTTP

export async function postJson(url, body, headers = {}) {
	const started = performance.now();
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(60_000),
	});
	const text = await res.text();
	let json = null;
	try {
		json = JSON.parse(text);
	} catch {}
	return { status: res.status, text, json, ms: performance.now() - started };
}

/** Runs tasks with at most `limit` at once. */
export async function pool(items, limit, task) {
	const results = new Array(items.length);
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(limit, items.length) }, async () => {
			while (next < items.length) {
				const i = next++;
				results[i] = await task(items[i], i);
			}
		}),
	);
	return results;
}

/** The sandbox's state (its runs, calls...), without the request log. */
export async function sandboxState(sandbox) {
	const res = await fetch(`${sandbox.url}/__sandbox/state?requests=0`, {
		signal: AbortSignal.timeout(30_000),
	});
	return await res.json();
}

// ---------------------------------------------------------------------------------------------
// n8n's executions, through main's REST API

export async function executionCount(main, cookie, workflowId, statuses) {
	const filter = { workflowId, ...(statuses ? { status: statuses } : {}) };
	const res = await fetch(
		`${main.url}/rest/executions?filter=${encodeURIComponent(JSON.stringify(filter))}&limit=1`,
		{ headers: { cookie }, signal: AbortSignal.timeout(30_000) },
	);
	const body = await res.json();
	if (!res.ok) throw new Error(`GET /rest/executions: HTTP ${res.status} ${JSON.stringify(body)}`);
	return body.data.count;
}

/** Waits until the workflow has at least `count` executions and none is still running. */
export async function settle(main, cookie, workflowId, count, timeoutMs = 180_000) {
	const deadline = Date.now() + timeoutMs;
	let total = 0;
	let open = 0;
	for (;;) {
		total = await executionCount(main, cookie, workflowId);
		open = await executionCount(main, cookie, workflowId, ['new', 'running', 'waiting']);
		if (total >= count && open === 0) return total;
		if (Date.now() > deadline) return total;
		await sleep(500);
	}
}

/** Waits until the workflow's production webhooks are live (2.x publishes through an outbox). */
export async function waitForPublished(main, cookie, workflowId) {
	for (let i = 0; i < 120; i++) {
		const res = await fetch(`${main.url}/rest/workflows/${workflowId}/publication-status`, {
			headers: { cookie },
			signal: AbortSignal.timeout(15_000),
		});
		if (res.status === 404) return; // n8n 1.x: live once activated
		const body = await res.json().catch(() => null);
		if (JSON.stringify(body).includes('published')) return;
		await sleep(500);
	}
	throw new Error(`workflow ${workflowId} was not published within 60 s`);
}

// ---------------------------------------------------------------------------------------------
// CPU time from /proc

/**
 * CPU milliseconds used so far by processes: user + system time, plus that of their children
 * that have exited (so a PostgreSQL backend that ends during a run still counts, in its
 * postmaster). Pass whole process trees (processTree).
 */
export function cpuMs(pids) {
	let ticks = 0;
	for (const pid of pids) {
		try {
			const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			// utime, stime, cutime, cstime (fields 14-17 of proc(5))
			ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
		} catch {} // the process has exited
	}
	return ticks * 10; // USER_HZ is 100 on Linux
}

/** A process and all its descendants (e.g. PostgreSQL's postmaster and its backends). */
export function processTree(rootPid) {
	const children = (pid) => {
		try {
			return fs
				.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
				.trim()
				.split(/\s+/)
				.filter(Boolean)
				.map(Number);
		} catch {
			return [];
		}
	};
	const all = [];
	const queue = [rootPid];
	while (queue.length) {
		const pid = queue.shift();
		all.push(pid);
		queue.push(...children(pid));
	}
	return all;
}
