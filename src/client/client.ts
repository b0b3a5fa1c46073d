import type { z } from 'zod/v4';

import { describeAttributeProblems, summarizeAttributeReport } from '../records/attributes';
import type { AttributeSummary } from '../records/attributes';
import { CallKaroApiError, classifyStatus, parseRetryAfter } from './errors';
import type { HttpErrorKind } from './errors';
import { maskPhoneNumbersInText } from '../phone/phoneNumber';
import { DEFAULT_RETRY_POLICY, decideRetry, mayHaveTakenEffect } from './retry';
import type { Operation, RetryPolicy } from './retry';
import {
	assignResponseSchema,
	campaignResponseSchema,
	deleteResponseSchema,
	errorBodySchema,
	outboundResponseSchema,
} from './schemas';
import type { AssignRequest, OutboundRequest, PreparedCampaign } from '../input/requests';
import { TransportError } from './transport';
import type {
	NetworkFailureKind,
	Transport,
	TransportRequest,
	TransportResponse,
} from './transport';

export interface ClientOptions {
	transport: Transport;
	sleep: (ms: number) => Promise<void>;
	random?: () => number;
	retryPolicy?: RetryPolicy;
	now?: () => Date;
}

export interface AssignResult {
	outcome: 'started' | 'already-running';
	/** The status of CallKaro's answer: 2xx, or 409 for already-running. */
	httpStatus: number;
	/** The run was started by an earlier attempt of this request whose answer was lost or was a 5xx. */
	startedByEarlierAttempt: boolean;
	status?: string;
	message: string;
	runId?: string;
	enrollmentId?: string;
	attributes: AttributeSummary;
	attempts: number;
	body: unknown;
}

/**
 * Assign's result as an error of its item, for On Attribute Problems = Fail the Item, when
 * CallKaro did not save every attribute. The run was started (or was running) all the same, so
 * the error names the attributes and keeps the run's IDs.
 */
export function attributeProblemsError(
	result: AssignResult,
	maskedNumber: string,
): CallKaroApiError | undefined {
	if (!result.attributes.hasProblems) return undefined;
	const run =
		result.outcome === 'started'
			? `the run was started all the same${result.runId ? ` (run ${result.runId})` : ''}`
			: 'the number was already running in this workflow';
	const { updated, keptExisting, ignored, invalid } = result.attributes;
	return new CallKaroApiError(
		`CallKaro did not save every attribute of ${maskedNumber}: ${describeAttributeProblems(result.attributes)}; ${run}`,
		{
			kind: 'attributes-not-saved',
			httpStatus: result.httpStatus,
			serviceMessage: result.message || undefined,
			attempts: result.attempts,
			outcomeUnknown: false,
			body: result.body,
			operation: 'assign',
			achieved: {
				status: result.outcome,
				runId: result.runId ?? null,
				enrollmentId: result.enrollmentId ?? null,
				attributes: { updated, keptExisting, ignored, invalid },
			},
		},
	);
}

export interface DeleteResult {
	/** 'not-scheduled': CallKaro said it had no scheduled call for the agent and number. */
	outcome: 'deleted' | 'not-scheduled';
	/** An earlier attempt's answer was lost and this one found nothing left: that attempt deleted it. */
	deletedByEarlierAttempt: boolean;
	/** The status of CallKaro's answer: 2xx, or 404 when it said nothing was scheduled. */
	httpStatus: number;
	message: string;
	attempts: number;
	body: unknown;
}

// CallKaro's answer when nothing is scheduled is undocumented (a 200 or a 404 on different
// accounts), so its message is read: "No scheduled call found" says so; "Agent does not exist" does not.
function saysNothingScheduled(message: string): boolean {
	return /\bscheduled\b/i.test(message) && /\b(no|not|nothing|none)\b/i.test(message);
}

export interface OutboundResult {
	callId?: string;
	status?: string;
	message?: string;
	attempts: number;
	body: unknown;
}

