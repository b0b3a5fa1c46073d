import { TransportError } from '../../../src/client/transport';
import type { Transport, TransportRequest, TransportResponse } from '../../../src/client/transport';

export type ScriptStep = TransportResponse | TransportError;

/** Answers with queued responses or throws queued TransportErrors, and records every request. */
export class ScriptedTransport implements Transport {
	readonly requests: TransportRequest[] = [];

	private readonly steps: ScriptStep[];

	constructor(steps: ScriptStep[]) {
		this.steps = [...steps];
	}

	async send(request: TransportRequest): Promise<TransportResponse> {
		this.requests.push(request);
		const step = this.steps.shift();
		if (step === undefined)
			throw new Error(`The script has no answer for request ${this.requests.length}`);
		if (step instanceof TransportError) throw step;
		return step;
	}
}

export function reply(
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): TransportResponse {
	return { status, headers, body };
}

export const refused = () => new TransportError('not-sent', 'connect ECONNREFUSED');
export const hangUp = () => new TransportError('no-answer', 'socket hang up');
export const cancelled = () => new TransportError('aborted', 'This operation was aborted');
