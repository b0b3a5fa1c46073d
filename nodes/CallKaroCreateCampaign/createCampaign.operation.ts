import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { CallKaroClient } from '../../src/client';
import { prepareCampaign } from '../../src/requests';
import type { ItemResult } from '../shared/runItems';

/** Reads and checks one item now; the returned function sends it. */
export function prepareCreateCampaign(
	context: IExecuteFunctions,
	client: CallKaroClient,
	itemIndex: number,
): () => Promise<ItemResult> {
	const version = context.getNodeParameter('campaignType', itemIndex) as 'v1' | 'v2';
	const prepared = prepareCampaign({
		name: context.getNodeParameter('name', itemIndex),
		agentId: version === 'v1' ? context.getNodeParameter('agentId', itemIndex) : undefined,
		version,
	});

	return async () => {
		const result = await client.createCampaign(prepared);

		return {
			output: 0,
			json: {
				batchId: result.batchId,
				status: result.status ?? null,
				message: result.message ?? null,
				name: prepared.request.name,
				campaignType: version,
				attempts: result.attempts,
				body: result.body as IDataObject,
			},
		};
	};
}
