import { z } from 'zod/v4';

import { checkAttributes } from '../records/attributes';
import type { AttributeRules, AttributeSource } from '../records/attributes';
import { invalidInput } from './inputError';
import { onFirstUse } from '../firstUse';
import { describeValue, optionalText, requireText } from './input';
import { readRecord, recordEntries, sendableValues } from '../records/recordValues';
import { isDateRange, isPlainObject, unwrapValue } from '../records/recordShapes';
import type { PlainObject } from '../records/recordShapes';
import type { SourceNodeRules } from '../records/sourceNodes';
import type { LeftOutValue, UnsendableValueHandling, ValueRules } from '../records/recordValues';
import { normalizePhoneNumber } from '../phone/phoneNumber';
import type { DefaultCountryCode, PhoneNumber } from '../phone/phoneNumber';
import { applyCallingHours } from '../schedule/callingHours';
import type { CallingHours } from '../schedule/callingHours';
import { SERIAL_DATE_NOTE, toIstSchedule } from '../schedule/schedule';
import type { DateColumn, FarAhead, IstSchedule, LongPast } from '../schedule/schedule';
import { MAX_ATTRIBUTE_ROWS, attributeRowSchema } from '../client/schemas';

// What each endpoint is sent: its schema (the one source of its type and limits), then the
// mapping from a node's input to it. A request is parsed against its schema before it is sent.

const MAX_NUMBER_OF_RETRIES = 10;
const MAX_PRIORITY = 100;
const CALL_LANGUAGES = ['hi', 'en', 'kn', 'mr', 'ta', 'te', 'bn', 'gu', 'ml'] as const;

/** CallKaro's schedule format: wall-clock time in IST, without an offset. */
const IST_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
/** 'HH:MM', 24-hour. */
const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

// Each schema is built on first use (see onFirstUse): n8n loads every node at start-up.

export const assignRequestSchema = onFirstUse(() =>
	z.object({
		to_number: z.string(),
		workflow_id: z.string().min(1),
		attributes: z.array(attributeRowSchema()).max(MAX_ATTRIBUTE_ROWS).optional(),
		schedule_at: z.string().regex(IST_DATE_TIME).optional(),
	}),
);
export type AssignRequest = z.infer<ReturnType<typeof assignRequestSchema>>;

/** agent_id travels in the query, to_number in the body. */
export const deleteRequestSchema = onFirstUse(() =>
	z.object({
		agent_id: z.string().min(1),
		to_number: z.string(),
	}),
);

export const outboundRequestSchema = onFirstUse(() => {
	const timeOfDay = z.string().regex(TIME_OF_DAY);
	const retryGap = z.int().min(0);
	return z.object({
		to_number: z.string(),
		agent_id: z.string().min(1),
		batch_id: z.string().min(1).optional(),
		// Any key, 'constructor' too: z.record would refuse an object with such an own key.
		metadata: z
			.object({})
			.catchall(z.union([z.string(), z.number()]))
			.optional(),
		schedule_at: z.string().regex(IST_DATE_TIME).optional(),
		min_trigger_time: timeOfDay.optional(),
		max_trigger_time: timeOfDay.optional(),
		carry_over: z.boolean().optional(),
		number_of_retries: z.int().min(0).max(MAX_NUMBER_OF_RETRIES).optional(),
		gap_between_retries: z.union([retryGap, z.array(retryGap).min(1)]).optional(),
		priority: z.int().min(-MAX_PRIORITY).max(MAX_PRIORITY).optional(),
		language: z.enum(CALL_LANGUAGES).optional(),
	});
});
export type OutboundRequest = z.infer<ReturnType<typeof outboundRequestSchema>>;

export const campaignV1RequestSchema = onFirstUse(() =>
	z.object({
		name: z.string().min(1),
		agent_id: z.string().min(1),
	}),
);
export const campaignV2RequestSchema = onFirstUse(() => z.object({ name: z.string().min(1) }));
type CampaignRequest =
	| z.infer<ReturnType<typeof campaignV1RequestSchema>>
	| z.infer<ReturnType<typeof campaignV2RequestSchema>>;

