// The CallKaro tools in n8n's real AI Agent (issue 33): a published Webhook -> AI Agent (its
// default version: 3.1 on n8n 2.x, 3 on 1.x) -> OpenAI Chat Model, whose `openAiApi` credential
// points at a scripted OpenAI-compatible server (test/support/scriptedModel.mjs), with the tool
// variants of Outbound Call and Delete Scheduled Call (Phone Number and Schedule Time from
// $fromAI(), Allowed Numbers from the request). Each case scripts the model's turns, posts to the
// webhook, and checks what the sandbox got, what the model got back in its `tool` messages, and
// the execution's status. One n8n start for the whole file.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { DEMO_API_KEY } from '../sandbox/sandbox.mjs';
import {
	AGENT_EXAMPLE_PATH,
	AGENT_EXAMPLE_REQUEST,
	SCRIPTED_MODEL_ID,
	exampleResponder,
	startScriptedModel,
} from '../support/scriptedModel.mjs';
import {
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	MODEL_CREDENTIAL_ID,
	MODEL_CREDENTIAL_NAME,
	PACKAGE_NAME,
	PROJECT_ROOT,
	modelCredential,
} from '../../scripts/n8n/host.mjs';
import { n8nPaths } from '../../scripts/n8n/install.mjs';
import { postJson, readExample, startE2e, waitForExecutions } from './harness.mjs';

const { major } = n8nPaths().target;
const require = createRequire(import.meta.url);
const WORKFLOW_ID = 'ckAgentE2e000001';
const HOOK = 'callkaro-agent-e2e';
const AGENT = 'agent_sales_01';
// the node names give the tool names n8n sends the model
const PLACE = 'Place Call';
const CANCEL = 'Cancel Scheduled Call';
const PLACE_TOOL = 'Place_Call';
const CANCEL_TOOL = 'Cancel_Scheduled_Call';

// tomorrow 11:00 in India (the sandbox reads schedule_at as IST)
const tomorrow = new Date(Date.now() + 5.5 * 3600_000 + 24 * 3600_000).toISOString().slice(0, 10);
const TIME = `${tomorrow}T11:00:00+05:30`;
const TIME_SENT = `${tomorrow}T11:00:00`;
const digits = (s) => String(s).replace(/\D/g, '');
const fromAiPhone = "={{ $fromAI('phone', 'the number to call, with + and country code') }}";
// what the request allows: one number or a comma-separated list
const allowedNumbers = "={{ $('Webhook').item.json.body.allowed }}";

const node = (name, type, typeVersion, x, y, parameters, more = {}) => ({
	id: `a9e70000-0000-4000-8000-0000000a9e${String(x)}${String(y)}`,
	name,
	type,
	typeVersion,
	position: [x * 220, y * 160],
	parameters,
	...more,
});
const callKaro = { callKaroApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };
const workflow = {
	id: WORKFLOW_ID,
	name: 'AI Agent places CallKaro calls (e2e)',
	active: false,
	settings: { executionOrder: 'v1' },
	nodes: [
		node(
			'Webhook',
			'n8n-nodes-base.webhook',
			2,
			0,
			0,
			{ httpMethod: 'POST', path: HOOK, responseMode: 'lastNode', options: {} },
			{ webhookId: 'a9e70000-0000-4000-8000-0000000a9eff' },
		),
		node('AI Agent', '@n8n/n8n-nodes-langchain.agent', major >= 2 ? 3.1 : 3, 1, 0, {
			promptType: 'define',
			text: '={{ $json.body.message }}',
			options: {
				systemMessage:
					'You book and cancel phone calls for the sales team with the CallKaro tools.',
				maxIterations: 8,
			},
		}),
		node(
			'OpenAI Chat Model',
			'@n8n/n8n-nodes-langchain.lmChatOpenAi',
			1.3,
			1,
			1,
			{
				model: { __rl: true, mode: 'id', value: SCRIPTED_MODEL_ID },
				responsesApiEnabled: false,
				options: { maxRetries: 0 },
			},
			{ credentials: { openAiApi: { id: MODEL_CREDENTIAL_ID, name: MODEL_CREDENTIAL_NAME } } },
		),
		node(
			PLACE,
			`${PACKAGE_NAME}.callKaroOutboundCallTool`,
			1,
			2,
			1,
			{
				agentId: AGENT,
				phoneNumber: fromAiPhone,
				additionalFields: {
					scheduleAt:
						"={{ $fromAI('time', 'when to call, ISO 8601 with the offset, e.g. 2030-01-31T11:00:00+05:30') }}",
				},
				allowedNumbers,
				options: {},
			},
			{ credentials: callKaro },
		),
		node(
			CANCEL,
			`${PACKAGE_NAME}.callKaroDeleteScheduledCallTool`,
			1,
			3,
			1,
			{
				phoneNumber: fromAiPhone,
				agentId: AGENT,
				allowedNumbers,
				options: {},
			},
			{ credentials: callKaro },
		),
	],
	connections: {
		Webhook: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
		'OpenAI Chat Model': {
			ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
		},
		[PLACE]: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		[CANCEL]: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
	},
};

