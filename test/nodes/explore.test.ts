import { ASSIGN_WORKFLOW } from '../engine/callKaroNodes';
import { runNode, useSandbox, apiRequests, fastBackoff } from './fixtures';

describe('explore', () => {
	const sandbox = useSandbox({ runDurationMs: 0 });
	it('happy', async () => {
		const r = await runNode(sandbox(), { type: ASSIGN_WORKFLOW, parameters: { phoneNumber: '+919876543210', workflowId: 'wf_welcome', attributeSource: 'rows', attributes: { attribute: [{ key: 'First Name', value: 'Ravi', replace: true }, {key: 'City', value: 'Delhi', replace: true}, {key:'Nope', value:'x'}] } } });
		console.log(r.status, JSON.stringify(r.outputOf('CallKaro'), null, 1));
		console.log(JSON.stringify(apiRequests(sandbox()), null, 1));
		const r2 = await runNode(sandbox(), { type: ASSIGN_WORKFLOW, parameters: { phoneNumber: '+919876543210', workflowId: 'wf_welcome' }, settings: { onError: 'continueErrorOutput' } });
		console.log(r2.status, JSON.stringify(r2.outputOf('CallKaro'), null, 1));
	});
	it('errors', async () => {
		fastBackoff();
		sandbox().setFaults({ endpoint: 'assign', rates: { 500: 1 } });
		const r = await runNode(sandbox(), { type: ASSIGN_WORKFLOW, parameters: { phoneNumber: '+919876543210', workflowId: 'wf_welcome' } });
		const e = r.error as any;
		console.log(r.status, e.name, e.message, e.description, e.httpCode, e.context, apiRequests(sandbox()).length);
		sandbox().reset();
		const r2 = await runNode(sandbox(), { type: ASSIGN_WORKFLOW, parameters: { phoneNumber: '+919876543210', workflowId: 'wf_nope' }, items: [{}, {}], settings: { onError: 'continueErrorOutput' } });
		console.log(r2.status, JSON.stringify(r2.outputOf('CallKaro'), null, 1));
		const r3 = await runNode(sandbox(), { type: ASSIGN_WORKFLOW, parameters: { phoneNumber: '+919876543210', workflowId: 'wf_nope' }, items: [{}, {}], settings: { continueOnFail: true } });
		console.log(r3.status, JSON.stringify(r3.outputOf('CallKaro'), null, 1));
	});
});
