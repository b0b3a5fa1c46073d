// Limits an AI agent cannot change, in n8n's engine: Allowed Numbers, Max Calls per Execution and a
// number reached once per execution, across the agent's tool calls (each its own run of the node).
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { toolDescription as outboundToolDescription } from '../../../nodes/CallKaroOutboundCall/outboundCall.operation';
import { toolDescription as deleteToolDescription } from '../../../nodes/CallKaroDeleteScheduledCall/deleteScheduledCall.operation';
import {
	allowedNumbersProperty,
	maxCallsPerExecutionProperty,
} from '../../../nodes/shared/agentLimits';
import { projectFileText } from '../../readme/readmeText.mjs';
import {
	ASSIGN_WORKFLOW,
	DELETE_SCHEDULED_CALL,
	OUTBOUND_CALL,
	callKaroNodeTypes,
} from '../../engine/callKaroNodes';
import { runAsTool } from '../../engine/harness';
import type { ToolRunOptions } from '../../engine/harness';
import { apiRequests, credentialsFor, fromAI, useSandbox } from '../fixtures';
import type { Sandbox } from '../fixtures';

const LEAD = '+919820061001';
const STRANGER = '+919820061002';
const OTHER = '+919820061003';

const CALL: INodeParameters = {
	agentId: 'agent_sales_01',
	phoneNumber: fromAI('phone', 'The number to call, with + and country code'),
};

function callAsTool(
	sandbox: Sandbox,
	parameters: INodeParameters,
	calls: string[],
	more: Partial<ToolRunOptions> = {},
) {
	const [first, ...rest] = calls.map((phone) => ({ phone }));
	return runAsTool({
		nodeType: OUTBOUND_CALL,
		nodeTypes: callKaroNodeTypes(),
		parameters: { ...CALL, ...parameters },
		credentials: credentialsFor(sandbox),
		toolArgs: first,
		moreToolArgs: rest,
		...more,
	});
}

/** The first item each tool call gave the agent. */
function firstItems(responses: unknown[]): IDataObject[] {
	return responses.map((response) => (response as IDataObject[])[0]);
}

const sentNumbers = (sandbox: Sandbox) =>
	apiRequests(sandbox).map((request) => (request.body as IDataObject).to_number);

