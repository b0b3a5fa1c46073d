// The CallKaro Webhook Secret API credential: where n8n finds it, and its "Test" button, which n8n
// runs through the CallKaro Trigger's `testedBy` function (like n8n's CredentialsTester) since
// the secret is never sent anywhere to test it against.
import packageJson from '../../package.json';
import { CallKaroWebhookSecretApi } from '../../credentials/CallKaroWebhookSecretApi.credentials';
import { MAKE_A_SECRET } from '../../src/trigger/sharedSecret';
import { CallKaroTrigger } from '../../nodes/CallKaroTrigger/CallKaroTrigger.node';
import { testCredentialWithNode } from '../engine/credentialTest';
import { projectFileText } from '../readme/readmeText.mjs';

const SECRET = 'dummy-long-random-shared-secret-0123456789';
const TYPE = 'callKaroWebhookSecretApi';

const test = async (values: Record<string, string>) =>
	await testCredentialWithNode(values, TYPE, [new CallKaroTrigger()]);

describe('CallKaro Webhook Secret API credential', () => {
	const credential = new CallKaroWebhookSecretApi();

	it('is registered in package.json, with the icon and the docs page of the trigger', () => {
		expect(packageJson.n8n.credentials).toContain(
			'dist/credentials/CallKaroWebhookSecretApi.credentials.js',
		);
		expect(credential).toMatchObject({
			name: TYPE,
			displayName: 'CallKaro Webhook Secret API',
			icon: { light: 'file:../icons/callkaro.svg', dark: 'file:../icons/callkaro.dark.svg' },
		});
		const [page, anchor] = credential.documentationUrl
			.replace('https://github.com/callkaro/n8n-nodes-callkaro/blob/main/', '')
			.split('#');
		expect(page).toBe('docs/trigger.md');
		expect(projectFileText(page)).toMatch(new RegExp(`^## ${anchor.replace(/-/g, ' ')}$`, 'im'));
	});

	it('says how to make the secret, in one sentence', () => {
		expect(MAKE_A_SECRET).toContain('a long random one');
		expect(MAKE_A_SECRET).toContain('the same custom header on the webhook in CallKaro');
		expect(MAKE_A_SECRET.length).toBeLessThanOrEqual(200);
	});

	it('holds a header name (default X-CallKaro-Secret) and a masked value, and is sent nowhere', () => {
		expect(credential.properties).toEqual([
			expect.objectContaining({ type: 'notice', displayName: MAKE_A_SECRET }),
			expect.objectContaining({ name: 'headerName', default: 'X-CallKaro-Secret' }),
			expect.objectContaining({ name: 'secretHeaderValue', typeOptions: { password: true } }),
		]);
		expect(credential).not.toHaveProperty('authenticate');
		expect(credential).not.toHaveProperty('test');
	});

	describe('its Test button', () => {
		it('passes a valid header name and a value; the name may be left at its default', async () => {
			const OK = {
				status: 'OK',
				message: 'Secret Header Name and Secret Header Value can be used',
			};
			await expect(
				test({ headerName: 'X-Webhook-Token', secretHeaderValue: SECRET }),
			).resolves.toEqual(OK);
			await expect(test({ secretHeaderValue: SECRET })).resolves.toEqual(OK);
		});

		it.each([
			[
				'a header name with a space',
				{ headerName: 'X Secret', secretHeaderValue: SECRET },
				'Secret Header Name "X Secret" of the CallKaro Webhook Secret API credential is not a valid header name. Use letters, digits and dashes, e.g. X-CallKaro-Secret',
			],
			[
				'an empty value',
				{ headerName: 'X-CallKaro-Secret', secretHeaderValue: '' },
				'Secret Header Value of the CallKaro Webhook Secret API credential is empty. Enter the value set as a custom header of the webhook in the CallKaro dashboard',
			],
		])('fails %s, and never repeats the secret', async (_case, values, message) => {
			const result = await test(values);
			expect(result).toEqual({ status: 'Error', message });
			expect(JSON.stringify(result)).not.toContain(SECRET);
		});
	});
});
