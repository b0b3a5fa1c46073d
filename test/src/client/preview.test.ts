import { createCallKaroClient } from '../../../src/client/client';
import { RequestNotSent, describeRequest, previewTransport } from '../../../src/client/preview';

const client = createCallKaroClient({
	transport: previewTransport,
	sleep: async () => {
		throw new Error('a preview never waits');
	},
});

async function previewOf(send: Promise<unknown>) {
	const error = await send.catch((thrown: unknown) => thrown);
	expect(error).toBeInstanceOf(RequestNotSent);
	return describeRequest((error as RequestNotSent).request);
}

describe('previewTransport', () => {
	it('gives back the request the client built, with no retry and no answer', async () => {
		expect(
			await previewOf(client.outboundCall({ to_number: '+919876543210', agent_id: 'agent_1' })),
		).toEqual({
			method: 'POST',
			path: '/call/outbound',
			body: { to_number: '+919876543210', agent_id: 'agent_1' },
		});
	});

	it('shows the query in the path, and form fields as such', async () => {
		expect(
			await previewOf(
				client.deleteScheduledCall({
					agentId: 'agent 1',
					toNumber: '+919876543210',
					bodyFormat: 'form',
				}),
			),
		).toEqual({
			method: 'POST',
			path: '/call/delete-schedule-call?agent_id=agent+1',
			form: { to_number: '+919876543210' },
		});
	});
});
