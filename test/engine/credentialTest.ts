// Runs a credential type's declarative `test` the way n8n's cli CredentialsTester does: the test
// request becomes the routing of a temporary noOp-like node, n8n-core's RoutingNode sends it (with
// the credential's own `authenticate` applied), then the `rules` decide.
import { CredentialTestContext, ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentialsDecrypted,
	INode,
	INodeExecutionData,
	INodeType,
	IRunExecutionData,
} from 'n8n-workflow';
import {
	NodeConnectionTypes,
	NodeHelpers,
	UnexpectedError,
	Workflow,
	createRunExecutionData,
} from 'n8n-workflow';

import {
	TestCredentialsHelper,
	createAdditionalData,
	defaultCredentialTypes,
} from './engineSupport';

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/** lodash.get for dotted paths (lodash is not a devDependency). */
function getPath(value: unknown, path: string): unknown {
	return path
		.split('.')
		.reduce<unknown>(
			(current, key) =>
				current === null || current === undefined
					? undefined
					: (current as Record<string, unknown>)[key],
			value,
		);
}

interface ErrorWithCause {
	message: string;
	cause?: { response?: { status: number; statusText?: string }; code?: string };
}

/**
 * Tests credential values like the "Test" button in n8n's credential dialog.
 * @param values e.g. `{ apiKey: 'ck_test', baseUrl: sandbox.url }`
 */
export async function testCredential(
	values: ICredentialDataDecryptedObject,
	credentialTypeName = 'callKaroApi',
	credentialTypes: ICredentialType[] = defaultCredentialTypes(),
): Promise<CredentialTestResult> {
	const credentialType = credentialTypes.find((type) => type.name === credentialTypeName);
	if (!credentialType?.test) {
		return { status: 'Error', message: 'No testing function found for this credential.' };
	}
	const testRequest = credentialType.test;
	const helper = new TestCredentialsHelper({ [credentialTypeName]: values }, credentialTypes);
	const credentialsDecrypted: ICredentialsDecrypted = {
		id: 'cred-test',
		name: 'Credential under test',
		type: credentialTypeName,
		data: helper.applyDefaults(credentialTypeName, values),
	};

	const nodeType: INodeType = {
		description: {
			displayName: 'No Operation, do nothing',
			name: 'n8n-nodes-base.noOp',
			group: ['organization'],
			version: 1,
			description: 'No Operation',
			defaults: { name: 'No Operation, do nothing' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: credentialTypeName, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	};
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: nodeType.description.name,
		typeVersion: 1,
		position: [0, 0],
		credentials: {
			[credentialTypeName]: { id: credentialsDecrypted.id, name: credentialsDecrypted.name },
		},
	};
	const nodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: (name: string, version?: number) => {
			if (name !== nodeType.description.name)
				throw new UnexpectedError(`Unknown node type "${name}"`);
			return NodeHelpers.getVersionedNodeType(nodeType, version);
		},
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = createAdditionalData(helper, 'internal', {
		id: 'credential-test',
		name: 'Credential test',
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: [node],
		connections: {},
	});
	const runExecutionData: IRunExecutionData = createRunExecutionData({
		resultData: { runData: {} },
	});
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		runExecutionData,
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);

	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await new RoutingNode(context, nodeType, credentialsDecrypted).runNode();
	} catch (thrown) {
		const error = thrown as ErrorWithCause;
		const httpResponse = error.cause?.response;
		if (httpResponse) {
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && httpResponse.status === rule.properties.value) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (httpResponse.status < 199 || httpResponse.status > 299) {
				return {
					status: 'Error',
					message: httpResponse.statusText || `Received HTTP status code: ${httpResponse.status}`,
				};
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: String(error.message) };
	}

	for (const rule of testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody') {
			const body = response?.[0]?.[0]?.json;
			if (getPath(body, rule.properties.key) === rule.properties.value) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

/**
 * Tests credential values like n8n's "Test" button for a credential type without a `test`, as
 * cli CredentialsTester does: the function comes from a node that lists the type with a
 * `testedBy` name (n8n looks only at the credential's supported nodes), gets the values with the
 * type's defaults applied, and runs in n8n-core's CredentialTestContext.
 */
export async function testCredentialWithNode(
	values: ICredentialDataDecryptedObject,
	credentialTypeName: string,
	nodeTypes: INodeType[],
	credentialTypes: ICredentialType[] = defaultCredentialTypes(),
): Promise<CredentialTestResult> {
	const testFunction = nodeTypes
		.flatMap((nodeType) =>
			(nodeType.description.credentials ?? []).map(({ name, testedBy }) =>
				name === credentialTypeName && typeof testedBy === 'string'
					? nodeType.methods?.credentialTest?.[testedBy]
					: undefined,
			),
		)
		.find((candidate) => candidate !== undefined);
	if (testFunction === undefined) {
		return { status: 'Error', message: 'No testing function found for this credential.' };
	}
	const helper = new TestCredentialsHelper({ [credentialTypeName]: values }, credentialTypes);
	return await testFunction.call(new CredentialTestContext(), {
		id: 'cred-test',
		name: 'Credential under test',
		type: credentialTypeName,
		data: helper.applyDefaults(credentialTypeName, values),
	});
}
