import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import {
	RECENT_CALL_IDS_LIMIT,
	RECENT_CALL_TRIGGERS_LIMIT,
	filterMismatch,
	readWebhookEvent,
	rememberCallId,
	secretMatches,
	splitList,
} from '../../src/trigger/callEnded';
import { RecentCallIdsByKey } from '../../src/guard/recentCallIds';
import { secretSetting } from './sharedSecret';

interface Filters {
	agentIds?: string;
	batchId?: string;
	callTypes?: string[];
	outcomes?: string[];
}

interface Options {
	keepRepeats?: boolean;
}

interface RememberedCalls {
	recentCallIds?: unknown;
}

/** Answers the request directly (n8n then sends nothing else) and starts no execution. */
function refuse(
	context: IWebhookFunctions,
	statusCode: number,
	message: string,
): IWebhookResponseData {
	const res = context.getResponseObject();
	const body = JSON.stringify({ status: 'error', message });
	res.writeHead(statusCode, { 'content-type': 'application/json; charset=utf-8' });
	res.end(body);
	return { noWebhookResponse: true };
}

/** 200 with a short reason, and no execution. */
function ignore(message: string): IWebhookResponseData {
	return { webhookResponse: { status: 'ignored', message } };
}

/**
 * The parsed body. When n8n did not parse it as JSON (the request had another content type),
 * the raw bytes are read as JSON.
 */
function bodyOf(context: IWebhookFunctions): unknown {
	const body: unknown = context.getBodyData();
	if (typeof body === 'object' && body !== null && 'event' in body) return body;
	const { rawBody } = context.getRequestObject() as {
		rawBody?: { toString(encoding: 'utf8'): string };
	};
	if (rawBody === undefined || rawBody === null) return body;
	try {
		return JSON.parse(rawBody.toString('utf8')) as unknown;
	} catch {
		return body;
	}
}

function receivedHeader(context: IWebhookFunctions, name: string): string | undefined {
	const value = context.getHeaderData()[name.toLowerCase()];
	return Array.isArray(value) ? value.join(', ') : value;
}

// Recent call IDs per trigger, in the process that receives the webhooks. n8n does not reliably
// save static data changed in webhook() (2.x skips the save once a workflow has stored data, and
// concurrent deliveries overwrite each other), so this memory is what makes repeats exact within
// one process; static data adds what n8n did persist (e.g. from before a restart).
const recentCallIds = new RecentCallIdsByKey(RECENT_CALL_TRIGGERS_LIMIT, RECENT_CALL_IDS_LIMIT);

/**
 * Remembers the call and tells whether it was delivered before. The check and the update happen
 * in one synchronous step, so concurrent deliveries to one process cannot both pass.
 */
function rememberDelivery(context: IWebhookFunctions, callId: string): boolean {
	// Test events (Test URL) are never repeats, so a builder can send the same one again.
	if (context.getMode() === 'manual') return false;
	const key = `${context.getWorkflow().id ?? ''} ${context.getNode().id}`;
	const seenHere = recentCallIds.forKey(key).checkAndAdd(callId);
	const stored = context.getWorkflowStaticData('node') as RememberedCalls;
	const next = rememberCallId(stored.recentCallIds, callId);
	if (!next.repeat) stored.recentCallIds = next.recent;
	return seenHere || next.repeat;
}

/** The CallKaro Trigger's webhook: checks, filters and de-duplicates one delivery. */
export async function handleCallEndedWebhook(
	context: IWebhookFunctions,
): Promise<IWebhookResponseData> {
	const secret = await secretSetting(context);
	if (secret.kind === 'wrong') {
		return refuse(context, 500, `The CallKaro Trigger is set up wrongly: ${secret.message}`);
	}
	if (
		secret.kind === 'on' &&
		!secretMatches(receivedHeader(context, secret.headerName), secret.value)
	) {
		return refuse(context, 401, 'The shared secret header is missing or wrong');
	}

	const event = readWebhookEvent(bodyOf(context));
	if (event.kind === 'invalid') return refuse(context, 400, event.reason);
	if (event.kind === 'otherEvent') {
		return ignore(
			`Event "${event.event}" ignored: this trigger starts workflows on call_ended only`,
		);
	}

	const { call } = event;
	const callName = call.callId ?? '(no callSid)';
	const filters = context.getNodeParameter('filters', {}) as Filters;
	const mismatch = filterMismatch(call, {
		agentIds: splitList(filters.agentIds),
		callTypes: filters.callTypes ?? [],
		outcomes: filters.outcomes ?? [],
		batchId: filters.batchId,
	});
	if (mismatch !== null) return ignore(`Call ${callName} filtered out: ${mismatch}`);

	let isRepeat = false;
	if (call.callId !== null) {
		isRepeat = rememberDelivery(context, call.callId);
		const options = context.getNodeParameter('options', {}) as Options;
		if (isRepeat && options.keepRepeats !== true) {
			return ignore(`Call ${callName} was delivered before; repeat ignored`);
		}
	}

	const json = { ...call, isRepeat, event: event.event, data: event.data } as IDataObject;
	return { workflowData: [[{ json }]] };
}
