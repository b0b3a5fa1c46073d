// @ts-check
// A throwaway HTTP server on 127.0.0.1 for the engine harness's own tests: it records every
// request and answers with whatever the test's responder returns (default: 200 echoing the
// request). Plain ESM JavaScript because the strict n8n lint forbids node: builtins in .ts files;
// jest loads it as CommonJS (test/support/esbuildTransform.cjs), so no import.meta and no top-level await here.
import http from 'node:http';

/**
 * @typedef {object} RecordedRequest
 * @property {string} method
 * @property {string} path      URL path without the query string
 * @property {Record<string, string>} query
 * @property {Record<string, string | string[] | undefined>} headers  lower-case names, as node gives them
 * @property {string} rawBody
 * @property {unknown} body     parsed JSON or form body when the content type says so, else the raw string
 */

/**
 * @typedef {object} EchoResponse
 * @property {number} [status]   default 200
 * @property {unknown} [json]    sent as application/json
 * @property {string} [text]     sent as text/plain when json is absent
 * @property {Record<string, string>} [headers]
 */

/** @typedef {(request: RecordedRequest) => EchoResponse | Promise<EchoResponse>} Responder */

/**
 * @typedef {object} EchoServer
 * @property {string} url  e.g. http://127.0.0.1:40123 (no trailing slash)
 * @property {RecordedRequest[]} requests  every request received so far, oldest first
 * @property {(next?: Responder) => void} setResponder  replaces the responder; no argument = echo again
 * @property {() => void} reset  forgets recorded requests and restores the initial responder
 * @property {() => Promise<void>} close
 */

/**
 * @param {string} rawBody
 * @param {string | undefined} contentType
 * @returns {unknown}
 */
function parseBody(rawBody, contentType) {
	if (rawBody === '') return undefined;
	const type = (contentType ?? '').toLowerCase();
	if (type.includes('application/json')) {
		try {
			return JSON.parse(rawBody);
		} catch {
			return rawBody;
		}
	}
	if (type.includes('application/x-www-form-urlencoded')) {
		return Object.fromEntries(new URLSearchParams(rawBody));
	}
	return rawBody;
}

/** @type {Responder} */
const echoResponder = (request) => ({ status: 200, json: { echo: request } });

/**
 * Starts the server on 127.0.0.1 (port 0 = any free port).
 * @param {{ port?: number, responder?: Responder }} [options]
 * @returns {Promise<EchoServer>}
 */
export function startEchoServer(options = {}) {
	/** @type {RecordedRequest[]} */
	const requests = [];
	let responder = options.responder ?? echoResponder;

	const server = http.createServer((req, res) => {
		/** @type {Buffer[]} */
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => {
			const url = new URL(req.url ?? '/', 'http://127.0.0.1');
			const rawBody = Buffer.concat(chunks).toString('utf8');
			/** @type {RecordedRequest} */
			const recorded = {
				method: req.method ?? 'GET',
				path: url.pathname,
				query: Object.fromEntries(url.searchParams),
				headers: { ...req.headers },
				rawBody,
				body: parseBody(rawBody, req.headers['content-type']),
			};
			requests.push(recorded);
			Promise.resolve()
				.then(() => responder(recorded))
				.then((answer) => {
					const headers = { ...(answer.headers ?? {}) };
					let payload = '';
					if (answer.json !== undefined) {
						headers['content-type'] ??= 'application/json';
						payload = JSON.stringify(answer.json);
					} else if (answer.text !== undefined) {
						headers['content-type'] ??= 'text/plain';
						payload = answer.text;
					}
					res.writeHead(answer.status ?? 200, headers);
					res.end(payload);
				})
				.catch((error) => {
					res.writeHead(500, { 'content-type': 'text/plain' });
					res.end(String(error));
				});
		});
	});

	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			resolve({
				url: `http://127.0.0.1:${port}`,
				requests,
				setResponder(next) {
					responder = next ?? echoResponder;
				},
				reset() {
					requests.length = 0;
					responder = options.responder ?? echoResponder;
				},
				close() {
					return new Promise((done) => {
						server.closeAllConnections();
						server.close(() => done());
					});
				},
			});
		});
	});
}
