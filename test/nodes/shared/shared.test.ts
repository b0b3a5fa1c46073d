// What the nodes share (nodes/shared/), in n8n's real engine against the sandbox and phase by
// phase: one topic a `.cases.ts` file beside this one, run as one jest file so that n8n loads once
// (test/nodes/nodes.test.ts says why). The action-node contract (contract.test.ts, which keeps a
// core busy alone), the guard without a store (guardWithoutStore.test.ts, a module registry of its
// own) and the guard's simulation are jest files of their own.
// One topic:  npx jest test/nodes/shared/shared.test.ts -t 'cancelling a bulk run'
import './executeForEachItem.cases';
import './runItems.cases';
import './agentLimits.cases';
import './sourceNode.cases';
import './dateColumns.cases';
import './runPhases.cases';
import './guardDayZone.cases';