// the same agent with one limit of the Place Call tool left to the model ($fromAI), as n8n's
// "let the model define this" button writes it: refused as a wrong setting, nothing sent
const modelDefined = (id, hook, limit) => ({
	...workflow,
	id,
	name: `AI Agent with a limit left to the model: ${Object.keys(limit)[0]} (e2e)`,
	nodes: workflow.nodes
		.filter((n) => n.name !== CANCEL)
		.map((n) => {
			if (n.name === 'Webhook')
				return {
					...n,
					id: `${n.id.slice(0, -4)}${hook.slice(-4)}`,
					parameters: { ...n.parameters, path: hook },
					webhookId: `${n.webhookId.slice(0, -4)}${hook.slice(-4)}`,
				};
			if (n.name === PLACE) return { ...n, parameters: { ...n.parameters, ...limit } };
			return n;
		}),
	connections: Object.fromEntries(
		Object.entries(workflow.connections).filter(([from]) => from !== CANCEL),
	),
});
const MODEL_DEFINED = {
	'Allowed Numbers': modelDefined('ckAgentE2eLimit01', 'callkaro-agent-e2e-lim1', {
		allowedNumbers: "={{ $fromAI('Allowed_Numbers', 'the numbers you may call', 'string') }}",
	}),
	'Max Calls per Execution': modelDefined('ckAgentE2eLimit02', 'callkaro-agent-e2e-lim2', {
		maxCallsPerExecution:
			"={{ $fromAI('Max_Calls_per_Execution', 'how many calls you may place', 'number') }}",
	}),
};

// the example as shipped, with the model npm start gives it
const example = readExample('ai-agent-outbound-call.json');

let e2e;
let model;
beforeAll(async () => {
	model = await startScriptedModel();
	e2e = await startE2e({
		examples: false,
		workflows: [workflow, example, ...Object.values(MODEL_DEFINED)],
		publish: [WORKFLOW_ID, example.id, ...Object.values(MODEL_DEFINED).map((w) => w.id)],
		credentials: [modelCredential({ url: model.baseUrl })],
		// community nodes are tools without it since n8n 1.85 (the harness turns it on for the
		// other files): off here, as in a default install, on both lines
		env: { N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'false' },
	});
});
afterAll(async () => {
	await e2e?.close();
	await model?.close();
});

const place = (phone, time = TIME) => ({ tool: PLACE_TOOL, args: { phone, time } });
const cancel = (phone) => ({ tool: CANCEL_TOOL, args: { phone } });

/**
 * Scripts the model, posts the request to the published webhook and waits for its execution:
 * { status (HTTP), reply, execution (its status), results (the tool messages the model got in its
 * last request), requests }.
 */
async function runAgent(message, allowed, turns, more = {}) {
	const { hook = HOOK, workflowId = WORKFLOW_ID, body = { message, allowed } } = more;
	const server = await e2e.server();
	const before = (await server.executions(workflowId)).length;
	model.script(turns);
	const res = await postToAgent(`${server.url}/webhook/${hook}`, body);
	const text = await res.text();
	let reply;
	try {
		reply = JSON.parse(text);
	} catch {
		reply = text;
	}
	const executions = await waitForExecutions(server, workflowId, before + 1);
	const run = {
		status: res.status,
		reply,
		execution: executions.at(-1).status,
		executionId: executions.at(-1).id,
		results: model.toolResults(),
		requests: [...model.requests],
		left: model.pending(),
	};
	// with --keep: what each case's model received, to read after the run
	const record = path.join(e2e.work, 'model-requests.jsonl');
	fs.appendFileSync(record, `${JSON.stringify({ body, ...run })}\n`);
	return run;
}

/**
 * POSTs to the published webhook. n8n answers before it has registered its published workflows'
 * webhooks: until then the path is "not registered" (404, no execution), so that is retried.
 */
