import type {
	IHookFunctions,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { MAKE_A_SECRET } from '../../src/trigger/sharedSecret';
import { docsLink } from '../shared/descriptions';
import { handleCallEndedWebhook } from './callEnded.webhook';
import { secretSetting, testSecretCredential } from './sharedSecret';

const NO_SECRET: INodePropertyOptions = {
	name: 'None',
	value: 'none',
	description: 'Every request to the URL is accepted',
};

const SECRET_CREDENTIAL: INodePropertyOptions = {
	name: 'Using a Credential (Recommended)',
	value: 'credential',
	description:
		"Only requests with the credential's secret header are accepted. n8n keeps the secret encrypted, outside the workflow.",
};

const AUTHENTICATION_DESCRIPTION =
	'Requests without the secret header get 401 and start nothing; set the same header on the webhook in CallKaro';

// One rule everywhere the panel speaks of URLs: the Test URL while building, the Production URL
// once the workflow is published.
const TEST_THEN_PRODUCTION =
	"While building, paste the Test URL into CallKaro's webhook settings; once it works, paste the Production URL there instead and publish the workflow.";

export class CallKaroTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CallKaro Trigger',
		name: 'callKaroTrigger',
		icon: { light: 'file:../../icons/callkaro.svg', dark: 'file:../../icons/callkaro.dark.svg' },
		group: ['trigger'],
		// 1.1 behaves as 1. n8n 2.x evaluates an extra expression (a Webhook v1 option) for every
		// delivery to a version-1 trigger, which costs more than the rest of the delivery.
		// 1.2 keeps the secret in a credential only; 1 and 1.1 keep their old fields.
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		subtitle: 'On call ended',
		description: 'Starts the workflow when a CallKaro call ends (call_ended webhook)',
		eventTriggerDescription: 'Waiting for CallKaro to post a call_ended event to the Test URL',
		activationMessage:
			"Calls that end now start this workflow, once the Production URL is in CallKaro's webhook settings.",
		defaults: { name: 'CallKaro Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'callKaroWebhookSecretApi',
				displayName: 'Shared Secret Credential',
				testedBy: 'callKaroWebhookSecretApiTest',
				displayOptions: { show: { authentication: ['credential'] } },
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
				// Without it n8n answers a started workflow with the text "firstEntryJson".
				responseData: '',
			},
		],
		triggerPanel: {
			header: '',
			executionsHelp: {
				inactive: `Click "Execute step", then end a call in CallKaro. ${TEST_THEN_PRODUCTION}`,
				active:
					'The workflow starts whenever CallKaro posts a call_ended event to the Production URL.',
			},
			activationHint: TEST_THEN_PRODUCTION,
		},
		properties: [
			{
				displayName:
					'While building, paste the Test URL from "Webhook URLs" into a CallKaro webhook (the account\'s, or one agent\'s); once the workflow is published, paste the Production URL there instead.',
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			// Each declaration offers "none", so n8n's editor keeps it in the panel (it moves an
			// authentication field without "none" into the credential dialog).
			{
				displayName: 'Authentication',
				name: 'authentication',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { '@version': [{ _cnd: { gte: 1.2 } }] } },
				options: [NO_SECRET, SECRET_CREDENTIAL],
				default: 'credential',
				description: AUTHENTICATION_DESCRIPTION,
			},
			{
				displayName: 'Authentication',
				name: 'authentication',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { '@version': [1, 1.1] } },
				options: [
					NO_SECRET,
					SECRET_CREDENTIAL,
					{
						name: 'Using Node Fields (Legacy)',
						value: 'parameters',
						description:
							'The Verify Shared Secret fields below, as versions 1 and 1.1 saved them, with the secret stored in the workflow where anyone who can open it sees it',
					},
				],
				// Workflows saved before the credential existed keep their fields
				default: 'parameters',
				description: AUTHENTICATION_DESCRIPTION,
			},
			// Where n8n's editor puts the credential selector: right after Authentication.
			{
				displayName: 'Credential',
				name: 'credentials',
				type: 'credentials',
				default: '',
				displayOptions: { show: { authentication: ['credential'] } },
			},
			{
				displayName: MAKE_A_SECRET,
				name: 'makeItUpNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { authentication: ['credential'] } },
			},
			{
				displayName: 'Verify Shared Secret',
				name: 'verifySecret',
				type: 'boolean',
				default: false,
				displayOptions: { show: { authentication: ['parameters'] } },
				description: `Whether to accept only requests with the secret header set in CallKaro; others get 401 (${docsLink('trigger', 'secret', 'shared-secret')})`,
			},
			{
				displayName: 'Secret Header Name',
				name: 'headerName',
				type: 'string',
				required: true,
				default: 'X-CallKaro-Secret',
				displayOptions: { show: { authentication: ['parameters'], verifySecret: [true] } },
				description: 'Name of the custom header set on the webhook in CallKaro',
			},
			{
				displayName: 'Secret Header Value',
				name: 'secretHeaderValue',
				type: 'string',
				typeOptions: { password: true },
				required: true,
				default: '',
				displayOptions: { show: { authentication: ['parameters'], verifySecret: [true] } },
				description: 'Value of that header: a long random string, compared in constant time',
			},
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
				description: 'Calls that do not match get a 200 answer and start nothing',
				options: [
					{
						displayName: 'Agent IDs',
						name: 'agentIds',
						type: 'string',
						default: '',
						placeholder: 'e.g. 67a1c0ffee0123456789abcd, 67a1c0ffee0123456789abce',
						description:
							'Only calls of these agents (comma-separated IDs from the agent pages of the dashboard)',
					},
					{
						displayName: 'Call Types',
						name: 'callTypes',
						type: 'multiOptions',
						default: [],
						description: 'Only calls of these types (the "name" field of the event)',
						options: [
							{ name: 'Agent Test', value: 'agent-test' },
							{ name: 'Inbound', value: 'inbound' },
							{ name: 'Outbound', value: 'outbound' },
							{
								name: 'Outbound API',
								value: 'outbound-api',
								description: 'Placed now through the API',
							},
							{
								name: 'Outbound Scheduled',
								value: 'outbound-scheduled',
								description: 'Placed through the API with a schedule time',
							},
							{ name: 'Outbound Test', value: 'outbound-test' },
						],
					},
					{
						displayName: 'Campaign ID',
						name: 'batchId',
						type: 'string',
						default: '',
						description: 'Only calls of this campaign (its batch_ID)',
					},
					{
						displayName: 'Outcomes',
						name: 'outcomes',
						type: 'multiOptions',
						default: [],
						description: 'Only calls whose hangup reason falls in these groups',
						options: [
							{
								name: 'Connected',
								value: 'connected',
								description: 'CLIENT_INITIATED, PARTICIPANT_REMOVED or SESSION_TIMEOUT',
							},
							{
								name: 'Not Reached',
								value: 'notReached',
								description:
									'USER_REJECTED, USER_UNAVAILABLE, USER_UNRESPONSIVE or INVALID_PHONE_NUMBER',
							},
							{
								name: 'Other',
								value: 'other',
								description:
									'UNKNOWN, OUTSIDE_TRIGGER_WINDOW, DELETED_SCH_CALL_ALL, DELETED_SCH_CALL_ONE, PRE_CALL_FN_FAILED, and any reason not listed',
							},
							{ name: 'Voicemail', value: 'voicemail', description: 'VOICEMAIL_DETECTED' },
						],
					},
				],
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Keep Repeated Deliveries',
						name: 'keepRepeats',
						type: 'boolean',
						default: false,
						description: `Whether a repeated delivery of the same call (callSid) starts the workflow again (${docsLink('trigger', 'repeats', 'repeated-deliveries')})`,
					},
				],
			},
		],
	};

	methods = {
		credentialTest: { callKaroWebhookSecretApiTest: testSecretCredential },
	};

	// CallKaro has no API to register, look up or remove webhooks: the user pastes the URL into
	// its dashboard. So there is nothing to check, create or delete on its side; activation only
	// refuses a shared-secret setting that could never let a delivery in.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const secret = await secretSetting(this);
				if (secret.kind === 'wrong') {
					throw new NodeOperationError(this.getNode(), secret.message, {
						description: secret.hint,
					});
				}
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return handleCallEndedWebhook(this);
	}
}
