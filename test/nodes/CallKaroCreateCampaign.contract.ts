// CallKaro Create Campaign's row of the action-node contract (test/nodes/shared/contract.ts): the
// items are told apart by the campaign's name, not a phone number.
import { CREATE_CAMPAIGN } from '../engine/callKaroNodes';
import { vocabulary } from '../../nodes/CallKaroCreateCampaign/createCampaign.operation';
import { HINTS, fromAI } from './fixtures';
import type { ActionNodeRow } from './shared/contract';
import { agentEndpointRefusals, rateLimitedBeyondWait } from './shared/refusals';

export const AGENT = 'agent_sales_01';

let nameCounter = 0;

/** `count` campaign names no other test uses. */
function freshNames(count: number): string[] {
	return Array.from({ length: count }, () => {
		nameCounter += 1;
		return `Campaign ${String(nameCounter).padStart(5, '0')}`;
	});
}

export const createCampaign: ActionNodeRow = {
	displayName: 'CallKaro Create Campaign',
	type: CREATE_CAMPAIGN,
	path: '/call/campaign',
	faultEndpoint: 'campaign',
	vocabulary,
	mainOutputs: 1,
	parameters: (extra = {}) => ({
		name: '={{ $json.name }}',
		campaignType: 'v1',
		agentId: '={{ $json.agentId }}',
		...extra,
	}),
	freshKeys: freshNames,
	requestKey: 'name',
	outputKey: 'name',
	keysArePhones: false,
	item: (name) => ({ name, agentId: AGENT }),
	succeeded: (name, attempts = 1) =>
		expect.objectContaining({
			batchId: expect.any(String),
			status: 'success',
			message: 'Campaign created successfully',
			name,
			campaignType: 'v1',
			attempts,
		}),
	done: (sandbox) => sandbox.state.campaigns.map((campaign) => campaign.name),
	recorded: (sandbox, json) =>
		sandbox.state.campaigns.find((campaign) => campaign.batchId === json.batchId)?.name,
	retriesServerErrors: false,
	requiredField: 'name',
	preview: {
		title: 'the endpoint of the campaign type',
		parameters: { name: '={{ $json.name }}', campaignType: 'v2' },
		items: [{ name: 'Diwali offers' }],
		requests: [{ method: 'POST', path: '/v2/call/campaign', body: { name: 'Diwali offers' } }],
	},
	badInput: [
		[
			'an empty name',
			{},
			{ name: '  ' },
			'"Campaign Name" is empty. Enter a name for the campaign. Its expression {{ $json.name }} gave an empty value for this item: check that the input item has the field it reads. [item 1]',
		],
		[
			'an empty Agent ID (from an expression)',
			{},
			{ agentId: '' },
			'"Agent ID" is empty. Enter the ID of the agent that makes every call of the campaign. Its expression {{ $json.agentId }} gave an empty value for this item: check that the input item has the field it reads. [item 1]',
		],
	],
	apiErrors: [
		...agentEndpointRefusals(),
		rateLimitedBeyondWait(45),
		{
			title: '500, not retried',
			httpCode: '500',
			faults: { sequence: ['ok', '500', 'ok'] },
			message:
				'CallKaro failed (HTTP 500) and the campaign may or may not have been created; it was not retried, to avoid creating it twice: Internal server error',
			kind: 'service-failure',
			serviceMessage: 'Internal server error',
			description: HINTS.outcomeUnknown,
			outcomeUnknown: true,
		},
	],
	tool: {
		parameters: {
			name: fromAI('name', 'The name of the campaign'),
			campaignType: 'v1',
			agentId: AGENT,
		},
		args: (name) => ({ name }),
		schemaKeys: ['name'],
		body: (name) => ({ name, agent_id: AGENT }),
		badInput: [
			{ name: ' ' },
			"\"Campaign Name\" is empty. Enter a name for the campaign. Its expression {{ $fromAI('name', 'The name of the campaign') }} gave an empty value for this item: check that the input item has the field it reads. [item 0]",
		],
	},
};
