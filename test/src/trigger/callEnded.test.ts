import {
	CALL_OUTCOMES,
	HANGUP_REASON_OUTCOMES,
	RECENT_CALL_IDS_LIMIT,
	filterMismatch,
	istTimeToIso,
	normaliseCallEnded,
	outcomeOf,
	readWebhookEvent,
	rememberCallId,
	secretMatches,
	splitList,
} from '../../../src/trigger/callEnded';
import type { CallEnded } from '../../../src/trigger/callEnded';
import { callEndedData } from '../../support/callEnded';

describe('outcome groups (public docs §5)', () => {
	test.each([
		['CLIENT_INITIATED', 'connected'],
		['PARTICIPANT_REMOVED', 'connected'],
		['SESSION_TIMEOUT', 'connected'],
		['VOICEMAIL_DETECTED', 'voicemail'],
		['USER_REJECTED', 'notReached'],
		['USER_UNAVAILABLE', 'notReached'],
		['USER_UNRESPONSIVE', 'notReached'],
		['INVALID_PHONE_NUMBER', 'notReached'],
		['UNKNOWN', 'other'],
		['OUTSIDE_TRIGGER_WINDOW', 'other'],
		['DELETED_SCH_CALL_ALL', 'other'],
		['DELETED_SCH_CALL_ONE', 'other'],
		['PRE_CALL_FN_FAILED', 'other'],
	])('%s is %s', (reason, outcome) => {
		expect(outcomeOf(reason)).toBe(outcome);
		expect(normaliseCallEnded(callEndedData({ hangup_reason: reason })).outcome).toBe(outcome);
	});

	it('covers exactly the 13 documented reasons, each in a known group', () => {
		expect(Object.keys(HANGUP_REASON_OUTCOMES)).toHaveLength(13);
		for (const outcome of Object.values(HANGUP_REASON_OUTCOMES))
			expect(CALL_OUTCOMES).toContain(outcome);
	});

	test.each([
		['lower case', 'voicemail_detected', 'voicemail'],
		['surrounding spaces', '  USER_REJECTED ', 'notReached'],
		['an undocumented reason', 'CARRIER_CONGESTION', 'other'],
		['empty', '', 'other'],
		['null', null, 'other'],
		['undefined', undefined, 'other'],
		['an Object.prototype key', 'constructor', 'other'],
	])('%s', (_case, reason, outcome) => {
		expect(outcomeOf(reason)).toBe(outcome);
	});
});

describe('istTimeToIso', () => {
	test.each([
		['the documented format', '2026-11-21 15:04:05', '2026-11-21T15:04:05.000+05:30'],
		['T instead of a space', '2026-11-21T15:04:05', '2026-11-21T15:04:05.000+05:30'],
		['without seconds', '2026-11-21 15:04', '2026-11-21T15:04:00.000+05:30'],
		['with milliseconds', '2026-11-21 15:04:05.123', '2026-11-21T15:04:05.123+05:30'],
		['surrounding spaces', ' 2026-11-21 15:04:05 ', '2026-11-21T15:04:05.000+05:30'],
		['midnight IST (previous day in UTC)', '2026-11-21 00:00:00', '2026-11-21T00:00:00.000+05:30'],
		[
			'early morning IST (previous day in UTC)',
			'2026-11-21 02:30:00',
			'2026-11-21T02:30:00.000+05:30',
		],
		['the last second of a year', '2026-12-31 23:59:59', '2026-12-31T23:59:59.000+05:30'],
		['New Year just after midnight IST', '2027-01-01 00:10:00', '2027-01-01T00:10:00.000+05:30'],
		['a leap day', '2028-02-29 12:00:00', '2028-02-29T12:00:00.000+05:30'],
		[
			'with Z: the instant is kept, shown in IST',
			'2026-11-20T21:00:00Z',
			'2026-11-21T02:30:00.000+05:30',
		],
		['with an offset', '2026-11-21T10:34:05+01:00', '2026-11-21T15:04:05.000+05:30'],
	])('%s', (_case, input, expected) => {
		expect(istTimeToIso(input)).toBe(expected);
	});

	it('gives the same instant as UTC arithmetic across the day boundary', () => {
		const iso = istTimeToIso('2026-11-21 02:30:00');
		expect(new Date(iso!).toISOString()).toBe('2026-11-20T21:00:00.000Z');
	});

	test.each([
		['not a date', 'yesterday'],
		['a day that does not exist', '2026-02-30 10:00:00'],
		['hour 24', '2026-11-21 24:00:00'],
		['only a date', '2026-11-21'],
		['ISO week date', '2026-W47-6'],
		['empty', ''],
		['a number', 1763717645],
		['null', null],
		['an object', { time: '2026-11-21 15:04:05' }],
	])('%s gives null', (_case, input) => {
		expect(istTimeToIso(input)).toBeNull();
	});
});

