// Many items at once, in input order, and the node as an AI agent's tool; Preview Only
// (nodes/shared/runItems.ts, nodes/shared/executeForEachItem.ts).
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { callKaroNodeTypes } from '../../../engine/callKaroNodes';
import { runAsTool } from '../../../engine/harness';
import {
	NODE_NAME,
	WRONG_API_KEY,
	apiRequests,
	credentialsFor,
	runnerFor,
	workflowError,
} from '../../fixtures';
import type { LoggedRequest, Sandbox } from '../../fixtures';
import type { ActionNodeRow, SandboxOf } from '../contract';
import { arranged, sorted, withOptions } from './support';

export function inputOrder(row: ActionNodeRow, sandbox: SandboxOf) {
	const run = runnerFor(row.type);
	it('keeps several requests in flight at once', async () => {
		const keys = await arranged(row, sandbox(), 10);
		// arranging sends its requests one at a time, so any overlap seen is the node's
		expect(sandbox().state.maxConcurrentRequests).toBeLessThanOrEqual(1);
		sandbox().setFaults({ endpoint: row.faultEndpoint, latencyMs: 60 });
		const result = await run(sandbox(), withOptions(row.parameters(), { concurrency: 5 }), {
			items: keys.map(row.item),
		});
		expect(result.json(NODE_NAME)).toHaveLength(10);
		// the sandbox counts overlapping requests: 1 if they were sent one at a time, however slow
		// the machine; never more than Concurrency
		expect(sandbox().state.maxConcurrentRequests).toBeGreaterThan(1);
		expect(sandbox().state.maxConcurrentRequests).toBeLessThanOrEqual(5);
	});

	it('at Concurrency 5, gives one item per input item, in input order, each paired with its input', async () => {
		const keys = await arranged(row, sandbox(), 8);
		sandbox().setFaults({ endpoint: row.faultEndpoint, seed: 11, latencyMs: 5, jitterMs: 30 });
		// the first bad input, on item 1
		const [[, extra, bad, message]] = row.badInput;
		const items = keys.map((key) => row.item(key));
		Object.assign(items[1], bad);

		const result = await run(sandbox(), withOptions(row.parameters(extra), { concurrency: 5 }), {
			items,
			settings: { continueOnFail: true },
		});

		const [output] = result.outputOf(NODE_NAME);
		expect(
			output.map((item) => [item.pairedItem, item.json[row.outputKey] ?? item.json.error]),
		).toEqual(keys.map((key, index) => [{ item: index }, index === 1 ? message : key]));
		// each item reports what CallKaro did for its own input
		for (const item of output.filter((_, index) => index !== 1)) {
			if (row.recorded) expect(row.recorded(sandbox(), item.json)).toBe(item.json[row.outputKey]);
		}
		expect(sorted(row.done(sandbox()))).toEqual(keys.filter((_, index) => index !== 1));
		expect(apiRequests(sandbox(), row.path)).toHaveLength(7);
	});
}

type ToolRun = Omit<Parameters<typeof runAsTool>[0], 'nodeType' | 'nodeTypes'>;

/** Runs the row's node as an AI agent's tool, with its tool parameters and the sandbox's credential. */
export async function runRowAsTool(row: ActionNodeRow, sandbox: Sandbox, more: Partial<ToolRun>) {
	return await runAsTool({
		nodeType: row.type,
		nodeTypes: callKaroNodeTypes(),
		parameters: row.tool.parameters,
		credentials: credentialsFor(sandbox),
		...more,
	});
}

