import type { ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

import { MAKE_A_SECRET } from '../src/trigger/sharedSecret';

// The shared secret CallKaro sends with each call_ended delivery, kept in n8n's encrypted
// credential store rather than in the workflow. It is never sent anywhere, so it has no
// `authenticate`; the CallKaro Trigger checks it per delivery and its `testedBy` function checks
// the fields. n8n's lint wants the Api suffix on every credential name.
export class CallKaroWebhookSecretApi implements ICredentialType {
	name = 'callKaroWebhookSecretApi';

	displayName = 'CallKaro Webhook Secret API';

	icon: Icon = { light: 'file:../icons/callkaro.svg', dark: 'file:../icons/callkaro.dark.svg' };

	documentationUrl =
		'https://github.com/callkaro/n8n-nodes-callkaro/blob/main/docs/trigger.md#shared-secret';

	properties: INodeProperties[] = [
		{
			displayName: MAKE_A_SECRET,
			name: 'makeItUpNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Secret Header Name',
			name: 'headerName',
			type: 'string',
			required: true,
			default: 'X-CallKaro-Secret',
			description: 'Name of the custom header set on the webhook in the CallKaro dashboard',
		},
		{
			displayName: 'Secret Header Value',
			name: 'secretHeaderValue',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'Value of that header: a long random string, compared in constant time',
		},
	];
}
