import { sleep } from 'n8n-workflow';

import { createCallKaroClient } from '../../../src/client/client';
import { createPacedTransport } from '../../../src/client/pacing';
import type { Transport, TransportResponse } from '../../../src/client/transport';
import { reply } from './scriptedTransport';

// Jest's fake clock drives n8n's real sleep, so concurrent waits run in virtual time.
beforeEach(() => jest.useFakeTimers({ now: 0 }));
afterEach(() => jest.useRealTimers());

/** Records when each request starts; the nth request gets answers.get(n), else a 200. */
function recordingTransport(answers = new Map<number, TransportResponse>()) {
	const startedAt: number[] = [];
	const transport: Transport = {
		async send() {
			startedAt.push(Date.now());
			return answers.get(startedAt.length) ?? reply(200, { status: 'done' });
		},
	};
	return { transport, startedAt };
}

async function settle<T>(promise: Promise<T>): Promise<T> {
	await jest.advanceTimersByTimeAsync(10_000);
	return await promise;
}

const request = { method: 'POST' as const, path: '/call/outbound', body: {} };

describe('createPacedTransport', () => {
	test('without a limit, concurrent requests start at once', async () => {
		const { transport, startedAt } = recordingTransport();
		const paced = createPacedTransport(transport, { maxRequestsPerSecond: 0, sleep });

		await settle(Promise.all([paced.send(request), paced.send(request), paced.send(request)]));

		expect(startedAt).toEqual([0, 0, 0]);
	});

	test('Max Requests per Second spaces the starts of concurrent requests', async () => {
		const { transport, startedAt } = recordingTransport();
		const paced = createPacedTransport(transport, { maxRequestsPerSecond: 4, sleep });

		await settle(Promise.all([paced.send(request), paced.send(request), paced.send(request)]));

		expect(startedAt).toEqual([0, 250, 500]);
	});

	test("a 429's Retry-After holds back every request that starts after it", async () => {
		const tooMany = reply(
			429,
			{ status: 'error', message: 'Too many requests' },
			{ 'retry-after': '2' },
		);
		const { transport, startedAt } = recordingTransport(new Map([[1, tooMany]]));
		const paced = createPacedTransport(transport, { maxRequestsPerSecond: 0, sleep });

		const first = await paced.send(request);
		await settle(Promise.all([paced.send(request), paced.send(request)]));

		expect(first.status).toBe(429);
		expect(startedAt).toEqual([0, 2000, 2000]);
	});

	test('after a 429, starts stay spaced by the rate from the end of the pause', async () => {
		const tooMany = reply(
			429,
			{ status: 'error', message: 'Too many requests' },
			{ 'retry-after': '2' },
		);
		const { transport, startedAt } = recordingTransport(new Map([[1, tooMany]]));
		const paced = createPacedTransport(transport, { maxRequestsPerSecond: 4, sleep });
		const client = createCallKaroClient({ transport: paced, sleep, random: () => 0 });

		// Ten items at Concurrency 10: the first is answered 429, then retried after the pause.
		const calls = Array.from(
			{ length: 10 },
			async () => await client.outboundCall({ to_number: '+919876543210', agent_id: 'agent_1' }),
		);
		await settle(Promise.all(calls));

		const afterPause = Array.from({ length: 10 }, (_, start) => 2000 + 250 * start);
		expect(startedAt).toEqual([0, ...afterPause]);
	});

	test('a Retry-After longer than the node waits holds the others back no longer than that', async () => {
		const tooMany = reply(
			429,
			{ status: 'error', message: 'Too many requests' },
			{ 'retry-after': '3600' },
		);
		const { transport, startedAt } = recordingTransport(new Map([[1, tooMany]]));
		const paced = createPacedTransport(transport, {
			maxRequestsPerSecond: 0,
			sleep,
			maxPauseMs: 30_000,
		});

		await paced.send(request);
		const next = paced.send(request);
		await jest.advanceTimersByTimeAsync(3_600_000);
		await next;

		expect(startedAt).toEqual([0, 30_000]);
	});

	test('a 429 without Retry-After does not hold back the others', async () => {
		const { transport, startedAt } = recordingTransport(new Map([[1, reply(429, {})]]));
		const paced = createPacedTransport(transport, { maxRequestsPerSecond: 0, sleep });

		await paced.send(request);
		await paced.send(request);

		expect(startedAt).toEqual([0, 0]);
	});
});
