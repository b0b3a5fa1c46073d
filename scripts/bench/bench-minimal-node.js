// The bench's baseline node, dev-only, never shipped (run.mjs copies it into n8n's custom-extensions
// folder): the least a node can do to enrol numbers through the same helper, credential (read once
// per run) and Concurrency scheme (C workers, each taking the next item) as Assign Workflow. No
// checks, retries or pacing: ours over this is what the package itself costs per item.
'use strict';

class BenchMinimalNode {
	description = {
		displayName: 'Bench Minimal Node',
		name: 'benchMinimalNode',
		group: ['transform'],
		version: 1,
		description: 'Benchmark baseline: POST /workflow/assign per item',
		defaults: { name: 'Bench Minimal Node' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'callKaroApi', required: true }],
		properties: [
			{ displayName: 'Phone Number', name: 'phoneNumber', type: 'string', default: '' },
			{ displayName: 'Workflow ID', name: 'workflowId', type: 'string', default: '' },
			{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 20 },
		],
	};

	async execute() {
		const itemCount = this.getInputData().length;
		const data = await this.getCredentials('callKaroApi');
		const { id, name } = this.getNode().credentials.callKaroApi;
		const credentialsDecrypted = { id, name, type: 'callKaroApi', data };
		const out = new Array(itemCount);
		let next = 0;
		const worker = async () => {
			while (next < itemCount) {
				const i = next++;
				const body = {
					to_number: this.getNodeParameter('phoneNumber', i),
					workflow_id: this.getNodeParameter('workflowId', i),
				};
				const options = {
					method: 'POST',
					url: `${data.baseUrl}/workflow/assign`,
					body,
					json: true,
				};
				const json = await this.helpers.httpRequestWithAuthentication.call(
					this,
					'callKaroApi',
					options,
					{ credentialsDecrypted },
				);
				out[i] = { json, pairedItem: { item: i } };
			}
		};
		const concurrency = this.getNodeParameter('concurrency', 0);
		await Promise.all(Array.from({ length: Math.min(concurrency, itemCount) }, worker));
		return [out];
	}
}

module.exports = { BenchMinimalNode };
