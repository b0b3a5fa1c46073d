import type { z } from 'zod/v4';

import { validateAttributeRows } from './attributes';
import { invalidInput } from './errors';
import { describeValue, optionalText, readJsonObject, requireText } from './input';
import { normalizePhoneNumber } from './phone';
import type { PhoneNumber } from './phone';
import { toIstSchedule } from './schedule';
import type { IstSchedule } from './schedule';
import {
	CALL_LANGUAGES,
	MAX_NUMBER_OF_RETRIES,
	MAX_PRIORITY,
	metadataValueSchema,
	outboundRequestSchema,
} from './schemas';
import type {
	AssignRequest,
	AttributeRow,
	CampaignV1Request,
	CampaignV2Request,
	OutboundRequest,
} from './schemas';

const AGENT_ID_FIX = 'Enter the ID of the CallKaro agent';

export interface ScheduleInput {
	value: unknown;
	/** The zone that reads date text without an offset, normally the workflow's. */
	zone: string;
}

export interface AssignInput {
	phoneNumber: unknown;
	workflowId: unknown;
	attributes: AttributeRow[];
	schedule?: ScheduleInput;
	defaultCountryCode?: string;
	now?: Date;
}

export interface PreparedAssign {
	request: AssignRequest;
	phone: PhoneNumber;
	schedule?: IstSchedule;
}

export interface DeleteInput {
	agentId: unknown;
	phoneNumber: unknown;
	defaultCountryCode?: string;
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
	defaultCountryCode?: string;
	now?: Date;
	options: OutboundOptions;
}

export interface PreparedOutbound {
	request: OutboundRequest;
	phone: PhoneNumber;
	schedule?: IstSchedule;
}

export interface CampaignInput {
	name: unknown;
	/** Required for v1 only. */
	agentId?: unknown;
	version: 'v1' | 'v2';
}

export interface PreparedCampaign {
	path: string;
	request: CampaignV1Request | CampaignV2Request;
}

/** Leaves out the options that were not given, so the request carries only what the user set. */
function withoutUndefined<T extends object>(value: T): T {
	return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

function istSchedule(
	schedule: ScheduleInput | undefined,
	now: Date | undefined,
): IstSchedule | undefined {
	return schedule && toIstSchedule(schedule.value, { zone: schedule.zone, now });
}

export function prepareAssign(input: AssignInput): PreparedAssign {
	const phone = normalizePhoneNumber(input.phoneNumber, {
		defaultCountryCode: input.defaultCountryCode,
	});
	const workflowId = requireText(
		input.workflowId,
		'Workflow ID',
		'Enter the ID of a CallKaro workflow',
	);
	const attributes = validateAttributeRows(input.attributes);
	const schedule = istSchedule(input.schedule, input.now);
	const request = withoutUndefined({
		to_number: phone.e164,
		workflow_id: workflowId,
		attributes: attributes.length > 0 ? attributes : undefined,
		schedule_at: schedule?.scheduleAt,
	});
	return { request, phone, schedule };
}

export function prepareDelete(input: DeleteInput): PreparedDelete {
	const phone = normalizePhoneNumber(input.phoneNumber, {
		defaultCountryCode: input.defaultCountryCode,
	});
	const agentId = requireText(input.agentId, 'Agent ID', AGENT_ID_FIX);
	return { agentId, toNumber: phone.e164, phone };
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

/** Metadata from the JSON object and the key/value rows together; a key may appear once. */
function metadataFrom(options: OutboundOptions): OutboundRequest['metadata'] {
	if (options.metadata === undefined && options.metadataRows === undefined) return undefined;
	const entries = [
		...Object.entries(readJsonObject(options.metadata, 'Metadata')),
		...(options.metadataRows ?? []).map(({ key, value }) => [key, value] as const),
	];
	const metadata = new Map<string, string | number>();
	for (const [rawKey, value] of entries) {
		const key = typeof rawKey === 'string' ? rawKey.trim() : '';
		if (key === '') {
			throw invalidInput(
				'Metadata',
				'has an entry without a key',
				'Enter a key for every entry, or remove it',
			);
		}
		if (metadata.has(key)) {
			throw invalidInput('Metadata', `has the key "${key}" twice`, 'Keep only one of them');
		}
		const checked = metadataValueSchema.safeParse(value);
		if (!checked.success) {
			throw invalidInput(
				'Metadata',
				`has a value for "${key}" that is ${describeValue(value)}; only text and numbers are accepted`,
				'Turn the value into text, or remove the entry',
			);
		}
		metadata.set(key, checked.data);
	}
	return Object.fromEntries(metadata);
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
		outboundRequestSchema.shape.min_trigger_time,
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
	const phone = normalizePhoneNumber(input.phoneNumber, {
		defaultCountryCode: input.defaultCountryCode,
	});
	const agentId = requireText(input.agentId, 'Agent ID', AGENT_ID_FIX);
	const { options } = input;
	const shape = outboundRequestSchema.shape;
	const schedule = istSchedule(options.schedule, input.now);
	const request = withoutUndefined({
		to_number: phone.e164,
		agent_id: agentId,
		batch_id: optionalText(options.batchId, 'Campaign ID'),
		metadata: metadataFrom(options),
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
	});
	return { request, phone, schedule };
}

export function prepareCampaign(input: CampaignInput): PreparedCampaign {
	const name = requireText(input.name, 'Campaign Name', 'Enter a name for the campaign');
	if (input.version === 'v2') return { path: '/v2/call/campaign', request: { name } };
	const agentId = requireText(
		input.agentId,
		'Agent ID',
		'Enter the ID of the agent that makes every call of the campaign',
	);
	return { path: '/call/campaign', request: { name, agent_id: agentId } };
}
