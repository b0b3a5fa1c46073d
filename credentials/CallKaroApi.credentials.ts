import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

/** Messages with which the service refuses a key (spec §7, public docs, the local sandbox). */
const REFUSED_KEY_MESSAGES = ['Missing X-API-KEY in headers', 'Missing API key', 'Invalid API key'];

export class CallKaroApi implements ICredentialType {
	name = 'callKaroApi';

	displayName = 'CallKaro API';

	icon: Icon = { light: 'file:../icons/callkaro.svg', dark: 'file:../icons/callkaro.dark.svg' };

	documentationUrl = 'https://github.com/callkaro/n8n-nodes-callkaro#credentials';

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
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: 'https://api.callkaro.ai',
			description:
				'Must use https. Plain http is accepted only for a local sandbox on this machine (localhost, 127.0.0.1).',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'X-API-KEY': '={{$credentials.apiKey}}',
			},
		},
	};

	// No read-only endpoint exists, so the test asks to delete a scheduled call without an agent:
	// the service must answer 400 "Missing agent_id" (key accepted) before it could delete anything.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/call/delete-schedule-call',
			method: 'POST',
			body: {},
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		},
		rules: [
			...REFUSED_KEY_MESSAGES.map((refusal) => ({
				type: 'responseSuccessBody' as const,
				properties: {
					key: 'message',
					value: refusal,
					message: 'CallKaro did not accept this API key',
				},
			})),
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'status',
					value: undefined,
					message: 'No CallKaro API answered at this Base URL',
				},
			},
		],
	};
}
