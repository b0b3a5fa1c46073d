// The contract every CallKaro action node keeps, written once and run for each node through n8n's
// real engine against the sandbox (test/nodes/shared/contract.test.ts). A node takes part with one
// row (an ActionNodeRow, next to its tests): how its items look, what CallKaro does for it, and its
// own tables of bad input, refusals and previews. The node's tests (its .cases.ts) keep only what is
// its own.
//
// Each behaviour is one function of (row, sandbox), listed in CONTRACT, in the file of contract/
// named after the shipped file it covers (errors, transport, runItems, schedule, guard). To add one:
// give ActionNodeRow a field with what the behaviour needs from a node (optional when only some
// nodes have it, as `guard`), write its function (doing nothing for rows without the field) and
// add it to CONTRACT.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunVocabulary } from '../../../src/run/runReport';
import type { InMemoryDeduplicator } from '../../engine/deduplication';
import { freshNumbers } from '../fixtures';
import type { FaultInput, ErrorDetails, Sandbox } from '../fixtures';
import { apiErrors, badInput, requiredField } from './contract/errors';
import { guard } from './contract/guard';
import { aiTool, inputOrder, preview } from './contract/runItems';
import { schedule } from './contract/schedule';
import { apiKey, httpsOnly, retries } from './contract/transport';

export { describeGuardWithoutStore } from './contract/guard';
export { runRowAsTool } from './contract/runItems';

/** [what is wrong, node parameters over the row's, fields of the bad (middle) item, the error]. */
export type BadInputCase = [
	what: string,
	parameters: INodeParameters,
	badFields: IDataObject,
	message: string,
];

/** A refusal of CallKaro, over three items at Concurrency 1. */
export interface ApiErrorCase {
	title: string;
	httpCode: string;
	message: string;
	kind: ErrorDetails['kind'];
	serviceMessage: string;
	/** The hint under the message: the NodeApiError description and details.description. */
	description: string;
	/** CallKaro may have acted although the item failed. */
	outcomeUnknown?: boolean;
	/** The item CallKaro refuses (default 1), unless every item fails. */
	failingItem?: number;
	/** Fields of the failing item that CallKaro refuses, given the sandbox. */
	refused?: (sandbox: Sandbox) => IDataObject | Promise<IDataObject>;
	apiKey?: string;
	/** On the row's endpoint: the items before the failing one ok, then its attempts, then the rest. */
	faults?: Omit<FaultInput, 'endpoint'>;
	/** Requests sent for the failing item (default 1). */
	attempts?: number;
	/** Every item fails (a key or a rate that hits every request), not only one. */
	allFail?: boolean;
}

/** Options → Preview Only (Send Nothing): an example of what the node would send. */
export interface PreviewCase {
	/** What the example shows, e.g. 'the normalised number and the IST schedule_at'. */
	title: string;
	parameters: INodeParameters;
	items: IDataObject[];
	/** The request each item previews. */
	requests: IDataObject[];
}

/** The duplicate-call guard ("Skip Numbers Called Before"), on the nodes that offer it. */
export interface GuardRow {
	displayName: string;
	/** What the node does to a number, as the guard's messages say it: 'called'. */
	verb: string;
	/** The json of the item of `key` when the guard skips it (before n8n's `guard` field). */
	skipped(key: string): IDataObject;
	/** The main output skipped items go to. */
	skippedOutput: number;
	/** Fields of an item that reaches the same number through another agent or workflow. */
	otherTarget: IDataObject;
	/** Lets CallKaro take the same number again (Assign: the runs finish), so that only the guard skips it. */
	reopen?(sandbox: Sandbox): void;
}

