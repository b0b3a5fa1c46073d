import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { expressionInside } from '../../src/input/inputError';
import { DATE_COLUMN_NOTE } from '../../src/schedule/schedule';
import type { DateColumn, IstSchedule } from '../../src/schedule/schedule';
import { passesItemsThrough, sourceNodeRules } from '../../src/records/sourceNodes';
import type { SourceNodeRules } from '../../src/records/sourceNodes';
import { hintScheduleZone } from './schedule';

/** The node whose items this node reads, and what the package knows of how it shapes them. */
export interface SourceNode {
	/** Its name in the workflow. */
	name: string;
	/** Its node version (typeVersion): what a node gives may change with it. */
	version: number;
	rules: SourceNodeRules;
}

// If → Filter → Switch → … chains longer than this are not followed.
const MAX_PASS_THROUGH_HOPS = 5;
const sourceByRun = new WeakMap<IExecuteFunctions, SourceNode | null>();

/** The type and version of `name` among the ancestors of the node running, or undefined. */
function typeOf(
	context: IExecuteFunctions,
	name: string,
): { type: string; typeVersion: number } | undefined {
	return context.getParentNodes(context.getNode().name).find((parent) => parent.name === name);
}

/**
 * The node before `name`. n8n lists ancestors farthest first and the direct parent last; n8n
 * before 1.1xx ignores depth and lists them all, so the last is taken either way.
 */
function parentOf(context: IExecuteFunctions, name: string): string | undefined {
	const parents = context.getParentNodes(name, { depth: 1 });
	return parents[parents.length - 1]?.name;
}

function findSourceNode(context: IExecuteFunctions): SourceNode | null {
	let name: string | undefined;
	try {
		name = context.getInputSourceData(0)?.previousNode;
	} catch {
		// A tool run of an AI agent, or a node without input: no node gave the items.
		return null;
	}
	for (let hop = 0; name !== undefined && hop <= MAX_PASS_THROUGH_HOPS; hop++) {
		const node = typeOf(context, name);
		if (node === undefined) return null;
		const rules = sourceNodeRules(node.type);
		if (rules) return { name, version: node.typeVersion, rules };
		if (!passesItemsThrough(node.type)) return null;
		name = parentOf(context, name);
	}
	return null;
}

/**
 * The node that gave this node's input items, when the package knows its shape (see
 * src/records/sourceNodes.ts): the node connected to the input, or the first before it that is not a
 * node passing items through unchanged (If, Filter, Switch…). Looked up once per run.
 */
export function sourceNodeOf(context: IExecuteFunctions): SourceNode | undefined {
	if (!sourceByRun.has(context)) sourceByRun.set(context, findSourceNode(context));
	return sourceByRun.get(context) ?? undefined;
}

function isDate(value: unknown): value is Date {
	return Object.prototype.toString.call(value) === '[object Date]';
}

/**
 * The keys under which the item holds `wanted` (searched a few levels deep; a Date by its
 * instant), or undefined when it is none of the item's own values.
 */
function pathInItem(value: unknown, wanted: unknown, depth = 3): string[] | undefined {
	if (value === wanted) return [];
	if (isDate(value) && isDate(wanted) && value.getTime() === wanted.getTime()) return [];
	if (depth === 0 || typeof value !== 'object' || value === null || isDate(value)) return undefined;
	for (const [key, inner] of Object.entries(value)) {
		const path = pathInItem(inner, wanted, depth - 1);
		if (path !== undefined) return [key, ...path];
	}
	return undefined;
}

