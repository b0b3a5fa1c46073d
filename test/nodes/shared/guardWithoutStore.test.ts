// The duplicate-call guard where n8n offers no working store (test/nodes/shared/contract.ts): it
// fails with a clear error and never sends unguarded. This file gives n8n-core no store on purpose.
import { assignWorkflow } from '../CallKaroAssignWorkflow.contract';
import { createCampaign } from '../CallKaroCreateCampaign.contract';
import { deleteScheduledCall } from '../CallKaroDeleteScheduledCall.contract';
import { outboundCall } from '../CallKaroOutboundCall.contract';
import { useSandbox } from '../fixtures';
import { describeGuardWithoutStore } from './contract';

const sandbox = useSandbox({ runDurationMs: 0 });

describeGuardWithoutStore(
	[assignWorkflow, deleteScheduledCall, outboundCall, createCampaign],
	sandbox,
);
