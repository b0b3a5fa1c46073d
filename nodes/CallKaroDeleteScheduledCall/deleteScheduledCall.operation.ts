import type { IExecuteFunctions } from 'n8n-workflow';

import type { CallKaroClient } from '../../src/client';
import { prepareDelete } from '../../src/requests';
import type { ItemResult } from '../shared/runItems';

interface DeleteOptions {
	bodyFormat?: 'json' | 'form';
	defaultCountryCode?: string;
}

export async function deleteScheduledCallItem(
	context: IExecuteFunctions,
	client: CallKaroClient,
	itemIndex: number,
): Promise<ItemResult> {
	const options = context.getNodeParameter('options', itemIndex, {}) as DeleteOptions;
	const prepared = prepareDelete({
		agentId: context.getNodeParameter('agentId', itemIndex),
		phoneNumber: context.getNodeParameter('phoneNumber', itemIndex),
		defaultCountryCode: options.defaultCountryCode,
	});

	const result = await client.deleteScheduledCall({
		agentId: prepared.agentId,
		toNumber: prepared.toNumber,
		bodyFormat: options.bodyFormat ?? 'json',
	});

	return {
		output: 0,
		json: { deleted: true, agentId: prepared.agentId, toNumber: prepared.toNumber, message: result.message },
	};
}