/** The item's value at `path` as an n8n expression: $json.follow_up_on, $json["Follow Up"]. */
function jsonExpression(path: string[]): string {
	const keys = path.map((key) =>
		/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`,
	);
	return `$json${keys.join('')}`;
}

/**
 * The expression a field holds as the builder wrote it (`={{ $json.payload }}` gives
 * `$json.payload`), found by its parameter path, so that a fix can extend it; undefined for a
 * fixed value or text around an expression.
 */
export function fieldExpression(context: IExecuteFunctions, path: string[]): string | undefined {
	const written = path.reduce<unknown>(
		(holder, name) =>
			typeof holder === 'object' && holder !== null ? (holder as IDataObject)[name] : undefined,
		context.getNode().parameters,
	);
	return expressionInside(written);
}

/** The zone a schedule time is read in when the source node's times have no offset. */
export interface SourceZone {
	zone: string;
	assumed: string;
}

/**
 * The zone of the source node's times (Odoo's are UTC), for a Schedule Time that is one of the
 * item's own values; a time typed in the node or built by an expression is not the source's.
 */
export function sourceZoneOf(
	context: IExecuteFunctions,
	itemIndex: number,
	scheduleTime: unknown,
	timeZoneOption: string | undefined,
): SourceZone | undefined {
	// Options → Time Zone, when set, wins over the zone of the node the item came from.
	if (timeZoneOption?.trim()) return undefined;
	const rules = sourceNodeOf(context)?.rules;
	const zone = rules?.timesWithoutOffsetIn;
	if (zone === undefined || typeof scheduleTime !== 'string') return undefined;
	if (pathInItem(context.getInputData()[itemIndex]?.json, scheduleTime) === undefined) {
		return undefined;
	}
	return {
		zone,
		assumed: `Schedule Time: a time without an offset is ${zone}, as ${rules?.displayName} gives it`,
	};
}

/**
 * The Schedule Time as a database's DATE column, when the source node's driver gives one as an
 * instant at midnight and the value is one of the item's own: a time typed in the node or built
 * by an expression is no column of it.
 */
export function sourceDateColumnOf(
	context: IExecuteFunctions,
	itemIndex: number,
	scheduleTime: unknown,
): DateColumn | undefined {
	const source = sourceNodeOf(context);
	const dates = source?.rules.dateColumnsAtMidnight;
	if (source === undefined || dates === undefined) return undefined;
	if (dates.beforeVersion !== undefined && source.version >= dates.beforeVersion) return undefined;
	const path = pathInItem(context.getInputData()[itemIndex]?.json, scheduleTime);
	if (path === undefined || path.length === 0) return undefined;
	return {
		// The driver built its Date on the process's clock: the zone Intl resolves by default.
		...(dates.clock === 'UTC'
			? { zone: 'UTC' }
			: { zone: new Intl.DateTimeFormat().resolvedOptions().timeZone, serverZone: true }),
		source: source.rules.displayName,
		expression: jsonExpression(path),
	};
}

// The runs a hint was given for, so that it is said once.
const hintedRuns = new WeakSet<IExecuteFunctions>();

/**
 * `readAs` in the output when something was assumed from the source node, and a hint under the
 * output, once per run, saying what.
 */
function readAsOutput(context: IExecuteFunctions, assumed: string[]): IDataObject {
	const source = sourceNodeOf(context);
	if (source === undefined || assumed.length === 0) return {};
	if (!hintedRuns.has(context)) {
		hintedRuns.add(context);
		context.addExecutionHints({
			type: 'info',
			location: 'outputPane',
			message: `Items were read as ${source.rules.displayName} gives them (node "${source.name}"): ${assumed.join('; ')}. readAs says so per item.`,
		});
	}
	return { readAs: { node: source.name, nodeType: source.rules.displayName, assumed } };
}

/**
 * What the item was read as, for its output: `readAs` with what was assumed from the source node
 * (its record, its zone), and the hints of the run. A zone taken from the source node is said in
 * readAs, not in the "not India time" hint, which names Options → Time Zone.
 */
export function readingOutput(
	context: IExecuteFunctions,
	prepared: { assumed: string[]; schedule?: IstSchedule },
	sourceZone: SourceZone | undefined,
): IDataObject {
	if (!sourceZone) hintScheduleZone(context, prepared.schedule);
	const zoneAssumed = sourceZone && prepared.schedule?.wallClockZone ? [sourceZone.assumed] : [];
	const note = prepared.schedule?.note;
	const dateAssumed = note?.startsWith(DATE_COLUMN_NOTE)
		? [`Schedule Time: ${note.split(';')[0]}`]
		: [];
	return readAsOutput(context, [...prepared.assumed, ...zoneAssumed, ...dateAssumed]);
}
