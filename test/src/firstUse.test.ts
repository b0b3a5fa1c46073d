import { onFirstUse } from '../../src/firstUse';

describe('onFirstUse', () => {
	test('builds nothing until the value is first asked for', () => {
		const build = jest.fn(() => ({ built: true }));
		onFirstUse(build);
		expect(build).not.toHaveBeenCalled();
	});

	test('builds once and gives the same value on every later use', () => {
		const build = jest.fn(() => ({ built: true }));
		const value = onFirstUse(build);
		const first = value();
		expect(value()).toBe(first);
		expect(first).toEqual({ built: true });
		expect(build).toHaveBeenCalledTimes(1);
	});

	test('keeps a value that is undefined instead of building it again', () => {
		const build = jest.fn(() => undefined);
		const value = onFirstUse(build);
		value();
		value();
		expect(build).toHaveBeenCalledTimes(1);
	});
});
