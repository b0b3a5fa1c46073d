// Shared plumbing for the engine harness: a credentials helper that behaves like n8n's own
// (cli CredentialsHelper) for API-key credentials, and the minimal IWorkflowExecuteAdditionalData.
import { ExecutionLifecycleHooks } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentials,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, UnexpectedError, Workflow } from 'n8n-workflow';

import { CallKaroApi } from '../../credentials/CallKaroApi.credentials';
import { CallKaroWebhookSecretApi } from '../../credentials/CallKaroWebhookSecretApi.credentials';

/** Credential values a test supplies, keyed by credential type name, e.g. `{ callKaroApi: { apiKey, baseUrl } }`. */
export type TestCredentials = Record<string, ICredentialDataDecryptedObject>;

/** The credential types the harness knows by default (ours). */
export function defaultCredentialTypes(): ICredentialType[] {
	return [new CallKaroApi(), new CallKaroWebhookSecretApi()];
}

const emptyNodeTypes = {
	getByName: () => {
		throw new UnexpectedError('No node types in the credential resolver');
	},
	getByNameAndVersion: () => {
		throw new UnexpectedError('No node types in the credential resolver');
	},
	getKnownTypes: () => ({}),
};

/**
 * Mirrors n8n's cli CredentialsHelper where it matters for API-key credentials: defaults of the
 * credential's properties are applied, and the type's own `authenticate` (generic expressions
 * such as `={{$credentials.apiKey}}`, or a function) is applied by resolving expressions with the
 * workflow's real expression engine. `preAuthentication` returns undefined unless the type has a
 * hidden `expirable` property, exactly like n8n (so a 401 is re-sent once by n8n-core).
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	/** Every `authenticate` call, in order: which type and the request after auth was applied. */
	readonly authenticated: Array<{ type: string; requestOptions: IHttpRequestOptions }> = [];

	private readonly types: Map<string, ICredentialType>;

	constructor(
		private readonly values: TestCredentials,
		credentialTypes: ICredentialType[] = defaultCredentialTypes(),
	) {
		super();
		this.types = new Map(credentialTypes.map((type) => [type.name, type]));
	}

	private type(name: string): ICredentialType {
		const type = this.types.get(name);
		if (!type) throw new UnexpectedError(`Unknown credential type "${name}" in the test harness`);
		return type;
	}

	getParentTypes(name: string): string[] {
		const parents = this.types.get(name)?.extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		const type = this.types.get(credentialType);
		if (type?.restrictToSupportedNodes !== true) return true;
		return (type.supportedNodes ?? []).includes(nodeType);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incoming: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incoming as IHttpRequestOptions;
		const { authenticate } = this.type(typeName);
		let result = requestOptions;
		if (typeof authenticate === 'function') {
			result = await authenticate(credentials, requestOptions);
		} else if (authenticate?.type === 'generic') {
			requestOptions.headers ??= {};
			const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
			for (const [outerKey, entries] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(entries as Record<string, unknown>)) {
					const resolvedKey = this.resolve(key, credentials, workflow, node);
					target[outerKey] ??= {};
					target[outerKey][resolvedKey] = this.resolve(value, credentials, workflow, node);
				}
			}
		}
		this.authenticated.push({ type: typeName, requestOptions: result });
		return result;
	}

	/** Same as cli CredentialsHelper.resolveValue: only '='-prefixed strings are expressions. */
	private resolve(
		value: unknown,
		credentials: ICredentialDataDecryptedObject,
		workflow: Workflow | undefined,
		node: INode | undefined,
	): string {
		if (typeof value !== 'string' || !value.startsWith('=')) return value as string;
		const wf =
			workflow ??
			new Workflow({ nodes: [], connections: {}, active: false, nodeTypes: emptyNodeTypes });
		const contextNode =
			node ??
			({
				name: '',
				type: 'mock',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			} as unknown as INode);
		const resolved = wf.expression.getSimpleParameterValue(
			contextNode,
			value,
			'internal',
			{ $credentials: credentials },
			undefined,
			'',
		);
		return resolved ? String(resolved) : '';
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		_node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.type(typeName);
		const expirable = type.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (expirable === undefined || typeof type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;
		const output = await type.preAuthentication.call(helpers, credentials);
		return output[expirable.name] === undefined ? undefined : Object.assign(credentials, output);
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.type(typeName);
		if (typeof type.preAuthentication !== 'function') return undefined;
		return (await type.preAuthentication.call(
			helpers,
			credentials,
		)) as ICredentialDataDecryptedObject;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		const data = this.values[type];
		if (!data) throw new UnexpectedError(`The test gave no credentials of type "${type}"`);
		return {
			id: nodeCredentials.id ?? undefined,
			name: nodeCredentials.name,
			type,
			data: undefined,
			getData: async () => ({ ...data }),
			getDataToSave: () => ({ id: nodeCredentials.id, name: nodeCredentials.name, type }),
			setData: async () => undefined,
			updateData: async () => undefined,
		} as unknown as ICredentials;
	}

	/** The decrypted values with the type's defaults applied (like `applyDefaultsAndOverwrites`). */
	applyDefaults(
		type: string,
		data: ICredentialDataDecryptedObject,
	): ICredentialDataDecryptedObject {
		const withDefaults = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			data as INodeParameters,
			true,
			false,
			null,
			null,
		);
		return { ...(withDefaults as ICredentialDataDecryptedObject) };
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.values[type];
		if (!data) throw new UnexpectedError(`The test gave no credentials of type "${type}"`);
		return this.applyDefaults(type, data);
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.type(type);
		const inherited = (credentialType.extends ?? []).flatMap((parent) =>
			this.getCredentialsProperties(parent),
		);
		return [...inherited, ...credentialType.properties];
	}
}

function unsupported(what: string) {
	return async () => {
		throw new UnexpectedError(`${what} is not supported by the engine test harness`);
	};
}

/** The smallest IWorkflowExecuteAdditionalData n8n-core 2.41 runs with (hooks record nothing). */
export function createAdditionalData(
	credentialsHelper: ICredentialsHelper,
	mode: WorkflowExecuteMode,
	workflowData: IWorkflowBase,
	executionId = 'test-execution',
): IWorkflowExecuteAdditionalData {
	const base = {
		credentialsHelper,
		hooks: new ExecutionLifecycleHooks(mode, executionId, workflowData),
		executionId,
		workflowId: workflowData.id,
		currentNodeExecutionIndex: 0,
		variables: {},
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678',
		formBaseUrl: 'http://127.0.0.1:5678/form',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
		executeWorkflow: unsupported('executeWorkflow'),
		getRunExecutionData: unsupported('getRunExecutionData'),
		getRuntimeCredential: unsupported('getRuntimeCredential'),
		startRunnerTask: unsupported('startRunnerTask'),
		logAiEvent: () => undefined,
	};
	return base as unknown as IWorkflowExecuteAdditionalData;
}