describe('limits an AI agent cannot change', () => {
	const sandbox = useSandbox({ runDurationMs: 0 });

	describe('Allowed Numbers', () => {
		it('refuses any other number, telling the model not to try another; the allowed one is called', async () => {
			const tool = await callAsTool(sandbox(), { allowedNumbers: LEAD }, [STRANGER, LEAD]);

			const [refused, placed] = firstItems(tool.responses);
			expect(refused).toEqual({
				error:
					'"Phone Number" is not among the numbers this tool may call (its Allowed Numbers): "+91******1002". Use only the number you were given, or tell the person that you cannot call it; nothing was sent. [item 0]',
				details: expect.objectContaining({ kind: 'invalid-input', attempts: 0 }),
			});
			expect(placed).toMatchObject({ placed: true, toNumber: LEAD });
			expect(sentNumbers(sandbox())).toEqual([LEAD]);
		});

		it('reads the list from an expression, in any format, as the trigger gives it', async () => {
			const tool = await callAsTool(sandbox(), { allowedNumbers: '={{ $json.leads }}' }, [OTHER], {
				agentInput: { leads: '+91 98200 61001, +91-98200-61003' },
			});
			expect(firstItems(tool.responses)[0]).toMatchObject({ placed: true, toNumber: OTHER });
		});

		it('compares numbers as libphonenumber reads them: a trunk (0) in the list, 00 from the model', async () => {
			const tool = await callAsTool(sandbox(), { allowedNumbers: '+44 (0)20 7946 0958' }, [
				'0044 20-7946-0958',
			]);
			expect(firstItems(tool.responses)[0]).toMatchObject({
				placed: true,
				toNumber: '+442079460958',
			});
		});

		it('a national number in the list needs Default Country Code, as Phone Number does', async () => {
			const tool = await callAsTool(
				sandbox(),
				{ allowedNumbers: '098200-61003', options: { defaultCountryCode: 'IN' } },
				['98200 61003'],
			);
			expect(firstItems(tool.responses)[0]).toMatchObject({ placed: true, toNumber: OTHER });
		});

		it('set, but empty for this execution (the trigger had no number): nothing may be called, and the builder is warned', async () => {
			const tool = await callAsTool(sandbox(), { allowedNumbers: '={{ $json.lead }}' }, [LEAD], {
				via: 'engineRequest',
			});
			expect(JSON.parse(tool.result ?? '')).toEqual([
				{
					error:
						'"Phone Number" is not among the numbers this tool may call ("+91******1001"): its Allowed Numbers hold no number in this execution. Do not try another number: tell the person that you cannot call it; nothing was sent. [item 0]',
					details: expect.objectContaining({ kind: 'invalid-input' }),
				},
			]);
			expect(tool.run.task('Tool').hints).toContainEqual({
				type: 'warning',
				location: 'outputPane',
				message:
					"Allowed Numbers gave no number in this execution, so this tool refused every number the agent asked for. If the conversation should reach someone, check that the expression in Allowed Numbers reads the number (e.g. the trigger's field).",
			});
			expect(sentNumbers(sandbox())).toEqual([]);
		});

		it.each([
			['one per line', `${LEAD}\n${OTHER}`],
			['one per line, as Windows ends lines', `${LEAD}\r\n${OTHER}\r\n`],
			['separated by semicolons', `${LEAD}; ${OTHER}`],
			['with blank entries and a repeat', `\n${LEAD},, ;\n\n+91 98200 61003;${LEAD}\n`],
			['as the list an expression gives', `={{ ['${LEAD}', '+91-98200-61003'] }}`],
		])('reads the list %s', async (_form, allowedNumbers) => {
			const tool = await callAsTool(sandbox(), { allowedNumbers }, [OTHER, STRANGER]);
			const [placed, refused] = firstItems(tool.responses);
			expect(placed).toMatchObject({ placed: true, toNumber: OTHER });
			expect(refused.error).toContain('is not among the numbers this tool may call');
			expect(sentNumbers(sandbox())).toEqual([OTHER]);
		});

		it('applies to Delete Scheduled Call too', async () => {
			const tool = await runAsTool({
				nodeType: DELETE_SCHEDULED_CALL,
				nodeTypes: callKaroNodeTypes(),
				parameters: { ...CALL, allowedNumbers: LEAD },
				credentials: credentialsFor(sandbox()),
				toolArgs: { phone: STRANGER },
			});
			expect(firstItems(tool.responses)[0].error).toBe(
				'"Phone Number" is not among the numbers this tool may cancel calls to (its Allowed Numbers): "+91******1002". Use only the number you were given, or tell the person that you cannot cancel calls to it; nothing was sent. [item 0]',
			);
			expect(apiRequests(sandbox())).toEqual([]);
		});

		it('without it, the builder is warned under the tool: the agent may call any number', async () => {
			const tool = await callAsTool(sandbox(), {}, [LEAD], { via: 'engineRequest' });
			expect(tool.run.task('Tool').hints).toContainEqual(
				expect.objectContaining({
					type: 'warning',
					message:
						'This node runs as an AI agent tool without Allowed Numbers: the agent may call any number it reads or invents. Set Allowed Numbers to the numbers this conversation may reach, such as the lead from the trigger.',
				}),
			);
		});
	});

	describe('a number is reached once per execution, across tool calls', () => {
		it.each([
			['in two turns', false],
			['in parallel, in one turn', true],
		])(
			'the same number %s: one call, the other told it is a duplicate',
			async (_case, parallel) => {
				const tool = await callAsTool(sandbox(), {}, [LEAD, LEAD], { parallel });

				const statuses = firstItems(tool.responses).map((item) => [item.placed, item.status]);
				expect(statuses).toContainEqual([true, 'success']);
				expect(statuses).toContainEqual([false, 'duplicate']);
				const duplicate = firstItems(tool.responses).find((item) => item.status === 'duplicate');
				expect(duplicate?.message).toBe(
					'Not called: this tool has already called +91******1001 with this agent in this execution, and reaches a number once',
				);
				expect(sentNumbers(sandbox())).toEqual([LEAD]);
			},
		);

		it('a new execution starts anew', async () => {
			await callAsTool(sandbox(), {}, [LEAD]);
			await callAsTool(sandbox(), {}, [LEAD]);
			expect(sentNumbers(sandbox())).toEqual([LEAD, LEAD]);
		});

		it('Assign Workflow enrols a number once per execution as well', async () => {
			const tool = await runAsTool({
				nodeType: ASSIGN_WORKFLOW,
				nodeTypes: callKaroNodeTypes(),
				parameters: { workflowId: 'wf_welcome', phoneNumber: CALL.phoneNumber },
				credentials: credentialsFor(sandbox()),
				toolArgs: { phone: LEAD },
				moreToolArgs: [{ phone: LEAD }],
			});
			expect(firstItems(tool.responses).map((item) => item.status)).toEqual([
				'started',
				'duplicate',
			]);
		});
	});

	describe('Max Calls per Execution', () => {
		it('places at most that many calls in one execution (default 3), and says so', async () => {
			const numbers = ['+919820061011', '+919820061012', '+919820061013', '+919820061014'];
			const tool = await callAsTool(sandbox(), {}, numbers);

			const items = firstItems(tool.responses);
			expect(items.map((item) => item.placed)).toEqual([true, true, true, false]);
			expect(items[3]).toMatchObject({
				status: 'limitReached',
				message:
					'Not called: this tool has called 3 numbers in this execution, its Max Calls per Execution; no more are called in this conversation',
			});
			expect(sentNumbers(sandbox())).toEqual(numbers.slice(0, 3));
		});

		it('a call that was refused or certainly not placed spends nothing', async () => {
			const tool = await runAsTool({
				nodeType: OUTBOUND_CALL,
				nodeTypes: callKaroNodeTypes(),
				parameters: {
					...CALL,
					agentId: fromAI('agent', 'The ID of the agent'),
					maxCallsPerExecution: 1,
				},
				credentials: credentialsFor(sandbox()),
				toolArgs: { phone: '12345', agent: 'agent_sales_01' },
				moreToolArgs: [
					{ phone: LEAD, agent: 'agent_nobody' }, // 404: certainly not placed
					{ phone: OTHER, agent: 'agent_sales_01' },
					{ phone: STRANGER, agent: 'agent_sales_01' },
				],
			});

			const items = firstItems(tool.responses);
			expect(items[0].error).toContain('"Phone Number"');
			expect(items[1]).toMatchObject({ details: expect.objectContaining({ httpStatus: 404 }) });
			expect(items[2]).toMatchObject({ placed: true, toNumber: OTHER });
			expect(items[3]).toMatchObject({ placed: false, status: 'limitReached' });
		});

		it('a limit of 1 says "1 number"', async () => {
			const tool = await callAsTool(sandbox(), { maxCallsPerExecution: 1 }, [LEAD, OTHER]);
			expect(firstItems(tool.responses)[1].message).toBe(
				'Not called: this tool has called 1 number in this execution, its Max Calls per Execution; no more are called in this conversation',
			);
		});

		it('0 places any number of calls', async () => {
			const numbers = ['+919820061021', '+919820061022', '+919820061023', '+919820061024'];
			const tool = await callAsTool(sandbox(), { maxCallsPerExecution: 0 }, numbers);
			expect(firstItems(tool.responses).every((item) => item.placed === true)).toBe(true);
		});
	});

	describe('a wrong setting reaches the builder, never only the model', () => {
		const WRONG_SETTINGS: Array<[string, INodeParameters, string]> = [
			[
				'an Allowed Numbers entry that is no number',
				{ allowedNumbers: `${LEAD}\n+91 98200 6100`, maxCallsPerExecution: 1 },
				'A setting of this tool is wrong: "Allowed Numbers" entry 2 of 2 is not a number in use in India (+91): "+91*****6100". Its digits match no number range in use there. Check the digits, or write a number of another country with + and its country code. [item 0]',
			],
			[
				'an Allowed Numbers entry with a letter for a digit',
				{ allowedNumbers: '+91 98200 61O01' },
				'"Allowed Numbers" entry 1 of 1 must be a phone number',
			],
			[
				'an Allowed Numbers expression that fails',
				{ allowedNumbers: "={{ $('Webhook').item.json.phone }}" },
				'A setting of this tool is wrong: ',
			],
			[
				'a Default Country Code that is no country',
				{ options: { defaultCountryCode: 'XX' } },
				'"Default Country Code" is not an ISO country code of any country or region: "XX"',
			],
			[
				'a Time Zone that names no single zone',
				{ options: { timeZone: 'EST' } },
				'"Time Zone" is an abbreviation, "EST", which names no single time zone',
			],
			[
				'Calling Hours that are no time of day',
				{ options: { callingHours: { window: { start: '9am', end: '21:00' } } } },
				'"Calling Hours Start" is not a time of day: "9am"',
			],
			[
				'a Max Calls per Execution below 0',
				{ maxCallsPerExecution: -1 },
				'"Max Calls per Execution" must be a whole number of at least 0, but is -1',
			],
			[
				'a Max Calls per Execution that is no number',
				{ maxCallsPerExecution: 'three' },
				'A setting of this tool is wrong: "Max Calls per Execution" must be a whole number of at least 0, but is "three". Change it in the node. [item 0]',
			],
			[
				'a Concurrency out of range',
				{ options: { concurrency: '={{ 500 }}' } },
				'"Concurrency" must be a whole number from 1 to 50, but is 500',
			],
		];

		it.each(WRONG_SETTINGS)(
			'%s: the tool fails for the builder to see; nothing is sent (agents that call tools themselves)',
			async (_setting, parameters, message) => {
				const tool = await callAsTool(sandbox(), parameters, [LEAD]);
				// The invocation throws instead of answering: n8n records the error on the tool's run.
				expect(tool.error?.message).toContain(message);
				expect(tool.error?.message).toContain('A setting of this tool is wrong: ');
				expect(tool.run.task('Tool').error?.message).toContain(message);
				expect(apiRequests(sandbox())).toEqual([]);
			},
		);

		it.each(WRONG_SETTINGS)(
			'%s: the tool fails for the builder to see; nothing is sent (AI Agent v3, which has n8n run its tools)',
			async (_setting, parameters, message) => {
				const tool = await callAsTool(sandbox(), parameters, [LEAD], { via: 'engineRequest' });
				// n8n 2.x marks the tool's run as failed, with the error and how to fix it, and gives
				// the model the message; n8n 1.x stops the execution at a tool that throws.
				const task = tool.run.task('Tool');
				expect(task.executionStatus).toBe('error');
				expect(task.error?.message).toContain(message);
				expect(task.error?.description).toContain('Correct it in the node');
				expect(tool.result).toContain('A setting of this tool is wrong: ');
				expect(apiRequests(sandbox())).toEqual([]);
			},
		);

		const MODEL_DEFINED: Array<[string, INodeParameters, IDataObject, string]> = [
			[
				'Allowed Numbers',
				{ allowedNumbers: fromAI('allowed', 'The numbers you may call') },
				{ allowed: LEAD },
				'A setting of this tool is wrong: "Allowed Numbers" is left to the model ($fromAI), though it is a limit on the model. Set it to the numbers this conversation may reach, such as the trigger\'s field; the model cannot change a fixed setting. [item 0]',
			],
			[
				'Max Calls per Execution',
				{ maxCallsPerExecution: "={{ $fromAi('max', 'How many calls you may place', 'number') }}" },
				{ max: 50 },
				'A setting of this tool is wrong: "Max Calls per Execution" is left to the model ($fromAI), though it is a limit on the model. Type the number in the node; the model cannot change a fixed setting. [item 0]',
			],
		];

		it.each(MODEL_DEFINED)(
			'%s left to the model ($fromAI): refused as a wrong setting, in both paths; nothing is sent',
			async (_limit, parameters, modelArgs, message) => {
				for (const via of ['supplyData', 'engineRequest'] as const) {
					const tool = await runAsTool({
						nodeType: OUTBOUND_CALL,
						nodeTypes: callKaroNodeTypes(),
						parameters: { ...CALL, ...parameters },
						credentials: credentialsFor(sandbox()),
						toolArgs: { phone: LEAD, ...modelArgs },
						via,
					});
					const task = tool.run.task('Tool');
					expect(task.error?.message).toContain(message);
					expect(task.error?.description).toContain('Correct it in the node');
				}
				expect(apiRequests(sandbox())).toEqual([]);
			},
		);

		it('Delete Scheduled Call refuses Allowed Numbers left to the model too', async () => {
			const tool = await runAsTool({
				nodeType: DELETE_SCHEDULED_CALL,
				nodeTypes: callKaroNodeTypes(),
				parameters: { ...CALL, allowedNumbers: fromAI('allowed', 'The numbers') },
				credentials: credentialsFor(sandbox()),
				toolArgs: { phone: LEAD, allowed: LEAD },
			});
			expect(tool.error?.message).toContain('"Allowed Numbers" is left to the model ($fromAI)');
			expect(apiRequests(sandbox())).toEqual([]);
		});

		// n8n's editor shows its "let the model define this" button on a tool's field unless the field
		// is of type options or has noDataExpression (fromAIOverride.utils, 1.123 and 2.41 alike).
		// Max Calls per Execution is a number the builder types; Allowed Numbers keeps expressions,
		// since it usually reads the lead from the trigger, so it keeps the button and the refusal.
		it('Max Calls per Execution offers no expression, so no "let the model define this" button', () => {
			expect(maxCallsPerExecutionProperty.noDataExpression).toBe(true);
			expect(allowedNumbersProperty.noDataExpression).toBeUndefined();
		});

		it('an expression saved in Max Calls per Execution is not evaluated: it is refused, as n8n gives it', async () => {
			const tool = await callAsTool(sandbox(), { maxCallsPerExecution: '={{ 5 }}' }, [LEAD]);
			expect(tool.run.task('Tool').error?.message).toContain(
				'A setting of this tool is wrong: "Max Calls per Execution" must be a whole number of at least 0, but is "{{ 5 }}". Change it in the node. [item 0]',
			);
			expect(apiRequests(sandbox())).toEqual([]);
		});

		it("a model's wrong argument still goes back to the model, as its own to fix", async () => {
			const tool = await callAsTool(
				sandbox(),
				{ allowedNumbers: `${LEAD}; ${OTHER}` },
				['call me tomorrow', LEAD],
				{ via: 'supplyData' },
			);
			const [refused, placed] = firstItems(tool.responses);
			expect(refused.error).toMatch(/^"Phone Number" must be a phone number/);
			expect(placed).toMatchObject({ placed: true, toNumber: LEAD });
		});
	});

	it('the model is told the formats and what each refusal means', async () => {
		const tool = await callAsTool(sandbox(), {}, [LEAD]);
		expect(tool.toolDescription).toBe(outboundToolDescription);
		expect(tool.toolDescription).toContain('+ and its country code, e.g. +919876543210');
	});
});

describe('the AI agent example', () => {
	// A tool's description is saved in the workflow: the example must carry the node's own, which
	// the agent e2e checks the model is given.
	it("gives each tool the node's own description", () => {
		const example = JSON.parse(projectFileText('examples/ai-agent-outbound-call.json')) as {
			nodes: Array<{ type: string; parameters: { toolDescription?: string } }>;
		};
		const described = example.nodes
			.filter((node) => node.parameters.toolDescription !== undefined)
			.map((node) => [node.type, node.parameters.toolDescription]);
		expect(described).toEqual([
			['n8n-nodes-callkaro.callKaroOutboundCallTool', outboundToolDescription],
			['n8n-nodes-callkaro.callKaroDeleteScheduledCallTool', deleteToolDescription],
		]);
	});
});