describe('normaliseCallEnded', () => {
	it('normalises the documented payload', () => {
		expect(normaliseCallEnded(callEndedData())).toEqual<CallEnded>({
			callId: 'sid-0001',
			agentId: 'agent_sales_01',
			to: '+919876543210',
			from: '+918069000000',
			callType: 'outbound-api',
			outcome: 'connected',
			hangupReason: 'CLIENT_INITIATED',
			durationSeconds: 42,
			batchId: 'batch_01',
			metadata: { orderId: 'A-17', amount: 499 },
			endedAt: '2026-11-21T15:04:05.000+05:30',
		});
	});

	it('gives null (and {} metadata, outcome other) for an empty data object', () => {
		expect(normaliseCallEnded({})).toEqual<CallEnded>({
			callId: null,
			agentId: null,
			to: null,
			from: null,
			callType: null,
			outcome: 'other',
			hangupReason: null,
			durationSeconds: null,
			batchId: null,
			metadata: {},
			endedAt: null,
		});
	});

	test.each([
		['numeric string duration', { call_duration: '37' }, { durationSeconds: 37 }],
		['fractional duration', { call_duration: 12.5 }, { durationSeconds: 12.5 }],
		['negative duration', { call_duration: -3 }, { durationSeconds: null }],
		['text duration', { call_duration: 'about a minute' }, { durationSeconds: null }],
		['NaN duration', { call_duration: Number.NaN }, { durationSeconds: null }],
		['null duration', { call_duration: null }, { durationSeconds: null }],
		['numeric callSid', { callSid: 12345 }, { callId: '12345' }],
		['blank batchId', { batchId: '  ' }, { batchId: null }],
		['null batchId', { batchId: null }, { batchId: null }],
		['empty to', { to: '' }, { to: null }],
		['trimmed agent', { agent: ' agent_sales_01 ' }, { agentId: 'agent_sales_01' }],
		['object agent', { agent: { id: 'x' } }, { agentId: null }],
		[
			'metadata as JSON text',
			{ call_metadata: '{"orderId":"A-17"}' },
			{ metadata: { orderId: 'A-17' } },
		],
		['metadata as other text', { call_metadata: 'orderId=A-17' }, { metadata: {} }],
		['metadata as an array', { call_metadata: ['a'] }, { metadata: {} }],
		['metadata null', { call_metadata: null }, { metadata: {} }],
		['odd time', { time: '21/11/2026 15:04' }, { endedAt: null }],
		['time as a number', { time: 1763717645 }, { endedAt: null }],
	])('%s', (_case, overrides, expected) => {
		expect(normaliseCallEnded(callEndedData(overrides))).toMatchObject(expected);
	});

	test.each([
		['call_sid', { callSid: undefined, call_sid: 'sid_snake' }, { callId: 'sid_snake' }],
		['call_id', { callSid: undefined, call_id: 'id_snake' }, { callId: 'id_snake' }],
		['agent_id', { agent: undefined, agent_id: 'agent_x' }, { agentId: 'agent_x' }],
		['batch_id', { batchId: undefined, batch_id: 'b_x' }, { batchId: 'b_x' }],
		['metadata', { call_metadata: undefined, metadata: { k: 1 } }, { metadata: { k: 1 } }],
		[
			'hangupReason',
			{ hangup_reason: undefined, hangupReason: 'USER_REJECTED' },
			{ outcome: 'notReached' },
		],
		[
			'the documented name wins',
			{ callSid: 'documented', call_sid: 'other' },
			{ callId: 'documented' },
		],
	])('reads the alias %s', (_case, overrides, expected) => {
		expect(normaliseCallEnded(callEndedData(overrides))).toMatchObject(expected);
	});
});

describe('readWebhookEvent', () => {
	it('reads call_ended with the raw data kept as is', () => {
		const data = callEndedData();
		const event = readWebhookEvent({ event: 'call_ended', data });
		expect(event).toMatchObject({ kind: 'callEnded', event: 'call_ended', data });
		if (event.kind === 'callEnded') expect(event.call.callId).toBe(data.callSid);
	});

	it('tolerates extra envelope fields and an event name with spaces', () => {
		expect(readWebhookEvent({ event: ' call_ended ', data: {}, sentAt: 'x' }).kind).toBe(
			'callEnded',
		);
	});

	test.each([['call_started'], ['CALL_ENDED'], ['transcript_ready'], ['']])(
		'%p is another event',
		(name) => {
			expect(readWebhookEvent({ event: name, data: {} })).toEqual({
				kind: 'otherEvent',
				event: name.trim(),
			});
		},
	);

	test.each([
		['null', null],
		['an array', [{ event: 'call_ended', data: {} }]],
		['a string', 'call_ended'],
		['no event', { data: callEndedData() }],
		['a numeric event', { event: 1, data: {} }],
		['call_ended without data', { event: 'call_ended' }],
		['call_ended with data null', { event: 'call_ended', data: null }],
		['call_ended with data as an array', { event: 'call_ended', data: [callEndedData()] }],
		['call_ended with data as text', { event: 'call_ended', data: 'x' }],
	])('%s is invalid', (_case, body) => {
		expect(readWebhookEvent(body).kind).toBe('invalid');
	});
});

