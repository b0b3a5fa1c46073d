import { pause as sleep } from '../../support/pause.mjs';

import { CallKaroApiError } from '../../../src/client/errors';
import { CallKaroInputError } from '../../../src/input/inputError';
import type { CallKaroApiErrorDetails } from '../../../src/client/errors';
import {
	certainlyNotPlaced,
	createSerializer,
	dayWindow,
	guardKey,
} from '../../../src/guard/guard';

const NOW = new Date('2026-11-22T20:00:00Z'); // 23 Nov 01:30 in India, 22 Nov 15:00 in New York
const SUBJECT = { target: 'agent_1', toNumber: '+919876543210' };

function apiError(details: Partial<CallKaroApiErrorDetails>): CallKaroApiError {
	return new CallKaroApiError('failed', {
		kind: 'bad-request',
		attempts: 1,
		outcomeUnknown: false,
		...details,
	});
}

describe('guardKey', () => {
	it('is the history name, the agent or workflow, and the number: once ever', () => {
		expect(guardKey(SUBJECT, { kind: 'ever' }, '', NOW)).toBe('|agent_1|+919876543210');
		expect(guardKey(SUBJECT, { kind: 'ever' }, ' spring ', NOW)).toBe(
			'spring|agent_1|+919876543210',
		);
	});

	it('adds the calendar day of the run in the chosen zone: once per day', () => {
		expect(guardKey(SUBJECT, dayWindow('Asia/Kolkata', 'Day Time Zone'), '', NOW)).toBe(
			'|agent_1|+919876543210|2026-11-23',
		);
		expect(guardKey(SUBJECT, dayWindow('America/New_York', 'Day Time Zone'), '', NOW)).toBe(
			'|agent_1|+919876543210|2026-11-22',
		);
	});

	it('takes the day of a scheduled call, not of the run', () => {
		const scheduled = { ...SUBJECT, scheduledFor: new Date('2026-12-01T04:00:00Z') };
		expect(guardKey(scheduled, dayWindow('Asia/Kolkata', 'Day Time Zone'), '', NOW)).toBe(
			'|agent_1|+919876543210|2026-12-01',
		);
	});

	it('refuses a zone that does not exist, naming the field', () => {
		expect(() => dayWindow('Mars/Olympus', 'Day Time Zone')).toThrow(
			'"Day Time Zone" is not a time zone: "Mars/Olympus". Use an IANA zone name such as Asia/Kolkata or Europe/London.',
		);
	});
});

describe('certainlyNotPlaced', () => {
	it.each([
		['bad input', new CallKaroInputError('Phone Number', 'bad')],
		['a 400', apiError({ httpStatus: 400 })],
		['a 404', apiError({ kind: 'not-found', httpStatus: 404 })],
		['a 429 after the last attempt', apiError({ kind: 'rate-limited', httpStatus: 429 })],
		['a refused connection', apiError({ kind: 'network' })],
	])('gives the key back after %s', (_, error) => {
		expect(certainlyNotPlaced(error)).toBe(true);
	});

	it.each([
		['a 5xx', apiError({ kind: 'service-failure', httpStatus: 500, outcomeUnknown: true })],
		['a lost answer', apiError({ kind: 'network', outcomeUnknown: true })],
		['a 4xx after an earlier 5xx', apiError({ httpStatus: 400, outcomeUnknown: true })],
		[
			'a 2xx it could not read',
			apiError({ kind: 'unexpected-response', httpStatus: 200, outcomeUnknown: true }),
		],
		['a redirect', apiError({ kind: 'unexpected-response', httpStatus: 302 })],
		['any other error', new Error('bug')],
	])('keeps the key after %s', (_, error) => {
		expect(certainlyNotPlaced(error)).toBe(false);
	});
});

describe('createSerializer', () => {
	it('runs one task at a time, in order, and goes on after a failure', async () => {
		const serialize = createSerializer();
		const events: string[] = [];
		const task =
			(name: string, fail = false) =>
			async () => {
				events.push(`${name} start`);
				await sleep(0);
				events.push(`${name} end`);
				if (fail) throw new Error(name);
				return name;
			};
		const results = await Promise.allSettled([
			serialize(task('a')),
			serialize(task('b', true)),
			serialize(task('c')),
		]);
		expect(events).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
		expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
	});
});
