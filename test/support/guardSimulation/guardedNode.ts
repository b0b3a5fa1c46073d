// The node and settings the simulated processes run the guard with (guard.simulation and
// guard.exhaustive): Skip Numbers Called Before, its history kept for ever.
import type { INode } from 'n8n-workflow';

export const GUARDED_NODE = {
	id: 'node-1',
	name: 'CallKaro Outbound Call',
	type: 'test',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;

export const GUARD_SETTINGS = {
	window: { kind: 'ever' as const },
	historySize: 1000,
	historyName: '',
	inEditorRuns: false,
};

export const GUARD_NAMING = { displayName: 'Skip Numbers Called Before', verb: 'called' };
