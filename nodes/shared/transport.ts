import type {
	IAdditionalCredentialOptions,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { checkBaseUrl, credentialBaseUrl } from '../../src/client/baseUrl';
import { redactSecret } from '../../src/client/redact';
import { networkFailureKind, TransportError } from '../../src/client/transport';
import type { Transport, TransportRequest, TransportResponse } from '../../src/client/transport';

export const CREDENTIAL_TYPE = 'callKaroApi';

/** A call that has not answered by then is treated as "no answer" (outcome unknown). */
const REQUEST_TIMEOUT_MS = 30_000;

function toFormData(fields: Record<string, string>): FormData {
	const form = new FormData();
	for (const [name, value] of Object.entries(fields)) form.append(name, value);
	return form;
}

function lowerCaseHeaders(headers: IDataObject | undefined): Record<string, string | undefined> {
	const result: Record<string, string | undefined> = {};
	for (const [name, value] of Object.entries(headers ?? {})) {
		result[name.toLowerCase()] = Array.isArray(value)
			? value.join(', ')
			: (value as string | undefined);
	}
	return result;
}

function parseBody(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	try {
		return JSON.parse(body) as unknown;
	} catch {
		return body;
	}
}

/**
 * The core's transport over n8n's own HTTP helper, so the credential's authenticate adds
 * X-API-KEY. Statuses never throw (the core decides), and redirects are refused so the key
 * cannot be carried to another host. An answer that quotes the key (an echo in an error message,
 * say) has it removed here, before any part of it can reach an output.
 */
export async function createCallKaroTransport(context: IExecuteFunctions): Promise<Transport> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	const baseUrl = checkBaseUrl(credentialBaseUrl(credentials));
	const apiKey = String(credentials.apiKey);
	const abortSignal = context.getExecutionCancelSignal();
	// Handing n8n the credential read above saves a database read and a decryption per request.
	const reference = context.getNode().credentials?.[CREDENTIAL_TYPE];
	const credentialOptions: IAdditionalCredentialOptions = {
		credentialsDecrypted: {
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type: CREDENTIAL_TYPE,
			data: credentials,
		},
	};

	return {
		async send(request: TransportRequest): Promise<TransportResponse> {
			const options: IHttpRequestOptions = {
				method: request.method,
				url: `${baseUrl}${request.path}`,
				qs: request.query,
				body: request.form ? toFormData(request.form) : (request.body as IDataObject | undefined),
				json: request.form === undefined,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				disableFollowRedirect: true,
				timeout: REQUEST_TIMEOUT_MS,
				abortSignal,
			};
			// A network failure becomes a TransportError for the core to classify; the node
			// turns whatever the core finally throws into a NodeApiError for its item.
			return await context.helpers.httpRequestWithAuthentication
				.call(context, CREDENTIAL_TYPE, options, credentialOptions)
				.then(
					(response: IN8nHttpFullResponse) => ({
						status: response.statusCode,
						headers: lowerCaseHeaders(response.headers),
						body: redactSecret(parseBody(response.body), apiKey),
					}),
					(error: Error) => {
						const kind = abortSignal?.aborted ? 'aborted' : networkFailureKind(error);
						const message = redactSecret(error.message, apiKey) as string;
						throw new TransportError(kind, message, { cause: error });
					},
				);
		},
	};
}
