import { applyAttributes, checkValue, isParseableDate, normaliseKey } from './attributes.mjs';
import { multipartBoundary, parseBody, parseMultipart } from './bodies.mjs';
import { parseArgs } from './cliArgs.mjs';
import { DataError, buildAccounts } from './data.mjs';
import { DEMO_DATA, demoData } from './demoData.mjs';
import { maskKey } from './engine.mjs';
import { mulberry32 } from './faults.mjs';
import { isLoopback } from './server.mjs';
import { formatIst, parseScheduleAt } from './validate.mjs';

describe('sandbox building blocks (pure functions)', () => {
	test('schedule_at is read as IST, a fixed UTC+05:30', () => {
		expect(parseScheduleAt('2026-01-05T10:00:00')).toBe(Date.UTC(2026, 0, 5, 4, 30, 0));
		expect(parseScheduleAt('2026-01-01T02:00:00')).toBe(Date.UTC(2025, 11, 31, 20, 30, 0));
		expect(formatIst(Date.UTC(2026, 0, 5, 4, 30, 0))).toBe('2026-01-05T10:00:00');
		expect(parseScheduleAt('2026-01-05T10:00:00Z')).toBeNull();
	});

	test('normaliseKey drops case, white space, underscores and hyphens', () => {
		expect(normaliseKey(' Lead_Score-Value\t')).toBe('leadscorevalue');
	});

	test('isParseableDate accepts dates, refuses bare numbers and impossible days', () => {
		expect(
			['2026-03-12', '2026-03-12T10:00', '2026-03-12 10:00:00+05:30', 'March 12, 2026'].map(
				isParseableDate,
			),
		).toEqual([true, true, true, true]);
		expect(
			['1', '2026', '2026-02-29', '2026-04-31', 'tomorrow', '2026-03-12T25:00'].map(
				isParseableDate,
			),
		).toEqual([false, false, false, false, false, false]);
	});

	test('checkValue on a number attribute refuses Infinity-like strings', () => {
		expect(checkValue({ name: 'N', type: 'number' }, 'Infinity')).toEqual({
			ok: false,
			reason: 'N needs a number',
		});
	});

	test('a value saved through the API on an empty hand-typed attribute is no longer marked manual', () => {
		const contact = { values: {}, manual: ['City'] };
		const index = new Map([['city', { name: 'City', type: 'text' as const }]]);
		expect(applyAttributes(contact, [{ key: 'city', value: 'Goa' }], index).updated).toEqual([
			'city',
		]);
		expect(contact).toEqual({ values: { City: 'Goa' }, manual: [] });
	});

	test('mulberry32 is deterministic per seed and stays in [0, 1)', () => {
		const a = mulberry32(123);
		const b = mulberry32(123);
		const xs = Array.from({ length: 1000 }, () => a());
		expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
		expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
		expect(mulberry32(124)()).not.toBe(xs[0]);
	});

	test('maskKey keeps the first 4 and last 2 characters', () => {
		expect(maskKey('ck_demo_key_0123456789')).toBe('ck_d…89');
		expect(maskKey('short')).toBe('…');
	});

	test.each([
		['127.0.0.1', true],
		['127.5.6.7', true],
		['::1', true],
		['::ffff:127.0.0.1', true],
		['10.0.0.8', false],
		['::ffff:192.168.1.2', false],
		['fe80::1', false],
		[undefined, false],
	])('isLoopback(%p) is %p', (address, expected) => {
		expect(isLoopback(address)).toBe(expected);
	});

	test('the multipart parser reads text fields, skips files and handles a quoted boundary', () => {
		const body = Buffer.from(
			[
				'--b0',
				'Content-Disposition: form-data; name="to_number"',
				'',
				'+919876543210',
				'--b0',
				'Content-Disposition: form-data; name="upload"; filename="a.txt"',
				'Content-Type: text/plain',
				'',
				'file body',
				'--b0',
				'Content-Disposition: form-data; name="note"',
				'',
				'line one\r\nline two',
				'--b0--',
				'',
			].join('\r\n'),
		);
		expect(multipartBoundary('multipart/form-data; boundary="b0"')).toBe('b0');
		expect(parseMultipart(body, 'b0')).toEqual({
			to_number: '+919876543210',
			note: 'line one\r\nline two',
		});
		expect(parseMultipart(Buffer.from('--b0\r\nno headers end'), 'b0')).toBeNull();
		expect(parseBody('multipart/form-data', body)).toMatchObject({ ok: false });
	});

	test('parseBody: empty is {}, urlencoded is an object, JSON is tried without a content type', () => {
		expect(parseBody('application/json', Buffer.alloc(0))).toEqual({
			ok: true,
			value: {},
			kind: 'empty',
		});
		expect(
			parseBody('application/x-www-form-urlencoded', Buffer.from('to_number=%2B91&x=1')),
		).toEqual({
			ok: true,
			value: { to_number: '+91', x: '1' },
			kind: 'urlencoded',
		});
		expect(parseBody(undefined, Buffer.from('{"a":1}'))).toEqual({
			ok: true,
			value: { a: 1 },
			kind: 'json',
		});
		expect(parseBody('application/json', Buffer.from('\ufeff{"a":1}'))).toMatchObject({
			ok: true,
			value: { a: 1 },
		});
	});

	test('the demo data set is valid and has the accounts the rules need', () => {
		const accounts = buildAccounts(DEMO_DATA);
		expect(accounts.map((a) => [...a.workflows.keys()])).toEqual([
			['wf_welcome', 'wf_followup', 'wf_empty', 'wf_legacy'],
			['wf_other'],
		]);
		expect(accounts[0].contacts[0]).toEqual({
			number: '919876543210',
			values: { 'First Name': 'Asha', City: 'Pune' },
			manual: ['City'],
		});
		expect(demoData()).not.toBe(DEMO_DATA);
	});

	test.each([
		[
			'two accounts with one key',
			{ accounts: [{ apiKey: 'k' }, { apiKey: 'k' }] },
			/used by another account/,
		],
		[
			'enum without options',
			{ accounts: [{ apiKey: 'k', attributes: [{ name: 'P', type: 'enum' }] }] },
			/options must be a non-empty array/,
		],
		[
			'options on a text attribute',
			{ accounts: [{ apiKey: 'k', attributes: [{ name: 'P', type: 'text', options: ['a'] }] }] },
			/only allowed on an enum/,
		],
		[
			'attribute names that match',
			{
				accounts: [
					{
						apiKey: 'k',
						attributes: [
							{ name: 'First Name', type: 'text' },
							{ name: 'first_name', type: 'text' },
						],
					},
				],
			},
			/matches another attribute/,
		],
		[
			'workflow listed twice',
			{ accounts: [{ apiKey: 'k', workflows: [{ id: 'w' }, { id: 'w' }] }] },
			/listed twice/,
		],
		[
			'available not a boolean',
			{ accounts: [{ apiKey: 'k', workflows: [{ id: 'w', available: 'no' }] }] },
			/available must be a boolean/,
		],
		[
			'contact value for an unknown attribute',
			{ accounts: [{ apiKey: 'k', contacts: [{ number: '919811111111', values: { Age: 3 } }] }] },
			/"Age" is not an attribute/,
		],
		[
			'manual for an unknown attribute',
			{ accounts: [{ apiKey: 'k', contacts: [{ number: '919811111111', manual: ['Age'] }] }] },
			/"Age" is not an attribute/,
		],
		[
			'the same contact with and without +',
			{
				accounts: [
					{ apiKey: 'k', contacts: [{ number: '919811111111' }, { number: '+919811111111' }] },
				],
			},
			/listed twice/,
		],
		['not an object', [], /data must be an object/],
	])('the data file is checked: %s', (_label, data, message) => {
		expect(() => buildAccounts(data)).toThrow(DataError);
		expect(() => buildAccounts(data)).toThrow(message);
	});

	test('a data file may leave out attributes, workflows, agents, contacts, steps and available', () => {
		const [account] = buildAccounts({ accounts: [{ apiKey: 'k', workflows: [{ id: 'w' }] }] });
		expect(account.workflows.get('w')).toEqual({ id: 'w', steps: 1, available: true });
		expect(account.contacts).toEqual([]);
	});

	test('CLI options are parsed, with defaults port 4010 and the demo data', () => {
		expect(parseArgs([])).toEqual({ port: 4010 });
		expect(
			parseArgs([
				'--port',
				'0',
				'--host=0.0.0.0',
				'--data',
				'x.json',
				'--latency-ms',
				'20',
				'--jitter-ms',
				'5',
				'--dialect',
				'docs',
				'--run-duration-ms',
				'0',
				'--seed',
				'9',
				'--delete-not-found',
				'404',
				'--request-log-limit',
				'100',
				'--verbose',
			]),
		).toEqual({
			port: 0,
			host: '0.0.0.0',
			dataFile: 'x.json',
			latencyMs: 20,
			jitterMs: 5,
			dialect: 'docs',
			runDurationMs: 0,
			seed: 9,
			deleteNotFoundStatus: 404,
			requestLogLimit: 100,
			verbose: true,
		});
	});

	test.each([
		[['--port'], /needs a value/],
		[['--port', 'abc'], /whole number/],
		[['--port', '70000'], /at most 65535/],
		[['--dialect', 'live'], /spec or docs/],
		[['--delete-not-found', '500'], /200 or 404/],
		[['--colour'], /unknown option/],
	])('bad CLI options %p are refused', (argv, message) => {
		expect(() => parseArgs(argv)).toThrow(message);
	});
});
