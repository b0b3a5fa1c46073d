import type {
	IAuthenticate,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

/** Statuses with which CallKaro refuses a key (spec §7), and statuses it never gives this request. */
const KEY_REFUSED_STATUSES = [401, 403];
const NOT_CALLKARO_STATUSES = [
	200, 201, 202, 204, 301, 302, 303, 307, 308, 404, 405, 500, 502, 503, 504,
];

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

	// A function rather than a '={{$credentials.apiKey}}' template: n8n would evaluate that
	// expression for every request, which dominates the cost of a bulk run.
	authenticate: IAuthenticate = async (credentials, requestOptions) => ({
		...requestOptions,
		headers: { ...requestOptions.headers, 'X-API-KEY': String(credentials.apiKey) },
	});

	// No read-only endpoint exists, so the test asks to delete a scheduled call without an agent:
	// CallKaro checks the key first, then answers 400 "Missing agent_id" before it could delete
	// anything. Only that 400 passes: the listed statuses fail with their rule's message.
	test: ICredentialTestRequest = {
		request: {
			// Like the nodes, never send the key over plain http except to this machine: any other
			// http Base URL is swapped for a host that cannot resolve, so the test fails unsent.
			baseURL:
				'={{ /^(https:\\/\\/|http:\\/\\/(localhost|127\\.\\d+\\.\\d+\\.\\d+|\\[::1\\])(:\\d+)?(\\/|$))/.test($credentials.baseUrl.trim()) ? $credentials.baseUrl.trim().replace(/\\/+$/, "") : "https://base-url-must-use-https.invalid" }}',
			url: '/call/delete-schedule-call',
			method: 'POST',
			body: {},
			ignoreHttpStatusErrors: {
				ignore: true,
				except: [...KEY_REFUSED_STATUSES, ...NOT_CALLKARO_STATUSES],
			},
			disableFollowRedirect: true,
		},
		rules: [
			...KEY_REFUSED_STATUSES.map((value) => ({
				type: 'responseCode' as const,
				properties: { value, message: 'CallKaro did not accept this API key' },
			})),
			...NOT_CALLKARO_STATUSES.map((value) => ({
				type: 'responseCode' as const,
				properties: { value, message: `No CallKaro API answered at this Base URL (HTTP ${value})` },
			})),
		],
	};
}
