// Bulk runs through n8n's real engine against the sandbox with seeded faults: nothing lost,
// nothing doubled. Run with `npm run test:soak` (bounded: about a minute on 2 cores).
import type { IDataObject } from 'n8n-workflow';

import { ASSIGN_WORKFLOW, callKaroNodeTypes, OUTBOUND_CALL } from '../engine/callKaroNodes';
import { node, runWorkflow } from '../engine/harness';
import type { RunResult } from '../engine/harness';
import { DEMO_API_KEY, startSandbox } from '../sandbox/sandbox.mjs';
import { printCounts } from './report.mjs';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const ASSIGN_ITEMS = 10_000;
const OUTBOUND_ITEMS = 2_000;
const CONCURRENCY = 20;
const FAULTS = {
	seed: 20261121,
	// 10% 5xx, 2% 429, 1% answers dropped after the request was processed.
	rates: { '500': 0.05, '502': 0.025, '503': 0.025, '429': 0.02, 'drop-after': 0.01 },
	// A real Retry-After pauses every worker; 0 keeps a run with hundreds of 429s bounded.
	retryAfterSeconds: 0,
};

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, runDurationMs: 0, requestLogLimit: 100 });
	sandbox.setFaults({ endpoint: 'all', ...FAULTS });
});
afterAll(async () => await sandbox.close());

function phoneNumbers(count: number, prefix: string): IDataObject[] {
	return Array.from({ length: count }, (_, index) => ({
		phone: `+91${prefix}${String(index).padStart(9, '0')}`,
	}));
}

async function runBulk(
	type: string,
	parameters: IDataObject,
	items: IDataObject[],
): Promise<RunResult> {
	return await runWorkflow({
		nodes: [
			node(
				'CallKaro',
				type,
				{ ...parameters, phoneNumber: '={{ $json.phone }}', options: { concurrency: CONCURRENCY } },
				{
					onError: 'continueErrorOutput',
				},
			),
		],
		items,
		credentials: { callKaroApi: { apiKey: DEMO_API_KEY, baseUrl: sandbox.url } },
		nodeTypes: callKaroNodeTypes(),
	});
}

/** Each output's items, and the input index of every item across all outputs. */
function outputsOf(result: RunResult) {
	const outputs = result.outputOf('CallKaro');
	const pairedIndexes = outputs.flat().map((item) => (item.pairedItem as { item: number }).item);
	return { outputs, pairedIndexes };
}

function countBy<T>(values: T[], keyOf: (value: T) => string): Map<string, number> {
	const counts = new Map<string, number>();
	for (const value of values) counts.set(keyOf(value), (counts.get(keyOf(value)) ?? 0) + 1);
	return counts;
}

test(`${ASSIGN_ITEMS} Assign items: each once on the right output, and no number started twice`, async () => {
	const items = phoneNumbers(ASSIGN_ITEMS, '7');
	const result = await runBulk(ASSIGN_WORKFLOW, { workflowId: 'wf_welcome' }, items);
	const { outputs, pairedIndexes } = outputsOf(result);
	const [started, alreadyRunning, failed] = outputs;

	expect([...pairedIndexes].sort((a, b) => a - b)).toEqual(items.map((_, index) => index));

	const runsPerNumber = countBy(
		sandbox.state.runs as Array<{ number: string }>,
		(run) => run.number,
	);
	expect([...runsPerNumber.values()].every((count) => count === 1)).toBe(true);
	// Every number had no run before, so Already Running can only be a run an earlier attempt started.
	expect(alreadyRunning.every((item) => item.json.startedByEarlierAttempt === true)).toBe(true);
	for (const item of [...started, ...alreadyRunning]) {
		expect(runsPerNumber.get(String(item.json.toNumber).slice(1))).toBe(1);
	}
	expect(failed.every((item) => typeof item.json.error === 'string')).toBe(true);

	printCounts('Assign soak', {
		items: items.length,
		started: started.length,
		'already running (started by a lost attempt)': alreadyRunning.length,
		'failed (retries used up)': failed.length,
		'runs in the sandbox': sandbox.state.runs.length,
		'requests seen by the sandbox': sandbox.state.requestCount,
	});
}, 180_000);

test(`${OUTBOUND_ITEMS} Outbound items: no call placed twice, and every unknown outcome labelled`, async () => {
	const items = phoneNumbers(OUTBOUND_ITEMS, '8');
	const requestsBefore = sandbox.state.requestCount;
	const result = await runBulk(OUTBOUND_CALL, { agentId: 'agent_sales_01' }, items);
	const { outputs, pairedIndexes } = outputsOf(result);
	const [placed, failed] = outputs;

	expect([...pairedIndexes].sort((a, b) => a - b)).toEqual(items.map((_, index) => index));

	const callsPerNumber = countBy(
		sandbox.state.calls as Array<{ toNumber: string }>,
		(call) => call.toNumber,
	);
	expect([...callsPerNumber.values()].every((count) => count === 1)).toBe(true);
	for (const item of placed) expect(callsPerNumber.get(String(item.json.toNumber))).toBe(1);

	// A failed item whose call the sandbox did place must say that its outcome is unknown.
	const failedNumbers = failed.map((item) => String(item.json.phone));
	const placedDespiteFailure = failed.filter((item) => callsPerNumber.has(String(item.json.phone)));
	expect(placedDespiteFailure.length).toBeGreaterThan(0);
	for (const item of placedDespiteFailure) {
		expect(item.json.details).toMatchObject({ outcomeUnknown: true });
	}

	printCounts('Outbound soak', {
		items: items.length,
		placed: placed.length,
		failed: failedNumbers.length,
		'failed, outcome unknown': failed.filter(
			(item) => (item.json.details as IDataObject).outcomeUnknown,
		).length,
		'failed, but the sandbox placed the call': placedDespiteFailure.length,
		'calls in the sandbox': sandbox.state.calls.length,
		'requests seen by the sandbox': sandbox.state.requestCount - requestsBefore,
	});
}, 180_000);
