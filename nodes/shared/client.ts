import type { IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { createCallKaroClient } from '../../src/client';
import type { CallKaroClient } from '../../src/client';
import { createPacedTransport } from '../../src/pacing';
import { createCallKaroTransport } from './transport';

/**
 * One client per execution: credentials are read once, all concurrent requests share one pace
 * (rate limit and 429 pauses), and every wait ends when the execution is cancelled.
 */
export async function createNodeClient(
	context: IExecuteFunctions,
	maxRequestsPerSecond: number,
): Promise<CallKaroClient> {
	const cancelSignal = context.getExecutionCancelSignal();
	const cancellableSleep = async (ms: number) => await sleep(ms, cancelSignal);
	const transport = createPacedTransport(await createCallKaroTransport(context), {
		maxRequestsPerSecond,
		sleep: cancellableSleep,
	});
	return createCallKaroClient({ transport, sleep: cancellableSleep });
}
