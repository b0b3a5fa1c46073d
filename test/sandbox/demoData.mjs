// @ts-check
/**
 * The built-in demo data set, used when the sandbox starts without --data / options.data.
 * The keys are sandbox-only and unlock nothing outside this sandbox.
 */

export const DEMO_API_KEY = 'ck_demo_key_0123456789';
export const OTHER_API_KEY = 'ck_other_key_9876543210';

/** @type {import('./data.mjs').DataFile} */
export const DEMO_DATA = Object.freeze({
	accounts: [
		{
			apiKey: DEMO_API_KEY,
			attributes: [
				{ name: 'First Name', type: 'text' },
				{ name: 'City', type: 'text' },
				{ name: 'Lead Score', type: 'number' },
				{ name: 'Visit Date', type: 'date' },
				{ name: 'Plan', type: 'enum', options: ['Basic', 'Pro', 'Enterprise'] },
				{ name: 'Opted In', type: 'boolean' },
			],
			workflows: [
				{ id: 'wf_welcome', steps: 3, available: true },
				{ id: 'wf_followup', steps: 2, available: true },
				{ id: 'wf_empty', steps: 0, available: true },
				{ id: 'wf_legacy', steps: 2, available: false },
			],
			agents: [{ id: 'agent_sales_01' }, { id: 'agent_support_02' }],
			contacts: [
				{
					number: '919876543210',
					values: { 'First Name': 'Asha', City: 'Pune' },
					manual: ['City'],
				},
			],
		},
		{
			apiKey: OTHER_API_KEY,
			attributes: [],
			workflows: [{ id: 'wf_other', steps: 1, available: true }],
			agents: [{ id: 'agent_other_01' }],
			contacts: [],
		},
	],
});

/**
 * A fresh, mutable deep copy of the demo data set (tests may edit it and pass it to load()).
 * @returns {import('./data.mjs').DataFile}
 */
export function demoData() {
	return JSON.parse(JSON.stringify(DEMO_DATA));
}
