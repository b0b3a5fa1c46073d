import { checkRunOptions } from '../../../src/run/runOptions';
import { inputErrorOf } from '../helpers';

describe('checkRunOptions', () => {
	it('defaults to 5 in flight and no rate limit', () => {
		expect(checkRunOptions({})).toEqual({ concurrency: 5, maxRequestsPerSecond: 0 });
	});

	it.each([
		[{ concurrency: 1, maxRequestsPerSecond: 0 }],
		[{ concurrency: 50, maxRequestsPerSecond: 2.5 }],
	])('keeps %j', (options) => {
		expect(checkRunOptions(options)).toEqual(options);
	});

	it.each([
		[51, '51'],
		[500, '500'],
		[0, '0'],
		[2.5, '2.5'],
		['10', '"10"'],
	])('refuses a Concurrency of %j', (concurrency, shown) => {
		expect(inputErrorOf(() => checkRunOptions({ concurrency })).message).toBe(
			`"Concurrency" must be a whole number from 1 to 50, but is ${shown}. Change it in the node options.`,
		);
	});

	it.each([
		[-1, '-1'],
		[Number.POSITIVE_INFINITY, 'Infinity'],
		['fast', '"fast"'],
	])('refuses a Max Requests per Second of %j', (maxRequestsPerSecond, shown) => {
		expect(inputErrorOf(() => checkRunOptions({ maxRequestsPerSecond })).message).toBe(
			`"Max Requests per Second" must be a number from 0 (no limit) upwards, but is ${shown}. Change it in the node options.`,
		);
	});
});
