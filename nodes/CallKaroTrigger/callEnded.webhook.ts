import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	filterMismatch,
	readWebhookEvent,
	rememberCallId,
	secretMatches,
	splitList,
} from '../../src/callEnded';

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

// An HTTP header name (RFC 9110 token).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

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

function expectedSecret(context: IWebhookFunctions): { headerName: string; value: string } | null {
	if (context.getNodeParameter('verifySecret', false) !== true) return null;
	const headerName = String(context.getNodeParameter('headerName', '')).trim();
	const value = String(context.getNodeParameter('secretHeaderValue', ''));
	if (!HEADER_NAME.test(headerName)) {
		throw new NodeOperationError(context.getNode(), `"${headerName}" is not a valid header name`, {
			description: 'Use letters, digits and dashes, e.g. X-CallKaro-Secret',
		});
	}
	if (value === '') {
		throw new NodeOperationError(context.getNode(), 'The secret header value is empty', {
			description:
				'Enter the value set as a custom header of the webhook in the CallKaro dashboard, or turn off "Verify Shared Secret"',
		});
	}
	return { headerName, value };
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

/** The CallKaro Trigger's webhook: checks, filters and de-duplicates one delivery. */
export function handleCallEndedWebhook(context: IWebhookFunctions): IWebhookResponseData {
	const secret = expectedSecret(context);
	if (secret && !secretMatches(receivedHeader(context, secret.headerName), secret.value)) {
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
		const options = context.getNodeParameter('options', {}) as Options;
		const remembered = context.getWorkflowStaticData('node') as RememberedCalls;
		const next = rememberCallId(remembered.recentCallIds, call.callId);
		isRepeat = next.repeat;
		if (isRepeat && options.keepRepeats !== true) {
			return ignore(`Call ${callName} was delivered before; repeat ignored`);
		}
		remembered.recentCallIds = next.recent;
	}

	const json = { ...call, isRepeat, event: event.event, data: event.data } as IDataObject;
	return { workflowData: [[{ json }]] };
}
