// A scripted stand-in for an OpenAI-compatible chat model, so that n8n's real AI Agent can be
// driven without a key or the internet: n8n's OpenAI Chat Model (its `openAiApi` credential's
// Base URL set to `<server>/v1`) posts to `POST /v1/chat/completions`, and the server answers
// from a script instead of thinking.
//
//   const model = await startScriptedModel();          // 127.0.0.1, a free port
//   model.script([
//     { toolCalls: [{ tool: 'Place_Call', args: { phone: '+919820012345', time: '…' } }] },
//     { content: 'Done.' },                            // a final answer ends the agent's run
//   ]);
//   … the agent runs …
//   model.toolResults();                              // what the tools gave back to the model
//   model.requests;                                   // every request, as received
//
// A turn is one answer: either `{ toolCalls: [...] }` (one or several calls in one turn, which
// the agent runs in parallel) or `{ content }` (the final assistant message). `tool` picks the
// tool from the request's `tools` list: the exact name, else the one whose name starts with it
// (n8n names a tool after its node: "Place Call" -> `Place_Call`), else a RegExp. A turn may also
// be a function `(request) => turn`, to answer from what the model received. When the queue is
// empty, `responder(request)` (option, or `setResponder()`) answers; without one the answer is a
// final message saying that the script ran out. `exampleResponder` is the one `npm start` uses for
// examples/ai-agent-outbound-call.json. A turn naming a tool the request does not offer is
// answered 400 (no retry), and the request keeps the `scriptError`. Non-streaming and
// `stream: true` (server-sent events, parallel tool calls by index) both work.
//
// The same control over HTTP (loopback only), for a model server run beside `npm start`:
//   POST /__scripted/script    { "turns": [...] } (replaces the queue; `tool` is a name or prefix)
//   GET  /__scripted/requests  { requests: [...] }   every request since the last reset
//   POST /__scripted/reset     empties the queue and the record
//   GET  /v1/models            one model, `scripted-model` (the node's model list asks for it)
import { createServer } from 'node:http';

export const SCRIPTED_MODEL_ID = 'scripted-model';

const json = (res, status, body) => {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
};

const readBody = (req) =>
	new Promise((resolve, reject) => {
		let text = '';
		req.setEncoding('utf8');
		req.on('data', (chunk) => (text += chunk));
		req.on('end', () => resolve(text));
		req.on('error', reject);
	});

/** The text of a message's content (a string, or OpenAI's array of `{ type: 'text', text }`). */
export function contentText(content) {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) return content.map((part) => part?.text ?? '').join('');
	return content == null ? '' : JSON.stringify(content);
}

const parseOrText = (text) => {
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
};

/**
 * The `tool` messages of a request, in order, each with the name of the tool that was called
 * (from the assistant message that asked for it), its arguments and what it returned:
 * `{ id, name, args, content (text), result (content parsed as JSON when it is JSON) }`.
 */
export function toolResultsOf(request) {
	const calls = new Map();
	for (const m of request?.body?.messages ?? [])
		for (const call of m.role === 'assistant' ? (m.tool_calls ?? []) : []) calls.set(call.id, call);
	return (request?.body?.messages ?? [])
		.filter((m) => m.role === 'tool')
		.map((m) => {
			const call = calls.get(m.tool_call_id);
			const content = contentText(m.content);
			return {
				id: m.tool_call_id,
				name: call?.function?.name ?? null,
				args: call ? parseOrText(call.function.arguments) : null,
				content,
				result: parseOrText(content),
			};
		});
}

/** The tool a turn names, among the tools the request offered. */
function pickTool(wanted, offered) {
	if (wanted instanceof RegExp) return offered.find((name) => wanted.test(name));
	return offered.includes(wanted) ? wanted : offered.find((name) => name.startsWith(wanted));
}

/** The last user message of a request, as text. */
export function userText(request) {
	const users = (request?.body?.messages ?? []).filter((m) => m.role === 'user');
	return contentText(users.at(-1)?.content);
}

/** Tomorrow at `hour`:00 in India (UTC+05:30), written with its offset. */
export function tomorrowInIndia(hour = 11, now = Date.now()) {
	const day = new Date(now + 5.5 * 3600_000 + 24 * 3600_000).toISOString().slice(0, 10);
	return `${day}T${String(hour).padStart(2, '0')}:00:00+05:30`;
}

