// Skip Numbers Called Before in a real n8n (regular mode, its own database): an active
// Webhook -> Outbound Call workflow is given the same lead again and again, one after another and
// all at once. The sandbox counts the calls.
import { setTimeout as sleep } from 'node:timers/promises';

import { CREDENTIAL_ID, CREDENTIAL_NAME } from '../n8n/host.mjs';
import { startE2e } from './harness.mjs';

const WORKFLOW_ID = 'ckGuardE2e000001';
const HOOK_PATH = 'callkaro-guard-lead';
const AT_ONCE = 20;

const workflow = {
	id: WORKFLOW_ID,
	name: 'Lead to Outbound Call, each number once (e2e)',
	active: false,
	settings: { executionOrder: 'v1' },
	connections: { 'Lead Webhook': { main: [[{ node: 'Call', type: 'main', index: 0 }]] } },
	nodes: [
		{
			id: '6e7f0000-0000-4000-8000-0000000e2e01',
			name: 'Lead Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: '6e7f0000-0000-4000-8000-0000000e2e02',
			// answered when the workflow has run, with the Outbound Call's output
			parameters: { httpMethod: 'POST', path: HOOK_PATH, responseMode: 'lastNode', options: {} },
		},
		{
			id: '6e7f0000-0000-4000-8000-0000000e2e03',
			name: 'Call',
			type: 'n8n-nodes-callkaro.callKaroOutboundCall',
			typeVersion: 1,
			position: [220, 0],
			credentials: { callKaroApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
			parameters: {
				agentId: 'agent_sales_01',
				phoneNumber: '={{ $json.body.phone }}',
				skipBefore: true,
				options: {},
			},
		},
	],
};

let e2e;
beforeAll(async () => {
	e2e = await startE2e({ workflows: [workflow], publish: [WORKFLOW_ID] });
});
afterAll(() => e2e?.close());

/** POSTs a lead to the published webhook; 2.41 may take a moment to register it. */
const postLead = async (url, phone, retries = 20) => {
	const res = await fetch(`${url}/webhook/${HOOK_PATH}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ phone }),
		signal: AbortSignal.timeout(60_000),
	});
	if (res.status === 404 && retries > 0) {
		await sleep(500);
		return postLead(url, phone, retries - 1);
	}
	return { status: res.status, reply: await res.json().catch(() => null) };
};

const callsTo = async (number) =>
	(await e2e.state()).calls.filter((call) => call.toNumber === number).length;

test('the same lead posted 3 times, one after another, is called once', async () => {
	const { url } = await e2e.server();
	const answers = [];
	for (let i = 0; i < 3; i++) answers.push(await postLead(url, '+91 98200 55501'));

	expect(answers.map(({ status, reply }) => [status, reply?.placed, reply?.status])).toEqual([
		[200, true, 'success'],
		[200, false, 'calledBefore'],
		[200, false, 'calledBefore'],
	]);
	expect(await callsTo('+919820055501')).toBe(1);
});

test(`the same lead posted ${AT_ONCE} times at once is called once`, async () => {
	const { url } = await e2e.server();
	const answers = await Promise.all(
		Array.from({ length: AT_ONCE }, () => postLead(url, '+91 98200 55502')),
	);

	const calls = await callsTo('+919820055502');
	console.log(`[guard] ${AT_ONCE} deliveries of one lead at once: ${calls} call(s)`);
	expect(answers.map(({ status }) => status)).toEqual(Array(AT_ONCE).fill(200));
	expect(answers.filter(({ reply }) => reply?.status === 'calledBefore')).toHaveLength(AT_ONCE - 1);
	expect(calls).toBe(1);
});
