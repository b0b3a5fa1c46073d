import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	INode,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { MAKE_A_SECRET } from '../../src/trigger/sharedSecret';

/** The credential type that holds the secret (credentials/CallKaroWebhookSecretApi). */
const SECRET_CREDENTIAL_TYPE = 'callKaroWebhookSecretApi';

const CREDENTIAL = 'CallKaro Webhook Secret API credential';

// An HTTP header name (RFC 9110 token).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const HEADER_NAME_HINT = 'Use letters, digits and dashes, e.g. X-CallKaro-Secret';
const VALUE_HINT =
	'Enter the value set as a custom header of the webhook in the CallKaro dashboard';

type SecretSetting =
	| { kind: 'off' }
	| { kind: 'on'; headerName: string; value: string }
	| { kind: 'wrong'; message: string; hint: string };

/** What the trigger's contexts (activation and each delivery) offer to read the setting. */
interface SecretSource {
	getNode(): INode;
	getNodeParameter(name: string, fallback: unknown): unknown;
	getCredentials(type: string): Promise<ICredentialDataDecryptedObject>;
}

/** Where the secret and its messages come from. */
interface Origin {
	/** Put after the field name in a message, e.g. ' of the … credential'. */
	of: string;
	/** What else the builder can do about an empty value. */
	orElse: string;
}

const FROM_FIELDS: Origin = { of: '', orElse: ', or turn off "Verify Shared Secret"' };
const FROM_CREDENTIAL: Origin = { of: ` of the ${CREDENTIAL}`, orElse: '' };

function checked(headerNameValue: unknown, secretValue: unknown, origin: Origin): SecretSetting {
	const headerName = String(headerNameValue ?? '').trim();
	const value = String(secretValue ?? '');
	if (!HEADER_NAME.test(headerName)) {
		return {
			kind: 'wrong',
			message: `Secret Header Name "${headerName}"${origin.of} is not a valid header name`,
			hint: HEADER_NAME_HINT,
		};
	}
	if (value === '') {
		return {
			kind: 'wrong',
			message: `Secret Header Value${origin.of} is empty`,
			hint: `${VALUE_HINT}${origin.orElse}`,
		};
	}
	return { kind: 'on', headerName, value };
}

async function fromCredential(source: SecretSource): Promise<SecretSetting> {
	// n8n's own error for a node without the credential says only "Node does not require credentials".
	if (source.getNode().credentials?.[SECRET_CREDENTIAL_TYPE] === undefined) {
		return {
			kind: 'wrong',
			message: `No ${CREDENTIAL} is selected`,
			hint: `${MAKE_A_SECRET} Create a credential with it under Authentication, or set Authentication to None to accept every request.`,
		};
	}
	let data: ICredentialDataDecryptedObject;
	try {
		data = await source.getCredentials(SECRET_CREDENTIAL_TYPE);
	} catch (error) {
		// n8n's reason names the credential record (missing, no access, not decryptable), never its values.
		const reason = (error as Error).message.replace(/\.$/, '');
		return {
			kind: 'wrong',
			message: `The ${CREDENTIAL} could not be read`,
			hint: `${reason}. Select the credential again, or create a new one.`,
		};
	}
	return checked(data.headerName, data.secretHeaderValue, FROM_CREDENTIAL);
}

/**
 * The shared-secret setting, or what is wrong with it (checked at activation and per delivery).
 * Nodes saved by versions 1 and 1.1 have no Authentication and read as 'parameters': the old
 * fields. A value that is not a known choice refuses every delivery rather than accepting them.
 */
export async function secretSetting(source: SecretSource): Promise<SecretSetting> {
	const authentication = source.getNodeParameter('authentication', 'parameters');
	switch (authentication) {
		case 'none':
			return { kind: 'off' };
		case 'credential':
			return await fromCredential(source);
		case 'parameters':
			if (source.getNodeParameter('verifySecret', false) !== true) return { kind: 'off' };
			return checked(
				source.getNodeParameter('headerName', ''),
				source.getNodeParameter('secretHeaderValue', ''),
				FROM_FIELDS,
			);
		default:
			return {
				kind: 'wrong',
				message: `Authentication "${String(authentication)}" is not a known choice`,
				hint: 'Choose Using a Credential or None',
			};
	}
}

/** The credential's Test: n8n finds it through the trigger's `testedBy`. Nothing is sent. */
export async function testSecretCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const setting = checked(
		credential.data?.headerName,
		credential.data?.secretHeaderValue,
		FROM_CREDENTIAL,
	);
	if (setting.kind === 'wrong') {
		return { status: 'Error', message: `${setting.message}. ${setting.hint}` };
	}
	return { status: 'OK', message: 'Secret Header Name and Secret Header Value can be used' };
}
