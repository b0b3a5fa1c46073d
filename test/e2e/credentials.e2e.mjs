// The CallKaro API credential's Test button in a real n8n: POST /rest/credentials/test as the
// owner (what the editor sends), with the values a builder types, against the sandbox, a server
// that is not CallKaro (test/engine/echoServer.mjs) and addresses where nothing answers. Each
// expected message is the README's (section "Credentials"), per n8n line: 1.x reads the test's
// status filter as "accept every status", so there the body rules judge alone.
import net from 'node:net';

import {
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	CREDENTIAL_TYPE,
	freePort,
} from '../../scripts/n8n/host.mjs';
import { n8nPaths } from '../../scripts/n8n/install.mjs';
import { startEchoServer } from '../engine/echoServer.mjs';
import { DEMO_API_KEY } from '../sandbox/sandbox.mjs';
import { postJson, startE2e } from './harness.mjs';

const V1 = n8nPaths().target.major === 1;
const OK = 'Connection successful!';
const KEY_REFUSED = 'CallKaro did not accept this API key';
const NO_API = 'No CallKaro API answered at this Base URL';
const NOT_JSON = `${NO_API}: the answer is not JSON`;
const NOT_SHAPE = `${NO_API}: the answer does not have CallKaro's error shape {"status", "message"}`;
const status = (code) =>
	`${NO_API}: it answered HTTP ${code}, where CallKaro answers 400 or, for a refused key, 401 or 403`;
const httpsRequired = (url) =>
	`"Base URL" must start with https:// (got ${url}), because the API key travels with every request. Plain http is allowed only for a local sandbox on this machine (localhost, 127.0.0.1).`;

/** What the server that is not CallKaro answers, by the first segment of the Base URL's path. */
const NOT_CALLKARO = {
	html: {
		status: 400,
		text: '<html><body>Bad Request</body></html>',
		headers: { 'content-type': 'text/html' },
	},
	json: { status: 422, json: { detail: [{ loc: ['body', 'to_number'], msg: 'field required' }] } },
	other: { status: 400, json: { error: 'bad request' } },
	shape: { status: 422, json: { status: 'error', message: 'Unprocessable entity' } },
};

let e2e;
let other;
// drops the connection (TCP reset) once the request has arrived
const resetter = net.createServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
beforeAll(async () => {
	other = await startEchoServer({
		responder: (request) => NOT_CALLKARO[request.path.split('/')[1]] ?? { status: 404 },
	});
	await new Promise((listening) => resetter.listen(0, '127.0.0.1', listening));
	e2e = await startE2e({ examples: false });
});
afterAll(async () => {
	await e2e?.close();
	await other?.close();
	resetter.close();
});

/** The editor's Test button for the saved credential, with the values typed into the dialog. */
async function testButton(data) {
	const { url, cookie } = await e2e.server();
	const credentials = { id: CREDENTIAL_ID, name: CREDENTIAL_NAME, type: CREDENTIAL_TYPE, data };
	const res = await postJson(`${url}/rest/credentials/test`, { credentials }, { cookie });
	expect(res.status).toBe(200);
	return (await res.json()).data;
}

const sandboxPort = () => new URL(e2e.sandbox.url).port;
const WRONG_KEY = 'ck_dummy_key_5555555555';

// case: [Base URL, message on 2.x, on 1.x if it differs, API key]. With no answer at all, 2.x shows
// the system's error code and 1.x a sentence of its own (EPROTO: OpenSSL's text).
const CASES = {
	'a right key': [() => e2e.sandbox.url, OK],
	'a wrong key': [() => e2e.sandbox.url, KEY_REFUSED, KEY_REFUSED, WRONG_KEY],
	'localhost in upper case': [() => `http://LOCALHOST:${sandboxPort()}`, OK],
	'a server answering 400 with an HTML page': [() => `${other.url}/html`, NOT_JSON],
	'a server answering 422 with other JSON': [() => `${other.url}/json`, status(422), NOT_SHAPE],
	'a server answering 400 with other JSON': [() => `${other.url}/other`, NOT_SHAPE],
	'a server answering 404 with no body': [() => `${other.url}/none`, status(404), NOT_JSON],
	// the README's stated 1.x gap: CallKaro's exact error shape with another message passes there
	"a server answering 422 in CallKaro's shape": [() => `${other.url}/shape`, status(422), OK],
	'a host that does not resolve': [
		() => 'https://api.callkaro.invalid',
		'ENOTFOUND',
		'The connection cannot be established, this usually occurs due to an incorrect host (domain) value',
	],
	'a port where nothing listens': [
		async () => `http://127.0.0.1:${await freePort()}`,
		'ECONNREFUSED',
		'The service refused the connection - perhaps it is offline',
	],
	'https to a plain-http port': [
		() => `https://127.0.0.1:${sandboxPort()}`,
		'EPROTO',
		expect.stringMatching(/^write EPROTO .*wrong version number/s),
	],
	'a server that drops the connection': [
		() => `http://127.0.0.1:${resetter.address().port}`,
		'ECONNRESET',
		'The connection to the server was closed unexpectedly, perhaps it is offline. You can retry the request immediately or wait and retry later.',
	],
};

test.each(Object.entries(CASES))(
	'credential test: %s',
	async (_, [baseUrl, onV2, onV1 = onV2, apiKey = DEMO_API_KEY]) => {
		const message = V1 ? onV1 : onV2;
		const result = await testButton({ apiKey, baseUrl: await baseUrl() });
		expect(result).toEqual({ status: message === OK ? 'OK' : 'Error', message });
	},
);

test('credential test: http to a host other than this machine is refused before sending', async () => {
	const baseUrl = `http://0.0.0.0:${new URL(other.url).port}`;
	const before = other.requests.length;

	expect(await testButton({ apiKey: DEMO_API_KEY, baseUrl })).toEqual({
		status: 'Error',
		message: httpsRequired(baseUrl),
	});
	expect(other.requests.length).toBe(before);
});