/** What one tool result says, in a sentence (for the example's final answer). */
function sayResult({ name, args, result }) {
	const item = Array.isArray(result) ? result[0] : result;
	const who = item?.toNumber ?? args?.phone ?? 'that number';
	if (!item || typeof item !== 'object') return `${name} gave nothing back for ${who}.`;
	if (item.error) return `${name} refused ${who}: ${item.error}`;
	if (item.placed === true)
		return `Called ${who}: call ${item.callId}, at ${item.scheduleAt ?? 'once'} (India time).`;
	if (item.placed === false) return `Not called ${who} (${item.status}): ${item.message}`;
	if (item.deleted !== undefined)
		return `${item.deleted ? 'Cancelled' : 'Nothing to cancel for'} ${who}.`;
	return `${name}: ${JSON.stringify(item)}`;
}

/**
 * The model of examples/ai-agent-outbound-call.json under `npm start` (and its e2e case): with no
 * tool result yet, it calls the tool that takes a phone and a time once for every number written
 * in the user's message (+ and the country code, spaces allowed), all in one turn, for tomorrow
 * 11:00 India time; once the tools have answered, it says what each one gave back.
 */
export function exampleResponder(request) {
	const results = toolResultsOf(request);
	if (results.length > 0) return { content: results.map(sayResult).join(' ') };
	const tools = (request.body.tools ?? []).map((t) => t.function ?? t);
	const takes = (tool, key) => Object.hasOwn(tool.parameters?.properties ?? {}, key);
	const placeTool = tools.find((t) => takes(t, 'phone') && takes(t, 'time'));
	const numbers = userText(request).match(/\+\d[\d -]{6,18}\d/g) ?? [];
	if (!placeTool || numbers.length === 0)
		return { content: 'Which number shall I call? Write it with + and its country code.' };
	const time = tomorrowInIndia(11);
	return {
		toolCalls: [...new Set(numbers)].map((phone) => ({
			tool: placeTool.name,
			args: { phone, time },
		})),
	};
}

/** The request the printed curl of `npm start` sends to the example (and its e2e case sends). */
export const AGENT_EXAMPLE_PATH = 'callkaro-agent-call';
export const AGENT_EXAMPLE_REQUEST = {
	phone: '+91 98200 33331',
	message: 'Call me tomorrow at 11, and call my friend on +91 98200 33339 too.',
};