async function postToAgent(url, body) {
	for (const deadline = Date.now() + 30_000; ; await sleep(250)) {
		const res = await postJson(url, body);
		if (res.status !== 404 || Date.now() > deadline) return res;
		const text = await res.text();
		if (!/not registered/.test(text)) return new Response(text, { status: 404 });
	}
}

/** A scheduled call of the agent to `phone`, made straight through the sandbox's API. */
async function scheduleInSandbox(phone) {
	const res = await postJson(
		`${e2e.sandbox.url}/call/outbound`,
		{ to_number: phone, agent_id: AGENT, schedule_at: TIME_SENT },
		{ 'x-api-key': DEMO_API_KEY },
	);
	expect(res.status).toBe(200);
	return (await res.json()).call_id;
}
const callsTo = async (phone) =>
	(await e2e.state()).calls.filter((c) => c.number === digits(phone));

test('the model is offered both tools, named after their nodes, with $fromAI() as required JSON-schema arguments', async () => {
	const run = await runAgent('Hello', '+919820077700', [{ content: 'Hello! Whom shall I call?' }]);
	expect(run.status).toBe(200);
	expect(run.reply).toMatchObject({ output: 'Hello! Whom shall I call?' });
	const tools = model.tools(run.requests[0]);
	expect(tools.map((t) => t.name).sort()).toEqual([CANCEL_TOOL, PLACE_TOOL]);
	const placeTool = tools.find((t) => t.name === PLACE_TOOL);
	// no Tool Description stored in this workflow: n8n (2.41.1 and 1.123.81 alike) builds the tool
	// at run time from the node's own description, not from usableAsTool.replacements (those only
	// reach the editor's node list, hence the default of a Tool Description field the editor fills):
	// the node creator's text, written for a person
	expect(placeTool.description).toBe(
		'Place a phone call with a CallKaro voice agent, now or at a set time',
	);
	expect(placeTool.parameters).toMatchObject({
		type: 'object',
		properties: { phone: { type: 'string' }, time: { type: 'string' } },
	});
	expect(placeTool.parameters.required.sort()).toEqual(['phone', 'time']);
	const cancelTool = tools.find((t) => t.name === CANCEL_TOOL);
	expect(cancelTool.description).toMatch(/scheduled call/i);
	expect(Object.keys(cancelTool.parameters.properties)).toEqual(['phone']);
	expect(run.execution).toBe('success');
});

test('the agent places a call with the number and time it chose: 1 call scheduled, placed: true and its callId back to the model', async () => {
	const phone = '+919820077701';
	const run = await runAgent(`Call ${phone} tomorrow at 11`, phone, [
		{ toolCalls: [place(phone)] },
		{ content: 'Your call is booked for tomorrow at 11:00.' },
	]);
	expect(run.status).toBe(200);
	expect(run.reply).toMatchObject({ output: 'Your call is booked for tomorrow at 11:00.' });
	const calls = await callsTo(phone);
	expect(calls).toHaveLength(1);
	expect(calls[0]).toMatchObject({ agentId: AGENT, status: 'scheduled' });
	expect(run.results).toHaveLength(1);
	expect(run.results[0]).toMatchObject({ name: PLACE_TOOL, args: { phone, time: TIME } });
	expect(run.results[0].result).toEqual([
		expect.objectContaining({ placed: true, callId: calls[0].id, toNumber: phone }),
	]);
	expect(run.execution).toBe('success');
	expect(run.left).toBe(0);
});

test('a malformed number ("call me tomorrow"): nothing sent; the model gets a message naming Phone Number and the country code; the execution goes on', async () => {
	const before = (await e2e.state()).calls.length;
	const run = await runAgent('Call me tomorrow', '+919820077702', [
		{ toolCalls: [place('call me tomorrow')] },
		{ content: 'Which number shall I call, with its country code?' },
	]);
	expect((await e2e.state()).calls).toHaveLength(before);
	// n8n 1.x stops the workflow at a failing tool (n8n #24042) unless the node answers the model
	// itself; intended on both lines: the model gets the message and asks again
	expect({ status: run.status, execution: run.execution }).toEqual({
		status: 200,
		execution: 'success',
	});
	expect(run.results).toHaveLength(1);
	expect(run.results[0].content).toContain('Phone Number');
	expect(run.results[0].content).toContain('country code');
	expect(run.reply).toMatchObject({ output: 'Which number shall I call, with its country code?' });
});

