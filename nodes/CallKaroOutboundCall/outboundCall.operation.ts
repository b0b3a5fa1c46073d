import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { CallKaroClient } from '../../src/client';
import { prepareOutbound } from '../../src/requests';
import { scheduleZone } from '../shared/client';
import type { ItemResult } from '../shared/runItems';

interface AdditionalFields {
	batchId?: string;
	carryOver?: boolean | string;
	gapBetweenRetries?: string;
	language?: string;
	maxTriggerTime?: string;
	metadata?: { entry?: Array<{ key: string; value: unknown }> };
	minTriggerTime?: string;
	numberOfRetries?: number | string;
	priority?: number | string;
	scheduleAt?: unknown;
	timeZone?: string;
}

export async function outboundCallItem(
	context: IExecuteFunctions,
	client: CallKaroClient,
	itemIndex: number,
): Promise<ItemResult> {
	const { metadata, scheduleAt, timeZone, ...fields } = context.getNodeParameter(
		'additionalFields',
		itemIndex,
		{},
	) as AdditionalFields;
	const options = context.getNodeParameter('options', itemIndex, {}) as { defaultCountryCode?: string };
	const prepared = prepareOutbound({
		agentId: context.getNodeParameter('agentId', itemIndex),
		phoneNumber: context.getNodeParameter('phoneNumber', itemIndex),
		defaultCountryCode: options.defaultCountryCode,
		options: {
			...fields,
			metadataRows: metadata?.entry,
			schedule: scheduleAt ? { value: scheduleAt, zone: scheduleZone(context, timeZone) } : undefined,
		},
	});

	const result = await client.outboundCall(prepared.request);

	return {
		output: 0,
		json: {
			callId: result.callId ?? null,
			status: result.status ?? null,
			message: result.message ?? null,
			agentId: prepared.request.agent_id,
			toNumber: prepared.phone.e164,
			scheduleAt: prepared.schedule?.scheduleAt ?? null,
			scheduledForUtc: prepared.schedule?.utc ?? null,
			attempts: result.attempts,
			body: result.body as IDataObject,
		},
	};
}
