import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { createCallKaroClient } from '../../src/client';
import type { CallKaroClient } from '../../src/client';
import { createCallKaroTransport } from './transport';

/** One client per execution: credentials are read once, and backoff waits end on cancel. */
export async function createNodeClient(context: IExecuteFunctions): Promise<CallKaroClient> {
	try {
		const transport = await createCallKaroTransport(context);
		const cancelSignal = context.getExecutionCancelSignal();
		return createCallKaroClient({ transport, sleep: async (ms) => await sleep(ms, cancelSignal) });
	} catch (error) {
		throw new NodeOperationError(context.getNode(), error as Error);
	}
}

/** The zone a schedule time without an offset is read in: the option, else the workflow's. */
export function scheduleZone(context: IExecuteFunctions, timeZoneOption: string | undefined): string {
	return timeZoneOption?.trim() || context.getTimezone();
}
