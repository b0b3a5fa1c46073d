import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { CallKaroClient } from '../../src/client';
import { prepareDelete } from '../../src/requests';
import type { ItemResult } from '../shared/runItems';

interface DeleteOptions {
	bodyFormat?: 'json' | 'form';
	defaultCountryCode?: string;
}

/** Reads and checks one item now; the returned function sends it. */
export function prepareDeleteScheduledCall(
	context: IExecuteFunctions,
	client: CallKaroClient,
	itemIndex: number,
): () => Promise<ItemResult> {
	const options = context.getNodeParameter('options', itemIndex, {}) as DeleteOptions;
	const prepared = prepareDelete({
		agentId: context.getNodeParameter('agentId', itemIndex),
		phoneNumber: context.getNodeParameter('phoneNumber', itemIndex),
		defaultCountryCode: options.defaultCountryCode,
	});

	return async () => {
		const result = await client.deleteScheduledCall({
			agentId: prepared.agentId,
			toNumber: prepared.toNumber,
			bodyFormat: options.bodyFormat ?? 'json',
		});

		return {
			output: 0,
			json: {
				deleted: true,
				agentId: prepared.agentId,
				toNumber: prepared.toNumber,
				message: result.message,
				attempts: result.attempts,
				body: result.body as IDataObject,
			},
		};
	};
}
