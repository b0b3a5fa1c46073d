// @ts-check
/**
 * The HTTP side of the sandbox: routing, faults, the request log, the /__sandbox/ admin API,
 * and startSandbox(), which tests and the CLI use.
 */
import { createServer } from 'node:http';

import { parseBody, preview, readBody } from './bodies.mjs';
import { DataError, readDataFile } from './data.mjs';
import { DEMO_DATA } from './demoData.mjs';
import { DIALECTS, createEngine, errorReply, maskKey } from './engine.mjs';
import { FAULT_ENDPOINTS, FaultController, parseFaults } from './faults.mjs';
import {
	DEFAULT_WEBHOOK_TIMEOUT_MS,
	maskHeaderValues,
	maskedConfig,
	parseWebhookConfig,
	postJson,
} from './webhooks.mjs';

/**
 * @typedef {import('./engine.mjs').Route} Route
 * @typedef {import('./engine.mjs').Reply} Reply
 * @typedef {import('./engine.mjs').SandboxState} SandboxState
 * @typedef {import('./engine.mjs').LogEntry} LogEntry
 * @typedef {import('./engine.mjs').Dialect} Dialect
 * @typedef {import('./data.mjs').DataFile} DataFile
 * @typedef {import('./faults.mjs').FaultInput} FaultInput
 * @typedef {import('./faults.mjs').FaultConfig} FaultConfig
 * @typedef {import('node:http').IncomingMessage} IncomingMessage
 * @typedef {import('node:http').ServerResponse} ServerResponse
 */

/** API routes: path -> route. Every API route takes POST only. */
const ROUTES = /** @type {Record<string, Route>} */ ({
	'/workflow/assign': 'assign',
	'/call/delete-schedule-call': 'delete',
	'/call/outbound': 'outbound',
	'/call/campaign': 'campaignV1',
	'/v2/call/campaign': 'campaignV2',
});

/** @type {Record<Route, Exclude<import('./faults.mjs').FaultEndpoint, 'all'>>} */
const FAULT_ENDPOINT_OF = {
	assign: 'assign',
	delete: 'delete',
	outbound: 'outbound',
	campaignV1: 'campaign',
	campaignV2: 'campaign',
};

/** Admin routes: path -> allowed methods. */
const ADMIN_ROUTES = /** @type {Record<string, string[]>} */ ({
	'/__sandbox/health': ['GET'],
	'/__sandbox/state': ['GET'],
	'/__sandbox/runs/finish': ['POST'],
	'/__sandbox/reset': ['POST'],
	'/__sandbox/load': ['POST'],
	'/__sandbox/dialect': ['POST'],
	'/__sandbox/faults': ['GET', 'POST', 'DELETE'],
	'/__sandbox/webhooks': ['GET', 'POST', 'DELETE'],
	'/__sandbox/calls/end': ['POST'],
});

const ADMIN_MAX_BODY = 16 * 1024 * 1024;

/**
 * Is a socket address a loopback address (127.0.0.0/8, ::1, IPv4-mapped 127.x)?
 * @param {string | undefined} address
 */
export function isLoopback(address) {
	if (!address) return false;
	const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
	return v4.startsWith('127.') || address === '::1';
}

/**
 * Request headers for the log, with the API key masked.
 * @param {import('node:http').IncomingHttpHeaders} headers
 */
function maskedHeaders(headers) {
	/** @type {Record<string, string | string[] | undefined>} */
	const copy = { ...headers };
	const key = headers['x-api-key'];
	if (typeof key === 'string') copy['x-api-key'] = maskKey(key);
	if (typeof headers.authorization === 'string')
		copy.authorization = maskKey(headers.authorization);
	return copy;
}

/**
 * @typedef {object} SandboxOptions
 * @property {number} [port]  default 0 (an ephemeral port); the CLI defaults to 4010
 * @property {string} [host]  default 127.0.0.1
 * @property {DataFile} [data]  the data set; default the built-in demo data
 * @property {string} [dataFile]  path of a data file (used when data is not given)
 * @property {number} [latencyMs]  baseline delay of every API request, default 0
 * @property {number} [jitterMs]  plus a uniform random 0..jitterMs, default 0
 * @property {number} [seed]  seed of the baseline jitter, default 1
 * @property {Dialect} [dialect]  outbound answer: "spec" (default) or "docs"
 * @property {number} [runDurationMs]  a run finishes this long after it starts; 0 = never; default 60000
 * @property {200 | 404} [deleteNotFoundStatus]  answer of delete when nothing is scheduled; default 200
 * @property {number} [requestLogLimit]  entries kept in state.requests; default 10000
 * @property {number} [maxBodyBytes]  larger API bodies get 413; default 1 MiB
 * @property {number} [keepAliveTimeoutMs]  default 5000
 * @property {(entry: LogEntry) => void} [onRequest]  called after each logged API request
 * @property {{ url: string, headers?: Record<string, string>, duplicate?: boolean }} [webhook]
 *   sandbox-wide webhook (CLI --webhook-url); kept across resets
 * @property {number} [webhookTimeoutMs]  a delivery without an answer by then counts as failed; default 5000
 * @property {(delivery: import('./webhooks.mjs').WebhookDelivery) => void} [onWebhookDelivery]  called after each delivery
 */

