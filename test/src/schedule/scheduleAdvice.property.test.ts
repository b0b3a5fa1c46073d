// Follow the advice and it passes (issue 52): a date written in a form the node does not read is
// refused naming it as such, with the DateTime.fromFormat expression that reads it; that
// expression, evaluated as n8n does for the same item, gives a time the node reads as the instant
// the text names. The engine runs a seeded few of these in n8n itself (test/nodes/scheduleAdvice.cases.ts).
import fc from 'fast-check';

import { toIstSchedule } from '../../../src/schedule/schedule';
import { propertyRuns } from '../../support/property.mjs';
import { inputErrorOf } from '../helpers';
import { DATE_ALONE_START, evaluateAdvice, unreadDateArb } from './unreadDates';

const NOW = new Date('2026-11-25T06:00:00Z');

describe('a date in a form the node does not read', () => {
	test('is refused as such, shown as written, and its advice followed reads the instant it names', () => {
		fc.assert(
			fc.property(unreadDateArb, ({ text, zone, instant }) => {
				// a date alone is read with Calling Hours, from when they open
				const dayStart = { zone, time: DATE_ALONE_START };
				const options = { zone, now: NOW, expression: '$json.when', dayStart };
				const error = inputErrorOf(() => toIstSchedule(text, options));
				expect(error.message).toContain(
					`"Schedule Time" is a date in a form this node does not read: "${text}". `,
				);
				const set = error.advice && 'set' in error.advice ? error.advice.set : '';
				expect(error.advice).toEqual({ field: 'Schedule Time', set });
				expect(error.message).toContain(set);
				const schedule = toIstSchedule(evaluateAdvice(set, { when: text }), options);
				expect(schedule.utc).toBe(new Date(instant).toISOString());
			}),
			propertyRuns(60, 5000),
		);
	});
});
