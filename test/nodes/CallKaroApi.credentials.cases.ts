// The "Test" button of the CallKaro API credential (its declarative test, run through n8n-core's
// RoutingNode like n8n's CredentialsTester) against the local CallKaro sandbox and servers that
// are not CallKaro.
import { CallKaroApi } from '../../credentials/CallKaroApi.credentials';
import { testCredential } from '../engine/credentialTest';
import { startEchoServer } from '../engine/echoServer.mjs';
import type { EchoResponse } from '../engine/echoServer.mjs';
import { DEMO_API_KEY, OTHER_API_KEY, startSandbox } from '../sandbox/sandbox.mjs';
import {
	KEY_REFUSED_MESSAGE,
	NOT_CALLKARO_SHAPE_MESSAGE,
	NOT_JSON_MESSAGE,
	notCallKaroStatusMessage,
} from '../../src/client/credentialTest';
import { WRONG_API_KEY, apiRequests, useSandbox } from './fixtures';
import { CALLKARO_BASE_URL, credentialBaseUrl } from '../../src/client/baseUrl';
import { OUTBOUND_CALL, callKaroNodeTypes } from '../engine/callKaroNodes';
import { chain, node, runWorkflow } from '../engine/harness';
import type { TestCredentials } from '../engine/harness';

const OK = { status: 'OK', message: 'Connection successful!' };
const KEY_REFUSED = { status: 'Error', message: KEY_REFUSED_MESSAGE };
const failure = (message: string) => ({ status: 'Error', message });

/**
 * The credential as n8n 1.x runs its test: that line reads `ignoreHttpStatusErrors: { ignore,
 * except }` as plain `true`, so no status fails and the body rules judge alone.
 */
function asN8nV1Reads(): CallKaroApi {
	const credential = new CallKaroApi();
	credential.test = {
		...credential.test,
		request: { ...credential.test.request, ignoreHttpStatusErrors: true },
	};
	return credential;
}

describe('CallKaro API credential test', () => {
	const sandbox = useSandbox();

	it.each([
		['the demo key', DEMO_API_KEY],
		["another account's key", OTHER_API_KEY],
	])('accepts %s, and deletes nothing', async (_, apiKey) => {
		await expect(testCredential({ apiKey, baseUrl: sandbox().url })).resolves.toEqual(OK);

		const [request] = apiRequests(sandbox());
		expect(request).toMatchObject({
			method: 'POST',
			path: '/call/delete-schedule-call',
			query: {},
			status: 400,
		});
		expect(request.headers['x-api-key']).toMatch(/^ck_.…\d\d$/);
	});

	it.each([
		['a trailing slash', (url: string) => `${url}/`],
		['localhost in upper case', (url: string) => url.replace('127.0.0.1', 'LOCALHOST')],
	])('accepts a Base URL with %s', async (_, baseUrl) => {
		await expect(
			testCredential({ apiKey: DEMO_API_KEY, baseUrl: baseUrl(sandbox().url) }),
		).resolves.toEqual(OK);
		expect(apiRequests(sandbox())[0].path).toBe('/call/delete-schedule-call');
	});

	it.each([
		['a wrong key', WRONG_API_KEY],
		['an empty key', ''],
	])('refuses %s', async (_, apiKey) => {
		await expect(testCredential({ apiKey, baseUrl: sandbox().url })).resolves.toEqual(KEY_REFUSED);
		expect(apiRequests(sandbox())[0].status).toBe(403);
	});

	it('says that https is required, and never sends the key over http to another host', async () => {
		// 0.0.0.0 reaches the sandbox on this machine, but only localhost/127.x/[::1] may use http.
		const { port } = new URL(sandbox().url);
		const result = await testCredential({
			apiKey: DEMO_API_KEY,
			baseUrl: `http://0.0.0.0:${port}`,
		});

		expect(result).toEqual(
			failure(
				`"Base URL" must start with https:// (got http://0.0.0.0:${port}), because the API key travels with every request. Plain http is allowed only for a local sandbox on this machine (localhost, 127.0.0.1).`,
			),
		);
		expect(apiRequests(sandbox())).toEqual([]);
	});

	it('fails when nothing listens at the Base URL', async () => {
		const gone = await startSandbox({ port: 0 });
		await gone.close();
		await expect(testCredential({ apiKey: DEMO_API_KEY, baseUrl: gone.url })).resolves.toEqual(
			failure('ECONNREFUSED'),
		);
	});

	describe('a server that is not CallKaro', () => {
		const other = (() => {
			let server: Awaited<ReturnType<typeof startEchoServer>> | undefined;
			beforeAll(async () => {
				server = await startEchoServer();
			});
			afterAll(async () => await server?.close());
			return () => server as Awaited<ReturnType<typeof startEchoServer>>;
		})();

		it.each<[string, EchoResponse, string]>([
			[
				'400 with an HTML page',
				{
					status: 400,
					text: '<html><body>Bad Request</body></html>',
					headers: { 'content-type': 'text/html' },
				},
				NOT_JSON_MESSAGE,
			],
			[
				'422 with some other JSON',
				{ status: 422, json: { detail: [{ loc: ['body', 'to_number'], msg: 'field required' }] } },
				notCallKaroStatusMessage(422),
			],
			[
				'400 with some other JSON',
				{ status: 400, json: { error: 'bad request' } },
				NOT_CALLKARO_SHAPE_MESSAGE,
			],
			['200 with JSON', { status: 200, json: { ok: true } }, notCallKaroStatusMessage(200)],
			['400 with an empty body', { status: 400 }, NOT_JSON_MESSAGE],
			[
				'a redirect',
				{ status: 302, headers: { location: 'https://example.com/' } },
				notCallKaroStatusMessage(302),
			],
		])('fails when it answers %s', async (_, answer, message) => {
			other().setResponder(() => answer);
			await expect(testCredential({ apiKey: DEMO_API_KEY, baseUrl: other().url })).resolves.toEqual(
				failure(message),
			);
		});
	});

	it.each([
		['the sandbox health path', '/__sandbox/health'],
		['an unknown path', '/api/v9'],
	])('fails for %s as Base URL, which answers 404', async (_, path) => {
		await expect(
			testCredential({ apiKey: DEMO_API_KEY, baseUrl: `${sandbox().url}${path}` }),
		).resolves.toEqual(failure(notCallKaroStatusMessage(404)));
	});

	describe('as n8n 1.x reads it (every status ignored, the body judges)', () => {
		const testV1 = async (apiKey: string, baseUrl: string) =>
			await testCredential({ apiKey, baseUrl }, 'callKaroApi', [asN8nV1Reads()]);

		it('accepts the right key and refuses a wrong one', async () => {
			await expect(testV1(DEMO_API_KEY, sandbox().url)).resolves.toEqual(OK);
			await expect(testV1(WRONG_API_KEY, sandbox().url)).resolves.toEqual(KEY_REFUSED);
		});

		it.each<[string, EchoResponse, string]>([
			[
				'400 with an HTML page',
				{ status: 400, text: '<html></html>', headers: { 'content-type': 'text/html' } },
				NOT_JSON_MESSAGE,
			],
			[
				'422 with some other JSON',
				{ status: 422, json: { detail: 'x' } },
				NOT_CALLKARO_SHAPE_MESSAGE,
			],
			['200 with JSON', { status: 200, json: { ok: true } }, NOT_CALLKARO_SHAPE_MESSAGE],
		])('fails for a server that answers %s', async (_, answer, message) => {
			const other = await startEchoServer({ responder: () => answer });
			try {
				await expect(testV1(DEMO_API_KEY, other.url)).resolves.toEqual(failure(message));
			} finally {
				await other.close();
			}
		});
	});
});