const AGENT_ID_FIX = 'Enter the ID of the CallKaro agent';

export interface ScheduleInput {
	value: unknown;
	/** The zone that reads date-and-time text without an offset: Options → Time Zone, else India's. */
	zone: string;
	/** What a time more than an hour in the past does (default: fail the item). */
	longPast?: LongPast;
	/** What a time more than a year ahead does (default: fail the item). */
	farAhead?: FarAhead;
	/** Options → Schedule Time Numbers: numbers below 100000 are spreadsheet serial dates. */
	serialDates?: boolean;
	/** The value is a database's DATE column as its driver gives it: midnight is the date alone. */
	dateColumn?: DateColumn;
	/** The field's value as an expression, for advice that wraps it ('$json.when'). */
	expression?: string;
}

export interface AssignInput {
	phoneNumber: unknown;
	/** The Phone Number field as the builder wrote it (`={{ $json.phone }}`), for a refusal's advice. */
	phoneNumberParameter?: unknown;
	workflowId: unknown;
	attributes?: AttributeSource;
	attributeRules?: AttributeRules;
	schedule?: ScheduleInput;
	callingHours?: CallingHours;
	defaultCountryCode?: DefaultCountryCode;
	/** The n8n node the item came from, when the package knows how it shapes items. */
	sourceNode?: SourceNodeRules;
	now?: Date;
}

/** What the calling hours did to the start time, when the node has them. */
export interface CallingHoursReport {
	/** The IST time the start was moved from. */
	scheduleMovedFrom?: string;
	outsideCallingHours: boolean;
}

export interface PreparedAssign {
	request: AssignRequest;
	phone: PhoneNumber;
	/** Keys of the record that were not sent, and why. */
	attributesLeftOut: LeftOutValue[];
	/** What was assumed from the node the item came from. */
	assumed: string[];
	schedule?: IstSchedule;
	callingHours?: CallingHoursReport;
}

export interface DeleteInput {
	agentId: unknown;
	phoneNumber: unknown;
	/** The Phone Number field as the builder wrote it (`={{ $json.phone }}`), for a refusal's advice. */
	phoneNumberParameter?: unknown;
	defaultCountryCode?: DefaultCountryCode;
	/** The n8n node the item came from, when the package knows how it shapes items. */
	sourceNode?: SourceNodeRules;
}

export interface PreparedDelete {
	agentId: string;
	/** The canonical '+' form, as on every endpoint. */
	toNumber: string;
	phone: PhoneNumber;
}

export interface OutboundOptions {
	batchId?: string;
	/** An object of text or number values, or JSON text of one. */
	metadata?: unknown;
	/** Key/value rows as a node's fixed collection gives them; combined with metadata. */
	metadataRows?: Array<{ key: string; value: unknown }>;
	/** Missing and empty values, objects and lists: left out and reported by default. */
	metadataHandling?: UnsendableValueHandling;
	/** Keys of Metadata never sent, a nested one by its path (`scheduled_event.event_guests`). */
	metadataKeysToLeaveOut?: string[];
	/** The expression Metadata (JSON) holds (`$json.payload`), from which fixes name an object. */
	metadataExpression?: string;
	schedule?: ScheduleInput;
	minTriggerTime?: string;
	maxTriggerTime?: string;
	/** A boolean, or the text 'true' / 'false' (as a sheet or form gives it). */
	carryOver?: boolean | string;
	/** A whole number, or text of one such as '2'. */
	numberOfRetries?: number | string;
	/** Minutes: one number, a list, or text such as '30' or '30, 60'. */
	gapBetweenRetries?: number | number[] | string;
	/** A whole number, or text of one such as '-5'. */
	priority?: number | string;
	language?: string;
}