test('the same number twice in one execution: 1 call placed; the second result says not placed, status duplicate', async () => {
	const phone = '+919820077703';
	const run = await runAgent(`Call ${phone} tomorrow at 11`, phone, [
		{ toolCalls: [place(phone)] },
		{ toolCalls: [place(phone)] },
		{ content: 'Booked.' },
	]);
	expect(await callsTo(phone)).toHaveLength(1);
	expect(run.results).toHaveLength(2);
	expect(run.results[0].result).toEqual([expect.objectContaining({ placed: true })]);
	expect(run.results[1].result).toEqual([
		expect.objectContaining({ placed: false, status: 'duplicate' }),
	]);
	expect({ status: run.status, execution: run.execution }).toEqual({
		status: 200,
		execution: 'success',
	});
});

test('the same number twice in parallel in one turn: 1 call placed, the other result duplicate', async () => {
	const phone = '+919820077710';
	const run = await runAgent(`Call ${phone} tomorrow at 11`, phone, [
		{ toolCalls: [place(phone), place(phone)] },
		{ content: 'Booked.' },
	]);
	expect(await callsTo(phone)).toHaveLength(1);
	expect(
		run.results.map((r) => r.result[0]).sort((a, b) => Number(b.placed) - Number(a.placed)),
	).toEqual([
		expect.objectContaining({ placed: true }),
		expect.objectContaining({ placed: false, status: 'duplicate' }),
	]);
	expect({ status: run.status, execution: run.execution }).toEqual({
		status: 200,
		execution: 'success',
	});
});

test('two tools in parallel in one turn: a call placed to one number and the call scheduled to another cancelled', async () => {
	const [callee, cancelled] = ['+919820077704', '+919820077705'];
	const scheduledId = await scheduleInSandbox(cancelled);
	const run = await runAgent(
		`Call ${callee} tomorrow at 11 and cancel the call to ${cancelled}`,
		`${callee}, ${cancelled}`,
		[{ toolCalls: [place(callee), cancel(cancelled)] }, { content: 'Done, both.' }],
	);
	// one answer of the model asked for both
	expect(run.requests[0].answer.tool_calls.map((c) => c.function.name)).toEqual([
		PLACE_TOOL,
		CANCEL_TOOL,
	]);
	expect(await callsTo(callee)).toEqual([expect.objectContaining({ status: 'scheduled' })]);
	expect(await callsTo(cancelled)).toEqual([
		expect.objectContaining({ id: scheduledId, status: 'deleted' }),
	]);
	const byTool = Object.fromEntries(run.results.map((r) => [r.name, r.result]));
	expect(byTool[PLACE_TOOL]).toEqual([expect.objectContaining({ placed: true })]);
	expect(byTool[CANCEL_TOOL]).toEqual([expect.objectContaining({ deleted: true })]);
	expect({ status: run.status, execution: run.execution }).toEqual({
		status: 200,
		execution: 'success',
	});
});

test('the agent cancels a scheduled call: gone from the sandbox, deleted: true back to the model', async () => {
	const phone = '+919820077706';
	const scheduledId = await scheduleInSandbox(phone);
	const run = await runAgent(`Cancel my call, I am ${phone}`, phone, [
		{ toolCalls: [cancel(phone)] },
		{ content: 'Your call is cancelled.' },
	]);
	const calls = await callsTo(phone);
	expect(calls).toEqual([expect.objectContaining({ id: scheduledId, status: 'deleted' })]);
	expect(run.results).toEqual([
		expect.objectContaining({
			name: CANCEL_TOOL,
			result: [expect.objectContaining({ deleted: true, status: 'deleted' })],
		}),
	]);
	expect(run.reply).toMatchObject({ output: 'Your call is cancelled.' });
	expect(run.execution).toBe('success');
});

test('numbers outside Allowed Numbers are refused by both tools; nothing is sent; the model is told', async () => {
	const [allowed, other, otherScheduled] = ['+919820077707', '+919820077708', '+919820077709'];
	const scheduledId = await scheduleInSandbox(otherScheduled);
	const requestsBefore = (await e2e.state()).requests.length;
	const run = await runAgent(`Call ${other} and cancel ${otherScheduled}`, allowed, [
		{ toolCalls: [place(other), cancel(otherScheduled)] },
		{ content: 'I may only call the number you gave.' },
	]);
	const state = await e2e.state();
	expect(state.requests.slice(requestsBefore)).toEqual([]);
	expect(await callsTo(other)).toEqual([]);
	expect(await callsTo(otherScheduled)).toEqual([
		expect.objectContaining({ id: scheduledId, status: 'scheduled' }),
	]);
	expect(run.results.map((r) => r.name).sort()).toEqual([CANCEL_TOOL, PLACE_TOOL]);
	for (const r of run.results) expect(r.content).toContain('Allowed Numbers');
	expect({ status: run.status, execution: run.execution }).toEqual({
		status: 200,
		execution: 'success',
	});
});