export function aiTool(row: ActionNodeRow, sandbox: SandboxOf) {
	describe('as an AI agent tool', () => {
		const useTool = async (more: Partial<ToolRun>) => await runRowAsTool(row, sandbox(), more);

		it.each(['supplyData', 'engineRequest'] as const)(
			'%s path: the result reaches the agent, the model filling the values',
			async (via) => {
				const [key] = await arranged(row, sandbox(), 1);
				const tool = await useTool({ via, toolArgs: row.tool.args(key) });

				expect(tool.error).toBeUndefined();
				if (via === 'supplyData') expect(sorted(tool.schemaKeys)).toEqual(row.tool.schemaKeys);
				expect(tool.response).toEqual([row.succeeded(key)]);
				const [json] = tool.response as IDataObject[];
				if (row.recorded) expect(row.recorded(sandbox(), json)).toBe(key);
				const bodies = apiRequests(sandbox(), row.path).map((request) => request.body);
				expect(bodies).toEqual([row.tool.body(key)]);
				expect(row.done(sandbox())).toEqual([key]);
			},
		);

		// A tool's failure is a result the agent reads, never a thrown error: n8n 1.x would stop the
		// whole workflow on a throw, and the model could not fix its input.
		it('supplyData path: a refusal reaches the agent as a result, with the hint', async () => {
			const refusal = row.apiErrors.find((errorCase) => errorCase.apiKey === WRONG_API_KEY);
			const tool = await useTool({
				credentials: credentialsFor(sandbox(), WRONG_API_KEY),
				toolArgs: row.tool.args(row.freshKeys(1)[0]),
			});

			expect(tool.error).toBeUndefined();
			expect(tool.response).toEqual([
				{
					error: refusal?.message,
					details: expect.objectContaining({ description: refusal?.description }),
				},
			]);
		});

		it.each(['supplyData', 'engineRequest'] as const)(
			'%s path: bad input from the model reaches it as [{ error, details }], nothing sent',
			async (via) => {
				const [args, message] = row.tool.badInput;
				const tool = await useTool({ via, toolArgs: args });

				expect(tool.run.status).toBe('success');
				expect(tool.response).toEqual([
					{ error: message, details: expect.objectContaining({ kind: 'invalid-input' }) },
				]);
				expect(apiRequests(sandbox())).toEqual([]);
			},
		);
	});
}

/** The request as the sandbox received it, in the preview's terms. */
function asPreviewed(request: LoggedRequest): IDataObject {
	const query = new URLSearchParams(request.query).toString();
	return {
		method: request.method,
		path: `${request.path}${query ? `?${query}` : ''}`,
		body: request.body as IDataObject,
	};
}

export function preview(row: ActionNodeRow, sandbox: SandboxOf) {
	const run = runnerFor(row.type);
	const previewOnly = (parameters: INodeParameters) =>
		withOptions(parameters, { previewOnly: true });
	describe(`Preview Only (Send Nothing): ${row.preview.title}`, () => {
		const { parameters, items, requests } = row.preview;

		it('outputs each request, sending nothing', async () => {
			const result = await run(sandbox(), previewOnly(parameters), { items });

			expect(result.outputOf(NODE_NAME)[0]).toEqual(
				requests.map((request, item) => ({
					json: { preview: true, request },
					pairedItem: { item },
				})),
			);
			expect(apiRequests(sandbox())).toEqual([]);
		});

		it('previews exactly what a real run sends', async () => {
			const previewed = await run(sandbox(), previewOnly(parameters), { items });
			await run(sandbox(), parameters, { items });

			expect(apiRequests(sandbox()).map(asPreviewed)).toEqual(
				previewed.json(NODE_NAME).map((item) => item.request),
			);
		});

		it('fails a bad item as a real run would, naming the field and the item', async () => {
			const [[, extra, bad, message]] = row.badInput;
			const [good, other] = row.freshKeys(2);
			const result = await run(sandbox(), previewOnly(row.parameters(extra)), {
				items: [row.item(good), { ...row.item(other), ...bad }],
			});

			expect(workflowError(result)).toMatchObject({ message, context: { itemIndex: 1 } });
			expect(apiRequests(sandbox())).toEqual([]);
		});

		it('sums up under the output that nothing was sent', async () => {
			const result = await run(sandbox(), previewOnly(row.parameters()), {
				items: row.freshKeys(2).map((key) => row.item(key)),
			});

			expect(result.task(NODE_NAME).hints).toEqual([
				{
					type: 'info',
					location: 'outputPane',
					message: '2 items: 2 previewed; nothing was sent (Preview Only)',
				},
			]);
			expect(apiRequests(sandbox())).toEqual([]);
		});
	});
}
