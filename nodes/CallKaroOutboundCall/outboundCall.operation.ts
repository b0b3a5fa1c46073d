import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { CallKaroClient } from '../../src/client';
import { prepareOutbound } from '../../src/requests';
import { scheduleZone } from '../shared/schedule';
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

/** The first item of this run that calls each agent, number and time. */
export type CallsInThisRun = Map<string, number>;

/** Reads and checks one item now; the returned function sends it. */
export function prepareOutboundCall(
	context: IExecuteFunctions,
	client: CallKaroClient,
	itemIndex: number,
	callsInThisRun: CallsInThisRun,
): () => Promise<ItemResult> {
	const { metadata, scheduleAt, timeZone, ...fields } = context.getNodeParameter(
		'additionalFields',
		itemIndex,
		{},
	) as AdditionalFields;
	const options = context.getNodeParameter('options', itemIndex, {}) as {
		allowDuplicateCalls?: boolean;
		defaultCountryCode?: string;
	};
	const prepared = prepareOutbound({
		agentId: context.getNodeParameter('agentId', itemIndex),
		phoneNumber: context.getNodeParameter('phoneNumber', itemIndex),
		defaultCountryCode: options.defaultCountryCode,
		options: {
			...fields,
			metadataRows: metadata?.entry,
			schedule: scheduleAt
				? { value: scheduleAt, zone: scheduleZone(context, timeZone) }
				: undefined,
		},
	});

	const call = {
		agentId: prepared.request.agent_id,
		toNumber: prepared.phone.e164,
		scheduleAt: prepared.schedule?.scheduleAt ?? null,
		scheduledForUtc: prepared.schedule?.utc ?? null,
	};

	// A run that repeats a row would call the person twice, and no idempotency key exists. Items
	// are prepared in input order, so the first of a repeated call is the one placed.
	const callKey = `${call.agentId}|${call.toNumber}|${call.scheduleAt ?? 'now'}`;
	const firstItem = callsInThisRun.get(callKey);
	if (firstItem === undefined) callsInThisRun.set(callKey, itemIndex);
	else if (!options.allowDuplicateCalls) {
		const duplicate: ItemResult = {
			output: 0,
			json: {
				placed: false,
				status: 'duplicate',
				message: `Not placed: item ${firstItem} of this run already calls ${prepared.phone.masked} with this agent at the same time`,
				duplicateOfItem: firstItem,
				...call,
			},
		};
		return async () => duplicate;
	}

	return async () => {
		const result = await client.outboundCall(prepared.request);

		return {
			output: 0,
			json: {
				placed: true,
				callId: result.callId ?? null,
				status: result.status ?? null,
				message: result.message ?? null,
				...call,
				attempts: result.attempts,
				body: result.body as IDataObject,
			},
		};
	};
}
