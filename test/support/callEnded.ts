// The one sample `call_ended` event of the tests: what CallKaro posts to a webhook when a call ends,
// with every field of `data` that the public docs list (§5).

export type CallEndedData = Record<string, unknown>;

export interface CallEndedEvent {
	event: string;
	data: CallEndedData;
}

/** The event's `data`, with `overrides` over the sample values. */
export function callEndedData(overrides: CallEndedData = {}): CallEndedData {
	return {
		callSid: 'sid-0001',
		name: 'outbound-api',
		agent: 'agent_sales_01',
		versionId: 'ver_01',
		from: '+918069000000',
		to: '+919876543210',
		batchId: 'batch_01',
		recordingUrl: 'https://example.invalid/rec.mp3',
		call_duration: 42,
		time: '2026-11-21 15:04:05',
		transcription: 'Agent: Hello',
		hangup_reason: 'CLIENT_INITIATED',
		call_metadata: { orderId: 'A-17', amount: 499 },
		try_count: 0,
		post_call: {},
		post_call_detail: {},
		functions_called: [],
		disposition_reason: '',
		conversion_status: '',
		next_call_scheduled: false,
		call_link: 'https://example.invalid/call',
		...overrides,
	};
}

/** The whole event: `{ event: 'call_ended', data }`. */
export function callEndedEvent(overrides: CallEndedData = {}): CallEndedEvent {
	return { event: 'call_ended', data: callEndedData(overrides) };
}

/** The names of the documented fields of `data`. */
export const DOCUMENTED_FIELDS = Object.keys(callEndedData());
