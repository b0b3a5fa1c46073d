import type { IExecuteFunctions, INodeProperties, NodeExecutionHint } from 'n8n-workflow';

import { AgentBudgets } from '../../src/agent/agentBudget';
import type { BudgetClaim } from '../../src/agent/agentBudget';
import { ALLOWED_NUMBERS, checkAllowed, readAllowedNumbers } from '../../src/agent/allowedNumbers';
import { refuseModelDefinedLimit } from '../../src/agent/builderLimits';
import { alreadyReachedText, limitReachedText } from '../../src/agent/toolAnswers';
import { countSetting } from '../../src/input/input';
import {
	defaultCountryCodeOf,
	maskPhoneNumber,
	readingContextOf,
} from '../../src/phone/phoneNumber';
import type { DefaultCountryCode, PhoneNumber } from '../../src/phone/phoneNumber';
import { knownZone } from '../../src/schedule/schedule';
import { docsLink } from './descriptions';
import type { DuplicateGuardWording } from './descriptions';
import { readyItems } from './runState';
import type { ItemResult, PreparedItem, Reservation, RunState } from './runState';
import { callingHoursFrom, nodeTimeZone } from './schedule';
import type { CallingHoursOptionValue } from './schedule';
import { runsAsTool } from './toolMode';

/**
 * Limits an AI agent cannot change: node parameters of the tool, shown only when the node is used
 * as a tool, never `$fromAI()` arguments. Each tool call is its own run of the node, so what one
 * execution has done is kept per execution (src/agent/agentBudget.ts).
 */

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
	description: `The numbers this tool may use, e.g. the trigger's lead (${docsLink('ai-agents', 'limits', 'the-limits')})`,
};

export const maxCallsPerExecutionProperty: INodeProperties = {
	displayName: MAX_CALLS,
	name: 'maxCallsPerExecution',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: DEFAULT_MAX_CALLS,
	// The limit is the builder's: no expression, so n8n's editor offers no "let the model define this"
	// button (it hides it for noDataExpression); a saved $fromAI() is refused (refuseModelDefinedLimits).
	noDataExpression: true,
	displayOptions: inToolMode,
	description: `Numbers this tool may reach per execution, 0 for no limit (${docsLink('ai-agents', 'limits', 'the-limits')})`,
};

/**
 * Refuses Allowed Numbers or Max Calls per Execution left to the model, as written (a `$fromAI()`
 * would be filled with the model's own argument): before anything is read or sent.
 */
function refuseModelDefinedLimits(context: IExecuteFunctions): void {
	const { parameters } = context.getNode();
	refuseModelDefinedLimit(
		parameters.allowedNumbers,
		ALLOWED_NUMBERS,
		"Set it to the numbers this conversation may reach, such as the trigger's field",
	);
	refuseModelDefinedLimit(
		parameters.maxCallsPerExecution,
		MAX_CALLS,
		'Type the number in the node',
	);
}

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
	return readAllowedNumbers(
		context.getNodeParameter('allowedNumbers', itemIndex, ''),
		defaultCountryCode,
	);
}

/** The options several tools share that say how an item is read, as n8n gives them. */
interface ToolOptions {
	defaultCountryCode?: unknown;
	timeZone?: unknown;
	callingHours?: CallingHoursOptionValue;
}

/**
 * Reads every setting of a tool that an item's reading may use, before the item's own values (the
 * model's arguments): a wrong one fails here even where this item would not need it, so that it
 * is told to the builder (readingSettings) and never passed to the model as the model's mistake.
 */
export function checkToolSettings(context: IExecuteFunctions, itemIndex: number): void {
	const options = context.getNodeParameter('options', itemIndex, {}) as ToolOptions;
	const defaultCountryCode = defaultCountryCodeOf(options);
	readingContextOf(defaultCountryCode);
	// Outbound Call's Time Zone had its place under Additional Fields before.
	const oldPlaceTimeZone: unknown = context.getNodeParameter(
		'additionalFields.timeZone',
		itemIndex,
		'',
	);
	for (const zone of [options.timeZone, oldPlaceTimeZone]) {
		if (zone !== undefined && String(zone).trim() !== '') knownZone(String(zone));
	}
	callingHoursFrom(options.callingHours, nodeTimeZone(context, itemIndex));
	allowedNumbers(context, itemIndex, defaultCountryCode);
}

// The node runs whose Allowed Numbers held no number, so that the builder is warned once a run.
const warnedOfEmptyList = new WeakSet<IExecuteFunctions>();

/** The builder's warning when Allowed Numbers is set but its expression gave no number. */
function warnOfEmptyList(context: IExecuteFunctions): void {
	if (warnedOfEmptyList.has(context)) return;
	warnedOfEmptyList.add(context);
	context.addExecutionHints({
		type: 'warning',
		location: 'outputPane',
		message: `${ALLOWED_NUMBERS} gave no number in this execution, so this tool refused every number the agent asked for. If the conversation should reach someone, check that the expression in ${ALLOWED_NUMBERS} reads the number (e.g. the trigger's field).`,
	});
}

/**
 * Refuses a number outside the tool's Allowed Numbers, before anything is sent. `verb` is what
 * the tool does to a number, as its answer to the model says it: 'call', 'cancel calls to'.
 */
export function checkAllowedNumber(
	context: IExecuteFunctions,
	itemIndex: number,
	phone: PhoneNumber,
	defaultCountryCode: DefaultCountryCode,
	verb: string,
): void {
	if (!runsAsTool(context)) return;
	const allowed = allowedNumbers(context, itemIndex, defaultCountryCode);
	if (allowed === undefined) return;
	if (allowed.size === 0) warnOfEmptyList(context);
	checkAllowed(allowed, phone, verb);
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

/**
 * The tool's budget in this execution, when the node runs as a tool and reaches people. Read
 * before any item, so a limit left to the model fails the whole run first, as a wrong setting.
 */
export function agentBudgetOf(
	context: IExecuteFunctions,
	wording: DuplicateGuardWording | undefined,
	asTool: boolean,
): AgentBudget | undefined {
	if (!asTool) return undefined;
	refuseModelDefinedLimits(context);
	if (wording === undefined) return undefined;
	return {
		scope: `${context.getExecutionId()}|${context.getNode().name}`,
		maxCalls: countSetting(
			context.getNodeParameter('maxCallsPerExecution', 0, DEFAULT_MAX_CALLS),
			MAX_CALLS,
			0,
		),
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
		const message =
			claim === 'duplicate'
				? alreadyReachedText(wording.verb, maskPhoneNumber(subject.toNumber), wording.pairedWith)
				: limitReachedText(wording.verb, budget.maxCalls, MAX_CALLS);
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