export interface CampaignResult {
	batchId: string;
	status?: string;
	message?: string;
	attempts: number;
	body: unknown;
}

export interface CallKaroClient {
	/** A 409 resolves with outcome 'already-running'. */
	assignWorkflow(request: AssignRequest): Promise<AssignResult>;
	deleteScheduledCall(request: {
		agentId: string;
		toNumber: string;
		bodyFormat: 'json' | 'form';
	}): Promise<DeleteResult>;
	/** Any 2xx is success; callId is call_sid, else call_id. */
	outboundCall(request: OutboundRequest): Promise<OutboundResult>;
	createCampaign(prepared: PreparedCampaign): Promise<CampaignResult>;
}

/** One attempt's result; it is also the AttemptOutcome that decideRetry reads. */
type Attempt =
	| { type: 'response'; status: number; retryAfterMs?: number; response: TransportResponse }
	| { type: 'network'; kind: NetworkFailureKind; error: TransportError };

/** The last attempt of a request sent until success or until decideRetry said stop. */
interface Retried {
	last: Attempt;
	attempts: number;
	/** Some attempt, this one or an earlier one, may have taken effect. */
	outcomeUnknown: boolean;
	earlierAttemptMayHaveTakenEffect: boolean;
}

type SuccessfulAttempt = Extract<Attempt, { type: 'response' }>;

const HEADLINES: Record<HttpErrorKind, string> = {
	'bad-request': 'CallKaro rejected the request',
	auth: 'The API key was missing or not accepted',
	'not-found': 'Not found',
	'already-running': 'CallKaro reported a conflict',
	'rate-limited': 'Rate limited by CallKaro',
	'service-failure': 'CallKaro failed',
	'unexpected-response': 'Unexpected response from CallKaro',
};

const NETWORK_HEADLINES: Record<NetworkFailureKind, string> = {
	'not-sent': 'Could not reach CallKaro',
	'no-answer': 'No answer from CallKaro',
	aborted: 'The request to CallKaro was cancelled',
};

const UNKNOWN_EFFECTS: Record<Operation, string> = {
	assign: 'the workflow run may or may not have started',
	delete: 'the scheduled call may or may not have been deleted',
	outbound: 'the call may or may not have been placed; it was not retried, to avoid calling twice',
	campaign:
		'the campaign may or may not have been created; it was not retried, to avoid creating it twice',
};

const SHOWN_BODY_LENGTH = 200;

function isSuccess(attempt: Attempt): attempt is SuccessfulAttempt {
	return attempt.type === 'response' && attempt.status >= 200 && attempt.status <= 299;
}

/** The service's own words from an error body (JSON message, or short plain text), numbers masked. */
function serviceMessageOf(body: unknown): string | undefined {
	const parsed = errorBodySchema().safeParse(body);
	let text = '';
	if (parsed.success) text = parsed.data.message;
	else if (typeof body === 'string') text = body.trim().slice(0, SHOWN_BODY_LENGTH);
	return text ? maskPhoneNumbersInText(text) : undefined;
}

function failureMessage(parts: {
	headline: string;
	httpStatus?: number;
	attempts: number;
	unknownEffect?: string;
	note?: string;
	detail?: string;
}): string {
	return [
		parts.headline,
		parts.httpStatus === undefined ? '' : ` (HTTP ${parts.httpStatus})`,
		parts.attempts > 1 ? ` after ${parts.attempts} attempts` : '',
		parts.unknownEffect ? ` and ${parts.unknownEffect}` : '',
		parts.note ? `; ${parts.note}` : '',
		parts.detail ? `: ${parts.detail}` : '',
	].join('');
}