/**
 * @typedef {object} EndCallResult
 * @property {import('./engine.mjs').Call} call
 * @property {Record<string, unknown>} payload  the call_ended event
 * @property {unknown} webhook  where it went (header values masked), null when no webhook is set
 * @property {import('./webhooks.mjs').WebhookDelivery[]} deliveries  one, or two with duplicate
 */

/**
 * @typedef {object} Sandbox
 * @property {string} url  base URL, e.g. http://127.0.0.1:4010 (no trailing slash)
 * @property {number} port
 * @property {SandboxState} state  the live state (the same object GET /__sandbox/state shows)
 * @property {() => Promise<void>} close  stop listening, drop connections, clear timers
 * @property {() => void} reset  back to the data set (and to the dialect given at start), faults cleared
 * @property {(data: DataFile) => void} load  replace the data set, then reset (throws DataError)
 * @property {(faults: FaultInput) => FaultConfig} setFaults  set the faults of one endpoint (throws on bad input)
 * @property {(endpoint?: import('./faults.mjs').FaultEndpoint) => void} clearFaults
 * @property {(selector: { runId: string } | { number: string, workflowId: string } | { all: true }) => string[]} finishRuns  ids finished
 * @property {(dialect: Dialect) => void} setDialect
 * @property {() => number} pendingTimers  timers of runs and scheduled calls still waiting
 * @property {(input: { url: string | null, headers?: Record<string, string>, duplicate?: boolean, agentId?: string }) => void} setWebhook  as POST /__sandbox/webhooks (throws on bad input)
 * @property {() => void} clearWebhooks  as DELETE /__sandbox/webhooks
 * @property {(input: Record<string, unknown>) => Promise<EndCallResult>} endCall  as POST /__sandbox/calls/end; resolves once the deliveries were answered (throws on bad input)
 * @property {() => Promise<void>} webhooksIdle  resolves when no delivery is in flight
 */

/**
 * Start a sandbox. Resolves once it listens.
 * @param {SandboxOptions} [options]
 * @returns {Promise<Sandbox>}
 */