export async function startScriptedModel({ port = 0, host = '127.0.0.1', responder, log } = {}) {
	let queue = [];
	let callCount = 0;
	let completionCount = 0;
	const requests = [];

	/** Turns a scripted turn into the assistant message it stands for. */
	function answer(turn, request) {
		const offered = (request.body.tools ?? []).map((t) => t.function?.name ?? t.name);
		if (turn.toolCalls?.length) {
			const toolCalls = turn.toolCalls.map((call) => {
				const name = pickTool(call.tool, offered);
				if (!name)
					throw new Error(
						`the script calls a tool "${call.tool}" the request does not offer (it offers: ${offered.join(', ') || 'none'})`,
					);
				return {
					id: call.id ?? `call_scripted_${++callCount}`,
					type: 'function',
					function: {
						name,
						arguments: typeof call.args === 'string' ? call.args : JSON.stringify(call.args ?? {}),
					},
				};
			});
			return { role: 'assistant', content: turn.content ?? null, tool_calls: toolCalls };
		}
		return { role: 'assistant', content: String(turn.content ?? '') };
	}

	function nextTurn(request) {
		let turn = queue.shift();
		if (turn === undefined && responder) turn = responder(request);
		if (turn === undefined)
			turn = { content: '(scripted model: the script has no turn left for this request)' };
		return typeof turn === 'function' ? turn(request) : turn;
	}

	async function completions(req, res) {
		const text = await readBody(req);
		let body;
		try {
			body = JSON.parse(text);
		} catch {
			return json(res, 400, { error: { message: 'body is not JSON', type: 'invalid_request' } });
		}
		const request = { at: new Date().toISOString(), path: req.url, body };
		requests.push(request);
		let message;
		try {
			message = answer(nextTurn(request), request);
		} catch (err) {
			// 400: the OpenAI client does not retry it, so a bad script fails the run at once
			request.scriptError = err.message;
			log?.(`[model] script error: ${err.message}`);
			return json(res, 400, { error: { message: err.message, type: 'invalid_request' } });
		}
		request.answer = message;
		log?.(
			`[model] ${message.tool_calls ? `tool calls: ${message.tool_calls.map((c) => `${c.function.name}(${c.function.arguments})`).join(', ')}` : `answer: ${message.content}`}`,
		);
		const id = `chatcmpl-scripted-${++completionCount}`;
		const created = Math.floor(Date.now() / 1000);
		const model = body.model ?? SCRIPTED_MODEL_ID;
		const finish = message.tool_calls ? 'tool_calls' : 'stop';
		const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
		if (!body.stream)
			return json(res, 200, {
				id,
				object: 'chat.completion',
				created,
				model,
				choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
				usage,
			});
		// server-sent events, as OpenAI streams: the role, the content or each tool call, the end
		res.writeHead(200, {
			'content-type': 'text/event-stream',
			'cache-control': 'no-cache',
			connection: 'keep-alive',
		});
		const chunk = (delta, finishReason = null, extra = {}) =>
			res.write(
				`data: ${JSON.stringify({
					id,
					object: 'chat.completion.chunk',
					created,
					model,
					choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
					...extra,
				})}\n\n`,
			);
		chunk({ role: 'assistant', content: '' });
		if (message.content) chunk({ content: message.content });
		(message.tool_calls ?? []).forEach((call, index) => {
			const { name, arguments: args } = call.function;
			chunk({
				tool_calls: [{ index, id: call.id, type: 'function', function: { name, arguments: '' } }],
			});
			chunk({ tool_calls: [{ index, function: { arguments: args } }] });
		});
		chunk({}, finish);
		if (body.stream_options?.include_usage)
			res.write(
				`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`,
			);
		res.end('data: [DONE]\n\n');
	}

	async function admin(req, res, path) {
		const address = req.socket.remoteAddress ?? '';
		if (!/^(127\.|::1$|::ffff:127\.)/.test(address))
			return json(res, 403, { error: 'loopback only' });
		if (path === '/__scripted/requests' && req.method === 'GET')
			return json(res, 200, { requests });
		if (path === '/__scripted/reset' && req.method === 'POST') {
			api.reset();
			return json(res, 200, { status: 'success' });
		}
		if (path === '/__scripted/script' && req.method === 'POST') {
			const body = parseOrText(await readBody(req));
			if (!Array.isArray(body?.turns))
				return json(res, 400, {
					error: 'send { "turns": [ { "toolCalls": [...] } | { "content": "…" } ] }',
				});
			api.script(body.turns);
			return json(res, 200, { status: 'success', queued: queue.length });
		}
		return json(res, 404, { error: `no admin route ${req.method} ${path}` });
	}

	const server = createServer((req, res) => {
		const path = new URL(req.url, 'http://x').pathname.replace(/\/+$/, '');
		const handled =
			path.endsWith('/chat/completions') && req.method === 'POST'
				? completions(req, res)
				: path.endsWith('/models') && req.method === 'GET'
					? json(res, 200, {
							object: 'list',
							data: [
								{ id: SCRIPTED_MODEL_ID, object: 'model', created: 0, owned_by: 'callkaro-tests' },
							],
						})
					: path.startsWith('/__scripted/')
						? admin(req, res, path)
						: json(res, 404, {
								error: {
									message: `the scripted model answers POST /v1/chat/completions only, not ${req.method} ${path} (turn the OpenAI Chat Model's "Use Responses API" off)`,
									type: 'invalid_request',
								},
							});
		Promise.resolve(handled).catch((err) => {
			if (!res.headersSent) json(res, 500, { error: { message: err.message } });
			else res.end();
		});
	});
	server.listen(port, host);
	await new Promise((resolve, reject) => {
		server.once('listening', resolve);
		server.once('error', reject);
	});
	const base = `http://${host}:${server.address().port}`;

	const api = {
		/** The server's root, and the Base URL for an `openAiApi` credential (`…/v1`). */
		url: base,
		baseUrl: `${base}/v1`,
		port: server.address().port,
		/** Every request received since the last reset: `{ at, path, body, answer }`. */
		requests,
		/** Replaces the queue of turns (and forgets the requests, unless `keepRequests`). */
		script(turns, { keepRequests = false } = {}) {
			queue = [...turns];
			if (!keepRequests) requests.length = 0;
			return api;
		},
		/** What answers once the queue is empty (undefined: a message that the script ran out). */
		setResponder(fn) {
			responder = fn;
			return api;
		},
		/** Turns not answered yet. */
		pending: () => queue.length,
		reset() {
			queue = [];
			requests.length = 0;
		},
		/** The tool results the model received in its last request (or in `request`). */
		toolResults: (request = requests.at(-1)) => toolResultsOf(request),
		/** The tools of the last request: `{ name, description, parameters }`. */
		tools: (request = requests.at(-1)) =>
			(request?.body?.tools ?? []).map((t) => ({
				name: t.function?.name,
				description: t.function?.description,
				parameters: t.function?.parameters,
			})),
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};
	return api;
}
