// The documentation is a contract: each message that README.md, a page in docs/ or CONTRIBUTING.md
// quotes and each output they show is produced here by running the node in n8n's real engine
// against the sandbox, and must appear in one of them word for word (line breaks aside). A quote
// that no example here produces, and that is not listed as checked elsewhere, fails the last tests:
// a documentation edit needs its behaviour, and back.
import type { IDataObject, INode, INodeParameters, NodeOperationError } from 'n8n-workflow';
import { request } from 'undici';

import { CallKaroAssignWorkflow } from '../../nodes/CallKaroAssignWorkflow/CallKaroAssignWorkflow.node';
import { CallKaroCreateCampaign } from '../../nodes/CallKaroCreateCampaign/CallKaroCreateCampaign.node';
import { CallKaroDeleteScheduledCall } from '../../nodes/CallKaroDeleteScheduledCall/CallKaroDeleteScheduledCall.node';
import { CallKaroOutboundCall } from '../../nodes/CallKaroOutboundCall/CallKaroOutboundCall.node';
import { CallKaroTrigger } from '../../nodes/CallKaroTrigger/CallKaroTrigger.node';

import {
	ASSIGN_WORKFLOW,
	CREATE_CAMPAIGN,
	DELETE_SCHEDULED_CALL,
	OUTBOUND_CALL,
} from '../engine/callKaroNodes';
import {
	FAR_AHEAD_SENT,
	NODE_NAME,
	WRONG_API_KEY,
	apiRequests,
	fastBackoff,
	freshNumber,
	runNode,
	useSandbox,
} from '../nodes/fixtures';
import type { RunNodeOptions } from '../nodes/fixtures';
import { testCredential, testCredentialWithNode } from '../engine/credentialTest';
import { startEchoServer } from '../engine/echoServer.mjs';
import type { EchoResponse } from '../engine/echoServer.mjs';
import { startTriggerServer } from '../engine/webhookHarness';
import type { TriggerServer } from '../engine/webhookHarness';
import { scheduleCall } from '../nodes/CallKaroDeleteScheduledCall.contract';
import { call } from '../sandbox/helpers';
import { DEMO_API_KEY } from '../sandbox/sandbox.mjs';
import { callEndedEvent } from '../support/callEnded';
import { readNodeOutput } from '../fixtures/node-outputs/nodeOutputs.mjs';
import {
	brokenLinks,
	docText,
	docsPages,
	documentationFiles,
	projectFileExists,
	projectFileText,
} from './readmeText.mjs';

/** README.md, the pages in docs/ and CONTRIBUTING.md, one flattened file per line. */
const DOCS = docText();

const EVERY_DAY = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/**
 * The documentation's quotes that read as a message or an output: inline code spans of six words or
 * more (commands aside), and text in double quotes of three words or more outside code.
 */
function quotedMessages(): string[] {
	return DOCS.split('\n').flatMap(quotesOfFile);
}

/** The quotes of one flattened documentation file. */
function quotesOfFile(file: string): string[] {
	const prose = file.replace(/```.*?```/g, '');
	const spans = [...prose.matchAll(/`([^`]+)`/g)].map((match) => match[1].trim());
	const codeSpans = spans.filter(
		(span) => span.split(' ').length >= 6 && !/^(npm|curl|node|git|apt-get|N8N_|\{\{)/.test(span),
	);
	const text = prose.replace(/`[^`]*`/g, '');
	const doubleQuoted = [...text.matchAll(/"([^"]+)"/g)]
		.map((match) => match[1])
		.filter((quote) => quote.split(' ').length >= 3);
	return [...codeSpans, ...doubleQuoted];
}

