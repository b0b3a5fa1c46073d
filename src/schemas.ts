import { z } from 'zod/v4';

export const MAX_ATTRIBUTE_ROWS = 50;
export const MAX_ATTRIBUTE_VALUE_LENGTH = 1000;

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

export const deleteResponseSchema = z.looseObject({
	status: z.string().optional(),
	message: z.string().default(''),
});
export type DeleteResponse = z.infer<typeof deleteResponseSchema>;

// The spec answers call_id, the current public docs call_sid.
export const outboundResponseSchema = z.looseObject({
	status: z.string().optional(),
	message: z.string().optional(),
	call_sid: z.string().optional(),
	call_id: z.string().optional(),
});
export type OutboundResponse = z.infer<typeof outboundResponseSchema>;

export const campaignResponseSchema = z.looseObject({
	status: z.string().optional(),
	message: z.string().optional(),
	batch_id: z.string(),
});
export type CampaignResponse = z.infer<typeof campaignResponseSchema>;
