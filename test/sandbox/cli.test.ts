import { call } from './helpers';
import { demoData } from './sandbox.mjs';
import { runCli, writeTempJson } from './testUtils.mjs';

describe('npm run sandbox (cli.mjs)', () => {
	// What the CLI does, not how fast: the waits are generous (a loaded machine starts Node slowly).
	test.each(['SIGTERM', 'SIGINT'] as const)(
		'starts, prints its base URL, answers, and exits with code 0 on %s',
		async (signal) => {
			const cli = await runCli(['--port', '0', '--run-duration-ms', '0']);
			try {
				expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
				const res = await call(cli.url as string, '/workflow/assign', {
					to_number: '+919876543210',
					workflow_id: 'wf_welcome',
				});
				expect(res.status).toBe(200);
			} finally {
				expect(await cli.stop(signal)).toEqual({ code: 0, signal: null });
			}
		},
	);

	test('a signal sent as soon as the base URL is printed still stops it with code 0', async () => {
		const cli = await runCli(['--port', '0']);
		expect(await cli.stop('SIGTERM')).toEqual({ code: 0, signal: null });
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