export interface OutboundInput {
	agentId: unknown;
	phoneNumber: unknown;
	/** The Phone Number field as the builder wrote it (`={{ $json.phone }}`), for a refusal's advice. */
	phoneNumberParameter?: unknown;
	defaultCountryCode?: DefaultCountryCode;
	/** The n8n node the item came from, when the package knows how it shapes items. */
	sourceNode?: SourceNodeRules;
	callingHours?: CallingHours;
	now?: Date;
	options: OutboundOptions;
}

export interface PreparedOutbound {
	request: OutboundRequest;
	phone: PhoneNumber;
	/** Metadata keys that were not sent, and why. */
	metadataLeftOut: LeftOutValue[];
	/** What was assumed from the node the item came from. */
	assumed: string[];
	schedule?: IstSchedule;
	callingHours?: CallingHoursReport;
}

export interface CampaignInput {
	name: unknown;
	/** Required for v1 only. */
	agentId?: unknown;
	version: 'v1' | 'v2';
}

export interface PreparedCampaign {
	path: string;
	request: CampaignRequest;
}

/** Leaves out the options that were not given, so the request carries only what the user set. */
function withoutUndefined<T extends object>(value: T): T {
	return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

/**
 * The last guard before sending. Each field was already checked with a message that names it,
 * so a request fails here only when a mapping lets a value through unchecked (a slip the next
 * new field could make); its item then fails instead of reaching CallKaro. The request goes on
 * as built, so the key order sent stays the same.
 */
export function checkedRequest<T>(schema: z.ZodType<T>, request: T): T {
	const result = schema.safeParse(request);
	if (result.success) return request;
	const [issue] = result.error.issues;
	const value = issue.path.reduce<unknown>(
		(parent, key) => (parent as Record<PropertyKey, unknown> | undefined)?.[key],
		request,
	);
	throw invalidInput(
		issue.path.join('.') || 'Request',
		`would be sent as ${describeValue(value)}, which CallKaro does not accept`,
		'Check the values of this item; nothing was sent',
	);
}

/** Odoo writes an empty field as false: for a text field, that is an empty value. */
function falseAsEmpty(value: unknown, sourceNode: SourceNodeRules | undefined): unknown {
	return value === false && sourceNode?.falseMeansEmpty ? '' : value;
}

/**
 * A calendar's time: `{ dateTime, timeZone }` (Google Calendar; Microsoft's with Windows zone
 * names such as "India Standard Time") or an all-day `{ date }`, read with the zone it carries.
 */
function calendarTime(value: PlainObject): { value: unknown; zone?: unknown } | undefined {
	const only = (...keys: string[]) => Object.keys(value).every((key) => keys.includes(key));
	if (typeof value.dateTime === 'string' && only('dateTime', 'timeZone')) {
		return { value: value.dateTime, zone: value.timeZone };
	}
	if (typeof value.date === 'string' && only('date', 'timeZone')) {
		return { value: value.date, zone: value.timeZone };
	}
	// A Notion date range `{ start, end, time_zone }`, simplified or typed, starts at its start.
	if (isDateRange(value)) return { value: value.start, zone: value.time_zone };
	return undefined;
}

/**
 * A schedule time as a source node nests it: a value in a wrapper is taken out, and a calendar's
 * time or a date range is read in its own zone when it names one.
 */
function scheduleValue(
	schedule: ScheduleInput,
	sourceNode: SourceNodeRules | undefined,
): { value: unknown; zone: string; expression?: string } {
	// unwrapValue takes a typed Notion date out of its property, and a date alone out of its range
	const { value } = unwrapValue(falseAsEmpty(schedule.value, sourceNode));
	const calendar = isPlainObject(value) ? calendarTime(value) : undefined;
	if (calendar === undefined) {
		// the field's expression gives this value only when nothing was taken out of it
		const expression = value === schedule.value ? schedule.expression : undefined;
		return { value, zone: schedule.zone, expression };
	}
	const { zone } = calendar;
	return {
		value: calendar.value,
		zone: typeof zone === 'string' && zone.trim() ? zone : schedule.zone,
	};
}

/** The schedule to send (the start time after the calling hours), and what the hours did. */
function istSchedule(
	schedule: ScheduleInput | undefined,
	callingHours: CallingHours | undefined,
	now: Date | undefined,
	sourceNode: SourceNodeRules | undefined,
): { schedule?: IstSchedule; callingHours?: CallingHoursReport; assumed: string[] } {
	const read = schedule && scheduleValue(schedule, sourceNode);
	const given =
		read &&
		toIstSchedule(read.value, {
			zone: read.zone,
			now,
			longPast: schedule?.longPast,
			farAhead: schedule?.farAhead,
			// The builder says so, or the node the item came from gives dates as serials.
			serialDates: schedule?.serialDates || sourceNode?.givesSerialDates,
			dateColumn: schedule?.dateColumn,
			expression: read.expression,
			// A date alone starts when the calling hours open that day.
			dayStart: callingHours && { zone: callingHours.zone, time: callingHours.start },
		});
	// A serial read because of the node the item came from is said, as its other rules are.
	const assumed =
		sourceNode && !schedule?.serialDates && given?.note?.startsWith(SERIAL_DATE_NOTE)
			? [
					`Schedule Time: a number is a spreadsheet serial date, as ${sourceNode.displayName} gives it`,
				]
			: [];
	if (!callingHours) return { schedule: given, assumed };
	const outcome = applyCallingHours(given, callingHours, now);
	return {
		assumed,
		schedule: outcome.schedule,
		callingHours: withoutUndefined({
			scheduleMovedFrom: outcome.movedFrom,
			outsideCallingHours: outcome.outside,
		}),
	};
}

/** The item's phone number; Odoo's false for an empty field is said as such, not as "false". */
function phoneOf(input: {
	phoneNumber: unknown;
	phoneNumberParameter?: unknown;
	defaultCountryCode?: DefaultCountryCode;
	sourceNode?: SourceNodeRules;
}): PhoneNumber {
	const { phoneNumber, sourceNode } = input;
	if (phoneNumber === false && sourceNode?.falseMeansEmpty) {
		throw invalidInput(
			'Phone Number',
			`has no value for this item: ${sourceNode.displayName} gives an empty field as false`,
			'Map a field that holds the number, or leave items without one out with a Filter node',
		);
	}
	return normalizePhoneNumber(phoneNumber, {
		defaultCountryCode: input.defaultCountryCode,
		parameter: input.phoneNumberParameter,
	});
}

export function prepareAssign(input: AssignInput): PreparedAssign {
	const phone = phoneOf(input);
	const workflowId = requireText(
		input.workflowId,
		'Workflow ID',
		'Enter the ID of a CallKaro workflow',
	);
	const {
		rows: attributes,
		leftOut: attributesLeftOut,
		assumed,
	} = input.attributes
		? checkAttributes(input.attributes, input.attributeRules, input.sourceNode)
		: { rows: [], leftOut: [], assumed: [] };
	const {
		schedule,
		callingHours,
		assumed: scheduleAssumed,
	} = istSchedule(input.schedule, input.callingHours, input.now, input.sourceNode);
	const request = checkedRequest(
		assignRequestSchema(),
		withoutUndefined({
			to_number: phone.e164,
			workflow_id: workflowId,
			attributes: attributes.length > 0 ? attributes : undefined,
			schedule_at: schedule?.scheduleAt,
		}),
	);
	return {
		request,
		phone,
		attributesLeftOut,
		assumed: [...assumed, ...scheduleAssumed],
		schedule,
		callingHours,
	};
}

export function prepareDelete(input: DeleteInput): PreparedDelete {
	const phone = phoneOf(input);
	const agentId = requireText(input.agentId, 'Agent ID', AGENT_ID_FIX);
	const request = checkedRequest(deleteRequestSchema(), {
		agent_id: agentId,
		to_number: phone.e164,
	});
	return { agentId: request.agent_id, toNumber: request.to_number, phone };
}

/**
 * Checks one optional value against its request schema, so the limits live in one place.
 * `given` is the value as the user wrote it, when `value` was converted from it.
 */
function checkedOption<S extends z.ZodType>(
	schema: S,
	value: unknown,
	field: string,
	expected: string,
	given: unknown = value,
): z.output<S> {
	const result = schema.safeParse(value);
	if (!result.success) {
		throw invalidInput(
			field,
			`must be ${expected}, but is ${describeValue(given)}`,
			'Change the value, or remove the option',
		);
	}
	return result.data;
}

/** The option that chooses what happens to metadata values that cannot be sent, as fixes name it. */
export const METADATA_HANDLING_OPTION = 'Metadata Values That Cannot Be Sent';
/** The option that lists metadata keys never sent, as fixes name it. */
export const METADATA_KEYS_TO_LEAVE_OUT_OPTION = 'Metadata Keys to Leave Out';
/** The field a whole record is mapped in, as fixes name it. */
const METADATA_RECORD_FIELD = 'Metadata (JSON)';

/**
 * Metadata from the JSON object and the key/value rows together; a key may appear once. Values
 * follow the attributes' rules (see recordValues.ts); true/false go as text, since the docs give
 * metadata text and number values, and the prompt reads them as text.
 */
function metadataFrom(
	options: OutboundOptions,
	sourceNode: SourceNodeRules | undefined,
): {
	metadata?: OutboundRequest['metadata'];
	leftOut: LeftOutValue[];
	assumed: string[];
} {
	if (options.metadata === undefined && options.metadataRows === undefined) {
		return { leftOut: [], assumed: [] };
	}
	const record =
		options.metadata === undefined
			? { entries: [], leftOut: [], assumed: [] }
			: readRecord(options.metadata, 'Metadata', sourceNode);
	const rules: ValueRules = {
		field: 'Metadata',
		handlingOption: METADATA_HANDLING_OPTION,
		handling: options.metadataHandling ?? 'leaveOut',
		keysToLeaveOut: {
			option: METADATA_KEYS_TO_LEAVE_OUT_OPTION,
			keys: options.metadataKeysToLeaveOut ?? [],
		},
		recordField: { name: METADATA_RECORD_FIELD, expression: options.metadataExpression },
	};
	const entries = [
		...recordEntries(record.entries, rules, sourceNode, record.readFrom),
		...(options.metadataRows ?? []).map(({ key, value }) => [key, value] as const),
	];
	const keys = new Set<string>();
	const given = entries.map(([rawKey, value]) => {
		const key = typeof rawKey === 'string' ? rawKey.trim() : '';
		if (key === '') {
			throw invalidInput(
				'Metadata',
				'has an entry without a key',
				'Enter a key for every entry, or remove it',
			);
		}
		if (keys.has(key)) {
			throw invalidInput('Metadata', `has the key "${key}" twice`, 'Keep only one of them');
		}
		keys.add(key);
		return [key, value] as const;
	});
	const { values, leftOut } = sendableValues(given, rules);
	const metadata = Object.fromEntries(
		values.map(([key, value]) => [key, typeof value === 'boolean' ? String(value) : value]),
	);
	return { metadata, leftOut: [...record.leftOut, ...leftOut], assumed: record.assumed };
}

/** '30' -> 30 and '30, 60' -> [30, 60]; anything that is not whole numbers fails the schema check. */
function retryGapsFromText(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	const gaps = value
		.split(',')
		.map((part) => (/^\s*\d+\s*$/.test(part) ? Number(part) : Number.NaN));
	return gaps.length === 1 ? gaps[0] : gaps;
}

/** 'HH:MM' (24-hour); both ends of the trigger window share one schema. */
function timeOfDayOption(value: unknown, field: string): string | undefined {
	return checkedOption(
		outboundRequestSchema().shape.min_trigger_time,
		optionalText(value, field),
		field,
		'a time of day as HH:MM (24-hour), such as 09:30',
	);
}

function emptyAsUndefined(value: unknown): unknown {
	return typeof value === 'string' && value.trim() === '' ? undefined : value;
}

// Mapped values often arrive as text ('2', 'true' from a sheet or a form); empty text means not
// given, and other text is left for the schema check to refuse.
function wholeNumberFromText(value: unknown): unknown {
	const given = emptyAsUndefined(value);
	return typeof given === 'string' && /^\s*-?\d+\s*$/.test(given) ? Number(given) : given;
}

function booleanFromText(value: unknown): unknown {
	const given = emptyAsUndefined(value);
	if (typeof given !== 'string') return given;
	const text = given.trim().toLowerCase();
	return text === 'true' || text === 'false' ? text === 'true' : given;
}

export function prepareOutbound(input: OutboundInput): PreparedOutbound {
	const phone = phoneOf(input);
	const agentId = requireText(input.agentId, 'Agent ID', AGENT_ID_FIX);
	const { options } = input;
	const shape = outboundRequestSchema().shape;
	const {
		schedule,
		callingHours,
		assumed: scheduleAssumed,
	} = istSchedule(options.schedule, input.callingHours, input.now, input.sourceNode);
	const { metadata, leftOut: metadataLeftOut, assumed } = metadataFrom(options, input.sourceNode);
	const request = checkedRequest(
		outboundRequestSchema(),
		withoutUndefined({
			to_number: phone.e164,
			agent_id: agentId,
			batch_id: optionalText(options.batchId, 'Campaign ID'),
			metadata,
			schedule_at: schedule?.scheduleAt,
			min_trigger_time: timeOfDayOption(options.minTriggerTime, 'Earliest Call Time'),
			max_trigger_time: timeOfDayOption(options.maxTriggerTime, 'Latest Call Time'),
			carry_over: checkedOption(
				shape.carry_over,
				booleanFromText(options.carryOver),
				'Carry Over',
				'true or false',
				options.carryOver,
			),
			number_of_retries: checkedOption(
				shape.number_of_retries,
				wholeNumberFromText(options.numberOfRetries),
				'Number of Retries',
				`a whole number from 0 to ${MAX_NUMBER_OF_RETRIES}`,
				options.numberOfRetries,
			),
			gap_between_retries: checkedOption(
				shape.gap_between_retries,
				retryGapsFromText(emptyAsUndefined(options.gapBetweenRetries)),
				'Gap Between Retries',
				'whole minutes, one number or a comma-separated list such as 30, 60',
				options.gapBetweenRetries,
			),
			priority: checkedOption(
				shape.priority,
				wholeNumberFromText(options.priority),
				'Priority',
				`a whole number from -${MAX_PRIORITY} to ${MAX_PRIORITY}`,
				options.priority,
			),
			language: checkedOption(
				shape.language,
				optionalText(options.language, 'Language')?.toLowerCase(),
				'Language',
				`one of ${CALL_LANGUAGES.join(', ')}`,
			),
		}),
	);
	checkCallWindow(request);
	return {
		request,
		phone,
		metadataLeftOut,
		assumed: [...assumed, ...scheduleAssumed],
		schedule,
		callingHours,
	};
}

/** A window that ends before it starts would never let the call start: refuse it before sending. */
function checkCallWindow({
	min_trigger_time: earliest,
	max_trigger_time: latest,
}: OutboundRequest): void {
	// 'HH:MM' on a 24-hour clock compares as text.
	if (earliest !== undefined && latest !== undefined && earliest > latest) {
		throw invalidInput(
			'Earliest Call Time',
			`(${earliest}) is later than "Latest Call Time" (${latest})`,
			'Swap the two times, or clear one of them',
		);
	}
}

export function prepareCampaign(input: CampaignInput): PreparedCampaign {
	const name = requireText(input.name, 'Campaign Name', 'Enter a name for the campaign');
	if (input.version === 'v2') {
		return {
			path: '/v2/call/campaign',
			request: checkedRequest(campaignV2RequestSchema(), { name }),
		};
	}
	const agentId = requireText(
		input.agentId,
		'Agent ID',
		'Enter the ID of the agent that makes every call of the campaign',
	);
	return {
		path: '/call/campaign',
		request: checkedRequest(campaignV1RequestSchema(), { name, agent_id: agentId }),
	};
}