/** Schedule Time, on the nodes that take one: any n8n date, sent to CallKaro as IST. */
export interface ScheduleRow {
	/** Parameters (over the row's) scheduling each item at `at`, read in the Time Zone option `timeZone`. */
	parameters(at: string, timeZone?: string): INodeParameters;
	/** What CallKaro holds for the key: its status, when it is due, and schedule_at as received. */
	held(
		sandbox: Sandbox,
		key: string,
	): { status: string; scheduledFor: string | null; scheduleAt: unknown } | undefined;
	/** CallKaro's status of what it starts now, as it does for a time in the past. */
	startedNowStatus: string;
	/** Fields of the json of a scheduled item, and of one whose time is past, beside the schedule's. */
	scheduledJson: IDataObject;
	pastJson: IDataObject;
}

/** What the contract needs to know of one action node. */
export interface ActionNodeRow {
	displayName: string;
	type: string;
	/** The API path the node posts to, and its endpoint in the sandbox's faults. */
	path: string;
	faultEndpoint: FaultInput['endpoint'];
	/** Main outputs before the error output. */
	mainOutputs: number;
	/** How the node's run report names what it did (its operation file's `vocabulary`). */
	vocabulary: RunVocabulary;
	/** The node's parameters reading each item's fields, with `extra` over them. */
	parameters(extra?: INodeParameters): INodeParameters;
	/**
	 * What tells the items apart, in the request body (`requestKey`) and the output (`outputKey`):
	 * phone numbers, or campaign names. Fresh keys sort in the order they were made.
	 */
	freshKeys(count: number): string[];
	requestKey: string;
	outputKey: string;
	/** The keys are phone numbers, never shown in full. */
	keysArePhones: boolean;
	/** A good input item. */
	item(key: string): IDataObject;
	/** What CallKaro must hold before the node runs (e.g. a scheduled call to delete). */
	arrange?(sandbox: Sandbox, keys: string[]): Promise<void>;
	/** The json of a succeeded item (a value or a matcher for toEqual). */
	succeeded(key: string, attempts?: number): unknown;
	/** The keys CallKaro acted for (runs started, calls placed or deleted, campaigns), in order. */
	done(sandbox: Sandbox): string[];
	/** The key CallKaro recorded under the ID a succeeded item reports (callId, runId...). */
	recorded?(sandbox: Sandbox, json: IDataObject): string | undefined;
	/** A 5xx is retried (nothing the node sends takes effect twice), or never (it could). */
	retriesServerErrors: boolean;
	/** A parameter the node requires (n8n refuses to start the workflow without it). */
	requiredField: string;
	/** Every action node has Preview Only. */
	preview: PreviewCase;
	schedule?: ScheduleRow;
	/** Only on nodes with a schedule: the guard pairs a number with a time window. */
	guard?: GuardRow;
	badInput: BadInputCase[];
	apiErrors: ApiErrorCase[];
	tool: {
		/** Parameters with `$fromAI` for the key (see fromAI). */
		parameters: INodeParameters;
		args(key: string): IDataObject;
		schemaKeys: string[];
		/** The request body CallKaro receives. */
		body(key: string): IDataObject;
		/** [arguments the model gives, the error it reads back]. */
		badInput: [IDataObject, string];
	};
}

/** The keys of the rows whose items are phone numbers. */
export const PHONE_NUMBER_KEYS = {
	freshKeys: freshNumbers,
	requestKey: 'to_number',
	outputKey: 'toNumber',
	keysArePhones: true,
} satisfies Partial<ActionNodeRow>;

export type SandboxOf = () => Sandbox;
export type StoreOf = () => InMemoryDeduplicator;

/** The behaviours every action node has, in the order they are reported. */
const CONTRACT: Array<(row: ActionNodeRow, sandbox: SandboxOf, store: StoreOf) => void> = [
	badInput,
	requiredField,
	apiErrors,
	httpsOnly,
	retries,
	inputOrder,
	aiTool,
	preview,
	schedule,
	guard,
	apiKey,
];

/** Runs the whole contract for each row, against one sandbox and n8n's processed-data store. */
export function describeActionNodeContract(
	rows: ActionNodeRow[],
	sandbox: SandboxOf,
	store: StoreOf,
): void {
	describe.each(rows)('$displayName', (row) => {
		for (const behaviour of CONTRACT) behaviour(row, sandbox, store);
	});
}