test('past Max Calls per Execution (default 3): the fourth number is not placed, status limitReached', async () => {
	const phones = ['+919820077711', '+919820077712', '+919820077713', '+919820077714'];
	const run = await runAgent('Call these four tomorrow at 11', phones.join(','), [
		...phones.map((phone) => ({ toolCalls: [place(phone)] })),
		{ content: 'Three booked; the fourth was over the limit.' },
	]);
	const placed = (await e2e.state()).calls.filter((c) => phones.map(digits).includes(c.number));
	expect(placed.map((c) => `+${c.number}`).sort()).toEqual(phones.slice(0, 3));
	expect(run.results.map((r) => r.result[0]?.placed)).toEqual([true, true, true, false]);
	expect(run.results[3].result).toEqual([
		expect.objectContaining({ placed: false, status: 'limitReached' }),
	]);
	expect({ status: run.status, execution: run.execution }).toEqual({
		status: 200,
		execution: 'success',
	});
});

test.each(Object.keys(MODEL_DEFINED))(
	'%s left to the model ($fromAI): the tool stops as a wrong setting, for the builder to see; nothing is sent',
	async (limit) => {
		const wf = MODEL_DEFINED[limit];
		const hook = wf.nodes.find((n) => n.name === 'Webhook').parameters.path;
		const phone = '+919820077720';
		const requestsBefore = (await e2e.state()).requests.length;
		const args = { phone, time: TIME, Allowed_Numbers: phone, Max_Calls_per_Execution: 50 };
		const run = await runAgent(
			`Call ${phone} tomorrow at 11`,
			phone,
			[{ toolCalls: [{ tool: PLACE_TOOL, args }] }, { content: 'I could not place the call.' }],
			{ hook, workflowId: wf.id },
		);
		expect((await e2e.state()).requests.slice(requestsBefore)).toEqual([]);
		const message = `A setting of this tool is wrong: "${limit}" is left to the model ($fromAI), though it is a limit on the model.`;
		// the builder sees it on the tool's run in the execution, on both lines
		const nodes = await (await e2e.server()).execution(run.executionId);
		expect(nodes[PLACE]?.error).toContain(message);
		// n8n 2.x gives the model the message and lets the agent answer; 1.x stops the execution
		if (major >= 2)
			expect(run.results[0]?.result).toEqual([{ error: expect.stringContaining(message) }]);
		else expect(run.execution).toBe('error');
	},
);

test('the example (examples/ai-agent-outbound-call.json) with the model npm start gives it: the caller is called, the friend refused (Allowed Numbers)', async () => {
	const [caller, friend] = ['+919820033331', '+919820033339'];
	model.setResponder(exampleResponder);
	try {
		const run = await runAgent(null, null, [], {
			hook: AGENT_EXAMPLE_PATH,
			workflowId: example.id,
			body: AGENT_EXAMPLE_REQUEST,
		});
		expect({ status: run.status, execution: run.execution }).toEqual({
			status: 200,
			execution: 'success',
		});
		// both numbers of the message asked for in one turn; only the caller's is called
		expect(run.results.map((r) => digits(r.args.phone))).toEqual([caller, friend].map(digits));
		const calls = await callsTo(caller);
		expect(calls).toEqual([expect.objectContaining({ agentId: AGENT, status: 'scheduled' })]);
		expect(await callsTo(friend)).toEqual([]);
		expect(run.results[0].result).toEqual([
			expect.objectContaining({ placed: true, callId: calls[0].id }),
		]);
		expect(run.results[1].content).toContain('Allowed Numbers');
		// the final answer says both
		expect(run.reply.output).toContain(`Called ${caller}: call ${calls[0].id}`);
		expect(run.reply.output).toContain('Allowed Numbers');
		// the example stores each tool's Tool Description: the text the node writes for the model,
		// which is what the model gets
		const operations = {
			Place_Call: 'CallKaroOutboundCall/outboundCall.operation.js',
			Cancel_Scheduled_Call: 'CallKaroDeleteScheduledCall/deleteScheduledCall.operation.js',
		};
		for (const tool of model.tools(run.requests[0])) {
			const built = require(path.join(PROJECT_ROOT, 'dist', 'nodes', operations[tool.name]));
			expect({ tool: tool.name, description: tool.description }).toEqual({
				tool: tool.name,
				description: built.toolDescription,
			});
		}
	} finally {
		model.setResponder(undefined);
	}
});
