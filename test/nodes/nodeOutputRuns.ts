// What the runs of the node-output corpus share (nodeOutputs.cases.ts, recordsCorpus.cases.ts):
// the corpus index, the node under test with its defaults, the mappings, and the clock.
import { Settings } from 'luxon';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ASSIGN_WORKFLOW, DELETE_SCHEDULED_CALL, OUTBOUND_CALL } from '../engine/callKaroNodes';
import { readNodeOutput } from '../fixtures/node-outputs/nodeOutputs.mjs';
import { useSandbox } from './fixtures';
import type { Sandbox, UpstreamNode } from './fixtures';

export interface IndexEntry {
	file: string;
	node: string;
	nodeType: string;
	typeVersion?: number;
	source: { repo: string; path: string; commit: string };
	/** Fields the node gives as JS Date values (database drivers), revived by the loader. */
	jsDates?: string[];
}

export const INDEX = readNodeOutput('index.json') as unknown as IndexEntry[];

/** The records corpus of issue 52, run in recordsCorpus.cases.ts; every other file is run in nodeOutputs.cases.ts. */
export const RECORDS_CORPUS_FILES = [
	'calendly-trigger-invitee-created-guests.json',
	'xero-contact-get.json',
	'erpnext-contact-get.json',
	'telegram-trigger-message-contact.json',
	'shopify-trigger-customer-update.json',
] as const;

/** The corpus entry of a file, and the stand-in of its node for runNode's `upstream`. */
export function sourceOf(file: string): { entry: IndexEntry; upstream: UpstreamNode } {
	const entry = INDEX.find((indexed) => indexed.file === file);
	if (!entry) throw new Error(`${file} is not in index.json`);
	return {
		entry,
		upstream: { name: entry.node, type: entry.nodeType, typeVersion: entry.typeVersion },
	};
}

export const TYPES = {
	assign: ASSIGN_WORKFLOW,
	outbound: OUTBOUND_CALL,
	delete: DELETE_SCHEDULED_CALL,
};
export type NodeKind = keyof typeof TYPES;
export const DEFAULTS: Record<NodeKind, INodeParameters> = {
	assign: { workflowId: 'wf_welcome', schedule: 'now' },
	outbound: { agentId: 'agent_sales_01' },
	delete: { agentId: 'agent_sales_01' },
};

/** Assign with the item as attributes: `record` is the expression, e.g. '$json.fields'. */
export function assignRecord(
	phone: string,
	record: string,
	more: INodeParameters = {},
): INodeParameters {
	return {
		phoneNumber: `={{ ${phone} }}`,
		attributeSource: 'json',
		attributesJson: `={{ ${record} }}`,
		...more,
	};
}

export function outboundRecord(
	phone: string,
	record: string,
	more: IDataObject = {},
): INodeParameters {
	return {
		phoneNumber: `={{ ${phone} }}`,
		additionalFields: { metadataJson: `={{ ${record} }}`, ...more },
	};
}

/** The clock of every run: the items' and payloads' follow-ups and bookings lie ahead of it. */
const NOW = Date.parse('2026-11-25T06:00:00Z');

/** A sandbox for the describe block, with luxon's clock at NOW while it runs. */
export function useNodeOutputSandbox(): () => Sandbox {
	const sandbox = useSandbox({ runDurationMs: 0 });
	const luxonNow = Settings.now;
	beforeAll(() => {
		Settings.now = () => NOW;
	});
	afterAll(() => {
		Settings.now = luxonNow;
	});
	return sandbox;
}