describe('filters', () => {
	const call = normaliseCallEnded(callEndedData());

	it('passes with no filters', () => {
		expect(filterMismatch(call, {})).toBeNull();
		expect(
			filterMismatch(call, { agentIds: [], callTypes: [], outcomes: [], batchId: '  ' }),
		).toBeNull();
	});

	test.each([
		['agent listed', { agentIds: ['other', 'agent_sales_01'] }, null],
		['agent not listed', { agentIds: ['other'] }, 'agent agent_sales_01 is not in Agent IDs'],
		['call type listed', { callTypes: ['outbound-api', 'inbound'] }, null],
		[
			'call type not listed',
			{ callTypes: ['inbound'] },
			'call type outbound-api is not in Call Types',
		],
		['outcome listed', { outcomes: ['connected'] }, null],
		[
			'outcome not listed',
			{ outcomes: ['voicemail', 'notReached'] },
			'outcome connected is not in Outcomes',
		],
		['same campaign', { batchId: ' batch_01 ' }, null],
		['other campaign', { batchId: 'batch_02' }, 'campaign batch_01 is not batch_02'],
		[
			'all match',
			{
				agentIds: ['agent_sales_01'],
				callTypes: ['outbound-api'],
				outcomes: ['connected'],
				batchId: 'batch_01',
			},
			null,
		],
	])('%s', (_case, filters, expected) => {
		expect(filterMismatch(call, filters)).toBe(expected);
	});

	it('drops a call without the filtered field', () => {
		const bare = normaliseCallEnded({ hangup_reason: 'USER_REJECTED' });
		expect(filterMismatch(bare, { agentIds: ['a'] })).toBe('agent (none) is not in Agent IDs');
		expect(filterMismatch(bare, { callTypes: ['inbound'] })).toBe(
			'call type (none) is not in Call Types',
		);
		expect(filterMismatch(bare, { batchId: 'b' })).toBe('campaign (none) is not b');
		expect(filterMismatch(bare, { outcomes: ['notReached'] })).toBeNull();
	});

	test.each([
		['comma-separated', 'a, b,c', ['a', 'b', 'c']],
		['new lines and blanks', 'a\n\n b ,, ', ['a', 'b']],
		['empty', '', []],
		['undefined', undefined, []],
		['an array (from an expression)', ['a', ' b, c '], ['a', 'b', 'c']],
	])('splitList: %s', (_case, input, expected) => {
		expect(splitList(input)).toEqual(expected);
	});
});

describe('rememberCallId', () => {
	it('reports a repeat and keeps one entry per call, newest last', () => {
		const first = rememberCallId(undefined, 'a');
		expect(first).toEqual({ repeat: false, recent: ['a'] });
		const second = rememberCallId(['a', 'b'], 'a');
		expect(second).toEqual({ repeat: true, recent: ['b', 'a'] });
	});

	it('keeps at most the limit, dropping the oldest', () => {
		const ids = Array.from({ length: RECENT_CALL_IDS_LIMIT }, (_v, i) => `id${i}`);
		const next = rememberCallId(ids, 'new');
		expect(next.recent).toHaveLength(RECENT_CALL_IDS_LIMIT);
		expect(next.recent[0]).toBe('id1');
		expect(next.recent.at(-1)).toBe('new');
		expect(rememberCallId(next.recent, 'id0').repeat).toBe(false);
		expect(rememberCallId(['x', 'y', 'z'], 'w', 2).recent).toEqual(['z', 'w']);
	});

	it('ignores whatever else was stored', () => {
		expect(rememberCallId('not a list', 'a')).toEqual({ repeat: false, recent: ['a'] });
		expect(rememberCallId([1, null, 'a'], 'a')).toEqual({ repeat: true, recent: ['a'] });
	});
});

describe('secretMatches', () => {
	test.each([
		['equal', 's3cr3t-value', 's3cr3t-value', true],
		['different', 's3cr3t-value', 's3cr3t-valuE', false],
		['a prefix', 's3cr3t', 's3cr3t-value', false],
		['longer', 's3cr3t-value-and-more', 's3cr3t-value', false],
		['empty received', '', 's3cr3t-value', false],
		['missing', undefined, 's3cr3t-value', false],
		['non-ASCII equal', 'geheim-ä-✓', 'geheim-ä-✓', true],
	])('%s', (_case, received, expected, result) => {
		expect(secretMatches(received, expected)).toBe(result);
	});
});