export function createCallKaroClient(options: ClientOptions): CallKaroClient {
	const {
		transport,
		sleep,
		random = Math.random,
		retryPolicy = DEFAULT_RETRY_POLICY,
		now = () => new Date(),
	} = options;

	async function attemptOnce(request: TransportRequest): Promise<Attempt> {
		return await transport.send(request).then(
			(response): Attempt => ({
				type: 'response',
				status: response.status,
				retryAfterMs: parseRetryAfter(response.headers['retry-after'], now()),
				response,
			}),
			(error: unknown): Attempt => {
				// Anything but a TransportError is a bug, not a network failure.
				if (!(error instanceof TransportError)) throw error;
				return { type: 'network', kind: error.kind, error };
			},
		);
	}

	/** Sends until success or until decideRetry says stop. */
	async function sendWithRetries(
		operation: Operation,
		request: TransportRequest,
	): Promise<Retried> {
		let earlierAttemptMayHaveTakenEffect = false;
		for (let attempts = 1; ; attempts += 1) {
			const last = await attemptOnce(request);
			if (isSuccess(last))
				return { last, attempts, outcomeUnknown: false, earlierAttemptMayHaveTakenEffect };
			const decision = decideRetry(operation, last, attempts, retryPolicy, random);
			if (!decision.retry) {
				const outcomeUnknown = decision.outcomeUnknown || earlierAttemptMayHaveTakenEffect;
				return { last, attempts, outcomeUnknown, earlierAttemptMayHaveTakenEffect };
			}
			earlierAttemptMayHaveTakenEffect ||= mayHaveTakenEffect(last);
			await sleep(decision.delayMs);
		}
	}

	function failureError(operation: Operation, retried: Retried): CallKaroApiError {
		const { last, attempts, outcomeUnknown } = retried;
		const unknownEffect = outcomeUnknown ? UNKNOWN_EFFECTS[operation] : undefined;
		if (last.type === 'network') {
			const headline = NETWORK_HEADLINES[last.kind];
			const detail = maskPhoneNumbersInText(last.error.message);
			return new CallKaroApiError(failureMessage({ headline, attempts, unknownEffect, detail }), {
				kind: 'network',
				attempts,
				outcomeUnknown,
				operation,
			});
		}
		const { status, retryAfterMs, response } = last;
		const kind = classifyStatus(status);
		const serviceMessage = serviceMessageOf(response.body);
		const note =
			retryAfterMs !== undefined && retryAfterMs > retryPolicy.maxDelayMs
				? `it asked to wait ${Math.ceil(retryAfterMs / 1000)} s, longer than the ${retryPolicy.maxDelayMs / 1000} s this node waits`
				: undefined;
		const message = failureMessage({
			headline: HEADLINES[kind],
			httpStatus: status,
			attempts,
			unknownEffect,
			note,
			detail: serviceMessage,
		});
		return new CallKaroApiError(message, {
			kind,
			httpStatus: status,
			serviceMessage,
			retryAfterMs,
			attempts,
			outcomeUnknown,
			body: response.body,
			operation,
		});
	}

	/** The parsed body of a successful exchange; anything else becomes a CallKaroApiError. */
	function successBody<S extends z.ZodType>(
		operation: Operation,
		retried: Retried,
		schema: S,
	): { data: z.output<S>; body: unknown; httpStatus: number } {
		const { last, attempts } = retried;
		if (!isSuccess(last)) throw failureError(operation, retried);
		const { body } = last.response;
		const parsed = schema.safeParse(body);
		if (parsed.success) return { data: parsed.data, body, httpStatus: last.status };
		const [issue] = parsed.error.issues;
		const detail = `the body does not have the documented shape (${issue.path.join('.') || 'body'}: ${issue.message})`;
		// The service answered 2xx, so the request has most likely taken effect.
		throw new CallKaroApiError(
			failureMessage({
				headline: HEADLINES['unexpected-response'],
				httpStatus: last.status,
				attempts,
				unknownEffect: UNKNOWN_EFFECTS[operation],
				detail,
			}),
			{
				kind: 'unexpected-response',
				httpStatus: last.status,
				attempts,
				outcomeUnknown: true,
				body,
				operation,
			},
		);
	}

	async function exchange<S extends z.ZodType>(
		operation: Operation,
		request: TransportRequest,
		schema: S,
	) {
		const retried = await sendWithRetries(operation, request);
		return { ...successBody(operation, retried, schema), attempts: retried.attempts };
	}

	/** A 409 on assign: the number is already running in the workflow; the attributes were still saved. */
	function alreadyRunning(retried: Retried, body: unknown): AssignResult {
		const parsed = assignResponseSchema().safeParse(body);
		const data = parsed.success ? parsed.data : undefined;
		return {
			outcome: 'already-running',
			httpStatus: 409,
			startedByEarlierAttempt: retried.earlierAttemptMayHaveTakenEffect,
			status: data?.status,
			message: data?.message ?? '',
			attributes: summarizeAttributeReport(data?.attributes),
			attempts: retried.attempts,
			body,
		};
	}

	/** Delete's answer: a 2xx, or a 404 that says nothing is scheduled; anything else throws. */
	function deleteAnswer(retried: Retried): { message: string; body: unknown; httpStatus: number } {
		const { last } = retried;
		if (last.type === 'response' && last.status === 404) {
			const message = serviceMessageOf(last.response.body) ?? '';
			if (saysNothingScheduled(message))
				return { message, body: last.response.body, httpStatus: 404 };
		}
		const { data, body, httpStatus } = successBody('delete', retried, deleteResponseSchema());
		return { message: data.message, body, httpStatus };
	}

	return {
		async assignWorkflow(request) {
			const retried = await sendWithRetries('assign', {
				method: 'POST',
				path: '/workflow/assign',
				body: request,
			});
			const { last } = retried;
			if (last.type === 'response' && last.status === 409)
				return alreadyRunning(retried, last.response.body);
			const { data, body, httpStatus } = successBody('assign', retried, assignResponseSchema());
			return {
				outcome: 'started',
				httpStatus,
				startedByEarlierAttempt: false,
				status: data.status,
				message: data.message,
				runId: data.run_id,
				enrollmentId: data.enrollment_id,
				attributes: summarizeAttributeReport(data.attributes),
				attempts: retried.attempts,
				body,
			};
		},

		async deleteScheduledCall({ agentId, toNumber, bodyFormat }) {
			const retried = await sendWithRetries('delete', {
				method: 'POST',
				path: '/call/delete-schedule-call',
				query: { agent_id: agentId },
				...(bodyFormat === 'form'
					? { form: { to_number: toNumber } }
					: { body: { to_number: toNumber } }),
			});
			const { message, body, httpStatus } = deleteAnswer(retried);
			const nothingScheduled = saysNothingScheduled(message);
			// Deleting twice deletes once: the retry of a lost answer finds nothing left to delete.
			const deletedByEarlierAttempt = nothingScheduled && retried.earlierAttemptMayHaveTakenEffect;
			return {
				outcome: nothingScheduled && !deletedByEarlierAttempt ? 'not-scheduled' : 'deleted',
				deletedByEarlierAttempt,
				httpStatus,
				message,
				attempts: retried.attempts,
				body,
			};
		},

		async outboundCall(request) {
			const { data, attempts, body } = await exchange(
				'outbound',
				{ method: 'POST', path: '/call/outbound', body: request },
				outboundResponseSchema(),
			);
			return {
				callId: data.call_sid ?? data.call_id,
				status: data.status,
				message: data.message,
				attempts,
				body,
			};
		},

		async createCampaign({ path, request }) {
			const { data, attempts, body } = await exchange(
				'campaign',
				{ method: 'POST', path, body: request },
				campaignResponseSchema(),
			);
			return { batchId: data.batch_id, status: data.status, message: data.message, attempts, body };
		},
	};
}
