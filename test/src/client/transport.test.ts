import { networkFailureKind, TransportError } from '../../../src/client/transport';

function errorWithCode(code: string, message = code): Error {
	return Object.assign(new Error(message), { code });
}

describe('networkFailureKind', () => {
	test.each([
		['ECONNREFUSED', errorWithCode('ECONNREFUSED'), 'not-sent'],
		['ENOTFOUND', errorWithCode('ENOTFOUND'), 'not-sent'],
		['EAI_AGAIN', errorWithCode('EAI_AGAIN'), 'not-sent'],
		['EHOSTUNREACH', errorWithCode('EHOSTUNREACH'), 'not-sent'],
		['ENETUNREACH', errorWithCode('ENETUNREACH'), 'not-sent'],
		['undici connect timeout', errorWithCode('UND_ERR_CONNECT_TIMEOUT'), 'not-sent'],
		[
			'code on the cause (fetch)',
			new TypeError('fetch failed', { cause: errorWithCode('ECONNREFUSED') }),
			'not-sent',
		],
		['ECONNRESET', errorWithCode('ECONNRESET'), 'no-answer'],
		['ETIMEDOUT', errorWithCode('ETIMEDOUT'), 'no-answer'],
		['axios timeout', errorWithCode('ECONNABORTED'), 'no-answer'],
		['socket hang up', errorWithCode('ECONNRESET', 'socket hang up'), 'no-answer'],
		['undici socket error', errorWithCode('UND_ERR_SOCKET'), 'no-answer'],
		['no code', new Error('something broke'), 'no-answer'],
		['not an error', 'boom', 'no-answer'],
		['AbortError', Object.assign(new Error('aborted'), { name: 'AbortError' }), 'aborted'],
		['ABORT_ERR', errorWithCode('ABORT_ERR'), 'aborted'],
		['axios cancel', errorWithCode('ERR_CANCELED'), 'aborted'],
		['a TransportError keeps its kind', new TransportError('not-sent', 'refused'), 'not-sent'],
	])('%s -> %s', (_case, error, kind) => {
		expect(networkFailureKind(error)).toBe(kind);
	});
});

test('TransportError keeps its kind, message and cause', () => {
	const cause = errorWithCode('ECONNRESET');
	const error = new TransportError('no-answer', 'socket hang up', { cause });
	expect(error).toMatchObject({
		name: 'TransportError',
		kind: 'no-answer',
		message: 'socket hang up',
		cause,
	});
});
