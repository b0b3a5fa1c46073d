// Refusals that every CallKaro endpoint taking an X-API-KEY and an agent answers alike (Outbound
// Call, Delete Scheduled Call, Create Campaign), for the rows of the action-node contract.
import { OTHER_API_KEY } from '../../sandbox/sandbox.mjs';
import { HINTS, WRONG_API_KEY } from '../fixtures';
import type { ApiErrorCase } from './contract';

/** `notFound`: the hint under a 404 (Delete explains what 404 means there). */
export function agentEndpointRefusals(notFound: string = HINTS.notFound): ApiErrorCase[] {
	return [
		{
			title: '403 invalid key',
			httpCode: '403',
			apiKey: WRONG_API_KEY,
			message: 'The API key was missing or not accepted (HTTP 403): Missing X-API-KEY in headers',
			kind: 'auth',
			serviceMessage: 'Missing X-API-KEY in headers',
			description: HINTS.auth,
			allFail: true,
		},
		{
			title: '403 missing key',
			httpCode: '403',
			apiKey: '',
			message: 'The API key was missing or not accepted (HTTP 403): Missing X-API-KEY in headers',
			kind: 'auth',
			serviceMessage: 'Missing X-API-KEY in headers',
			description: HINTS.auth,
			allFail: true,
		},
		{
			title: '404 unknown agent',
			httpCode: '404',
			refused: () => ({ agentId: 'agent_gone_99' }),
			message: 'Not found (HTTP 404): Agent does not exist',
			kind: 'not-found',
			serviceMessage: 'Agent does not exist',
			description: notFound,
		},
		{
			title: "404 an agent of another account's key",
			httpCode: '404',
			apiKey: OTHER_API_KEY,
			message: 'Not found (HTTP 404): Agent does not exist',
			kind: 'not-found',
			serviceMessage: 'Agent does not exist',
			description: notFound,
			allFail: true,
		},
	];
}

/**
 * A 429 asking to wait longer than the node waits (30 s), on the last item: such a Retry-After
 * still holds back every request after it for the whole Retry-After (the shared 429 pause).
 */
export function rateLimitedBeyondWait(retryAfterSeconds: number): ApiErrorCase {
	return {
		title: '429 asking to wait longer than the node waits',
		httpCode: '429',
		failingItem: 2,
		faults: { sequence: ['ok', 'ok', '429'], retryAfterSeconds },
		message: `Rate limited by CallKaro (HTTP 429); it asked to wait ${retryAfterSeconds} s, longer than the 30 s this node waits: Too many requests`,
		kind: 'rate-limited',
		serviceMessage: 'Too many requests',
		description: HINTS.rateLimited,
	};
}
