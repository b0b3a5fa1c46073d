import { call } from './helpers';
import { demoData } from './sandbox.mjs';
import { runCli, writeTempJson } from './testUtils.mjs';

describe('npm run sandbox (cli.mjs)', () => {
	test('starts in under a second, prints its base URL, answers, and stops on SIGTERM', async () => {
		const cli = await runCli(['--port', '0', '--run-duration-ms', '0']);
		try {
			expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			expect(cli.startupMs).toBeLessThan(1000);
			const res = await call(cli.url as string, '/workflow/assign', {
				to_number: '+919876543210',
				workflow_id: 'wf_welcome',
			});
			expect(res.status).toBe(200);
		} finally {
			expect(await cli.stop()).toBe(0);
		}
	});

	test('--data, --dialect and --latency-ms are applied', async () => {
		const data = demoData();
		data.accounts[0].agents = [{ id: 'agent_from_file' }];
		const file = writeTempJson(data);
		const cli = await runCli([
			'--port',
			'0',
			'--data',
			file,
			'--dialect',
			'docs',
			'--latency-ms',
			'60',
		]);
		try {
			const started = Date.now();
			const res = await call(cli.url as string, '/call/outbound', {
				to_number: '+919876543210',
				agent_id: 'agent_from_file',
			});
			expect(Date.now() - started).toBeGreaterThanOrEqual(55);
			expect(res.body).toMatchObject({ status: 'done', message: 'Call queued successfully' });
			expect(cli.output()).toContain(file);
		} finally {
			await cli.stop();
		}
	});

	test.each([
		['a data file that is not JSON', () => ['--data', writeTempJson('{ nope')], /not valid JSON/],
		[
			'a data file that breaks the format',
			() => ['--data', writeTempJson({ accounts: [{ apiKey: '' }] })],
			/apiKey must be a non-empty string/,
		],
		['a missing data file', () => ['--data', '/nonexistent/data.json'], /cannot read data file/],
		['an unknown option', () => ['--bogus'], /unknown option --bogus/],
	])('%s: exits with code 2 and a clear message', async (_label, args, message) => {
		const cli = await runCli(['--port', '0', ...args()]);
		expect(cli.url).toBeNull();
		expect(cli.exitCode).toBe(2);
		expect(cli.output()).toMatch(message);
	});

	test('--help prints the options', async () => {
		const cli = await runCli(['--help']);
		expect(cli.exitCode).toBe(0);
		expect(cli.output()).toContain('--run-duration-ms');
	});
});
