import type {
	IAuthenticate,
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { CALLKARO_BASE_URL, assertKeyMayBeSentTo } from '../src/client/baseUrl';
import {
	CREDENTIAL_TEST_PASSING_STATUS,
	KEY_REFUSED_MESSAGE,
	KEY_REFUSED_SERVICE_MESSAGES,
	KEY_REFUSED_STATUSES,
	NOT_CALLKARO_SHAPE_MESSAGE,
	NOT_JSON_MESSAGE,
	notCallKaroStatusMessage,
} from '../src/client/credentialTest';

/** Every final HTTP status but the one an accepted key gets. */
const FAILING_STATUSES = Array.from({ length: 400 }, (_, index) => 200 + index).filter(
	(status) => status !== CREDENTIAL_TEST_PASSING_STATUS,
);

const statusRules: IAuthenticateRuleResponseCode[] = FAILING_STATUSES.map((value) => ({
	type: 'responseCode',
	properties: {
		value,
		message: KEY_REFUSED_STATUSES.includes(value)
			? KEY_REFUSED_MESSAGE
			: notCallKaroStatusMessage(value),
	},
}));

// n8n checks these on an answer that did not fail by status: each fails the test when the value
// at `key` equals `value`. lodash's get reads `constructor.name` of a text (not JSON) body too.
const bodyRules: IAuthenticateRuleResponseSuccessBody[] = [
	{
		type: 'responseSuccessBody',
		properties: { key: 'constructor.name', value: 'String', message: NOT_JSON_MESSAGE },
	},
	{
		type: 'responseSuccessBody',
		properties: { key: 'constructor.name', value: 'Buffer', message: NOT_JSON_MESSAGE },
	},
	{
		type: 'responseSuccessBody',
		properties: { key: 'status', value: undefined, message: NOT_CALLKARO_SHAPE_MESSAGE },
	},
	{
		type: 'responseSuccessBody',
		properties: { key: 'message', value: undefined, message: NOT_CALLKARO_SHAPE_MESSAGE },
	},
	...KEY_REFUSED_SERVICE_MESSAGES.map((value) => ({
		type: 'responseSuccessBody' as const,
		properties: { key: 'message', value, message: KEY_REFUSED_MESSAGE },
	})),
];

export class CallKaroApi implements ICredentialType {
	name = 'callKaroApi';

	displayName = 'CallKaro API';

	icon: Icon = { light: 'file:../icons/callkaro.svg', dark: 'file:../icons/callkaro.dark.svg' };

	documentationUrl = 'https://github.com/callkaro/n8n-nodes-callkaro/blob/main/docs/credentials.md';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'From the API Key page of the CallKaro dashboard',
		},
		{
			displayName: 'Server',
			name: 'environment',
			type: 'options',
			options: [
				{ name: 'CallKaro (api.callkaro.ai)', value: 'callKaro' },
				{ name: 'Another Server (e.g. a Sandbox)', value: 'other' },
			],
			default: 'callKaro',
			description: 'Another server only to try the nodes against a sandbox',
		},
		{
			displayName: 'Base URL',
			name: 'serverUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. http://localhost:4010',
			displayOptions: { show: { environment: ['other'] } },
			description:
				'Must use https; plain http is accepted only for a sandbox on this machine (localhost, 127.0.0.1)',
		},
		// Credentials saved before Server existed keep their Base URL here, and it is still used.
		// n8n drops a field its display options hide when it reads a credential, so the old field
		// stays, without them.
		{
			displayName: 'Base URL Saved Before Server',
			name: 'baseUrl',
			type: 'hidden',
			default: '',
		},
		{
			displayName:
				'This credential was saved with a Base URL of its own, which it still uses. To change it, choose Another Server and enter the URL.',
			name: 'savedBaseUrlNotice',
			type: 'notice',
			default: '',
			displayOptions: {
				show: { environment: ['callKaro'], baseUrl: [{ _cnd: { exists: true } }] },
				hide: { baseUrl: [CALLKARO_BASE_URL] },
			},
		},
	];

	// A function rather than a '={{$credentials.apiKey}}' template: n8n would evaluate that
	// expression for every request, which dominates the cost of a bulk run. It is also the one
	// place the key is added, so it refuses to add it to plain http to another host.
	authenticate: IAuthenticate = async (credentials, requestOptions) => {
		assertKeyMayBeSentTo(requestOptions.baseURL ?? requestOptions.url);
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, 'X-API-KEY': String(credentials.apiKey) },
		};
	};

	// No read-only endpoint exists, so the test asks to delete a scheduled call without an agent:
	// CallKaro checks the key first, then answers 400 {status: "error", message: "Missing agent_id
	// in request query"} before it could delete anything. n8n 2.x fails every other status through
	// `except`; n8n 1.x reads that option as "ignore every status", so the body rules judge alone.
	test: ICredentialTestRequest = {
		request: {
			// credentialBaseUrl (src/client/baseUrl.ts) as an n8n expression: the test runs no code of ours.
			baseURL: `={{ ($credentials.environment === "other" ? $credentials.serverUrl : ($credentials.baseUrl || "").trim() || "${CALLKARO_BASE_URL}").trim().replace(/\\/+$/, "") }}`,
			url: '/call/delete-schedule-call',
			method: 'POST',
			body: {},
			ignoreHttpStatusErrors: { ignore: true, except: FAILING_STATUSES },
			disableFollowRedirect: true,
		},
		// n8n's type allows one kind of rule per list, but its tester reads both kinds from one list.
		rules: [...statusRules, ...bodyRules] as IAuthenticateRuleResponseCode[],
	};
}
