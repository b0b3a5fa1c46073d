// The guard's Once per Calendar Day follows India's day unless Day Time Zone says otherwise, as
// Schedule Time and Calling Hours do: never the workflow's zone (n8n's default America/New_York).
import type { IExecuteFunctions } from 'n8n-workflow';

import { readGuardSettings } from '../../../nodes/shared/guard';

/** The node parameters the guard reads, and a workflow in New York. */
function contextWith(parameters: Record<string, unknown>, typeVersion = 1): IExecuteFunctions {
	const context: Pick<IExecuteFunctions, 'getNodeParameter' | 'getTimezone' | 'getNode'> = {
		getNode: () => ({ typeVersion }) as ReturnType<IExecuteFunctions['getNode']>,
		getNodeParameter: ((name: string, _item: number, fallback?: unknown) =>
			name in parameters ? parameters[name] : fallback) as IExecuteFunctions['getNodeParameter'],
		getTimezone: () => 'America/New_York',
	};
	return context as IExecuteFunctions;
}

describe("the guard's day window", () => {
	test.each([
		['empty Day Time Zone: India', '', 'Asia/Kolkata'],
		['a zone given', 'Europe/London', 'Europe/London'],
	])('%s', (_case, guardTimeZone, zone) => {
		const settings = readGuardSettings(
			contextWith({ skipBefore: true, guardWindow: 'day', guardTimeZone }),
		);
		expect(settings?.window).toEqual({ kind: 'day', zone });
	});
});

describe("the guard's day window from version 2 on: the node's Time Zone", () => {
	test.each([
		['the default: India', {}, 'Asia/Kolkata'],
		['a zone chosen', { timeZone: 'Europe/London' }, 'Europe/London'],
		['a Day Time Zone saved on version 1 is not read', { guardTimeZone: 'UTC' }, 'Asia/Kolkata'],
	])('%s', (_case, zoneFields, zone) => {
		const settings = readGuardSettings(
			contextWith({ skipBefore: true, guardWindow: 'day', ...zoneFields }, 2),
		);
		expect(settings?.window).toEqual({ kind: 'day', zone });
	});
});
