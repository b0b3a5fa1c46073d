// @ts-check
/**
 * A tiny HTTP server that receives the sandbox's webhook posts in tests: it records each request
 * and answers with a chosen status, optionally after a delay. In .mjs because the strict n8n lint
 * forbids node:http in .ts files.
 */
import { createServer } from 'node:http';

/**
 * @typedef {object} ReceivedRequest
 * @property {string} method
 * @property {string} path
 * @property {import('node:http').IncomingHttpHeaders} headers
 * @property {string} raw
 * @property {unknown} body  parsed JSON, or undefined when it did not parse
 */

/**
 * @param {{ status?: number, delayMs?: number }} [options]
 */
export async function startReceiver(options = {}) {
	let status = options.status ?? 200;
	let delayMs = options.delayMs ?? 0;
	/** @type {ReceivedRequest[]} */
	const requests = [];
	/** @type {Set<import('node:net').Socket>} */
	const sockets = new Set();
	/** @type {Set<ReturnType<typeof setTimeout>>} */
	const timers = new Set();
	const server = createServer((req, res) => {
		/** @type {Buffer[]} */
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => {
			const raw = Buffer.concat(chunks).toString('utf8');
			let body;
			try {
				body = JSON.parse(raw);
			} catch {
				body = undefined;
			}
			requests.push({
				method: req.method ?? '',
				path: req.url ?? '/',
				headers: req.headers,
				raw,
				body,
			});
			const answer = () => {
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ received: true, status }));
			};
			if (delayMs > 0) {
				const timer = setTimeout(() => {
					timers.delete(timer);
					if (!res.destroyed) answer();
				}, delayMs);
				timers.add(timer);
			} else {
				answer();
			}
		});
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve(undefined));
	});
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		/** @param {number} next */
		setStatus(next) {
			status = next;
		},
		/** @param {number} next */
		setDelay(next) {
			delayMs = next;
		},
		async close() {
			for (const timer of timers) clearTimeout(timer);
			const done = new Promise((resolve) => server.close(() => resolve(undefined)));
			for (const socket of sockets) socket.destroy();
			await done;
		},
	};
}

/** A URL on which nothing listens (a port that was free a moment ago). */
export async function unusedUrl() {
	const server = createServer();
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
	await new Promise((resolve) => server.close(() => resolve(undefined)));
	return `http://127.0.0.1:${port}/hook`;
}
