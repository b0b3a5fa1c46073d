import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { Failure, INode, JsonObject } from 'n8n-workflow';

import { CallKaroApiError, CallKaroInputError } from '../../src/errors';
import type { CallKaroErrorKind } from '../../src/errors';

const HINTS: Partial<Record<CallKaroErrorKind, string>> = {
	auth: 'Check the API key in the CallKaro credential (CallKaro dashboard, API Key page).',
	'not-found': 'Check the ID, and that it belongs to the account of the API key in the credential.',
	'rate-limited':
		'CallKaro is throttling requests: lower "Concurrency" in the node options, or try again later.',
	'bad-request': 'CallKaro refused the values sent: see its message above.',
};

const OUTCOME_UNKNOWN_HINT =
	'The request may have taken effect. Check the CallKaro dashboard before sending it again.';

function failureOf(error: CallKaroApiError): Failure | undefined {
	switch (error.kind) {
		case 'rate-limited':
			return { cause: 'rate-limited', retryAfterMs: error.retryAfterMs };
		case 'service-failure':
			return { cause: 'temporarily-unavailable' };
		case 'auth':
			return { cause: 'credential-invalid' };
		default:
			return undefined;
	}
}

function apiErrorDetails(error: CallKaroApiError): JsonObject {
	return {
		kind: error.kind,
		httpStatus: error.httpStatus ?? null,
		serviceMessage: error.serviceMessage ?? null,
		attempts: error.attempts,
		outcomeUnknown: error.outcomeUnknown,
	};
}

/** Wraps any failure of one item as the n8n error a builder sees, tied to that item. */
export function toNodeError(
	node: INode,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof CallKaroInputError) {
		return new NodeOperationError(node, `${error.message} [item ${itemIndex}]`, { itemIndex });
	}
	if (error instanceof CallKaroApiError) {
		return new NodeApiError(node, apiErrorDetails(error), {
			message: error.message,
			description: error.outcomeUnknown ? OUTCOME_UNKNOWN_HINT : HINTS[error.kind],
			httpCode: error.httpStatus === undefined ? undefined : String(error.httpStatus),
			itemIndex,
			failure: failureOf(error),
		});
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}

/**
 * The json of an item that failed under Continue On Fail: what happened, never the key. Only
 * `error` and `details` keys, so n8n routes it to the error output when there is one, merged
 * with the fields of the input item.
 */
export function errorItemJson(error: NodeApiError | NodeOperationError): JsonObject {
	if (!(error instanceof NodeApiError)) return { error: error.message };
	return {
		error: error.message,
		details: { ...(error.errorResponse as JsonObject), description: error.description ?? null },
	};
}