/** Quotes the documentation shows that the examples below do not produce, and where they are checked. */
const CHECKED_ELSEWHERE: Record<string, string> = {
	"\"Phone Number\" must be one phone number, but is a list holding 2. Map the one meant: set Phone Number to {{ '+' + ($json.Phones)[0].PhoneCountryCode + ' ' + ($json.Phones)[0].PhoneAreaCode + ' ' + ($json.Phones)[0].PhoneNumber }}.":
		"test/src/phone/phoneNumber.test.ts (Xero's several numbers)",
	'"Skip Numbers Called Before" cannot work: this workflow\'s lock was held for':
		'test/nodes/shared/contract/guard.ts (a lock row no election can clear)',
	's, by other executions or left behind by one that stopped. Nothing was sent':
		'test/nodes/shared/contract/guard.ts (a lock row no election can clear)',
	'Tue, 13 Jan 2026 10:45:00 +0530': 'test/src/schedule/databaseDates.test.ts (an input read)',
	'Tue Jan 13 2026 10:45:00 GMT+0530 (India Standard Time)':
		'test/src/schedule/databaseDates.test.ts (an input read)',
	'January 13, 2026 10:45 AM GMT+5:30': 'test/src/schedule/databaseDates.test.ts (an input read)',
	'Tue Jan 13 05:15:00 UTC 2026': 'test/src/schedule/databaseDates.test.ts (an input read)',
	'"Schedule Time" is 2026-11-22T03:59:30 in India time (given as "2026-11-22T03:59:30"), more than an hour in the past; read as UTC it is 2026-11-22T09:29:30 in India time, so it is probably UTC. Set Time Zone to UTC, or give the time with its offset (Z or +00:00).':
		'test/src/schedule/scheduleReading.test.ts (needs the clock at 2026-11-22T04:00Z)',
	'9 of 10 calls were placed (items 0–4, 6–9); running this node again calls them again unless Skip Numbers Called Before is on.':
		'test/src/run/runReport.test.ts (wording) and test/nodes/shared/runItems.cases.ts',
	'"Skip Numbers Called Before" cannot work: this n8n has no store of processed items. Nothing was sent':
		'test/nodes/shared/guardWithoutStore.test.ts (needs an engine without the store)',
	'"Skip Numbers Called Before" cannot work: the workflow-wide record where this option keeps its lock holds a number, left by an earlier version of this node or kept by another node of this workflow. Nothing was sent':
		'test/nodes/shared/contract/guard.ts (needs the processed-items store, and 78 s on the virtual clock)',
	'the workflow-wide record where this option keeps its lock holds a number':
		'test/nodes/shared/contract/guard.ts (a part of the message above)',
	'CallKaro did not save every attribute of +91******3210: ignored (no such CRM attribute): Favourite Colour; invalid: Lead Score (Lead Score needs a number); the run was started all the same (run 6b043a313cf94047fca25988) [item 0]':
		'test/nodes/CallKaroAssignWorkflow.cases.ts (the run id differs per run)',
	'accept every status':
		"n8n 1.x's reading of the credential test (test/nodes/CallKaroApi.credentials.cases.ts, test/e2e/credentials.e2e.mjs)",
	'The connection cannot be established, this usually occurs due to an incorrect host (domain) value':
		"n8n 1.x's own text, test/e2e/credentials.e2e.mjs on 1.123.81",
	'The service refused the connection - perhaps it is offline':
		"n8n 1.x's own text, test/e2e/credentials.e2e.mjs on 1.123.81",
	'The connection to the server was closed unexpectedly, perhaps it is offline. You can retry the request immediately or wait and retry later.':
		"n8n 1.x's own text, test/e2e/credentials.e2e.mjs on 1.123.81",
	'wrong version number': "OpenSSL's text, test/e2e/credentials.e2e.mjs on 1.123.81",
	'no call scheduled':
		'a paraphrase of the Delete hint, HINTS.deleteNotFound in test/nodes/fixtures.ts',
	'… remembers the last 10 numbers and now holds 9. Beyond that the oldest are forgotten and no longer skipped: raise History Size.':
		'test/nodes/shared/contract/guard.ts (needs the processed-items store)',
	'item 1 may have been placed as well': 'test/nodes/shared/runItems.cases.ts',
	'workflow runs were started': 'test/src/run/runReport.test.ts',
	'scheduled calls were deleted': 'test/src/run/runReport.test.ts',
	'campaigns were created': 'test/src/run/runReport.test.ts',
	'running this node again skips them (Skip Numbers Called Before is on)':
		'test/src/run/runReport.test.ts',
	'The execution was canceled before every item was sent': 'test/nodes/shared/runItems.cases.ts',
	'item 4 may have been placed as well': 'test/nodes/shared/runItems.cases.ts',
	'Database is not ready!': "n8n's own answer, measured by the queue-mode e2e run",
	'{ "error": "…", "details": { "kind", "httpStatus", "serviceMessage", "attempts", "outcomeUnknown", "description" } }':
		'test/nodes/errorItems.cases.ts (the key list, a schema rather than one output)',
	'{ "placed": false, "status": "calledBefore", "message": "Not placed: this node has already called +91******3210 with this agent (\\"Skip Numbers Called Before\\" is on)", …, "guard": "skipped" }':
		'test/nodes/CallKaroOutboundCall.contract.ts, its guard row run by test/nodes/shared/contract/guard.ts (needs the processed-items store)',
	'"Phone Number" is not among the numbers this tool may call (its Allowed Numbers): "+91******1002". Use only the number you were given, or tell the person that you cannot call it; nothing was sent.':
		'test/nodes/shared/agentLimits.cases.ts (a tool run: several calls in one execution)',
	'is not among the numbers this tool may cancel calls to':
		'test/nodes/shared/agentLimits.cases.ts (a tool run of Delete Scheduled Call)',
	'Allowed Numbers gave no number in this execution, so this tool refused every number the agent asked for.':
		'test/nodes/shared/agentLimits.cases.ts (a tool run)',
	'this tool has called 1 number in this execution':
		'test/nodes/shared/agentLimits.cases.ts (a tool run: several calls in one execution)',
	'A setting of this tool is wrong': 'test/nodes/shared/agentLimits.cases.ts (a tool run)',
	'A setting of this tool is wrong: "Allowed Numbers" is left to the model ($fromAI), though it is a limit on the model. Set it to the numbers this conversation may reach, such as the trigger\'s field; the model cannot change a fixed setting. [item 0]':
		'test/nodes/shared/agentLimits.cases.ts (a tool run, both paths) and test/e2e/agent.e2e.mjs',
	'must be a whole number of at least 0, but is "{{ 5 }}"':
		'test/nodes/shared/agentLimits.cases.ts (an expression saved in Max Calls per Execution)',
	'A setting of this tool is wrong: "Allowed Numbers" entry 2 of 2 is not a number in use in India (+91): "+91*****6100". Its digits match no number range in use there. Check the digits, or write a number of another country with + and its country code. [item 0]':
		'test/nodes/shared/agentLimits.cases.ts (a tool run)',
	'"Max Calls per Execution" must be a whole number of at least 0, but is "three". Change it in the node.':
		'test/nodes/shared/agentLimits.cases.ts (a tool run)',
	'Not called: this tool has already called +91******1001 with this agent in this execution, and reaches a number once':
		'test/nodes/shared/agentLimits.cases.ts (a tool run: several calls in one execution)',
	'Not called: this tool has called 3 numbers in this execution, its Max Calls per Execution; no more are called in this conversation':
		'test/nodes/shared/agentLimits.cases.ts (a tool run: several calls in one execution)',
	"Referenced node doesn't exist":
		"n8n's own message, test/e2e/expressions.e2e.mjs (2.41.1 and 1.123.81)",
};

