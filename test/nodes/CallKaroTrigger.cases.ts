// CallKaro Trigger served over real HTTP the way n8n serves an active workflow's webhook: the node's
// webhook() runs in n8n-core's WebhookContext, executions run through n8n-core's WorkflowExecute,
// and static data is stored between requests as JSON (see test/engine/webhookHarness.ts).
import crypto from 'node:crypto';

import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';
import { NodeHelpers, NodeOperationError } from 'n8n-workflow';
import { request } from 'undici';

import { CallKaroWebhookSecretApi } from '../../credentials/CallKaroWebhookSecretApi.credentials';
import { CallKaroTrigger } from '../../nodes/CallKaroTrigger/CallKaroTrigger.node';
import { PASS_THROUGH_TYPE, startTriggerServer } from '../engine/webhookHarness';
import type { TriggerServer, TriggerServerOptions } from '../engine/webhookHarness';
import { call, freshNumber } from '../sandbox/helpers';
import { startSandbox } from '../sandbox/sandbox.mjs';
import { callEndedEvent } from '../support/callEnded';
import { MAKE_A_SECRET } from '../../src/trigger/sharedSecret';

const TRIGGER_TYPE = 'n8n-nodes-callkaro.callKaroTrigger';
const TRIGGER = 'CallKaro Trigger';
const NEXT = 'Next';
const WEBHOOK_ID = '9b7c2d1e-4f5a-4b6c-8d7e-0f1a2b3c4d5e';
const SECRET = 'dummy-long-random-shared-secret-0123456789';
const SECRET_CREDENTIAL = 'callKaroWebhookSecretApi';
const CREDENTIAL_REFERENCE = { id: 'cred-secret-1', name: 'CallKaro webhook secret' };

function nodeTypes(Trigger: typeof CallKaroTrigger = CallKaroTrigger) {
	const trigger = new Trigger();
	// Like n8n's loader: the type name is prefixed with the package name.
	trigger.description.name = TRIGGER_TYPE;
	return { [TRIGGER_TYPE]: trigger };
}

function triggerNode(parameters: INodeParameters, node: Partial<INode> = {}): INode {
	return {
		id: 'node-trigger',
		name: TRIGGER,
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId: WEBHOOK_ID,
		parameters,
		...node,
	};
}

/** A trigger as the node creator adds it now (version 1.2), with the secret credential selected. */
function withCredential(parameters: INodeParameters = {}, typeVersion = 1.2): INode {
	return triggerNode(parameters, {
		typeVersion,
		credentials: { [SECRET_CREDENTIAL]: CREDENTIAL_REFERENCE },
	});
}

const nextNode: INode = {
	id: 'node-next',
	name: NEXT,
	type: PASS_THROUGH_TYPE,
	typeVersion: 1,
	position: [200, 0],
	parameters: {},
};

interface Posted {
	status: number;
	body: IDataObject;
}

async function post(
	url: string,
	body: unknown,
	headers: Record<string, string> = {},
): Promise<Posted> {
	const res = await request(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: typeof body === 'string' ? body : JSON.stringify(body),
	});
	const text = await res.body.text();
	return { status: res.statusCode, body: text ? (JSON.parse(text) as IDataObject) : {} };
}

