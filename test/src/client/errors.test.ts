import { CallKaroApiError, classifyStatus, parseRetryAfter } from '../../../src/client/errors';
import { CallKaroInputError, invalidInput } from '../../../src/input/inputError';

describe('classifyStatus', () => {
	test.each([
		[400, 'bad-request'],
		[401, 'auth'],
		[403, 'auth'],
		[404, 'not-found'],
		[409, 'already-running'],
		[429, 'rate-limited'],
		[500, 'service-failure'],
		[502, 'service-failure'],
		[503, 'service-failure'],
		[599, 'service-failure'],
		[418, 'unexpected-response'],
		[422, 'unexpected-response'],
		[302, 'unexpected-response'],
		[600, 'unexpected-response'],
	])('%i -> %s', (status, kind) => {
		expect(classifyStatus(status)).toBe(kind);
	});
});

describe('parseRetryAfter', () => {
	const now = new Date('2026-11-22T04:00:00Z');

	test.each([
		['seconds', '2', 2000],
		['zero seconds', '0', 0],
		['seconds with spaces', ' 120 ', 120_000],
		['an HTTP date', 'Sun, 22 Nov 2026 04:00:30 GMT', 30_000],
		['an HTTP date in the past', 'Sun, 22 Nov 2026 03:59:00 GMT', 0],
		['an RFC 850 date', 'Sunday, 22-Nov-26 04:01:00 GMT', 60_000],
		['missing', undefined, undefined],
		['empty', '', undefined],
		['garbage', 'soon', undefined],
		['a negative number', '-5', undefined],
		['a fraction', '1.5', undefined],
		['an ISO date', '2026-11-22T04:00:30Z', undefined],
	])('%s: %p -> %p', (_case, header, ms) => {
		expect(parseRetryAfter(header, now)).toBe(ms);
	});
});

describe('error classes', () => {
	test('invalidInput names the field in quotes, then the problem and the fix', () => {
		const error = invalidInput(
			'Priority',
			'must be a whole number, but is 1.5',
			'Change the value',
		);
		expect(error).toBeInstanceOf(CallKaroInputError);
		expect(error.field).toBe('Priority');
		expect(error.message).toBe('"Priority" must be a whole number, but is 1.5. Change the value.');
	});

	test('CallKaroApiError keeps its details', () => {
		const error = new CallKaroApiError('Not found (HTTP 404): Agent does not exist', {
			kind: 'not-found',
			httpStatus: 404,
			serviceMessage: 'Agent does not exist',
			attempts: 1,
			outcomeUnknown: false,
			body: { status: 'error' },
		});
		expect(error).toBeInstanceOf(Error);
		expect(error).toMatchObject({
			name: 'CallKaroApiError',
			message: 'Not found (HTTP 404): Agent does not exist',
			kind: 'not-found',
			httpStatus: 404,
			serviceMessage: 'Agent does not exist',
			retryAfterMs: undefined,
			attempts: 1,
			outcomeUnknown: false,
			body: { status: 'error' },
		});
	});
});
