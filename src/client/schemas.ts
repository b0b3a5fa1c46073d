import { z } from 'zod/v4';

import { onFirstUse } from '../firstUse';

export const MAX_ATTRIBUTE_ROWS = 50;
export const MAX_ATTRIBUTE_VALUE_LENGTH = 1000;

// Each schema is built on first use (see onFirstUse): n8n loads every node at start-up.

export const attributeRowSchema = onFirstUse(() =>
	z.object({
		key: z.string().min(1),
		value: z.union([z.string().max(MAX_ATTRIBUTE_VALUE_LENGTH), z.number(), z.boolean()]),
		replace: z.boolean().optional(),
	}),
);
export type AttributeRow = z.infer<ReturnType<typeof attributeRowSchema>>;

export const attributeReportSchema = onFirstUse(() => {
	const keyList = z.array(z.string()).default([]);
	return z.looseObject({
		updated: keyList,
		kept_existing: keyList,
		ignored: keyList,
		invalid: z.array(z.looseObject({ key: z.string(), reason: z.string() })).default([]),
	});
});
export type AttributeReport = z.infer<ReturnType<typeof attributeReportSchema>>;

// Tolerant: only a body of the wrong shape fails, not a missing text field.
export const assignResponseSchema = onFirstUse(() =>
	z.looseObject({
		status: z.string().optional(),
		message: z.string().default(''),
		run_id: z.string().optional(),
		enrollment_id: z.string().optional(),
		attributes: attributeReportSchema().optional(),
	}),
);
export type AssignResponse = z.infer<ReturnType<typeof assignResponseSchema>>;

export const errorBodySchema = onFirstUse(() =>
	z.looseObject({
		status: z.string().optional(),
		message: z.string(),
	}),
);
export type ErrorBody = z.infer<ReturnType<typeof errorBodySchema>>;

export const deleteResponseSchema = onFirstUse(() =>
	z.looseObject({
		status: z.string().optional(),
		message: z.string().default(''),
	}),
);
export type DeleteResponse = z.infer<ReturnType<typeof deleteResponseSchema>>;

// The spec answers call_id, the current public docs call_sid.
export const outboundResponseSchema = onFirstUse(() =>
	z.looseObject({
		status: z.string().optional(),
		message: z.string().optional(),
		call_sid: z.string().optional(),
		call_id: z.string().optional(),
	}),
);
export type OutboundResponse = z.infer<ReturnType<typeof outboundResponseSchema>>;

export const campaignResponseSchema = onFirstUse(() =>
	z.looseObject({
		status: z.string().optional(),
		message: z.string().optional(),
		batch_id: z.string(),
	}),
);
export type CampaignResponse = z.infer<ReturnType<typeof campaignResponseSchema>>;
