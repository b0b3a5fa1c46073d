import { createHash, timingSafeEqual } from 'node:crypto';

import { DateTime, FixedOffsetZone } from 'luxon';
import { z } from 'zod/v4';

import { onFirstUse } from '../firstUse';

/** The one event the CallKaro Trigger starts workflows for. */
export const CALL_ENDED_EVENT = 'call_ended';

export const CALL_OUTCOMES = ['connected', 'voicemail', 'notReached', 'other'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** The hangup reasons of the public docs, by outcome group. Any other reason counts as 'other'. */
export const HANGUP_REASON_OUTCOMES: Readonly<Record<string, CallOutcome>> = Object.freeze({
	CLIENT_INITIATED: 'connected',
	PARTICIPANT_REMOVED: 'connected',
	SESSION_TIMEOUT: 'connected',
	VOICEMAIL_DETECTED: 'voicemail',
	USER_REJECTED: 'notReached',
	USER_UNAVAILABLE: 'notReached',
	USER_UNRESPONSIVE: 'notReached',
	INVALID_PHONE_NUMBER: 'notReached',
	UNKNOWN: 'other',
	OUTSIDE_TRIGGER_WINDOW: 'other',
	DELETED_SCH_CALL_ALL: 'other',
	DELETED_SCH_CALL_ONE: 'other',
	PRE_CALL_FN_FAILED: 'other',
});

/** The outcome group of a hangup reason (case and surrounding spaces ignored). */
export function outcomeOf(hangupReason: string | null | undefined): CallOutcome {
	if (!hangupReason) return 'other';
	const key = hangupReason.trim().toUpperCase();
	return Object.prototype.hasOwnProperty.call(HANGUP_REASON_OUTCOMES, key)
		? HANGUP_REASON_OUTCOMES[key]
		: 'other';
}

/** The normalised fields of one `call_ended` event. Missing or unreadable values are null. */
export interface CallEnded {
	callId: string | null;
	agentId: string | null;
	to: string | null;
	from: string | null;
	callType: string | null;
	outcome: CallOutcome;
	hangupReason: string | null;
	durationSeconds: number | null;
	batchId: string | null;
	/** `call_metadata`: the metadata sent with the call; `{}` when absent. */
	metadata: Record<string, unknown>;
	/** `time` (IST wall-clock time) as an ISO instant with the +05:30 offset. */
	endedAt: string | null;
}

export type WebhookEvent =
	| {
			kind: 'callEnded';
			event: typeof CALL_ENDED_EVENT;
			data: Record<string, unknown>;
			call: CallEnded;
	  }
	| { kind: 'otherEvent'; event: string }
	| { kind: 'invalid'; reason: string };

// Each field is read on its own and falls back to undefined, so one odd field never rejects the
// event. Built on first use (see onFirstUse): n8n loads every node at start-up.
const fieldSchemas = onFirstUse(() => ({
	text: z
		.union([z.string(), z.number()])
		.transform((value) => String(value).trim())
		.transform((value) => (value === '' ? undefined : value))
		.optional()
		.catch(undefined),
	seconds: z
		.union([
			z.number(),
			z
				.string()
				.trim()
				.regex(/^\d+(\.\d+)?$/)
				.transform(Number),
		])
		.refine((value) => Number.isFinite(value) && value >= 0)
		.optional()
		.catch(undefined),
	metadataObject: z
		.union([
			z.record(z.string(), z.unknown()),
			z
				.string()
				.transform((value, ctx) => {
					try {
						return JSON.parse(value) as unknown;
					} catch {
						ctx.addIssue({ code: 'custom', message: 'not JSON' });
						return z.NEVER;
					}
				})
				.pipe(z.record(z.string(), z.unknown())),
		])
		.optional()
		.catch(undefined),
}));

const envelopeSchema = onFirstUse(() => z.looseObject({ event: z.string(), data: z.unknown() }));
const dataSchema = onFirstUse(() => z.record(z.string(), z.unknown()));

// The documented name first, then spellings other CallKaro payloads use, to tolerate drift.
const ALIASES = {
	callId: ['callSid', 'call_sid', 'callId', 'call_id'],
	agentId: ['agent', 'agent_id', 'agentId'],
	to: ['to', 'to_number', 'toNumber'],
	from: ['from', 'from_number', 'fromNumber'],
	callType: ['name', 'call_type', 'callType'],
	hangupReason: ['hangup_reason', 'hangupReason'],
	durationSeconds: ['call_duration', 'callDuration', 'duration'],
	batchId: ['batchId', 'batch_id'],
	metadata: ['call_metadata', 'callMetadata', 'metadata'],
	time: ['time'],
} as const;

function first<T>(
	data: Record<string, unknown>,
	keys: readonly string[],
	schema: z.ZodType<T | undefined>,
): T | null {
	for (const key of keys) {
		const value = schema.parse(data[key]);
		if (value !== undefined) return value;
	}
	return null;
}

// 'YYYY-MM-DD HH:mm[:ss[.fff]]', with T or a space, optionally with Z or an offset.
const TIME_TEXT =
	/^\d{4}-\d{2}-\d{2}[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

// India's offset has been +05:30 all year since 1945. A fixed zone spares the time-zone database
// lookups of 'Asia/Kolkata', which were most of the cost of reading an event.
const IST_OFFSET = FixedOffsetZone.instance(5 * 60 + 30);

/**
 * CallKaro's `time` ('2026-11-21 15:04:05', wall-clock time in India) as an ISO instant with the
 * IST offset ('2026-11-21T15:04:05.000+05:30'). A time that carries its own offset is honoured.
 * Anything else gives null.
 */
export function istTimeToIso(value: unknown): string | null {
	if (typeof value !== 'string') return null;
	const trimmed = value.trim();
	if (!TIME_TEXT.test(trimmed)) return null;
	const parsed = DateTime.fromISO(trimmed.replace(' ', 'T'), { zone: IST_OFFSET });
	if (!parsed.isValid) return null;
	return parsed.setZone(IST_OFFSET).toISO({ suppressMilliseconds: false, includeOffset: true });
}

/** The normalised fields of a `call_ended` event's `data`. Never throws. */
export function normaliseCallEnded(data: Record<string, unknown>): CallEnded {
	const { text, seconds, metadataObject } = fieldSchemas();
	const hangupReason = first(data, ALIASES.hangupReason, text);
	return {
		callId: first(data, ALIASES.callId, text),
		agentId: first(data, ALIASES.agentId, text),
		to: first(data, ALIASES.to, text),
		from: first(data, ALIASES.from, text),
		callType: first(data, ALIASES.callType, text),
		outcome: outcomeOf(hangupReason),
		hangupReason,
		durationSeconds: first(data, ALIASES.durationSeconds, seconds),
		batchId: first(data, ALIASES.batchId, text),
		metadata: first(data, ALIASES.metadata, metadataObject) ?? {},
		endedAt: istTimeToIso(first(data, ALIASES.time, text)),
	};
}

/**
 * Reads a webhook body. `invalid` when it is not the documented envelope
 * (`{ event, data }`, with `data` an object for `call_ended`).
 */
export function readWebhookEvent(body: unknown): WebhookEvent {
	const envelope = envelopeSchema().safeParse(body);
	if (!envelope.success || Array.isArray(body)) {
		return {
			kind: 'invalid',
			reason: 'The body is not a CallKaro event: expected a JSON object with an "event" field',
		};
	}
	const event = envelope.data.event.trim();
	if (event !== CALL_ENDED_EVENT) return { kind: 'otherEvent', event };
	const data = dataSchema().safeParse(envelope.data.data);
	if (!data.success || Array.isArray(envelope.data.data)) {
		return { kind: 'invalid', reason: 'The call_ended event has no "data" object' };
	}
	return {
		kind: 'callEnded',
		event: CALL_ENDED_EVENT,
		data: data.data,
		call: normaliseCallEnded(data.data),
	};
}

export interface CallFilters {
	/** Empty: any agent. */
	agentIds?: readonly string[];
	/** Empty: any call type. */
	callTypes?: readonly string[];
	/** Empty: any outcome. */
	outcomes?: readonly string[];
	/** Empty: any campaign, or none. */
	batchId?: string;
}

/** Splits a comma- or newline-separated list, dropping blanks. */
export function splitList(value: unknown): string[] {
	if (Array.isArray(value)) return value.flatMap(splitList);
	if (typeof value !== 'string') return [];
	return value
		.split(/[,\n]/)
		.map((part) => part.trim())
		.filter((part) => part !== '');
}

/** Why the call does not pass the filters, or null when it passes. */
export function filterMismatch(call: CallEnded, filters: CallFilters): string | null {
	const { agentIds = [], callTypes = [], outcomes = [] } = filters;
	const batchId = filters.batchId?.trim() ?? '';
	if (agentIds.length > 0 && (call.agentId === null || !agentIds.includes(call.agentId))) {
		return `agent ${call.agentId ?? '(none)'} is not in Agent IDs`;
	}
	if (callTypes.length > 0 && (call.callType === null || !callTypes.includes(call.callType))) {
		return `call type ${call.callType ?? '(none)'} is not in Call Types`;
	}
	if (outcomes.length > 0 && !outcomes.includes(call.outcome)) {
		return `outcome ${call.outcome} is not in Outcomes`;
	}
	if (batchId !== '' && call.batchId !== batchId) {
		return `campaign ${call.batchId ?? '(none)'} is not ${batchId}`;
	}
	return null;
}

export const RECENT_CALL_IDS_LIMIT = 1000;
/** How many triggers (workflow and node) one process keeps call IDs for. */
export const RECENT_CALL_TRIGGERS_LIMIT = 1000;

/**
 * Remembers a call ID among the most recent ones (oldest dropped beyond `limit`).
 * `repeat` tells whether it was already there. `recent` may be anything stored earlier.
 */
export function rememberCallId(
	recent: unknown,
	callId: string,
	limit = RECENT_CALL_IDS_LIMIT,
): { repeat: boolean; recent: string[] } {
	const list = Array.isArray(recent)
		? recent.filter((id): id is string => typeof id === 'string')
		: [];
	const repeat = list.includes(callId);
	const next = [...list.filter((id) => id !== callId), callId];
	return { repeat, recent: next.slice(Math.max(0, next.length - limit)) };
}

/** Compares a received secret with the expected one in constant time (over SHA-256 digests). */
export function secretMatches(received: string | undefined, expected: string): boolean {
	if (received === undefined) return false;
	const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
	return timingSafeEqual(digest(received), digest(expected));
}
