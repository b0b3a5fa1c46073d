// Our real node classes for engine tests, keyed by the type name a workflow uses. Kept apart from
// harness.ts so the harness's own tests do not depend on the nodes compiling.
import type { INodeType } from 'n8n-workflow';

import { CallKaroAssignWorkflow } from '../../nodes/CallKaroAssignWorkflow/CallKaroAssignWorkflow.node';
import { CallKaroCreateCampaign } from '../../nodes/CallKaroCreateCampaign/CallKaroCreateCampaign.node';
import { CallKaroDeleteScheduledCall } from '../../nodes/CallKaroDeleteScheduledCall/CallKaroDeleteScheduledCall.node';
import { CallKaroOutboundCall } from '../../nodes/CallKaroOutboundCall/CallKaroOutboundCall.node';
import type { NodeTypeMap } from './harness';

export const PACKAGE_NAME = 'n8n-nodes-callkaro';
export const ASSIGN_WORKFLOW = `${PACKAGE_NAME}.callKaroAssignWorkflow`;
export const DELETE_SCHEDULED_CALL = `${PACKAGE_NAME}.callKaroDeleteScheduledCall`;
export const OUTBOUND_CALL = `${PACKAGE_NAME}.callKaroOutboundCall`;
export const CREATE_CAMPAIGN = `${PACKAGE_NAME}.callKaroCreateCampaign`;

/**
 * Fresh instances of our action nodes keyed by `n8n-nodes-callkaro.<name>`. Like n8n's loader, the
 * description name is prefixed with the package name (so the tool variant is `<type>Tool`).
 */
export function callKaroNodeTypes(): NodeTypeMap {
	const nodes: INodeType[] = [
		new CallKaroAssignWorkflow(),
		new CallKaroDeleteScheduledCall(),
		new CallKaroOutboundCall(),
		new CallKaroCreateCampaign(),
	];
	return Object.fromEntries(
		nodes.map((nodeType) => {
			nodeType.description.name = `${PACKAGE_NAME}.${nodeType.description.name}`;
			return [nodeType.description.name, nodeType];
		}),
	);
}
