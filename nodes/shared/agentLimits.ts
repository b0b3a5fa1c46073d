import type { IExecuteFunctions, INodeProperties, NodeExecutionHint } from 'n8n-workflow';

import { AgentBudgets } from '../../src/agent/agentBudget';
import type { BudgetClaim } from '../../src/agent/agentBudget';
import { invalidInput } from '../../src/input/inputError';
import { maskPhoneNumber, normalizePhoneNumber } from '../../src/phone/phoneNumber';
import type { DefaultCountryCode, PhoneNumber } from '../../src/phone/phoneNumber';
import { keyList } from '../../src/records/recordValues';
import type { DuplicateGuardWording } from './descriptions';
import { readyItems } from './runState';
import type { ItemResult, PreparedItem, Reservation, RunState } from './runState';
import { runsAsTool } from './toolMode';

/**
 * Limits an AI agent cannot change: node parameters of the tool, shown only when the node is used
 * as a tool, never `$fromAI()` arguments. Each tool call is its own run of the node, so what one
 * execution has done is kept per execution (src/agent/agentBudget.ts).
 */

const ALLOWED_NUMBERS = 'Allowed Numbers';
const MAX_CALLS = 'Max Calls per Execution';
const DEFAULT_MAX_CALLS = 3;
const inToolMode = { show: { '@tool': [true] } };

export const allowedNumbersProperty: INodeProperties = {
	displayName: ALLOWED_NUMBERS,
	name: 'allowedNumbers',
	type: 'string',
	default: '',
	placeholder: "e.g. {{ $('Webhook').item.json.body.phone }}",
	displayOptions: inToolMode,
	description:
		'The only numbers the agent may use with this tool: one number or a comma-separated list, usually the lead from the trigger. Any other number is refused, and the agent is told so. Empty: any number (the node then adds a warning).',
};

export const maxCallsPerExecutionProperty: INodeProperties = {
	displayName: MAX_CALLS,
	name: 'maxCallsPerExecution',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: DEFAULT_MAX_CALLS,
	displayOptions: inToolMode,
	description:
		'How many numbers the agent may reach with this tool in one execution (0: no limit). The same number twice in one execution is reached once.',
};

/** Whether the builder set Allowed Numbers (as written, before any expression is evaluated). */
function hasAllowedNumbers(context: IExecuteFunctions): boolean {
	const given = context.getNode().parameters.allowedNumbers;
	return typeof given === 'string' && given.trim() !== '';
}

/** The tool's Allowed Numbers as numbers, or undefined when the builder set none. */
function allowedNumbers(
	context: IExecuteFunctions,
	itemIndex: number,
	defaultCountryCode: DefaultCountryCode,
): Set<string> | undefined {
	if (!hasAllowedNumbers(context)) return undefined;
	// Set, but empty for this execution (the trigger had no number): nothing may be called.
	const listed = keyList(context.getNodeParameter('allowedNumbers', itemIndex, ''));
	return new Set(
		listed.map(
			(number) => normalizePhoneNumber(number, { defaultCountryCode, field: ALLOWED_NUMBERS }).e164,
		),
	);
}

/** Refuses a number outside the tool's Allowed Numbers, before anything is sent. */
export function checkAllowedNumber(
	context: IExecuteFunctions,
	itemIndex: number,
	phone: PhoneNumber,
	defaultCountryCode: DefaultCountryCode,
): void {
	if (!runsAsTool(context)) return;
	const allowed = allowedNumbers(context, itemIndex, defaultCountryCode);
	if (allowed === undefined || allowed.has(phone.e164)) return;
	throw invalidInput(
		'Phone Number',
		`is not one of this tool's ${ALLOWED_NUMBERS}: "${phone.masked}"`,
		'This number may not be called. Use only the number you were given, or tell the person that you cannot call it; nothing was sent',
	);
}

/** The builder's warning when a tool may call any number the agent reads or invents. */
export function agentLimitHints(context: IExecuteFunctions, asTool: boolean): NodeExecutionHint[] {
	if (!asTool || hasAllowedNumbers(context)) return [];
	return [
		{
			type: 'warning',
			location: 'outputPane',
			message: `This node runs as an AI agent tool without ${ALLOWED_NUMBERS}: the agent may call any number it reads or invents. Set ${ALLOWED_NUMBERS} to the numbers this conversation may reach, such as the lead from the trigger.`,
		},
	];
}

const budgets = new AgentBudgets();

export interface AgentBudget {
	/** The execution and the tool whose spend is counted. */
	scope: string;
	maxCalls: number;
	wording: DuplicateGuardWording;
}

/** The tool's budget in this execution, when the node runs as a tool and reaches people. */
export function agentBudgetOf(
	context: IExecuteFunctions,
	wording: DuplicateGuardWording | undefined,
	asTool: boolean,
): AgentBudget | undefined {
	if (!asTool || wording === undefined) return undefined;
	const maxCalls = Number(context.getNodeParameter('maxCallsPerExecution', 0, DEFAULT_MAX_CALLS));
	return {
		scope: `${context.getExecutionId()}|${context.getNode().name}`,
		maxCalls: Number.isFinite(maxCalls) && maxCalls > 0 ? Math.floor(maxCalls) : 0,
		wording,
	};
}

function refusedResult(skipped: ItemResult, status: string, message: string): ItemResult {
	return { ...skipped, json: { ...skipped.json, status, message }, outcome: `skipped: ${status}` };
}

/**
 * Takes a slot in the execution's budget for each item ready to send; a number reached earlier
 * in the execution, or one past Max Calls per Execution, is answered as not sent.
 */
function claimAgentBudget(
	state: RunState,
	ready: Array<[number, PreparedItem]>,
	budget: AgentBudget,
): Map<number, BudgetClaim> {
	const claims = new Map<number, BudgetClaim>();
	const { wording } = budget;
	for (const [itemIndex, item] of ready) {
		if (!item.guarded || state.repeatOf.has(itemIndex)) continue;
		const { subject, skipped } = item.guarded;
		const claim = budgets.claim(
			budget.scope,
			`${subject.target}|${subject.toNumber}`,
			budget.maxCalls,
		);
		if (typeof claim !== 'string') {
			claims.set(itemIndex, claim);
			continue;
		}
		const masked = maskPhoneNumber(subject.toNumber);
		const message =
			claim === 'duplicate'
				? `Not ${wording.verb}: this tool has already ${wording.verb} ${masked} with ${wording.pairedWith} in this execution, and reaches a number once`
				: `Not ${wording.verb}: this tool has ${wording.verb} ${budget.maxCalls} numbers in this execution, its ${MAX_CALLS}; no more are ${wording.verb} in this conversation`;
		state.outcomes.set(itemIndex, { result: refusedResult(skipped, claim, message) });
	}
	return claims;
}

/** Gives back the slots of items that reached no one: refused, previewed, or certainly not sent. */
function releaseAgentBudget(state: RunState, claims: Map<number, BudgetClaim>): void {
	for (const [itemIndex, claim] of claims) {
		const outcome = state.outcomes.get(itemIndex);
		const reachedNoOne =
			!outcome || ('failed' in outcome ? !outcome.mayHaveTakenEffect : !outcome.result.tookEffect);
		if (reachedNoOne) claim.release();
	}
}

/** The tool's budget as one of the run's reservations: claimed before sending, released after. */
export function agentBudgetReservation(budget: AgentBudget): Reservation {
	let claims = new Map<number, BudgetClaim>();
	return {
		claim: async (state) => {
			claims = claimAgentBudget(state, readyItems(state), budget);
		},
		release: async (state) => releaseAgentBudget(state, claims),
	};
}