describe('CallKaro Trigger', () => {
	const servers: TriggerServer[] = [];
	async function serve(
		parameters: INodeParameters = {},
		staticData?: IDataObject,
		options: Partial<TriggerServerOptions> = {},
	): Promise<TriggerServer> {
		const server = await startTriggerServer({
			nodes: [triggerNode(parameters), nextNode],
			nodeTypes: nodeTypes(),
			staticData,
			...options,
		});
		servers.push(server);
		return server;
	}
	/** Serves a workflow with this trigger node, and the credential values n8n's store holds. */
	async function serveNode(
		node: INode,
		credentials: TriggerServerOptions['credentials'] = {},
	): Promise<TriggerServer> {
		return await serve({}, undefined, { nodes: [node, nextNode], credentials });
	}
	/** The same workflow served by a new n8n process: the node's modules are loaded afresh. */
	async function serveInNewProcess(options: Partial<TriggerServerOptions>): Promise<TriggerServer> {
		let fresh: typeof CallKaroTrigger = CallKaroTrigger;
		jest.isolateModules(() => {
			({ CallKaroTrigger: fresh } =
				// eslint-disable-next-line @typescript-eslint/no-require-imports
				require('../../nodes/CallKaroTrigger/CallKaroTrigger.node') as {
					CallKaroTrigger: typeof CallKaroTrigger;
				});
		});
		expect(fresh).not.toBe(CallKaroTrigger);
		const server = await startTriggerServer({
			nodes: [triggerNode({}), nextNode],
			nodeTypes: nodeTypes(fresh),
			...options,
		});
		servers.push(server);
		return server;
	}
	/** Posts, then waits for the execution it may have started. */
	async function deliver(
		server: TriggerServer,
		body: unknown,
		headers?: Record<string, string>,
	): Promise<Posted> {
		const answer = await post(server.productionUrl, body, headers);
		await server.settled();
		return answer;
	}

	afterEach(async () => {
		await Promise.all(servers.splice(0).map(async (server) => await server.close()));
		jest.restoreAllMocks();
	});

	describe('description', () => {
		const { description } = new CallKaroTrigger();

		it('is a webhook trigger that answers on receipt, with no inputs or tool mode', () => {
			expect(description).toMatchObject({
				name: 'callKaroTrigger',
				displayName: 'CallKaro Trigger',
				group: ['trigger'],
				// 1.1 only spares n8n 2.x an expression per delivery; 1.2 keeps the secret in a
				// credential only; 1 and 1.1 stay for saved workflows
				version: [1, 1.1, 1.2],
				defaultVersion: 1.2,
				inputs: [],
				outputs: ['main'],
				webhooks: [
					{
						name: 'default',
						httpMethod: 'POST',
						responseMode: 'onReceived',
						path: 'webhook',
						responseData: '',
					},
				],
			});
			expect(description.usableAsTool).toBeUndefined();
		});

		it('lists the secret credential, optional, shown for Authentication "Using a Credential", tested by its own function', () => {
			expect(description.credentials).toEqual([
				{
					name: new CallKaroWebhookSecretApi().name,
					displayName: 'Shared Secret Credential',
					testedBy: 'callKaroWebhookSecretApiTest',
					displayOptions: { show: { authentication: ['credential'] } },
				},
			]);
			expect(new CallKaroTrigger().methods.credentialTest.callKaroWebhookSecretApiTest).toEqual(
				expect.any(Function),
			);
		});

		// n8n's editor moves an `authentication` field that the credentials depend on into the
		// credential dialog unless one of its options is "none"; this one must stay in the panel.
		it('offers None in every version, so that the editor keeps Authentication in the panel', () => {
			const declarations = description.properties.filter(({ name }) => name === 'authentication');
			expect(declarations).toHaveLength(2);
			for (const { options } of declarations) {
				expect(options).toEqual(
					expect.arrayContaining([expect.objectContaining({ value: 'none' })]),
				);
			}
		});

		/** The parameters n8n keeps for a node of this version (defaults added, hidden ones dropped). */
		const kept = (typeVersion: number, parameters: INodeParameters) =>
			NodeHelpers.getNodeParameters(
				description.properties,
				parameters,
				true,
				false,
				triggerNode(parameters, { typeVersion }),
				description,
			);
		const ALWAYS = { setupNotice: '', filters: {}, options: {} };
		// the credential's place in the panel and how to make a secret, shown with the credential
		const WITH_CREDENTIAL = {
			authentication: 'credential',
			credentials: '',
			makeItUpNotice: '',
		};

		it('a new node (1.2) uses the credential by default, offers no old fields, and drops them if given', () => {
			const authentication = description.properties.find(
				({ name, default: value }) => name === 'authentication' && value === 'credential',
			);
			expect(authentication?.options?.map((option) => option.name)).toEqual([
				'None',
				'Using a Credential (Recommended)',
			]);
			expect(kept(1.2, {})).toEqual({ ...ALWAYS, ...WITH_CREDENTIAL });
			const oldFields = { verifySecret: true, headerName: 'X-Old', secretHeaderValue: SECRET };
			expect(JSON.stringify(kept(1.2, oldFields))).not.toContain(SECRET);
		});

		it.each([[1], [1.1]])(
			'a version %s node keeps its old fields: without Authentication it reads them as before',
			(typeVersion) => {
				expect(kept(typeVersion, {})).toEqual({
					...ALWAYS,
					authentication: 'parameters',
					verifySecret: false,
				});
				const oldFields = { verifySecret: true, headerName: 'X-Old', secretHeaderValue: SECRET };
				expect(kept(typeVersion, oldFields)).toEqual({
					...ALWAYS,
					authentication: 'parameters',
					...oldFields,
				});
				// switched to the credential, the old fields (and the secret) leave the workflow
				expect(kept(typeVersion, { ...oldFields, authentication: 'credential' })).toEqual({
					...ALWAYS,
					...WITH_CREDENTIAL,
				});
			},
		);

		it('shows the notice, Authentication, its credential and how to make a secret, then the filters', () => {
			const shown = (typeVersion: number, parameters: INodeParameters) =>
				description.properties
					.filter((property) =>
						NodeHelpers.displayParameter(
							{ ...kept(typeVersion, parameters), '@version': typeVersion },
							property,
							triggerNode(parameters, { typeVersion }),
							description,
						),
					)
					.map(({ name, type }) => `${name}:${type}`);
			expect(shown(1.2, {})).toEqual([
				'setupNotice:notice',
				'authentication:options',
				// n8n's editor puts the credential selector in the place of a `credentials` field
				'credentials:credentials',
				'makeItUpNotice:notice',
				'filters:collection',
				'options:collection',
			]);
			expect(shown(1.2, { authentication: 'none' })).toEqual([
				'setupNotice:notice',
				'authentication:options',
				'filters:collection',
				'options:collection',
			]);
			const makeASecret = description.properties.find(({ name }) => name === 'makeItUpNotice');
			expect(makeASecret?.displayName).toBe(MAKE_A_SECRET);
		});

		it('says the same of the URLs everywhere: the Test URL while building, the Production URL once published', () => {
			const notice = description.properties.find(({ name }) => name === 'setupNotice');
			const panel = description.triggerPanel as {
				executionsHelp: { inactive: string; active: string };
				activationHint: string;
			};
			for (const text of [
				notice?.displayName,
				panel.activationHint,
				panel.executionsHelp.inactive,
			]) {
				expect(text).toMatch(/While building, paste the Test URL .*Production URL there instead/);
			}
			expect(notice?.displayName).toContain("the account's, or one agent's");
			expect(panel.executionsHelp.active).toContain('Production URL');
			expect(description.activationMessage).toContain('Production URL');
		});
	});

	describe('activation', () => {
		it('registers nothing at CallKaro: checkExists says yes, so n8n never calls create; delete succeeds', async () => {
			const server = await serve();
			const activated = await server.activate();
			expect(activated).toEqual({
				exists: true,
				created: undefined,
				webhookUrl: server.productionUrl,
			});
			expect(server.productionUrl).toBe(`${server.baseUrl}/webhook/${WEBHOOK_ID}/webhook`);
			expect(await server.deactivate()).toBe(true);
		});
	});

	describe('call_ended', () => {
		it('starts the workflow with the raw event and the normalised fields', async () => {
			const server = await serve();
			const answer = await deliver(server, callEndedEvent());
			expect(answer).toEqual({ status: 200, body: { message: 'Workflow was started' } });
			expect(server.executions).toHaveLength(1);
			const [execution] = server.executions;
			expect(execution.status).toBe('success');
			const expected = {
				callId: 'sid-0001',
				agentId: 'agent_sales_01',
				to: '+919876543210',
				from: '+918069000000',
				callType: 'outbound-api',
				outcome: 'connected',
				hangupReason: 'CLIENT_INITIATED',
				durationSeconds: 42,
				batchId: 'batch_01',
				metadata: { orderId: 'A-17', amount: 499 },
				endedAt: '2026-11-21T15:04:05.000+05:30',
				isRepeat: false,
				event: 'call_ended',
				data: callEndedEvent().data,
			};
			expect(execution.json(TRIGGER)).toEqual([expected]);
			expect(execution.json(NEXT)).toEqual([expected]);
		});

		it('converts IST time across the day boundary, and gives null for missing or odd fields', async () => {
			const server = await serve();
			await deliver(server, callEndedEvent({ callSid: 'sid-early', time: '2026-11-21 02:30:00' }));
			await deliver(server, {
				event: 'call_ended',
				data: {
					callSid: 'sid-bare',
					hangup_reason: 'SOMETHING_NEW',
					call_duration: 'n/a',
					time: '21/11/2026',
				},
			});
			const [early, bare] = server.executions.map((execution) => execution.json(TRIGGER)[0]);
			expect(early.endedAt).toBe('2026-11-21T02:30:00.000+05:30');
			expect(new Date(early.endedAt as string).toISOString()).toBe('2026-11-20T21:00:00.000Z');
			expect(bare).toMatchObject({
				callId: 'sid-bare',
				agentId: null,
				to: null,
				from: null,
				callType: null,
				outcome: 'other',
				hangupReason: 'SOMETHING_NEW',
				durationSeconds: null,
				batchId: null,
				metadata: {},
				endedAt: null,
			});
		});

		it('reads the body even when it came without a JSON content type', async () => {
			const server = await serve();
			const answer = await deliver(server, JSON.stringify(callEndedEvent()), {
				'content-type': 'text/plain',
			});
			expect(answer.status).toBe(200);
			expect(server.executions).toHaveLength(1);
		});

		test.each([['call_started'], ['transcript_ready'], ['CALL_ENDED']])(
			'another event (%s) gets 200 and starts nothing',
			async (event) => {
				const server = await serve();
				const answer = await deliver(server, { event, data: callEndedEvent().data });
				expect(answer).toEqual({
					status: 200,
					body: {
						status: 'ignored',
						message: `Event "${event}" ignored: this trigger starts workflows on call_ended only`,
					},
				});
				expect(server.executions).toHaveLength(0);
			},
		);

		test.each([
			['an array', [callEndedEvent()], 'The body is not a CallKaro event'],
			['no event', { data: callEndedEvent().data }, 'The body is not a CallKaro event'],
			[
				'call_ended without data',
				{ event: 'call_ended' },
				'The call_ended event has no "data" object',
			],
		])('a body with %s gets 400 and starts nothing', async (_case, body, message) => {
			const server = await serve();
			const answer = await deliver(server, body);
			expect(answer.status).toBe(400);
			expect(answer.body).toEqual({ status: 'error', message: expect.stringContaining(message) });
			expect(server.executions).toHaveLength(0);
			expect(server.calls).toEqual([
				expect.objectContaining({ answeredBy: 'node', startedExecution: false }),
			]);
		});
	});

	describe('filters', () => {
		test.each([
			['agent listed', { agentIds: 'agent_other, agent_sales_01' }, {}, true],
			['agent not listed', { agentIds: 'agent_other' }, {}, false],
			['call type listed', { callTypes: ['outbound-scheduled', 'outbound-api'] }, {}, true],
			['call type not listed', { callTypes: ['inbound'] }, {}, false],
			[
				'outcome group: connected',
				{ outcomes: ['connected'] },
				{ hangup_reason: 'SESSION_TIMEOUT' },
				true,
			],
			[
				'outcome group: voicemail',
				{ outcomes: ['voicemail'] },
				{ hangup_reason: 'VOICEMAIL_DETECTED' },
				true,
			],
			[
				'outcome group: not reached',
				{ outcomes: ['notReached'] },
				{ hangup_reason: 'USER_UNRESPONSIVE' },
				true,
			],
			[
				'outcome group: other',
				{ outcomes: ['other'] },
				{ hangup_reason: 'PRE_CALL_FN_FAILED' },
				true,
			],
			[
				'outcome not listed',
				{ outcomes: ['connected', 'voicemail'] },
				{ hangup_reason: 'USER_REJECTED' },
				false,
			],
			['campaign matches', { batchId: 'batch_01' }, {}, true],
			['campaign differs', { batchId: 'batch_02' }, {}, false],
			['no campaign on the call', { batchId: 'batch_01' }, { batchId: null }, false],
			[
				'all filters match',
				{
					agentIds: 'agent_sales_01',
					callTypes: ['outbound-api'],
					outcomes: ['connected'],
					batchId: 'batch_01',
				},
				{},
				true,
			],
			[
				'all but one match',
				{
					agentIds: 'agent_sales_01',
					callTypes: ['outbound-api'],
					outcomes: ['connected'],
					batchId: 'batch_9',
				},
				{},
				false,
			],
		])('%s', async (_case, filters, data, runs) => {
			const server = await serve({ filters });
			const answer = await deliver(server, callEndedEvent(data));
			expect(answer.status).toBe(200);
			expect(server.executions).toHaveLength(runs ? 1 : 0);
			if (!runs) {
				expect(answer.body).toEqual({
					status: 'ignored',
					message: expect.stringMatching(/^Call sid-0001 filtered out: /),
				});
			}
		});

		it('filters from expressions', async () => {
			const server = await serve({
				filters: { agentIds: '={{ ["agent_x", "agent_sales_01"].join(",") }}' },
			});
			await deliver(server, callEndedEvent());
			await deliver(server, callEndedEvent({ callSid: 'sid-2', agent: 'agent_y' }));
			expect(server.executions.map((execution) => execution.json(TRIGGER)[0].callId)).toEqual([
				'sid-0001',
			]);
		});

		it('a filtered-out call is not remembered as delivered', async () => {
			const server = await serve({ filters: { outcomes: ['connected'] } });
			await deliver(server, callEndedEvent({ hangup_reason: 'USER_REJECTED' }));
			expect(server.storedStaticData()).toEqual({});
		});
	});

	describe('shared secret', () => {
		const secured = {
			verifySecret: true,
			headerName: 'X-CallKaro-Secret',
			secretHeaderValue: SECRET,
		};

		it('runs when the header carries the secret (header name in any case)', async () => {
			const server = await serve(secured);
			expect(
				(await deliver(server, callEndedEvent(), { 'x-callkaro-secret': SECRET })).status,
			).toBe(200);
			expect(server.executions).toHaveLength(1);
		});

		test.each([
			['missing', {}],
			['wrong', { 'X-CallKaro-Secret': `${SECRET.slice(0, -1)}X` }],
			['a prefix', { 'X-CallKaro-Secret': SECRET.slice(0, 10) }],
			['longer', { 'X-CallKaro-Secret': `${SECRET}-more` }],
			['empty', { 'X-CallKaro-Secret': '' }],
			['in another header', { 'X-Other-Secret': SECRET }],
		])('401 and no execution when it is %s', async (_case, headers) => {
			const server = await serve(secured);
			const answer = await deliver(server, callEndedEvent(), headers);
			expect(answer).toEqual({
				status: 401,
				body: { status: 'error', message: 'The shared secret header is missing or wrong' },
			});
			expect(server.executions).toHaveLength(0);
			expect(server.storedStaticData()).toEqual({});
		});

		it('checks the secret before reading the body', async () => {
			const server = await serve(secured);
			expect((await deliver(server, { event: 'call_started' })).status).toBe(401);
			expect((await deliver(server, { nothing: true })).status).toBe(401);
		});

		it('compares in constant time: timingSafeEqual on equal-length digests, whatever the lengths sent', async () => {
			const spy = jest.spyOn(crypto, 'timingSafeEqual');
			const server = await serve(secured);
			await deliver(server, callEndedEvent(), { 'X-CallKaro-Secret': 'short' });
			await deliver(server, callEndedEvent({ callSid: 'sid-2' }), { 'X-CallKaro-Secret': SECRET });
			expect(spy).toHaveBeenCalledTimes(2);
			for (const [a, b] of spy.mock.calls) {
				expect((a as Buffer).length).toBe(32);
				expect((b as Buffer).length).toBe(32);
			}
			expect(spy.mock.results.map((result) => result.value)).toEqual([false, true]);
			expect(server.executions).toHaveLength(1);
		});

		it('takes the secret from an expression', async () => {
			const server = await serve({ ...secured, secretHeaderValue: `={{ "${SECRET}" }}` });
			expect(
				(await deliver(server, callEndedEvent(), { 'X-CallKaro-Secret': SECRET })).status,
			).toBe(200);
			expect(
				(await deliver(server, callEndedEvent({ callSid: 's2' }), { 'X-CallKaro-Secret': 'x' }))
					.status,
			).toBe(401);
		});

		test.each([
			[
				'an empty Secret Header Value',
				{ secretHeaderValue: '' },
				{ 'X-CallKaro-Secret': '' },
				'Secret Header Value is empty',
			],
			[
				'an invalid Secret Header Name',
				{ headerName: 'X Secret' },
				{},
				'Secret Header Name "X Secret" is not a valid header name',
			],
		])(
			'%s: activation is refused, and each delivery gets 500 with the reason and starts nothing',
			async (_case, setting, headers, message) => {
				const server = await serve({ ...secured, ...setting });
				await expect(server.activate()).rejects.toThrow(message);
				const answer = await deliver(server, callEndedEvent(), headers);
				expect(answer).toEqual({
					status: 500,
					body: {
						status: 'error',
						message: `The CallKaro Trigger is set up wrongly: ${message}`,
					},
				});
				expect(server.executions).toHaveLength(0);
				expect(server.storedStaticData()).toEqual({});
			},
		);

		it('activates with a valid setting', async () => {
			const server = await serve(secured);
			expect((await server.activate()).exists).toBe(true);
		});

		it('is off by default: no header needed', async () => {
			const server = await serve({ headerName: 'X-CallKaro-Secret', secretHeaderValue: SECRET });
			expect((await deliver(server, callEndedEvent())).status).toBe(200);
			expect(server.executions).toHaveLength(1);
		});

		it('works as before on a version 1.1 node, as examples/call-ended-trigger.json saves it', async () => {
			const server = await serveNode(triggerNode(secured, { typeVersion: 1.1 }));
			expect((await server.activate()).exists).toBe(true);
			const headers = { 'X-CallKaro-Secret': SECRET };
			expect((await deliver(server, callEndedEvent(), headers)).status).toBe(200);
			const wrong = { 'X-CallKaro-Secret': 'wrong' };
			expect((await deliver(server, callEndedEvent({ callSid: 's2' }), wrong)).status).toBe(401);
			expect(server.executions).toHaveLength(1);
		});
	});

	describe('shared secret in a credential', () => {
		const stored = {
			[SECRET_CREDENTIAL]: { headerName: 'X-CallKaro-Secret', secretHeaderValue: SECRET },
		};
		const REFUSED = {
			status: 401,
			body: { status: 'error', message: 'The shared secret header is missing or wrong' },
		};

		it('a new node with the credential activates, and the right header starts the workflow', async () => {
			const server = await serveNode(withCredential(), stored);
			expect((await server.activate()).exists).toBe(true);
			const answer = await deliver(server, callEndedEvent(), { 'x-callkaro-secret': SECRET });
			expect(answer).toEqual({ status: 200, body: { message: 'Workflow was started' } });
			expect(server.executions.map((execution) => execution.status)).toEqual(['success']);
		});

		test.each([
			['missing', {}],
			['wrong', { 'X-CallKaro-Secret': `${SECRET.slice(0, -1)}X` }],
			['empty', { 'X-CallKaro-Secret': '' }],
			['in another header', { 'X-Other-Secret': SECRET }],
		])('401 and no execution when the header is %s', async (_case, headers) => {
			const server = await serveNode(withCredential(), stored);
			expect(await deliver(server, callEndedEvent(), headers)).toEqual(REFUSED);
			expect(await deliver(server, { event: 'call_started' }, headers)).toEqual(REFUSED);
			expect(server.executions).toHaveLength(0);
			expect(server.storedStaticData()).toEqual({});
		});

		it("uses the credential's header name; left out, the default X-CallKaro-Secret", async () => {
			const named = await serveNode(withCredential(), {
				[SECRET_CREDENTIAL]: { headerName: 'X-Webhook-Token', secretHeaderValue: SECRET },
			});
			expect((await deliver(named, callEndedEvent(), { 'X-Webhook-Token': SECRET })).status).toBe(
				200,
			);
			expect(
				(await deliver(named, callEndedEvent({ callSid: 's2' }), { 'X-CallKaro-Secret': SECRET }))
					.status,
			).toBe(401);
			const unnamed = await serveNode(withCredential(), {
				[SECRET_CREDENTIAL]: { secretHeaderValue: SECRET },
			});
			expect(
				(await deliver(unnamed, callEndedEvent(), { 'X-CallKaro-Secret': SECRET })).status,
			).toBe(200);
		});

		it('wins over old fields left in a version 1.1 node set to Using a Credential', async () => {
			const OLD_SECRET = 'old-secret-from-the-workflow-json';
			const node = withCredential(
				{
					authentication: 'credential',
					verifySecret: true,
					headerName: 'X-Old-Secret',
					secretHeaderValue: OLD_SECRET,
				},
				1.1,
			);
			const server = await serveNode(node, stored);
			expect((await deliver(server, callEndedEvent(), { 'X-Old-Secret': OLD_SECRET })).status).toBe(
				401,
			);
			expect(
				(await deliver(server, callEndedEvent(), { 'X-CallKaro-Secret': SECRET })).status,
			).toBe(200);
			expect(server.executions).toHaveLength(1);
		});

		it('is not asked for with Authentication None', async () => {
			const server = await serveNode(triggerNode({ authentication: 'none' }, { typeVersion: 1.2 }));
			expect((await server.activate()).exists).toBe(true);
			expect((await deliver(server, callEndedEvent())).status).toBe(200);
		});

		const WRONG_SETUPS: Array<
			[string, INode, TriggerServerOptions['credentials'], string, string]
		> = [
			[
				'no credential selected',
				triggerNode({}, { typeVersion: 1.2 }),
				stored,
				'No CallKaro Webhook Secret API credential is selected',
				`${MAKE_A_SECRET} Create a credential with it under Authentication, or set Authentication to None to accept every request.`,
			],
			[
				'a credential n8n cannot read (deleted, say)',
				withCredential(),
				{},
				'The CallKaro Webhook Secret API credential could not be read',
				'The test gave no credentials of type "callKaroWebhookSecretApi". Select the credential again, or create a new one.',
			],
			[
				'an invalid Secret Header Name in the credential',
				withCredential(),
				{ [SECRET_CREDENTIAL]: { headerName: 'X Secret', secretHeaderValue: SECRET } },
				'Secret Header Name "X Secret" of the CallKaro Webhook Secret API credential is not a valid header name',
				'Use letters, digits and dashes, e.g. X-CallKaro-Secret',
			],
			[
				'an empty Secret Header Value in the credential',
				withCredential(),
				{ [SECRET_CREDENTIAL]: { headerName: 'X-CallKaro-Secret', secretHeaderValue: '' } },
				'Secret Header Value of the CallKaro Webhook Secret API credential is empty',
				'Enter the value set as a custom header of the webhook in the CallKaro dashboard',
			],
			[
				'an Authentication value that is not a choice',
				withCredential({ authentication: 'basicAuth' }),
				stored,
				'Authentication "basicAuth" is not a known choice',
				'Choose Using a Credential or None',
			],
		];

		test.each(WRONG_SETUPS)(
			'%s: activation is refused with the reason, and each delivery gets 500 and starts nothing',
			async (_case, node, credentials, message, hint) => {
				const server = await serveNode(node, credentials);
				const refusal = await server.activate().catch((error: unknown) => error);
				expect(refusal).toBeInstanceOf(NodeOperationError);
				expect(refusal).toMatchObject({ message, description: hint });
				const answer = await deliver(server, callEndedEvent(), { 'X-CallKaro-Secret': SECRET });
				expect(answer).toEqual({
					status: 500,
					body: { status: 'error', message: `The CallKaro Trigger is set up wrongly: ${message}` },
				});
				expect(server.executions).toHaveLength(0);
			},
		);

		it('never shows the secret: not in an output item, an answer, an activation error or its hint', async () => {
			const seen: unknown[] = [];
			const credentialSetups: Array<[INode, TriggerServerOptions['credentials']]> = [
				[withCredential(), stored],
				[
					triggerNode({
						verifySecret: true,
						headerName: 'X-CallKaro-Secret',
						secretHeaderValue: SECRET,
					}),
					{},
				],
				...WRONG_SETUPS.map(
					([, node, credentials]) =>
						[node, credentials] as [INode, TriggerServerOptions['credentials']],
				),
			];
			let started = 0;
			for (const [node, credentials] of credentialSetups) {
				const server = await serveNode(node, credentials);
				const refusal = await server.activate().catch((error: NodeOperationError) => error);
				if (refusal instanceof Error)
					seen.push(refusal.message, refusal.description, refusal.stack);
				for (const headers of [{ 'X-CallKaro-Secret': SECRET }, { 'X-CallKaro-Secret': 'wrong' }]) {
					seen.push(
						await deliver(server, callEndedEvent({ callSid: `sid-${seen.length}` }), headers),
					);
				}
				started += server.executions.length;
				seen.push(
					server.executions.map((execution) => [execution.runData, execution.error?.message]),
				);
			}
			// the two good setups ran (output items searched), the five wrong ones were refused
			expect(started).toBe(2);
			expect(seen.filter((entry) => entry instanceof Object && 'status' in entry)).toHaveLength(14);
			expect(JSON.stringify(seen)).not.toContain(SECRET);
		});
	});

	describe('repeated deliveries', () => {
		it('drops a repeat of the same callSid (200, no execution), using static data stored between requests', async () => {
			const server = await serve();
			expect((await deliver(server, callEndedEvent())).status).toBe(200);
			const repeat = await deliver(server, callEndedEvent());
			expect(repeat).toEqual({
				status: 200,
				body: { status: 'ignored', message: 'Call sid-0001 was delivered before; repeat ignored' },
			});
			await deliver(server, callEndedEvent({ callSid: 'sid-0002' }));
			expect(server.executions.map((execution) => execution.json(TRIGGER)[0].callId)).toEqual([
				'sid-0001',
				'sid-0002',
			]);
			expect(server.storedStaticData()).toEqual({
				[`node:${TRIGGER}`]: { recentCallIds: ['sid-0001', 'sid-0002'] },
			});
		});

		it('after a restart, remembers what n8n saved in static data', async () => {
			const first = await serve();
			await deliver(first, callEndedEvent());
			const restarted = await serveInNewProcess({
				workflowId: first.workflowId,
				staticData: first.storedStaticData(),
			});
			await deliver(restarted, callEndedEvent());
			expect(restarted.executions).toHaveLength(0);
		});

		it('does not mix up workflows: the same call starts each workflow that has this trigger', async () => {
			const one = await serve();
			const other = await serve();
			await deliver(one, callEndedEvent());
			await deliver(other, callEndedEvent());
			expect([one.executions.length, other.executions.length]).toEqual([1, 1]);
		});

		it('never treats a test event (Test URL) as a repeat', async () => {
			const server = await serve({}, undefined, { mode: 'manual' });
			await deliver(server, callEndedEvent());
			await deliver(server, callEndedEvent());
			expect(server.executions).toHaveLength(2);
		});

		it('keeps repeats with the option, marking them', async () => {
			const server = await serve({ options: { keepRepeats: true } });
			await deliver(server, callEndedEvent());
			await deliver(server, callEndedEvent());
			expect(server.executions.map((execution) => execution.json(TRIGGER)[0].isRepeat)).toEqual([
				false,
				true,
			]);
		});

		it('remembers the last 1000 call IDs only', async () => {
			const ids = Array.from({ length: 1000 }, (_v, i) => `old-${i}`);
			const server = await serve({}, { [`node:${TRIGGER}`]: { recentCallIds: ids } });
			await deliver(server, callEndedEvent({ callSid: 'old-999' }));
			expect(server.executions).toHaveLength(0);
			await deliver(server, callEndedEvent({ callSid: 'new-1' }));
			const stored = (server.storedStaticData()[`node:${TRIGGER}`] as { recentCallIds: string[] })
				.recentCallIds;
			expect(stored).toHaveLength(1000);
			expect(stored[0]).toBe('old-1');
			expect(stored.at(-1)).toBe('new-1');
			await deliver(server, callEndedEvent({ callSid: 'old-0' }));
			expect(server.executions).toHaveLength(2);
		});

		it('runs every delivery of an event without a callSid (nothing to compare)', async () => {
			const server = await serve();
			await deliver(server, callEndedEvent({ callSid: undefined }));
			await deliver(server, callEndedEvent({ callSid: undefined }));
			expect(server.executions).toHaveLength(2);
		});
	});

	// The targets of issue 15, on a workflow that already has stored data, whether or not n8n saves
	// the static data changed in webhook() (n8n 2.41.1 does not, once some is stored).
	describe.each([['every change'], ['while none is stored']] as const)(
		'repeat targets when n8n saves static data %s',
		(staticDataSaving) => {
			const alreadyStored = { [`node:${TRIGGER}`]: { recentCallIds: ['sid-from-yesterday'] } };
			const serveStored = async () => await serve({}, alreadyStored, { staticDataSaving });
			const callIdsRun = (server: TriggerServer) =>
				server.executions.map((execution) => execution.json(TRIGGER)[0].callId as string);

			it('50 distinct events, each delivered twice one after the other, start 50 executions', async () => {
				const server = await serveStored();
				const ids = Array.from({ length: 50 }, (_v, i) => `sid-seq-${i}`);
				for (const id of ids) {
					expect((await deliver(server, callEndedEvent({ callSid: id }))).body).toEqual({
						message: 'Workflow was started',
					});
					expect((await deliver(server, callEndedEvent({ callSid: id }))).body.status).toBe(
						'ignored',
					);
				}
				expect(callIdsRun(server)).toEqual(ids);
			});

			it('20 copies of one event delivered at the same moment start 1 execution', async () => {
				const server = await serveStored();
				const answers = await Promise.all(
					Array.from(
						{ length: 20 },
						async () => await post(server.productionUrl, callEndedEvent()),
					),
				);
				await server.settled();
				expect(answers.filter((answer) => answer.body.status === 'ignored')).toHaveLength(19);
				expect(callIdsRun(server)).toEqual(['sid-0001']);
			});

			it('10 distinct events delivered twice each, all at once, start 10 executions', async () => {
				const server = await serveStored();
				const ids = Array.from({ length: 10 }, (_v, i) => `sid-burst-${i}`);
				await Promise.all(
					[...ids, ...ids].map(
						async (id) => await post(server.productionUrl, callEndedEvent({ callSid: id })),
					),
				);
				await server.settled();
				expect(callIdsRun(server).sort()).toEqual([...ids].sort());
			});

			it('a repeat of a call stored before is dropped', async () => {
				const server = await serveStored();
				await deliver(server, callEndedEvent({ callSid: 'sid-from-yesterday' }));
				expect(server.executions).toHaveLength(0);
			});
		},
	);

	describe('end to end with the CallKaro sandbox', () => {
		it('a call placed and ended in the sandbox starts the workflow once, though delivered twice with the secret header', async () => {
			const server = await serve({
				verifySecret: true,
				headerName: 'X-CallKaro-Secret',
				secretHeaderValue: SECRET,
				filters: { outcomes: ['notReached'] },
			});
			const sandbox = await startSandbox({
				webhook: {
					url: server.productionUrl,
					headers: { 'X-CallKaro-Secret': SECRET },
					duplicate: true,
				},
			});
			try {
				const number = freshNumber();
				const placed = await call(sandbox.url, '/call/outbound', {
					to_number: number,
					agent_id: 'agent_sales_01',
					metadata: { orderId: 'A-17', amount: 499 },
				});
				const callId = placed.body.call_id as string;
				const ended = await sandbox.endCall({ callId, hangupReason: 'USER_UNAVAILABLE' });
				await server.settled();
				expect(ended.deliveries.map((delivery) => [delivery.attempt, delivery.status])).toEqual([
					[1, 200],
					[2, 200],
				]);
				expect(JSON.parse(ended.deliveries[1].response)).toEqual({
					status: 'ignored',
					message: `Call ${callId} was delivered before; repeat ignored`,
				});
				expect(server.executions).toHaveLength(1);
				const [item] = server.executions[0].json(NEXT);
				expect(item).toMatchObject({
					callId,
					agentId: 'agent_sales_01',
					to: number,
					callType: 'outbound-api',
					outcome: 'notReached',
					hangupReason: 'USER_UNAVAILABLE',
					durationSeconds: 0,
					batchId: null,
					metadata: { orderId: 'A-17', amount: 499 },
					endedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000\+05:30$/),
				});
				expect(item.endedAt).toBe(
					`${(ended.payload.data as IDataObject).time as string}.000+05:30`.replace(' ', 'T'),
				);

				// A connected call is filtered out (200, no execution); a wrong secret gets 401.
				const other = await call(sandbox.url, '/call/outbound', {
					to_number: freshNumber(),
					agent_id: 'agent_sales_01',
				});
				const filtered = await sandbox.endCall({ callId: other.body.call_id as string });
				expect(filtered.deliveries.map((delivery) => delivery.status)).toEqual([200, 200]);
				sandbox.setWebhook({
					url: server.productionUrl,
					headers: { 'X-CallKaro-Secret': 'wrong' },
				});
				const third = await call(sandbox.url, '/call/outbound', {
					to_number: freshNumber(),
					agent_id: 'agent_sales_01',
				});
				const refused = await sandbox.endCall({
					callId: third.body.call_id as string,
					hangupReason: 'USER_REJECTED',
				});
				expect(refused.deliveries.map((delivery) => delivery.status)).toEqual([401]);
				await server.settled();
				expect(server.executions).toHaveLength(1);
			} finally {
				await sandbox.close();
			}
		});
	});
});
