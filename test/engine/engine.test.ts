// The engine harness itself (harness.ts over n8n-core's WorkflowExecute, and the in-memory store
// of processed items in deduplication.ts): one topic a `.cases.ts` file beside this one, run as
// one jest file so that n8n's engine loads once for them (test/nodes/nodes.test.ts says why).
// One topic:  npx jest test/engine -t 'in-memory processed-data store'
import './harness.cases';
import './deduplication.cases';
