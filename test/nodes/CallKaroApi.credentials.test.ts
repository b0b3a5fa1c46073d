// The "Test" button of the CallKaro API credential (its declarative test, run through n8n-core's
// RoutingNode like n8n's CredentialsTester) against the local CallKaro sandbox.
import { testCredential } from '../engine/credentialTest';
import { startEchoServer } from '../engine/echoServer.mjs';
import { DEMO_API_KEY, OTHER_API_KEY, startSandbox } from '../sandbox/sandbox.mjs';
import { WRONG_API_KEY, apiRequests, useSandbox } from './fixtures';

const OK = { status: 'OK', message: 'Connection successful!' };
const KEY_REFUSED = { status: 'Error', message: 'CallKaro did not accept this API key' };
const noApi = (status: number) => ({
	status: 'Error',
	message: `No CallKaro API answered at this Base URL (HTTP ${status})`,
});

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

	it('accepts a Base URL with a trailing slash', async () => {
		await expect(
			testCredential({ apiKey: DEMO_API_KEY, baseUrl: `${sandbox().url}/` }),
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

	it('never sends the key over plain http to a host that is not named as this machine', async () => {
		// 0.0.0.0 reaches the sandbox on this machine, but only localhost/127.x/[::1] may use http.
		const { port } = new URL(sandbox().url);
		const result = await testCredential({
			apiKey: DEMO_API_KEY,
			baseUrl: `http://0.0.0.0:${port}`,
		});

		expect(result).toEqual({ status: 'Error', message: 'ENOTFOUND' });
		expect(apiRequests(sandbox())).toEqual([]);
	});

	it('fails when nothing listens at the Base URL', async () => {
		const gone = await startSandbox({ port: 0 });
		await gone.close();
		await expect(testCredential({ apiKey: DEMO_API_KEY, baseUrl: gone.url })).resolves.toEqual({
			status: 'Error',
			message: 'ECONNREFUSED',
		});
	});

	it('fails when a server that is not CallKaro answers at the Base URL', async () => {
		const other = await startEchoServer();
		try {
			await expect(testCredential({ apiKey: DEMO_API_KEY, baseUrl: other.url })).resolves.toEqual(
				noApi(200),
			);
		} finally {
			await other.close();
		}
	});

	it.each([
		['the sandbox health path', '/__sandbox/health'],
		['an unknown path', '/api/v9'],
	])('fails for %s as Base URL, which answers 404', async (_, path) => {
		await expect(
			testCredential({ apiKey: DEMO_API_KEY, baseUrl: `${sandbox().url}${path}` }),
		).resolves.toEqual(noApi(404));
	});
});
