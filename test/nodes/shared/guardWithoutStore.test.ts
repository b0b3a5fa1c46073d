// The duplicate-call guard where n8n offers no working store: it fails with a clear error and
// never places a call unguarded. This file gives n8n-core no store implementation on purpose.
import * as deduplicationHelpers from 'n8n-core/dist/execution-engine/node-execution-context/utils/deduplication-helper-functions';
import type { DeduplicationHelperFunctions } from 'n8n-workflow';

import { OUTBOUND_CALL } from '../../engine/callKaroNodes';
import {
	NODE_NAME,
	apiRequests,
	freshNumbers,
	runNode,
	useSandbox,
	workflowError,
} from '../fixtures';
import type { Sandbox } from '../fixtures';

const DESCRIPTION =
	'The option needs n8n\'s store of processed items (n8n 1.64 or later). Update n8n, or turn "Skip Numbers Called Before" off to send without it.';

function guardedCalls(sandbox: Sandbox, continueOnFail = false) {
	return runNode(sandbox, {
		type: OUTBOUND_CALL,
		parameters: { agentId: 'agent_sales_01', phoneNumber: '={{ $json.phone }}', skipBefore: true },
		items: freshNumbers(2).map((phone) => ({ phone })),
		mode: 'webhook',
		settings: { continueOnFail },
	});
}

describe('Skip Numbers Called Before without a store', () => {
	const sandbox = useSandbox();

	it('fails, sending nothing, when the store does not answer', async () => {
		const result = await guardedCalls(sandbox());

		const error = workflowError(result);
		expect(error.message).toBe(
			'"Skip Numbers Called Before" cannot work: n8n\'s store of processed items failed (Instance needs to initialized before use. Make sure to call init()). Nothing was sent',
		);
		expect(error.description).toBe(`0 of 2 calls were placed. ${DESCRIPTION}`);
		expect(apiRequests(sandbox())).toEqual([]);
	});

	it('fails every item, sending nothing, on an n8n without the store (before 1.64)', async () => {
		jest
			.spyOn(deduplicationHelpers, 'getDeduplicationHelperFunctions')
			.mockReturnValue({} as DeduplicationHelperFunctions);

		const result = await guardedCalls(sandbox(), true);

		const message =
			'"Skip Numbers Called Before" cannot work: this n8n has no store of processed items. Nothing was sent';
		// not an error of a request, so its details say only what the node knows
		const details = {
			kind: 'other',
			httpStatus: null,
			serviceMessage: null,
			attempts: null,
			outcomeUnknown: null,
			description: DESCRIPTION,
		};
		expect(result.json(NODE_NAME)).toEqual([
			{ error: message, details },
			{ error: message, details },
		]);
		expect(apiRequests(sandbox())).toEqual([]);
	});
});