describe('CallKaro API credential: Server', () => {
	const sandbox = useSandbox({ runDurationMs: 0 });
	const properties = new CallKaroApi().properties;
	const field = (name: string) => properties.find((property) => property.name === name);

	/** Places one call with Outbound Call through n8n's engine, with these credential values. */
	async function placeCallWith(values: TestCredentials['callKaroApi']) {
		return await runWorkflow({
			nodes: [
				node('Call', OUTBOUND_CALL, { agentId: 'agent_sales_01', phoneNumber: '+919820061001' }),
			],
			connections: chain('Start', 'Call'),
			credentials: { callKaroApi: values },
			nodeTypes: callKaroNodeTypes(),
		});
	}

	it('shows Base URL only for Another Server; CallKaro is the default', () => {
		expect(field('environment')).toMatchObject({ type: 'options', default: 'callKaro' });
		expect(field('serverUrl')).toMatchObject({
			displayName: 'Base URL',
			displayOptions: { show: { environment: ['other'] } },
		});
		// a field display options can hide is dropped when n8n reads the credential: the Base URL
		// of a credential saved before Server existed must stay readable
		expect(field('baseUrl')).toMatchObject({ type: 'hidden', default: '' });
		expect(field('baseUrl')?.displayOptions).toBeUndefined();
	});

	it('Another Server: the test and the nodes use its Base URL', async () => {
		const values = { apiKey: DEMO_API_KEY, environment: 'other', serverUrl: sandbox().url };
		await expect(testCredential(values)).resolves.toEqual(OK);
		const run = await placeCallWith(values);
		expect(run.status).toBe('success');
		expect(apiRequests(sandbox()).map((request) => request.path)).toEqual([
			'/call/delete-schedule-call',
			'/call/outbound',
		]);
	});

	it('a credential saved before Server existed (a Base URL, no Server) still uses its Base URL', async () => {
		const saved = { apiKey: DEMO_API_KEY, baseUrl: sandbox().url };
		await expect(testCredential(saved)).resolves.toEqual(OK);
		const run = await placeCallWith(saved);
		expect(run.status).toBe('success');
		expect(apiRequests(sandbox(), '/call/outbound')).toHaveLength(1);
	});

	it('Another Server chosen later wins over the Base URL saved before', async () => {
		const values = {
			apiKey: DEMO_API_KEY,
			baseUrl: 'http://0.0.0.0:9',
			environment: 'other',
			serverUrl: sandbox().url,
		};
		await expect(testCredential(values)).resolves.toEqual(OK);
		expect((await placeCallWith(values)).status).toBe('success');
	});

	it("CallKaro, with no Base URL saved: CallKaro's API (the same rule as the test's expression)", () => {
		expect(credentialBaseUrl({ environment: 'callKaro', baseUrl: '' })).toBe(CALLKARO_BASE_URL);
		expect(credentialBaseUrl({ environment: 'callKaro', baseUrl: ' ', serverUrl: 'x' })).toBe(
			'https://api.callkaro.ai',
		);
		expect(credentialBaseUrl({ baseUrl: 'http://127.0.0.1:4010' })).toBe('http://127.0.0.1:4010');
		expect(credentialBaseUrl({ environment: 'other', serverUrl: 'http://127.0.0.1:1' })).toBe(
			'http://127.0.0.1:1',
		);
		expect(new CallKaroApi().test.request.baseURL).toContain(`"${CALLKARO_BASE_URL}"`);
	});
});
