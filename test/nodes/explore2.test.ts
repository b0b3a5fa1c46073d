import { testCredential } from '../engine/credentialTest';
import { useSandbox } from './fixtures';
import { DEMO_API_KEY } from '../sandbox/sandbox.mjs';

describe('explore', () => {
	const sandbox = useSandbox({ runDurationMs: 0 });
	it('cred', async () => {
		for (const baseUrl of [sandbox().url, `${sandbox().url}/__sandbox/health`, `${sandbox().url}/nope`, 'http://127.0.0.1:1']) {
			console.log(baseUrl, await testCredential({ apiKey: DEMO_API_KEY, baseUrl }));
		}
		console.log(await testCredential({ apiKey: 'ck_wrong_0000000', baseUrl: sandbox().url }));
		console.log(await testCredential({ apiKey: '', baseUrl: sandbox().url }));
		console.log(JSON.stringify(sandbox().state.requests.map(r => [r.path, r.status, r.headers['x-api-key']])));
	});
});
