import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { attributeRowsFromObject, validateAttributeRows } from '../../src/attributes';
import type { AttributeSummary } from '../../src/attributes';
import type { CallKaroClient } from '../../src/client';
import { prepareAssign } from '../../src/requests';
import type { AttributeRow } from '../../src/schemas';
import { scheduleZone } from '../shared/schedule';
import type { ItemResult } from '../shared/runItems';

/** Output 0 "Started", output 1 "Already Running". */
export const ASSIGN_OUTPUTS = 2;

interface AssignOptions {
	defaultCountryCode?: string;
	onAttributeProblems?: 'report' | 'fail';
	timeZone?: string;
}

function readAttributeRows(context: IExecuteFunctions, itemIndex: number): AttributeRow[] {
	const source = context.getNodeParameter('attributeSource', itemIndex) as 'none' | 'rows' | 'json';
	if (source === 'rows') {
		return validateAttributeRows(
			context.getNodeParameter('attributes.attribute', itemIndex, []) as unknown[],
		);
	}
	if (source === 'json') {
		return attributeRowsFromObject(
			context.getNodeParameter('attributesJson', itemIndex),
			context.getNodeParameter('replaceExisting', itemIndex, false) as boolean,
		);
	}
	return [];
}

function attributesJson(summary: AttributeSummary): IDataObject {
	const { updated, keptExisting, ignored, invalid, counts } = summary;
	return { updated, keptExisting, ignored, invalid, counts };
}

function describeAttributeProblems({ ignored, invalid }: AttributeSummary): string {
	const parts = [
		ignored.length ? `ignored (no such CRM attribute): ${ignored.join(', ')}` : '',
		invalid.length
			? `invalid: ${invalid.map(({ key, reason }) => `${key} (${reason})`).join(', ')}`
			: '',
	];
	return parts.filter(Boolean).join('; ');
}

/** Reads and checks one item now; the returned function sends it. */
export function prepareAssignWorkflow(
	context: IExecuteFunctions,
	client: CallKaroClient,
	itemIndex: number,
): () => Promise<ItemResult> {
	const options = context.getNodeParameter('options', itemIndex, {}) as AssignOptions;
	const startsLater = context.getNodeParameter('schedule', itemIndex) === 'at';
	const prepared = prepareAssign({
		phoneNumber: context.getNodeParameter('phoneNumber', itemIndex),
		workflowId: context.getNodeParameter('workflowId', itemIndex),
		attributes: readAttributeRows(context, itemIndex),
		schedule: startsLater
			? {
					value: context.getNodeParameter('scheduleAt', itemIndex),
					zone: scheduleZone(context, options.timeZone),
				}
			: undefined,
		defaultCountryCode: options.defaultCountryCode,
	});

	return async () => {
		const result = await client.assignWorkflow(prepared.request);

		if (options.onAttributeProblems === 'fail' && result.attributes.hasProblems) {
			throw new NodeOperationError(
				context.getNode(),
				`CallKaro did not save every attribute of ${prepared.phone.masked} [item ${itemIndex}]`,
				{
					itemIndex,
					description: `${describeAttributeProblems(result.attributes)}. The run was ${
						result.outcome === 'started' ? 'started' : 'already running'
					} all the same.`,
				},
			);
		}

		return {
			output: result.outcome === 'started' ? 0 : 1,
			json: {
				status: result.outcome,
				message: result.message,
				toNumber: prepared.phone.e164,
				workflowId: prepared.request.workflow_id,
				runId: result.runId ?? null,
				enrollmentId: result.enrollmentId ?? null,
				scheduleAt: prepared.schedule?.scheduleAt ?? null,
				scheduledForUtc: prepared.schedule?.utc ?? null,
				scheduleInPast: prepared.schedule?.isPast ?? false,
				startedByEarlierAttempt: result.startedByEarlierAttempt,
				attempts: result.attempts,
				attributes: attributesJson(result.attributes),
				body: result.body as IDataObject,
			},
		};
	};
}
