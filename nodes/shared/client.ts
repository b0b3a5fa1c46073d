import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { createCallKaroClient } from '../../src/client';
import type { CallKaroClient } from '../../src/client';
import { CallKaroInputError } from '../../src/errors';
import { createCallKaroTransport } from './transport';

/**
 * A client whose every request fails with `cause`. Thrown from execute(), the failure would make
 * n8n pass the input items on to the success output under Continue On Fail or the error output;
 * failing each item instead gives one error item per input item.
 */
function failingClient(context: IExecuteFunctions, cause: unknown): CallKaroClient {
	const fail = async (): Promise<never> => {
		// An input error becomes "... [item N]" per item; anything else gets a fresh error per item.
		if (cause instanceof CallKaroInputError) throw cause;
		const { message, description } = cause as { message: string; description?: string | null };
		throw new NodeOperationError(context.getNode(), message, { description: description ?? undefined });
	};
	return { assignWorkflow: fail, deleteScheduledCall: fail, outboundCall: fail, createCampaign: fail };
}

/** One client per execution: credentials are read once, and backoff waits end on cancel. */
export async function createNodeClient(context: IExecuteFunctions): Promise<CallKaroClient> {
	try {
		const transport = await createCallKaroTransport(context);
		const cancelSignal = context.getExecutionCancelSignal();
		return createCallKaroClient({ transport, sleep: async (ms) => await sleep(ms, cancelSignal) });
	} catch (error) {
		// e.g. a credential whose Base URL is not https: every item fails with it
		return failingClient(context, error);
	}
}

/** The zone a schedule time without an offset is read in: the option, else the workflow's. */
export function scheduleZone(context: IExecuteFunctions, timeZoneOption: string | undefined): string {
	return timeZoneOption?.trim() || context.getTimezone();
}
