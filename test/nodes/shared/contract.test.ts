// The contract of every CallKaro action node (test/nodes/shared/contract.ts), one row a node.
import { assignWorkflow } from '../CallKaroAssignWorkflow.contract';
import { createCampaign } from '../CallKaroCreateCampaign.contract';
import { deleteScheduledCall } from '../CallKaroDeleteScheduledCall.contract';
import { outboundCall } from '../CallKaroOutboundCall.contract';
import { useDeduplicationStore } from '../../engine/deduplication';
import { useSandbox } from '../fixtures';
import { describeActionNodeContract } from './contract';

// Assign Workflow's runs never finish on their own, so each number is assigned once.
const sandbox = useSandbox({ runDurationMs: 0 });
// The duplicate-call guard keeps what it saw in n8n's processed-data store.
const store = useDeduplicationStore();

describeActionNodeContract(
	[assignWorkflow, deleteScheduledCall, outboundCall, createCampaign],
	sandbox,
	store,
);
