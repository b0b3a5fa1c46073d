import { z } from 'zod/v4';

export const MAX_ATTRIBUTE_ROWS = 50;
export const MAX_ATTRIBUTE_VALUE_LENGTH = 1000;
export const MAX_NUMBER_OF_RETRIES = 10;
export const MAX_PRIORITY = 100;
export const CALL_LANGUAGES = ['hi', 'en', 'kn', 'mr', 'ta', 'te', 'bn', 'gu', 'ml'] as const;

/** CallKaro's schedule format: wall-clock time in IST, without an offset. */
const istDateTimeSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
/** 'HH:MM', 24-hour. */
const timeOfDaySchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);
const retryGapSchema = z.int().min(0);

const attributeValueSchema = z.union([
	z.string().max(MAX_ATTRIBUTE_VALUE_LENGTH),
	z.number(),
	z.boolean(),
]);
export const attributeRowSchema = z.object({
	key: z.string().min(1),
	value: attributeValueSchema,
	replace: z.boolean().optional(),
});
export type AttributeRow = z.infer<typeof attributeRowSchema>;

export const assignRequestSchema = z.object({
	to_number: z.string(),
	workflow_id: z.string().min(1),
	attributes: z.array(attributeRowSchema).max(MAX_ATTRIBUTE_ROWS).optional(),
	schedule_at: istDateTimeSchema.optional(),
});
export type AssignRequest = z.infer<typeof assignRequestSchema>;

const keyList = z.array(z.string()).default([]);
export const attributeReportSchema = z.looseObject({
	updated: keyList,
	kept_existing: keyList,
	ignored: keyList,
	invalid: z.array(z.looseObject({ key: z.string(), reason: z.string() })).default([]),
});
export type AttributeReport = z.infer<typeof attributeReportSchema>;

// Tolerant: only a body of the wrong shape fails, not a missing text field.
export const assignResponseSchema = z.looseObject({
	status: z.string().optional(),
	message: z.string().default(''),
	run_id: z.string().optional(),
	enrollment_id: z.string().optional(),
	attributes: attributeReportSchema.optional(),
});
export type AssignResponse = z.infer<typeof assignResponseSchema>;

export const errorBodySchema = z.looseObject({
	status: z.string().optional(),
	message: z.string(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** agent_id travels in the query, to_number in the body. */
export const deleteRequestSchema = z.object({
	agent_id: z.string().min(1),
	to_number: z.string(),
});
export type DeleteRequest = z.infer<typeof deleteRequestSchema>;

export const deleteResponseSchema = z.looseObject({
	status: z.string().optional(),
	message: z.string().default(''),
});
export type DeleteResponse = z.infer<typeof deleteResponseSchema>;

export const metadataValueSchema = z.union([z.string(), z.number()]);

export const outboundRequestSchema = z.object({
	to_number: z.string(),
	agent_id: z.string().min(1),
	batch_id: z.string().min(1).optional(),
	metadata: z.record(z.string(), metadataValueSchema).optional(),
	schedule_at: istDateTimeSchema.optional(),
	min_trigger_time: timeOfDaySchema.optional(),
	max_trigger_time: timeOfDaySchema.optional(),
	carry_over: z.boolean().optional(),
	number_of_retries: z.int().min(0).max(MAX_NUMBER_OF_RETRIES).optional(),
	gap_between_retries: z.union([retryGapSchema, z.array(retryGapSchema).min(1)]).optional(),
	priority: z.int().min(-MAX_PRIORITY).max(MAX_PRIORITY).optional(),
	language: z.enum(CALL_LANGUAGES).optional(),
});
export type OutboundRequest = z.infer<typeof outboundRequestSchema>;

// The spec answers call_id, the current public docs call_sid.
export const outboundResponseSchema = z.looseObject({
	status: z.string().optional(),
	message: z.string().optional(),
	call_sid: z.string().optional(),
	call_id: z.string().optional(),
});
export type OutboundResponse = z.infer<typeof outboundResponseSchema>;

export const campaignV1RequestSchema = z.object({
	name: z.string().min(1),
	agent_id: z.string().min(1),
});
export type CampaignV1Request = z.infer<typeof campaignV1RequestSchema>;

export const campaignV2RequestSchema = z.object({ name: z.string().min(1) });
export type CampaignV2Request = z.infer<typeof campaignV2RequestSchema>;

export const campaignResponseSchema = z.looseObject({
	status: z.string().optional(),
	message: z.string().optional(),
	batch_id: z.string(),
});
export type CampaignResponse = z.infer<typeof campaignResponseSchema>;