export async function startSandbox(options = {}) {
	for (const [name, value] of [
		['latencyMs', options.latencyMs],
		['jitterMs', options.jitterMs],
	]) {
		if (value !== undefined && !(typeof value === 'number' && value >= 0)) {
			throw new Error(`${name} must be a number >= 0`);
		}
	}
	let startWebhook = null;
	if (options.webhook !== undefined) {
		const parsed = parseWebhookConfig(options.webhook, 'webhook');
		if (!parsed.ok) throw new Error(parsed.message);
		startWebhook = parsed.config;
	}
	const webhookTimeoutMs = options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
	const data = options.data ?? (options.dataFile ? readDataFile(options.dataFile) : DEMO_DATA);
	const requestLogLimit = options.requestLogLimit ?? 10_000;
	const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
	const engine = createEngine({
		data,
		dialect: options.dialect,
		runDurationMs: options.runDurationMs,
		deleteNotFoundStatus: options.deleteNotFoundStatus,
		requestLogLimit,
		webhook: startWebhook,
		onCallEnded: (ended) => void deliver(ended),
	});
	const { state } = engine;

	// ---- webhook deliveries ----------------------------------------------------------------
	/** @type {Set<Promise<unknown>>} */
	const inFlight = new Set();
	const closing = new AbortController();
	let deliveryCount = 0;
	let generation = 0;
	/** API requests being answered now (a reset does not end them, so it does not zero this) */
	let requestsInFlight = 0;

	/**
	 * Post a call's event to its webhook: once, or twice (one after the other) with duplicate.
	 * @param {{ payload: Record<string, unknown>, webhook: import('./webhooks.mjs').WebhookConfig | null }} ended
	 * @returns {Promise<import('./webhooks.mjs').WebhookDelivery[]>}
	 */
	function deliver({ payload, webhook }) {
		if (!webhook) return Promise.resolve([]);
		const startedIn = generation;
		const run = (async () => {
			/** @type {import('./webhooks.mjs').WebhookDelivery[]} */
			const done = [];
			for (const attempt of webhook.duplicate
				? /** @type {const} */ ([1, 2])
				: /** @type {const} */ ([1])) {
				if (closing.signal.aborted) break;
				const time = new Date().toISOString();
				const answer = await postJson(webhook, payload, {
					timeoutMs: webhookTimeoutMs,
					signal: closing.signal,
				});
				const data = /** @type {Record<string, unknown>} */ (payload.data ?? {});
				/** @type {import('./webhooks.mjs').WebhookDelivery} */
				const delivery = {
					id: ++deliveryCount,
					time,
					event: String(payload.event),
					callId: typeof data.callSid === 'string' ? data.callSid : null,
					url: webhook.url,
					attempt,
					headers: maskHeaderValues(webhook.headers),
					payload,
					...answer,
				};
				done.push(delivery);
				if (startedIn === generation) {
					state.webhookDeliveries.push(delivery);
					while (state.webhookDeliveries.length > requestLogLimit) state.webhookDeliveries.shift();
				}
				options.onWebhookDelivery?.(delivery);
			}
			return done;
		})();
		inFlight.add(run);
		void run.finally(() => inFlight.delete(run));
		return run;
	}

	/**
	 * End a call and start posting its event.
	 * @param {unknown} input
	 * @returns {{ ok: true, call: import('./engine.mjs').Call, done: Promise<EndCallResult> } | { ok: false, status: number, message: string }}
	 */
	function endCall(input) {
		const ended = engine.endCall(input);
		if (!ended.ok) return ended;
		const done = deliver(ended).then((deliveries) => ({
			call: ended.call,
			payload: ended.payload,
			webhook: ended.webhook ? maskedConfig(ended.webhook) : null,
			deliveries,
		}));
		return { ok: true, call: ended.call, done };
	}
	const faults = new FaultController(state.faults, {
		latencyMs: options.latencyMs,
		jitterMs: options.jitterMs,
		seed: options.seed,
	});

	/** @type {Set<ReturnType<typeof setTimeout>>} */
	const delays = new Set();
	/** @param {number} ms */
	const delay = (ms) =>
		new Promise((resolve) => {
			const id = setTimeout(() => {
				delays.delete(id);
				resolve(undefined);
			}, ms);
			delays.add(id);
		});

	/** @param {LogEntry} entry */
	function log(entry) {
		state.requests.push(entry);
		while (state.requests.length > requestLogLimit) state.requests.shift();
		options.onRequest?.(entry);
	}

	/**
	 * @param {ServerResponse} res
	 * @param {number} status
	 * @param {unknown} body
	 * @param {Record<string, string>} [headers]
	 */
	function send(res, status, body, headers = {}) {
		const text = JSON.stringify(body);
		res.writeHead(status, {
			'content-type': 'application/json; charset=utf-8',
			'content-length': Buffer.byteLength(text),
			...headers,
		});
		res.end(text);
	}

	/**
	 * @param {IncomingMessage} req
	 * @param {ServerResponse} res
	 */
	async function onRequest(req, res) {
		const started = Date.now();
		const url = new URL(req.url ?? '/', 'http://sandbox.local');
		const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
		if (path === '/__sandbox' || path.startsWith('/__sandbox/')) return admin(req, res, path, url);

		const { body: raw, tooLarge } = await readBody(req, maxBodyBytes);
		const parsed = tooLarge
			? /** @type {const} */ ({ ok: false, message: 'Request body too large', raw: '' })
			: parseBody(req.headers['content-type'], raw);
		state.requestCount++;
		// Lets a test see that a client overlaps its requests without timing it.
		requestsInFlight++;
		state.maxConcurrentRequests = Math.max(state.maxConcurrentRequests, requestsInFlight);
		/** @type {LogEntry} */
		const entry = {
			id: state.requestCount,
			time: new Date(started).toISOString(),
			method: req.method ?? 'GET',
			path,
			query: Object.fromEntries(url.searchParams),
			headers: maskedHeaders(req.headers),
			body: parsed.ok ? parsed.value : preview(raw),
			status: null,
			fault: null,
			durationMs: 0,
		};
		/**
		 * @param {Reply | null} reply  null: drop the connection
		 */
		const finish = (reply) => {
			requestsInFlight--;
			entry.durationMs = Date.now() - started;
			if (reply) {
				entry.status = reply.status;
				send(res, reply.status, reply.body, reply.headers);
			} else {
				req.socket.destroy();
			}
			log(entry);
		};

		const route = ROUTES[path];
		if (!route) return finish(errorReply(404, `Not found: ${req.method} ${path}`));
		if (req.method !== 'POST') {
			const reply = errorReply(405, `Method not allowed: use POST ${path}`);
			reply.headers = { allow: 'POST' };
			return finish(reply);
		}
		if (tooLarge) return finish(errorReply(413, 'Request body too large'));

		const decision = faults.decide(FAULT_ENDPOINT_OF[route]);
		if (decision.delayMs > 0) await delay(decision.delayMs);
		if (decision.outcome !== 'ok') entry.fault = decision.outcome;
		switch (decision.outcome) {
			case 'drop-before':
				return finish(null);
			case '500':
				return finish(errorReply(500, 'Internal server error'));
			case '502':
				return finish(errorReply(502, 'Bad gateway'));
			case '503':
				return finish(errorReply(503, 'Service unavailable'));
			case '429': {
				const reply = errorReply(429, 'Too many requests');
				if (decision.retryAfterSeconds !== null) {
					reply.headers = { 'retry-after': String(Math.ceil(decision.retryAfterSeconds)) };
				}
				return finish(reply);
			}
			default:
				break;
		}
		const apiKey = req.headers['x-api-key'];
		const reply = engine.handle(
			route,
			{ apiKey: Array.isArray(apiKey) ? apiKey[0] : apiKey, query: url.searchParams, body: parsed },
			{ failAfter: decision.outcome === '500-after' },
		);
		return finish(decision.outcome === 'drop-after' ? null : reply);
	}

	/**
	 * The /__sandbox/ admin API: no key, loopback clients only, not logged.
	 * @param {IncomingMessage} req
	 * @param {ServerResponse} res
	 * @param {string} path
	 * @param {URL} url
	 */
	async function admin(req, res, path, url) {
		const { body: raw, tooLarge } = await readBody(req, ADMIN_MAX_BODY);
		if (!isLoopback(req.socket.remoteAddress)) {
			return send(res, 403, {
				status: 'error',
				message: 'The sandbox admin API answers only to loopback clients',
			});
		}
		const methods = ADMIN_ROUTES[path];
		if (!methods)
			return send(res, 404, { status: 'error', message: `Not found: ${req.method} ${path}` });
		const method = req.method ?? 'GET';
		if (!methods.includes(method)) {
			return send(
				res,
				405,
				{ status: 'error', message: `Method not allowed: use ${methods.join(' or ')} ${path}` },
				{ allow: methods.join(', ') },
			);
		}
		if (tooLarge) return send(res, 413, { status: 'error', message: 'Request body too large' });
		/** @type {unknown} */
		let body = {};
		if (method === 'POST') {
			const parsed = parseBody(req.headers['content-type'], raw);
			if (!parsed.ok) return send(res, 400, { status: 'error', message: parsed.message });
			body = parsed.value;
		}
		/** @param {string} message */
		const bad = (message, status = 400) => send(res, status, { status: 'error', message });
		const key = `${method} ${path}`;
		switch (key) {
			case 'GET /__sandbox/health':
				return send(res, 200, { status: 'ok' });
			case 'GET /__sandbox/state': {
				const limit = url.searchParams.get('requests');
				if (limit === null) return send(res, 200, state);
				const n = Number(limit);
				if (!Number.isInteger(n) || n < 0) return bad('requests must be an integer >= 0');
				return send(res, 200, { ...state, requests: n === 0 ? [] : state.requests.slice(-n) });
			}
			case 'POST /__sandbox/runs/finish': {
				const result = engine.finishRuns(body);
				if (!result.ok) return bad(result.message, result.status);
				return send(res, 200, { status: 'success', finished: result.finished });
			}
			case 'POST /__sandbox/reset':
				reset();
				return send(res, 200, { status: 'success', message: 'State reset to the data set' });
			case 'POST /__sandbox/load':
				try {
					load(/** @type {DataFile} */ (body));
				} catch (error) {
					if (error instanceof DataError) return bad(`Invalid data: ${error.message}`);
					throw error;
				}
				return send(res, 200, {
					status: 'success',
					message: 'Data set loaded',
					accounts: state.accounts.length,
				});
			case 'POST /__sandbox/dialect': {
				const dialect = /** @type {{ dialect?: unknown }} */ (body).dialect;
				if (typeof dialect !== 'string' || !DIALECTS.includes(dialect)) {
					return bad(`dialect must be one of ${DIALECTS.join(', ')}`);
				}
				engine.setDialect(/** @type {Dialect} */ (dialect));
				return send(res, 200, { status: 'success', dialect });
			}
			case 'GET /__sandbox/faults':
				return send(res, 200, { status: 'success', faults: state.faults });
			case 'POST /__sandbox/faults': {
				const parsed = parseFaults(body);
				if (!parsed.ok) return bad(parsed.message);
				faults.set(parsed.config);
				return send(res, 200, { status: 'success', faults: parsed.config });
			}
			case 'GET /__sandbox/webhooks':
				return send(res, 200, { status: 'success', webhooks: state.webhooks });
			case 'POST /__sandbox/webhooks': {
				const result = engine.setWebhook(body);
				if (!result.ok) return bad(result.message, result.status);
				return send(res, 200, { status: 'success', webhooks: state.webhooks });
			}
			case 'DELETE /__sandbox/webhooks':
				engine.clearWebhooks();
				return send(res, 200, { status: 'success', webhooks: state.webhooks });
			case 'POST /__sandbox/calls/end': {
				const result = endCall(body);
				if (!result.ok) return bad(result.message, result.status);
				if (/** @type {{ wait?: unknown }} */ (body).wait === false) {
					return send(res, 202, {
						status: 'success',
						message: 'Call ended; posting call_ended',
						call: result.call,
					});
				}
				const { call, payload, webhook, deliveries } = await result.done;
				return send(res, 200, {
					status: 'success',
					message: webhook
						? 'Call ended; call_ended posted'
						: 'Call ended; no webhook is set, nothing was posted',
					call,
					payload,
					webhook,
					deliveries,
				});
			}
			case 'DELETE /__sandbox/faults': {
				const endpoint = url.searchParams.get('endpoint');
				if (endpoint !== null && !FAULT_ENDPOINTS.includes(endpoint)) {
					return bad(`endpoint must be one of ${FAULT_ENDPOINTS.join(', ')}`);
				}
				faults.clear(
					/** @type {import('./faults.mjs').FaultEndpoint | undefined} */ (endpoint ?? undefined),
				);
				return send(res, 200, { status: 'success', faults: state.faults });
			}
			default:
				return bad('Not found', 404);
		}
	}

	function reset() {
		generation++;
		engine.reset();
		faults.clear();
	}

	/** @param {unknown} next */
	function load(next) {
		engine.load(next);
		generation++;
		faults.clear();
	}

	const server = createServer((req, res) => {
		onRequest(req, res).catch((/** @type {unknown} */ error) => {
			// Never crash: answer 500 when possible, otherwise drop the connection.
			if (!res.headersSent && !res.destroyed) {
				send(res, 500, { status: 'error', message: `Sandbox error: ${String(error)}` });
			} else {
				res.destroy();
			}
		});
	});
	server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5000;
	server.headersTimeout = Math.max(server.keepAliveTimeout + 1000, 10_000);
	/** @type {Set<import('node:net').Socket>} */
	const sockets = new Set();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	server.on('clientError', (_error, socket) => {
		if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
		else socket.destroy();
	});

	const host = options.host ?? '127.0.0.1';
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => {
			server.off('error', reject);
			resolve(undefined);
		});
	});
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	const urlHost = address.family === 'IPv6' || host.includes(':') ? `[${address.address}]` : host;
	const baseUrl = `http://${urlHost}:${address.port}`;

	let closed = false;
	async function close() {
		if (closed) return;
		closed = true;
		engine.dispose();
		closing.abort();
		await Promise.allSettled([...inFlight]);
		for (const id of delays) clearTimeout(id);
		delays.clear();
		const done = new Promise((resolve) => server.close(() => resolve(undefined)));
		for (const socket of sockets) socket.destroy();
		server.closeAllConnections();
		await done;
	}

	return {
		url: baseUrl,
		port: address.port,
		state,
		close,
		reset,
		load: (next) => load(next),
		setFaults(input) {
			const parsed = parseFaults(input);
			if (!parsed.ok) throw new Error(parsed.message);
			faults.set(parsed.config);
			return parsed.config;
		},
		clearFaults: (endpoint) => faults.clear(endpoint),
		finishRuns(selector) {
			const result = engine.finishRuns(selector);
			if (!result.ok) throw new Error(result.message);
			return result.finished;
		},
		setDialect: (dialect) => engine.setDialect(dialect),
		pendingTimers: () => engine.pendingTimers,
		setWebhook(input) {
			const result = engine.setWebhook(input);
			if (!result.ok) throw new Error(result.message);
		},
		clearWebhooks: () => engine.clearWebhooks(),
		async endCall(input) {
			const result = endCall(input);
			if (!result.ok) throw new Error(result.message);
			return await result.done;
		},
		async webhooksIdle() {
			while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
		},
	};
}
