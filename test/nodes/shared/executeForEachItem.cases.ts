// What every node shares for bulk runs: Concurrency, Max Requests per Second, a 429 that pauses
// every worker, and (for Outbound Call) repeated calls in one run. Through n8n's engine, against
// the sandbox over real HTTP. Cancelling a run: runItems.cases.ts.
import { OUTBOUND_CALL } from '../../engine/callKaroNodes';
import { useVirtualClock } from '../../engine/virtualClock';
import {
	FAR_AHEAD_SENT,
	apiRequests,
	NODE_NAME,
	pairedItems,
	runNode,
	useSandbox,
} from '../fixtures';

const AGENT = 'agent_sales_01';
const LATER = '2099-03-01T10:00:00+05:30';
// An empty Schedule Time fails the item, so the calls to the same time have one too.
const SOONER = '2099-02-01T10:00:00+05:30';

describe('bulk runs of a CallKaro node', () => {
	const sandbox = useSandbox();

	test('at Concurrency 5, output items keep input order and pairing', async () => {
		useVirtualClock();
		const phones = Array.from(
			{ length: 12 },
			(_, index) => `+9170001${String(index).padStart(5, '0')}`,
		);
		const result = await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: {
				agentId: AGENT,
				phoneNumber: '={{ $json.phone }}',
				options: { concurrency: 5, maxRequestsPerSecond: 10 },
			},
			items: phones.map((phone) => ({ phone })),
		});

		const [output] = result.outputOf(NODE_NAME);
		expect(output.map((item) => item.json.toNumber)).toEqual(phones);
		expect(pairedItems(output)).toEqual(phones.map((_, item) => ({ item })));
		expect(sandbox().state.calls).toHaveLength(12);
	});

	test('Max Requests per Second spaces the requests of the whole run', async () => {
		// Ten starts at 10 per second cannot all be sent in under 900 ms of the run's clock, where
		// only waits take time (virtualClock.ts); unpaced, the run takes none.
		const clock = useVirtualClock();
		const startedAt = clock.now();
		await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: {
				agentId: AGENT,
				phoneNumber: '={{ $json.phone }}',
				options: { concurrency: 5, maxRequestsPerSecond: 10 },
			},
			items: Array.from({ length: 10 }, (_, index) => ({ phone: `+91700020000${index}` })),
		});

		expect(apiRequests(sandbox())).toHaveLength(10);
		expect(clock.now() - startedAt).toBeGreaterThanOrEqual(900);
		expect(clock.waits).toHaveLength(9);
	});

	test("a 429's Retry-After pauses every worker, not only the one that got it", async () => {
		// 50 ms per answer: without a shared pause the other two workers would send about 36
		// requests during the second the first one waits.
		sandbox().setFaults({
			endpoint: 'outbound',
			sequence: ['429'],
			retryAfterSeconds: 1,
			latencyMs: 50,
		});
		const result = await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: {
				agentId: AGENT,
				phoneNumber: '={{ $json.phone }}',
				options: { concurrency: 3 },
			},
			items: Array.from({ length: 12 }, (_, index) => ({
				phone: `+9170003000${String(index).padStart(2, '0')}`,
			})),
		});

		const requests = apiRequests(sandbox());
		const tooMany = requests.find((request) => request.status === 429);
		expect(tooMany).toBeDefined();
		const arrivedAt = Date.parse(tooMany!.time);
		// The pause ends a second after the 429 was read, so no request sent after that arrives
		// before pausedUntil. What arrives before it and after the 429 was sent before the 429 was
		// read: the other two workers' requests then in flight, however slow the machine.
		const pausedUntil = arrivedAt + tooMany!.durationMs + 1000;
		const beforePauseEnd = requests.filter((request) => {
			const time = Date.parse(request.time);
			return request !== tooMany && time >= arrivedAt && time < pausedUntil;
		});
		expect(beforePauseEnd.length).toBeLessThanOrEqual(2);
		expect(result.json(NODE_NAME)).toHaveLength(12);
		expect(sandbox().state.calls).toHaveLength(12);
	});

	describe('Outbound Call: duplicate calls in one run', () => {
		const items = [
			{ phone: '+919800000001', at: SOONER },
			{ phone: '+919800000002', at: SOONER },
			{ phone: '+91 98000 00001', at: SOONER },
			{ phone: '+919800000001', at: LATER },
		];
		const parameters = {
			agentId: AGENT,
			phoneNumber: '={{ $json.phone }}',
			additionalFields: { scheduleAt: '={{ $json.at }}' },
		};

		test('by default only the first call to a number, agent and time is placed', async () => {
			const result = await runNode(sandbox(), {
				type: OUTBOUND_CALL,
				parameters: { ...parameters, options: { ...FAR_AHEAD_SENT, concurrency: 5 } },
				items,
			});

			const output = result.json(NODE_NAME);
			expect(output.map((item) => item.placed)).toEqual([true, true, false, true]);
			expect(output[2]).toMatchObject({
				status: 'duplicate',
				duplicateOf: 0,
				toNumber: '+919800000001',
				message:
					'Not placed: a repeat of item 0 (+91******0001, same agent and time); item 0 placed the call',
			});
			expect(apiRequests(sandbox(), '/call/outbound')).toHaveLength(3);
		});

		test('Allow Duplicate Calls places every call', async () => {
			const result = await runNode(sandbox(), {
				type: OUTBOUND_CALL,
				parameters: { ...parameters, options: { ...FAR_AHEAD_SENT, allowDuplicateCalls: true } },
				items,
			});

			expect(result.json(NODE_NAME).map((item) => item.placed)).toEqual([true, true, true, true]);
			expect(apiRequests(sandbox(), '/call/outbound')).toHaveLength(4);
		});
	});
});