/** Texts the examples produced, to match against the README's quotes at the end. */
const produced = new Set<string>();

/** Asserts that the documentation quotes `text` and records it. */
function expectQuoted(text: string) {
	produced.add(text);
	expect({ text, inDocs: DOCS.includes(text) }).toEqual({ text, inDocs: true });
}

/** A JSON object the way the README writes one inline: `{ "status": "ignored", "message": "…" }`. */
function inlineJson(object: IDataObject): string {
	const fields = Object.entries(object).map(([key, value]) => `"${key}": ${JSON.stringify(value)}`);
	return `{ ${fields.join(', ')} }`;
}

/** The README quotes a per-item message without its ` [item N]` suffix when it names no item. */
function withoutItem(message: string): string {
	return message.replace(/ \[item \d+\]$/, '');
}

describe('README examples, produced by the nodes', () => {
	const sandbox = useSandbox({ runDurationMs: 0 });

	async function outputs(options: Omit<RunNodeOptions, 'settings'>): Promise<IDataObject[]> {
		const result = await runNode(sandbox(), { ...options, settings: { continueOnFail: true } });
		return (result.runData[NODE_NAME][0].data?.main[0] ?? []).map((item) => item.json);
	}

	// The examples' dates lie years ahead (2030, 2099): Schedule Time Far Ahead sends them.
	const outbound = (parameters: INodeParameters, items?: IDataObject[], baseUrl?: string) =>
		outputs({
			type: OUTBOUND_CALL,
			parameters: {
				agentId: 'agent_sales_01',
				phoneNumber: '={{ $json.phone }}',
				...parameters,
				options: { ...FAR_AHEAD_SENT, ...(parameters.options as INodeParameters | undefined) },
			},
			items: items ?? [{ phone: freshNumber() }],
			baseUrl,
		});

	const assignAt = (scheduleAt: string, options: INodeParameters = {}) =>
		outputs({
			type: ASSIGN_WORKFLOW,
			parameters: {
				phoneNumber: freshNumber(),
				workflowId: 'wf_welcome',
				schedule: 'at',
				scheduleAt,
				options: { ...FAR_AHEAD_SENT, ...options },
			},
		});

	it('a phone number without a country code', async () => {
		const [, item] = await outbound({}, [{ phone: freshNumber() }, { phone: '12345' }]);
		expectQuoted(String(item.error));
	});

	it('a national number without Default Country Code', async () => {
		const [item] = await outbound({}, [{ phone: '98765 01234' }]);
		expectQuoted(withoutItem(String(item.error)));
	});

	it.each([
		['too short for its country', '+376 312 34'],
		['in no range in use', '+971 50 123 456'],
		['in no range of a shared calling code', '+1 123 456 7890'],
		['with an extension', '+44 20 7946 0958 ext. 123'],
		['premium-rate', '+44 909 876 5432'],
		['with letters', '+1 800 FLOWERS'],
		['holding two numbers', '+91 98200 11112 / +91 98200 11113'],
	])('a phone number %s', async (_case, phone) => {
		const [item] = await outbound({}, [{ phone }]);
		expect(apiRequests(sandbox())).toEqual([]);
		expectQuoted(withoutItem(String(item.error)));
	});

	it.each([
		['with two readings', '4915123456789'],
		["with a spreadsheet's .0", '49301234567.0'],
	])('a phone number %s, under Default Country Code 49', async (_case, phone) => {
		const [item] = await outbound({ options: { defaultCountryCode: '49' } }, [{ phone }]);
		expect(apiRequests(sandbox())).toEqual([]);
		expectQuoted(withoutItem(String(item.error)));
	});

	it('a Default Country Code of no country', async () => {
		const [item] = await outbound({ options: { defaultCountryCode: 'ZZ' } }, [
			{ phone: '98765 43210' },
		]);
		expectQuoted(withoutItem(String(item.error)));
	});

	it('a US number with Default Country Code 91', async () => {
		const [item] = await outbound({ options: { defaultCountryCode: '91' } }, [
			{ phone: '(312) 345-6789' },
		]);
		expect(apiRequests(sandbox())).toEqual([]);
		expectQuoted(withoutItem(String(item.error)));
	});

	const assignRecord = (crm: IDataObject, options: INodeParameters = {}) =>
		outputs({
			type: ASSIGN_WORKFLOW,
			parameters: {
				phoneNumber: freshNumber(),
				workflowId: 'wf_welcome',
				attributeSource: 'json',
				attributesJson: '={{ $json.crm }}',
				options,
			},
			items: [{ crm }],
		});

	it('a CRM record with more than 50 values to send', async () => {
		const filled = Array.from({ length: 61 }, (_, i) => [`field_${i}`, `value ${i}`]);
		const empty = Array.from({ length: 7 }, (_, i) => [`empty_${i}`, null]);
		const [item] = await assignRecord(Object.fromEntries([...filled, ...empty]));
		expect(apiRequests(sandbox())).toEqual([]);
		expectQuoted(withoutItem(String(item.error)));
	});

	it('a missing attribute value with Fail the Item', async () => {
		const [item] = await assignRecord(
			{ 'First Name': 'Asha', City: null },
			{ unsendableValues: 'fail' },
		);
		expect(apiRequests(sandbox())).toEqual([]);
		expectQuoted(withoutItem(String(item.error)));
	});

	it('a record nested under fields, mapped whole after an Edit Fields node', async () => {
		const airtableRecord = {
			id: 'rec8QxPn2LmVt4Ka',
			createdTime: '2026-11-20T04:35:03.000Z',
			fields: {
				Name: 'Asha Rao',
				Phone: '+91 98200 17001',
				Email: 'asha@example.com',
				City: 'Pune',
				Plan: 'Gold',
				Status: 'New',
				Source: 'Website',
				Score: 42,
			},
		};
		const [item] = await outputs({
			type: ASSIGN_WORKFLOW,
			parameters: {
				phoneNumber: '={{ $json.fields.Phone }}',
				workflowId: 'wf_welcome',
				attributeSource: 'json',
				attributesJson: '={{ $json }}',
			},
			items: [airtableRecord],
			upstream: [
				{ name: 'Airtable', type: 'n8n-nodes-base.airtable' },
				{ name: 'Edit Fields', type: 'n8n-nodes-base.set' },
			],
		});
		expect(apiRequests(sandbox())).toEqual([]);
		expectQuoted(withoutItem(String(item.error)));
	});

	it('a Calendly invitee with two guests, mapped as the recipe: the guests left out as advised', async () => {
		const booking = readNodeOutput('calendly-trigger-invitee-created-guests.json') as IDataObject;
		const parameters: INodeParameters = {
			agentId: 'agent_sales_01',
			phoneNumber: '={{ $json.payload.scheduled_event.location.location }}',
			additionalFields: { metadataJson: '={{ $json.payload }}' },
		};
		const run = (options: INodeParameters) =>
			outputs({
				type: OUTBOUND_CALL,
				parameters: { ...parameters, options },
				items: [booking],
				upstream: [{ name: 'Calendly Trigger', type: 'n8n-nodes-base.calendlyTrigger' }],
			});
		const [refused] = await run({});
		expect(apiRequests(sandbox())).toEqual([]);
		expectQuoted(withoutItem(String(refused.error)));
		const advice = (refused.details as IDataObject).advice as { field: string; add: string };
		expect(advice).toEqual({
			field: 'Metadata Keys to Leave Out',
			add: 'scheduled_event.event_guests',
		});
		// Followed, the advice leads to the host, the next other person, then to the call.
		const [host] = await run({ metadataKeysToLeaveOut: advice.add });
		const hostAdvice = (host.details as IDataObject).advice as { add: string };
		expect(hostAdvice.add).toBe('scheduled_event.event_memberships');
		const [sent] = await run({ metadataKeysToLeaveOut: `${advice.add}, ${hostAdvice.add}` });
		expect(sent.status).toBe('success');
		const body = JSON.stringify(apiRequests(sandbox())[0].body);
		expect(body).toContain('meera.iyer@example.com');
		expect(body).not.toContain('arjun.menon@example.com');
	});

	it('three people in one item after an Aggregate node, as metadata and as the list itself', async () => {
		const people = ['Asha Rao', 'Ravi Kumar', 'Meera Iyer'].map((Name, index) => ({
			Name,
			Phone: `+91 98200 1700${index}`,
			City: 'Pune',
		}));
		const [metadata] = await outputs({
			type: OUTBOUND_CALL,
			parameters: {
				agentId: 'agent_sales_01',
				phoneNumber: '={{ $json.data[0].Phone }}',
				additionalFields: { metadataJson: '={{ $json }}' },
			},
			items: [{ data: people }],
			upstream: [{ name: 'Edit Fields', type: 'n8n-nodes-base.set' }],
		});
		const [list] = await outputs({
			type: ASSIGN_WORKFLOW,
			parameters: {
				phoneNumber: '={{ $json.data[0].Phone }}',
				workflowId: 'wf_welcome',
				attributeSource: 'json',
				attributesJson: '={{ $json.data }}',
			},
			items: [{ data: people }],
		});
		expect(apiRequests(sandbox())).toEqual([]);
		expectQuoted(withoutItem(String(metadata.error)));
		expectQuoted(withoutItem(String(list.error)));
	});

	it('a schedule time from Odoo, read in UTC and said in readAs and a hint', async () => {
		const result = await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: {
				agentId: 'agent_sales_01',
				phoneNumber: '={{ $json.mobile }}',
				additionalFields: { scheduleAt: '={{ $json.x_callback_time }}' },
				options: FAR_AHEAD_SENT,
			},
			items: [{ mobile: freshNumber(), x_callback_time: '2099-12-05 05:00:00' }],
			upstream: [{ name: 'Odoo', type: 'n8n-nodes-base.odoo' }],
		});
		const [item] = result.json(NODE_NAME);
		expect(item.scheduleAt).toBe('2099-12-05T10:30:00');
		expectQuoted(inlineJson(item.readAs as IDataObject));
		const [hint] = result.task(NODE_NAME).hints ?? [];
		expectQuoted(hint.message);
	});

	it("an Odoo phone that is false, Odoo's empty field", async () => {
		const [item] = await outputs({
			type: OUTBOUND_CALL,
			parameters: { agentId: 'agent_sales_01', phoneNumber: '={{ $json.phone }}' },
			items: [{ name: 'Asha Rao', phone: false }],
			upstream: [{ name: 'Odoo', type: 'n8n-nodes-base.odoo' }],
		});
		expect(apiRequests(sandbox())).toEqual([]);
		expectQuoted(withoutItem(String(item.error)));
	});

	it('phones grouped by type mapped as the object', async () => {
		const [item] = await outbound({}, [
			{ phone: { mobile: ['+91 98200-17523'], work: ['+91 22 4000 1234'] } },
		]);
		expect(apiRequests(sandbox())).toEqual([]);
		expectQuoted(withoutItem(String(item.error)));
	});

	it('a Default Country Code expression that gives nothing for an item', async () => {
		const [item] = await outbound({ options: { defaultCountryCode: '={{ $json.country }}' } }, [
			{ phone: '98200 12345' },
		]);
		expect(apiRequests(sandbox())).toEqual([]);
		expectQuoted(withoutItem(String(item.error)));
	});

	it('a Time Zone abbreviation that names no single zone', async () => {
		const [item] = await assignAt('2099-12-01T09:30', { timeZone: 'EST' });
		expect(apiRequests(sandbox())).toEqual([]);
		expectQuoted(withoutItem(String(item.error)));
	});

	it('an expression that reads a node the workflow does not have', async () => {
		const [item] = await outbound({ phoneNumber: "={{ $('CRM Lookup').item.json.phone }}" });
		expect(apiRequests(sandbox())).toEqual([]);
		expectQuoted(String((item.details as IDataObject).description));
	});

	it('a mobile number mapped into Schedule Time: far ahead', async () => {
		const [item] = await outputs({
			type: OUTBOUND_CALL,
			parameters: {
				agentId: 'agent_sales_01',
				phoneNumber: freshNumber(),
				additionalFields: { scheduleAt: '={{ $json.mobile }}' },
			},
			items: [{ mobile: 9876543210 }],
		});
		expect(apiRequests(sandbox())).toEqual([]);
		expectQuoted(withoutItem(String(item.error)));
	});

	it('a required field whose expression gave nothing', async () => {
		const [, item] = await outbound({ agentId: '={{ $json.agentId }}' }, [
			{ phone: freshNumber(), agentId: 'agent_sales_01' },
			{ phone: freshNumber() },
		]);
		expectQuoted(String(item.error));
	});

	it('an Earliest Call Time later than the Latest', async () => {
		const [item] = await outbound({
			additionalFields: { minTriggerTime: '18:00', maxTriggerTime: '09:30' },
		});
		expect(apiRequests(sandbox())).toEqual([]);
		expectQuoted(withoutItem(String(item.error)));
	});

	it('a call outside Calling Hours with Fail the Item', async () => {
		const [item] = await outbound({
			additionalFields: { scheduleAt: '2030-01-07T22:30:00+05:30' },
			options: {
				callingHours: {
					window: { days: EVERY_DAY, start: '09:00', end: '21:00', onOutside: 'fail' },
				},
			},
		});
		expectQuoted(String(item.error));
	});

	it('a call outside Calling Hours, moved to the next allowed time', async () => {
		const [item] = await outbound({
			additionalFields: { scheduleAt: '2030-01-07T22:30:00+05:30' },
			options: { callingHours: { window: { days: EVERY_DAY, start: '09:00', end: '21:00' } } },
		});
		expectQuoted(`scheduleAt: "${String(item.scheduleAt)}"`);
		expectQuoted(`scheduleMovedFrom: "${String(item.scheduleMovedFrom)}"`);
	});

	it('a Concurrency out of range', async () => {
		const [item] = await outbound({ options: { concurrency: '={{ 500 }}' } });
		expectQuoted(withoutItem(String(item.error)));
	});

	it('a repeated Outbound Call item', async () => {
		const [, repeat] = await outbound({}, [{ phone: '+919876500001' }, { phone: '+919876500001' }]);
		expectQuoted(String(repeat.message));
	});

	it('a 429 without Retry-After on every attempt', async () => {
		fastBackoff();
		sandbox().setFaults({
			endpoint: 'outbound',
			sequence: ['429', '429', '429', '429'],
			retryAfterSeconds: null,
		});
		const [item] = await outbound({});
		expect(item.details).toMatchObject({ kind: 'rate-limited', attempts: 4 });
		expectQuoted(String(item.error));
	});

	it('the languages Outbound Call accepts', async () => {
		const [item] = await outbound({ additionalFields: { language: 'fr' } });
		const accepted = /one of ((?:[a-z]{2}, )*[a-z]{2})\b/.exec(String(item.error))?.[1] ?? '';
		expect(accepted).not.toBe('');
		expectQuoted(accepted.split(', ').join(' '));
	});

	it('a 5xx after an Outbound Call', async () => {
		sandbox().setFaults({ endpoint: 'outbound', sequence: ['500'] });
		const [item] = await outbound({});
		const quote =
			'the call may or may not have been placed; it was not retried, to avoid calling twice';
		expect(String(item.error)).toContain(quote);
		expectQuoted(quote);
	});

	it('a plain-http Base URL to another host', async () => {
		const [item] = await outbound({}, undefined, 'http://0.0.0.0:4010');
		expectQuoted(withoutItem(String(item.error)));
	});

	it('a wall time the clocks skip', async () => {
		const [item] = await assignAt('2027-03-14T02:30', { timeZone: 'America/New_York' });
		expectQuoted(withoutItem(String(item.error)));
	});

	it('a repeated wall time', async () => {
		const [item] = await assignAt('2027-10-31T01:30', { timeZone: 'Europe/London' });
		expect(item.scheduleAt).toBe('2027-10-31T06:00:00');
		expectQuoted(`scheduleNote: "${String(item.scheduleNote)}"`);
	});

	it('a time without an offset, read in another zone than India: the hint', async () => {
		const result = await runNode(sandbox(), {
			type: ASSIGN_WORKFLOW,
			parameters: {
				phoneNumber: freshNumber(),
				workflowId: 'wf_welcome',
				schedule: 'at',
				scheduleAt: '2030-12-01T09:30',
				timeZone: 'Europe/London',
				options: FAR_AHEAD_SENT,
			},
			settings: { typeVersion: 2 },
		});
		const [json] = result.json(NODE_NAME);
		expect(json).toMatchObject({
			scheduleAt: '2030-12-01T15:00:00',
			scheduleTimeZone: 'Europe/London',
		});
		const [hint] = result.task(NODE_NAME).hints ?? [];
		expectQuoted(hint.message);
	});

	it.each([
		['a spreadsheet serial date', 46000],
		['a date alone, without Calling Hours', '2030-12-05'],
		["midnight without an offset, as n8n's date picker gives a day", '2030-12-05T00:00:00'],
		['a time long past', '2020-01-01T04:00:00Z'],
		['a date in a form the node does not read', '13 January 2027 05:15'],
		[
			'a zone in brackets that disagrees with the offset',
			'2026-03-28T23:30:00-03:30[America/St_Johns]',
		],
	])('Schedule Time refused: %s', async (_case, when) => {
		const [item] = await outbound({ additionalFields: { scheduleAt: '={{ $json.when }}' } }, [
			{ phone: freshNumber(), when },
		]);
		expect(apiRequests(sandbox())).toEqual([]);
		expectQuoted(withoutItem(String(item.error)));
	});

	it("Schedule Time refused: a Microsoft SQL DATE column's midnight UTC", async () => {
		const [item] = await outputs({
			type: OUTBOUND_CALL,
			parameters: {
				agentId: 'agent_sales_01',
				phoneNumber: '={{ $json.phone }}',
				additionalFields: { scheduleAt: '={{ $json.follow_up_on }}' },
				options: FAR_AHEAD_SENT,
			},
			items: [{ phone: freshNumber(), follow_up_on: '2030-12-05T00:00:00.000Z' }],
			upstream: [{ name: 'SQL Server', type: 'n8n-nodes-base.microsoftSql' }],
		});
		expect(apiRequests(sandbox())).toEqual([]);
		expectQuoted(withoutItem(String(item.error)));
	});

	it.each([
		['epoch seconds', 1893466800, {}],
		['epoch microseconds', '1893466800000000', {}],
		['a spreadsheet serial date, when asked', 47822.4375, { scheduleNumbers: 'serialDates' }],
		[
			'a date alone, with Calling Hours',
			'2030-12-05',
			{ callingHours: { window: { days: EVERY_DAY, start: '09:00', end: '21:00' } } },
		],
	])('Schedule Time read by a rule: %s', async (_case, when, options) => {
		const [item] = await outbound(
			{ additionalFields: { scheduleAt: '={{ $json.when }}' }, options },
			[{ phone: freshNumber(), when }],
		);
		expectQuoted(`scheduleNote: "${String(item.scheduleNote)}"`);
	});

	it('Delete Scheduled Call when no call was scheduled, and for an unknown agent', async () => {
		const [scheduled, nothing] = [freshNumber(), freshNumber()];
		await scheduleCall(sandbox(), scheduled);
		const result = await runNode(sandbox(), {
			type: DELETE_SCHEDULED_CALL,
			parameters: { agentId: '={{ $json.agent }}', phoneNumber: '={{ $json.phone }}' },
			items: [
				{ agent: 'agent_sales_01', phone: scheduled },
				{ agent: 'agent_sales_01', phone: nothing },
				{ agent: 'agent_unknown', phone: freshNumber() },
			],
			settings: { continueOnFail: true },
		});
		const [, notScheduled, unknownAgent] = result.json(NODE_NAME);
		expect(notScheduled).toMatchObject({ deleted: false, status: 'notScheduled' });
		expectQuoted(`("${String(notScheduled.message)}")`);
		expect(unknownAgent.error).toBe('Not found (HTTP 404): Agent does not exist');
		expectQuoted('"Agent does not exist" for a wrong Agent ID');
		expectQuoted(String(result.task(NODE_NAME).hints?.[0]?.message));
	});

	it('Preview Only', async () => {
		const [item] = await outbound(
			{
				additionalFields: { scheduleAt: '2030-12-01T09:30:00Z', language: 'hi' },
				options: { previewOnly: true },
			},
			[{ phone: '+91 98765 43210' }],
		);
		const shown = { preview: item.preview, request: item.request };
		expectQuoted(JSON.stringify(shown, null, 2).replace(/\s+/g, ' '));
	});

	it('Delete Scheduled Call output fields', async () => {
		const phone = freshNumber();
		await scheduleCall(sandbox(), phone);
		const [item] = await outputs({
			type: DELETE_SCHEDULED_CALL,
			parameters: { agentId: 'agent_sales_01', phoneNumber: phone },
		});
		const { deleted, status, deletedByEarlierAttempt, ...rest } = item;
		const shown = inlineJson({ deleted, status, deletedByEarlierAttempt }).slice(0, -2);
		const keys = Object.keys(rest).map((key) => `"${key}"`);
		expectQuoted(`${shown}, ${keys.join(', ')} }`);
	});

	it('the summary of a bulk run under the output', async () => {
		const [first, second, third] = [freshNumber(), freshNumber(), freshNumber()];
		const placed = await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: { agentId: '={{ $json.agent }}', phoneNumber: '={{ $json.phone }}' },
			items: [
				{ phone: first, agent: 'agent_sales_01' },
				{ phone: second, agent: 'agent_sales_01' },
				{ phone: first, agent: 'agent_sales_01' },
				{ phone: third, agent: 'agent_unknown' },
			],
			settings: { continueOnFail: true },
		});
		const started = await runNode(sandbox(), {
			type: ASSIGN_WORKFLOW,
			parameters: {
				phoneNumber: '={{ $json.phone }}',
				workflowId: 'wf_welcome',
				attributeSource: 'none',
				schedule: 'at',
				scheduleAt: '2020-01-01T10:00:00+05:30',
				options: { concurrency: 1, longPastSchedule: 'startNow' },
			},
			items: [{ phone: first }, { phone: second }, { phone: first }],
		});

		for (const result of [placed, started]) {
			const [summary] = result.task(NODE_NAME).hints ?? [];
			expect(summary).toMatchObject({ type: 'info', location: 'outputPane' });
			expectQuoted(summary.message);
		}
	});

	it('a warning when Retry On Fail is on, for Outbound Call and Create Campaign only', async () => {
		const warned = async (type: string, parameters: INodeParameters) => {
			const result = await runNode(sandbox(), {
				type,
				parameters,
				settings: { retryOnFail: true },
			});
			expect(result.task(NODE_NAME).error).toBeUndefined();
			return (result.task(NODE_NAME).hints ?? []).some(
				(hint) => hint.type === 'warning' && hint.message.startsWith('Retry On Fail is on:'),
			);
		};

		expect({
			outbound: await warned(OUTBOUND_CALL, {
				agentId: 'agent_sales_01',
				phoneNumber: freshNumber(),
			}),
			campaign: await warned(CREATE_CAMPAIGN, {
				name: 'Renewals',
				campaignType: 'v1',
				agentId: 'agent_sales_01',
			}),
			assign: await warned(ASSIGN_WORKFLOW, {
				phoneNumber: freshNumber(),
				workflowId: 'wf_welcome',
			}),
		}).toEqual({ outbound: true, campaign: true, assign: false });
		expectQuoted(
			"a warning when n8n's Retry On Fail is set on Outbound Call (and Create Campaign)",
		);
	});

	it("CallKaro's answer to the credential test's request", async () => {
		const answer = await call(sandbox().url, '/call/delete-schedule-call', {});
		expect(answer.status).toBe(400);
		expectQuoted(inlineJson(answer.body as IDataObject));
	});
});

