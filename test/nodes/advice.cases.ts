// The advice of a refusal, as the error item carries it, followed into the node's parameters.
import { ASSIGN_WORKFLOW } from '../engine/callKaroNodes';
import { followAdvice } from './advice';

describe('followAdvice', () => {
	it('puts an expression in a top-level field, and adds an entry to an option list', () => {
		const parameters = {
			phoneNumber: '={{ $json.phone }}',
			options: { attributeKeysToLeaveOut: 'a' },
		};
		expect(
			followAdvice(ASSIGN_WORKFLOW, parameters, {
				field: 'Phone Number',
				set: '{{ $json.mobile }}',
			}),
		).toMatchObject({ phoneNumber: '={{ $json.mobile }}' });
		expect(
			followAdvice(ASSIGN_WORKFLOW, parameters, {
				field: 'Attribute Keys to Leave Out',
				add: 'b.c',
			}),
		).toMatchObject({ options: { attributeKeysToLeaveOut: 'a, b.c' } });
		expect(parameters.options.attributeKeysToLeaveOut).toBe('a');
	});

	it('refuses advice that names no field of the node', () => {
		expect(() => followAdvice(ASSIGN_WORKFLOW, {}, { field: 'Nothing Such', set: 'x' })).toThrow(
			'no field',
		);
	});
});
