import { ExpressionError, NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { Failure, INode, JsonObject } from 'n8n-workflow';

import { CallKaroApiError } from '../../src/client/errors';
import { CallKaroInputError } from '../../src/input/inputError';
import type { CallKaroErrorKind } from '../../src/client/errors';
import { maskPhoneNumbersInText } from '../../src/phone/mask';

const HINTS: Partial<Record<CallKaroErrorKind, string>> = {
	auth: 'Check the API key in the CallKaro credential (CallKaro dashboard, API Key page).',
	'not-found': 'Check the ID, and that it belongs to the account of the API key in the credential.',
	'rate-limited':
		'CallKaro is throttling requests: lower "Concurrency" in the node options, or try again later.',
	'bad-request': 'CallKaro refused the values sent: see its message above.',
	'attributes-not-saved':
		'Check the attribute names against the CRM attributes in CallKaro. The run was not undone; with On Attribute Problems = Report in Output the item goes to its output instead.',
};

// Delete answers 404 for an agent it does not know, and (on some accounts) when nothing is scheduled.
const DELETE_NOT_FOUND_HINT =
	"For this endpoint 404 means that the agent is not one of the account of the API key, or that this agent has no call scheduled to this number: CallKaro's message above says which. Check the Agent ID; a call that was already placed or cancelled cannot be cancelled.";

const OUTCOME_UNKNOWN_HINT =
	'The request may have taken effect. Check the CallKaro dashboard before sending it again.';

const NOTHING_SENT_HINT = 'Nothing was sent to CallKaro for this item.';

/** The parameter behind each required text field, to tell an expression that gave nothing. */
const PARAMETER_OF_FIELD: Record<string, string> = {
	'Phone Number': 'phoneNumber',
	'Agent ID': 'agentId',
	'Workflow ID': 'workflowId',
	'Campaign Name': 'name',
};

const SHOWN_EXPRESSION_LENGTH = 80;

/**
 * When a required field is empty because its expression gave nothing for this item (a missing
 * input field, say), says so: "is empty" alone reads as if the node was set up wrongly.
 */
function emptyExpressionNote(node: INode, error: CallKaroInputError): string {
	const parameter = node.parameters[PARAMETER_OF_FIELD[error.field] ?? ''];
	if (!error.message.startsWith(`"${error.field}" is empty`)) return '';
	if (typeof parameter !== 'string' || !parameter.startsWith('=')) return '';
	const expression = parameter.slice(1).trim().slice(0, SHOWN_EXPRESSION_LENGTH);
	return ` Its expression ${maskPhoneNumbersInText(expression)} gave an empty value for this item: check that the input item has the field it reads.`;
}

/** Which node an expression that n8n refused reached for, as n8n's editor says it. */
function expressionCause(error: ExpressionError): string | undefined {
	const { nodeCause, descriptionKey } = error.context;
	if (typeof nodeCause !== 'string' || nodeCause === '') return undefined;
	if (descriptionKey === 'nodeNotFound') {
		return `The node '${nodeCause}' doesn't exist in this workflow: check the name in the expression.`;
	}
	return `The expression reads from the node '${nodeCause}'.`;
}

/** The `details` of each error item, kept beside the n8n error it belongs to. */
const detailsOfError = new WeakMap<Error, JsonObject>();

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

function hintOf(error: CallKaroApiError): string | undefined {
	if (error.outcomeUnknown) return OUTCOME_UNKNOWN_HINT;
	if (error.kind === 'not-found' && error.operation === 'delete') return DELETE_NOT_FOUND_HINT;
	return HINTS[error.kind];
}

function apiErrorDetails(error: CallKaroApiError): JsonObject {
	return {
		kind: error.kind,
		httpStatus: error.httpStatus ?? null,
		serviceMessage: error.serviceMessage ?? null,
		attempts: error.attempts,
		outcomeUnknown: error.outcomeUnknown,
		...(error.achieved as JsonObject | undefined),
	};
}

/** The details of an item that failed before anything was sent. */
function nothingSentDetails(
	kind: string,
	extra: JsonObject = {},
	description = NOTHING_SENT_HINT,
): JsonObject {
	return {
		kind,
		httpStatus: null,
		serviceMessage: null,
		attempts: 0,
		outcomeUnknown: false,
		...extra,
		description,
	};
}

function withDetails<E extends NodeApiError | NodeOperationError>(
	error: E,
	details: JsonObject,
): E {
	detailsOfError.set(error, details);
	return error;
}

/** Wraps any failure of one item as the n8n error a builder sees, tied to that item. */
export function toNodeError(
	node: INode,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof CallKaroInputError) {
		return withDetails(
			new NodeOperationError(
				node,
				`${error.message}${emptyExpressionNote(node, error)} [item ${itemIndex}]`,
				{
					itemIndex,
					description: NOTHING_SENT_HINT,
				},
			),
			nothingSentDetails('invalid-input', {
				field: error.field,
				...(error.advice && { advice: error.advice }),
			}),
		);
	}
	if (error instanceof CallKaroApiError) {
		const description = hintOf(error);
		return withDetails(
			new NodeApiError(node, apiErrorDetails(error), {
				message: `${error.message}${error.kind === 'attributes-not-saved' ? ` [item ${itemIndex}]` : ''}`,
				description,
				httpCode: error.httpStatus === undefined ? undefined : String(error.httpStatus),
				itemIndex,
				failure: failureOf(error),
			}),
			{ ...apiErrorDetails(error), description: description ?? null },
		);
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex = itemIndex;
		return error;
	}
	// An expression of a parameter that fails to evaluate: n8n throws it while the item is read.
	if (error instanceof ExpressionError) {
		// Ours first, then which node the expression reached for, then n8n's own description,
		// which often says how to fix the expression.
		const description = [NOTHING_SENT_HINT, expressionCause(error), error.description]
			.filter(Boolean)
			.join(' ');
		const wrapped = new NodeOperationError(node, error, { itemIndex, description });
		// n8n's editor builds "The node '…' doesn't exist" from the expression's own context.
		Object.assign(wrapped.context, error.context, { itemIndex });
		return withDetails(wrapped, nothingSentDetails('expression', {}, description));
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}

/** How a wrong setting reads when the node runs as an AI agent's tool, whose model sees the message. */
const SETTING_WRONG = 'A setting of this tool is wrong: ';
const SETTING_FIX =
	'Correct it in the node: an AI agent cannot change the settings of its tool, so every call of this tool fails until then.';

/**
 * A wrong setting of a node that runs as an AI agent's tool, as the builder sees it: it stops the
 * run (n8n 1.x fails the execution; 2.x marks the tool's run as failed), never only an answer to
 * the model.
 */
export function toSettingError(node: INode, error: unknown, itemIndex: number): NodeOperationError {
	const failed = toNodeError(node, error, itemIndex);
	return new NodeOperationError(node, `${SETTING_WRONG}${failed.message}`, {
		itemIndex,
		description: [SETTING_FIX, failed.description].filter(Boolean).join(' '),
	});
}

/**
 * The json of an item that failed under Continue On Fail: what happened, never the key. Only
 * `error` and `details` keys, so n8n routes it to the error output when there is one, merged
 * with the fields of the input item. Every failure has the same `details` keys.
 */
export function errorItemJson(error: NodeApiError | NodeOperationError): JsonObject {
	const details = detailsOfError.get(error) ?? {
		kind: 'other',
		httpStatus: null,
		serviceMessage: null,
		attempts: null,
		outcomeUnknown: null,
		description: error.description ?? null,
	};
	return { error: error.message, details };
}

/**
 * The json of a failed item for n8n 1.x's error output, which takes only items whose json is
 * `{ error }` or `{ error, message }` (2.x also takes `details`): the hint goes in `message`.
 */
export function bareErrorItemJson(error: NodeApiError | NodeOperationError): JsonObject {
	const { description } = errorItemJson(error).details as { description: string | null };
	return description ? { error: error.message, message: description } : { error: error.message };
}
