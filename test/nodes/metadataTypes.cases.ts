// The documented rule for metadata values: what is typed into a Value field is text, as n8n gives
// it ("42"); an expression keeps its type ({{ 42 }} and {{ $json.score }} send numbers).
import { OUTBOUND_CALL } from '../engine/callKaroNodes';
import { freshNumber, runNode, useSandbox } from './fixtures';

describe('Outbound Call metadata values', () => {
	const sandbox = useSandbox();

	it('sends typed text as text and an expression with its own type', async () => {
		await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: {
				agentId: 'agent_sales_01',
				phoneNumber: freshNumber(),
				additionalFields: {
					metadata: {
						entry: [
							{ key: 'typed', value: '42' },
							{ key: 'literal', value: '={{ 42 }}' },
							{ key: 'mapped', value: '={{ $json.score }}' },
							{ key: 'mappedText', value: '={{ $json.code }}' },
						],
					},
				},
			},
			items: [{ score: 7, code: '007' }],
		});

		const [call] = sandbox().state.calls;
		expect(call.options).toEqual({
			metadata: { typed: '42', literal: 42, mapped: 7, mappedText: '007' },
		});
	});
});
