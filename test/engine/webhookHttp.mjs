// @ts-check
/**
 * A tiny HTTP front for the webhook harness: it reads the body the way n8n's body parser does
 * for JSON, adds `body`, `query`, `params` and `rawBody` to the request (as express and n8n's
 * middleware do), and hands the real `IncomingMessage`/`ServerResponse` to a handler.
 * It lives in .mjs because the strict n8n lint forbids node:http in .ts files.
 */
import { createServer } from 'node:http';

/**
 * @typedef {import('node:http').IncomingMessage & { body?: unknown, rawBody?: Buffer, query?: Record<string, string>, params?: Record<string, string> }} WebhookRequest
 * @typedef {(req: WebhookRequest, res: import('node:http').ServerResponse) => Promise<void>} Handler
 */

/**
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<Buffer>}
 */
function readBody(req) {
	return new Promise((resolve, reject) => {
		/** @type {Buffer[]} */
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 */
export function sendJson(res, status, body) {
	const text = JSON.stringify(body);
	res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
	res.end(text);
}

/**
 * Lets requests that arrived meanwhile run (as they do while n8n awaits its database).
 * @returns {Promise<void>}
 */
export function yieldToOtherRequests() {
	return new Promise((resolve) => setImmediate(resolve));
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {string} text
 */
export function sendText(res, status, text) {
	res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
	res.end(text);
}

/**
 * Starts listening on 127.0.0.1 (an ephemeral port).
 * @param {Handler} handler
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function startHttpServer(handler) {
	/** @type {Set<import('node:net').Socket>} */
	const sockets = new Set();
	const server = createServer((incoming, res) => {
		const req = /** @type {WebhookRequest} */ (incoming);
		readBody(req)
			.then(async (raw) => {
				const url = new URL(req.url ?? '/', 'http://harness.local');
				req.query = Object.fromEntries(url.searchParams);
				req.params = {};
				req.rawBody = raw;
				const type = String(req.headers['content-type'] ?? '');
				if (raw.length === 0) {
					req.body = {};
				} else if (/\bjson\b/i.test(type)) {
					try {
						req.body = JSON.parse(raw.toString('utf8'));
					} catch {
						return sendJson(res, 400, { code: 400, message: 'Malformed JSON body' });
					}
				} else {
					req.body = {};
				}
				return await handler(req, res);
			})
			.catch((/** @type {unknown} */ error) => {
				if (!res.headersSent && !res.destroyed) {
					sendJson(res, 500, { code: 500, message: `Harness error: ${String(error)}` });
				} else {
					res.destroy();
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
		close: async () => {
			const done = new Promise((resolve) => server.close(() => resolve(undefined)));
			for (const socket of sockets) socket.destroy();
			await done;
		},
	};
}