describe('README examples of the CallKaro Trigger', () => {
	const TRIGGER_TYPE = 'n8n-nodes-callkaro.callKaroTrigger';
	let server: TriggerServer | undefined;

	/** The trigger's node type under its package name, and a node of it. */
	function triggerNode(typeVersion: number, more: Partial<INode> = {}) {
		const trigger = new CallKaroTrigger();
		trigger.description.name = TRIGGER_TYPE;
		const node: INode = {
			id: 'node-trigger',
			name: 'CallKaro Trigger',
			type: TRIGGER_TYPE,
			typeVersion,
			position: [0, 0],
			webhookId: '9b7c2d1e-4f5a-4b6c-8d7e-0f1a2b3c4d5e',
			parameters: {},
			...more,
		};
		return { nodes: [node], nodeTypes: { [TRIGGER_TYPE]: trigger } };
	}

	async function deliver(parameters: INodeParameters, body: unknown): Promise<Answer> {
		server = await startTriggerServer(triggerNode(1, { parameters }));
		const answer = await request(server.productionUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		const json = (await answer.body.json()) as IDataObject;
		await server.settled();
		return { status: answer.statusCode, body: json };
	}

	afterEach(async () => {
		await server?.close();
		server = undefined;
	});

	it('a call_ended event that passes the filters', async () => {
		const answer = await deliver({}, callEndedEvent());
		expect(answer.status).toBe(200);
		expectQuoted(inlineJson(answer.body));
	});

	it('a call_ended event filtered out', async () => {
		const answer = await deliver({ filters: { agentIds: 'agent_other' } }, callEndedEvent());
		expect(answer.status).toBe(200);
		expect(answer.body.message).toEqual(expect.stringContaining('filtered out'));
		expectQuoted(inlineJson({ ...answer.body, message: '…' }));
	});

	it('another event', async () => {
		const answer = await deliver({}, { event: 'call_started', data: callEndedEvent().data });
		expect(answer.status).toBe(200);
		expectQuoted(`{ "status": ${JSON.stringify(answer.body.status)}, … }`);
	});

	it('a trigger set up wrongly', async () => {
		const answer = await deliver(
			{ verifySecret: true, headerName: 'X-CallKaro-Secret', secretHeaderValue: '' },
			callEndedEvent(),
		);
		expect(answer.status).toBe(500);
		const message = String(answer.body.message);
		const reason = message.slice(message.indexOf(':') + 1);
		expect(reason.trim()).not.toBe('');
		expectQuoted(inlineJson({ ...answer.body, message: message.replace(reason, ' …') }));
	});

	it.each([
		// the hint too: it is what a builder reads on a new trigger's first Execute step
		['a new trigger without its secret credential', undefined, {}, true],
		[
			'a secret credential without a value',
			{ id: 'cred-secret', name: 'Webhook secret' },
			{ callKaroWebhookSecretApi: { headerName: 'X-CallKaro-Secret', secretHeaderValue: '' } },
			false,
		],
	])('publishing %s', async (_case, reference, credentials, hintQuoted) => {
		server = await startTriggerServer({
			...triggerNode(1.2, { credentials: reference && { callKaroWebhookSecretApi: reference } }),
			credentials,
		});
		const refused = await server.activate().then(
			() => ({ message: 'activated', description: '' }),
			(error: NodeOperationError) => error,
		);
		expectQuoted(refused.message);
		if (hintQuoted) expectQuoted(String(refused.description));
	});

	it.each([
		['valid fields', { headerName: 'X-Webhook-Token', secretHeaderValue: 'a-long-random-value' }],
		[
			'a header name with a space',
			{ headerName: 'X Secret', secretHeaderValue: 'a-long-random-value' },
		],
		['no value', { headerName: 'X-CallKaro-Secret', secretHeaderValue: '' }],
	])("the secret credential's test: %s", async (_case, values) => {
		const result = await testCredentialWithNode(values, 'callKaroWebhookSecretApi', [
			new CallKaroTrigger(),
		]);
		expectQuoted(`| "${result.message}" |`);
	});
});

interface Answer {
	status: number;
	body: IDataObject;
}

describe('README examples of the credential test', () => {
	const sandbox = useSandbox();

	async function testMessage(answer: EchoResponse): Promise<string> {
		const server = await startEchoServer({ responder: () => answer });
		try {
			return (await testCredential({ apiKey: DEMO_API_KEY, baseUrl: server.url })).message;
		} finally {
			await server.close();
		}
	}

	it('a key CallKaro accepts, and one it refuses', async () => {
		const accepted = await testCredential({ apiKey: DEMO_API_KEY, baseUrl: sandbox().url });
		const refused = await testCredential({ apiKey: WRONG_API_KEY, baseUrl: sandbox().url });
		expect(accepted.status).toBe('OK');
		expect(refused.status).toBe('Error');
		expectQuoted(`| "${accepted.message}" |`);
		expectQuoted(`| "${refused.message}" |`);
	});

	it.each<[string, EchoResponse]>([
		['another status', { status: 404, json: { detail: 'Not Found' } }],
		[
			'an answer that is not JSON',
			{ status: 400, text: '<html></html>', headers: { 'content-type': 'text/html' } },
		],
		['JSON without the error shape', { status: 400, json: { error: 'bad request' } }],
	])('a server that is not CallKaro: %s', async (_, answer) => {
		expectQuoted(`| "${await testMessage(answer)}" |`);
	});
});

describe('the documentation', () => {
	it('every quote of README.md, docs/ and CONTRIBUTING.md is produced above or checked elsewhere', () => {
		const unchecked = quotedMessages().filter(
			(quote) => !CHECKED_ELSEWHERE[quote] && ![...produced].some((text) => text.includes(quote)),
		);
		expect(unchecked).toEqual([]);
	});

	it('names only test files that exist where it says a quote is checked elsewhere', () => {
		const named = Object.values(CHECKED_ELSEWHERE).flatMap(
			(where) => where.match(/(?:test|scripts)\/[\w/.-]+\.(?:ts|mjs)/g) ?? [],
		);
		expect(named.filter((file) => !projectFileExists(file))).toEqual([]);
	});

	it('README.md links every page in docs/', () => {
		const readme = projectFileText('README.md');
		expect(docsPages().filter((page) => !readme.includes(`](${page}`))).toEqual([]);
	});

	it('every relative link of README.md, docs/ and CONTRIBUTING.md resolves', () => {
		expect(documentationFiles().flatMap(brokenLinks)).toEqual([]);
	});

	it('README.md stays short: at most 300 lines', () => {
		expect(projectFileText('README.md').split('\n').length).toBeLessThanOrEqual(300);
	});

	it("the nodes' Docs links and field descriptions link docs/ pages that exist", () => {
		const nodes = [
			new CallKaroAssignWorkflow(),
			new CallKaroCreateCampaign(),
			new CallKaroDeleteScheduledCall(),
			new CallKaroOutboundCall(),
			new CallKaroTrigger(),
		];
		const text = JSON.stringify(nodes.map((node) => node.description));
		const pages = [
			...text.matchAll(
				/github\.com\/callkaro\/n8n-nodes-callkaro\/blob\/main\/(docs\/[\w-]+\.md)/g,
			),
		].map((match) => match[1]);
		expect(pages).toEqual(
			expect.arrayContaining(['docs/duplicate-calls.md', 'docs/scheduling.md']),
		);
		expect(pages.filter((page) => !projectFileExists(page))).toEqual([]);
	});
});
