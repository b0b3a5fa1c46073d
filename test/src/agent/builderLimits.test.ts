import { refuseModelDefinedLimit } from '../../../src/agent/builderLimits';

describe('a limit left to the model', () => {
	const FIX = 'Type the number in the node';

	it.each([
		"={{ $fromAI('max', 'how many', 'number') }}",
		"={{ $fromAi('max') }}",
		"={{ $fromai('max') }}",
		// n8n 1.x strips the = of a field without expressions, and still finds the call
		"{{ $fromAI('max') }}",
		"={{ $json.limit || $fromAI('max') }}",
	])('is refused however n8n spells it: %s', (value) => {
		expect(() => refuseModelDefinedLimit(value, 'Max Calls per Execution', FIX)).toThrow(
			'"Max Calls per Execution" is left to the model ($fromAI), though it is a limit on the model. Type the number in the node; the model cannot change a fixed setting.',
		);
	});

	it.each([3, '3', '={{ 3 }}', "={{ $('Webhook').item.json.body.phone }}", '', undefined])(
		'a value the builder set passes: %s',
		(value) => {
			expect(() => refuseModelDefinedLimit(value, 'Allowed Numbers', FIX)).not.toThrow();
		},
	);
});
