import { Settings } from 'luxon';

import { CallKaroInputError } from '../../../src/input/inputError';
import { toIstSchedule } from '../../../src/schedule/schedule';
import { DAY_START, drawCase, seededRandom } from './scheduleOracle';
import type { PropertyCase } from './scheduleOracle';
import { scaled } from '../../support/testScale.mjs';

// 1,500 cases in `npm test`, 20,000 in `npm run test:deep`; more (a seed too, if you like):
// CALLKARO_SCHEDULE_CASES=1000000 npx jest schedule.property --globals '{"SCHEDULE_PROPERTY_SEED":7}'
declare const SCHEDULE_PROPERTY_SEED: number | undefined;
const CASES = scaled('CALLKARO_SCHEDULE_CASES', 1_500, 20_000);
const SEED = typeof SCHEDULE_PROPERTY_SEED === 'number' ? SCHEDULE_PROPERTY_SEED : 20261122;
// The clock the workflow runs under must not matter: half the cases run in January, half in July.
const NOWS = [Date.UTC(2026, 0, 15, 12), Date.UTC(2026, 6, 15, 12)];

/** What toIstSchedule gives, in the shape of the oracle's answer. */
function actual({ value, zone }: PropertyCase, now: number): unknown {
	try {
		// Times from 1990 to 2060, so many are long past or far ahead; a date alone starts at DAY_START.
		return toIstSchedule(value, {
			zone,
			now: new Date(now),
			longPast: 'startNow',
			farAhead: 'send',
			dayStart: { zone, time: DAY_START },
		});
	} catch (error) {
		if (!(error instanceof CallKaroInputError)) return { unexpected: String(error) };
		const [, lastBefore, firstAfter] =
			/The clocks go from (\S+) straight to (\S+);/.exec(error.message) ?? [];
		return lastBefore ? { skipped: { lastBefore, firstAfter } } : { error: error.message };
	}
}

describe('toIstSchedule against an Intl.DateTimeFormat oracle', () => {
	const { now: luxonNow } = Settings;
	afterEach(() => {
		Settings.now = luxonNow;
	});

	test(
		`${CASES} seeded cases (seed ${SEED}) in 12 zones with clock changes, 1990-2060`,
		() => {
			const random = seededRandom(SEED);
			const mismatches: string[] = [];
			const kinds = new Map<string, number>();
			for (let index = 0; index < CASES; index += 1) {
				const now = NOWS[index % NOWS.length];
				Settings.now = () => now;
				const testCase = drawCase(random, now);
				kinds.set(testCase.kind, (kinds.get(testCase.kind) ?? 0) + 1);
				const got = actual(testCase, now);
				if (JSON.stringify(got) !== JSON.stringify(testCase.expected)) {
					mismatches.push(
						`case ${index} (${testCase.kind}) ${testCase.shown}: expected ${JSON.stringify(testCase.expected)}, got ${JSON.stringify(got)}`,
					);
				}
			}
			// Every input form is drawn, so none can go untested by chance.
			expect([...kinds.keys()].sort()).toEqual([
				'JS Date',
				'RFC 9557',
				'date only',
				'epoch ms',
				'epoch ns',
				'epoch µs',
				'luxon DateTime',
				'text with offset',
				'wall-clock text',
			]);
			expect({
				cases: CASES,
				mismatches: mismatches.length,
				first: mismatches.slice(0, 5),
			}).toEqual({ cases: CASES, mismatches: 0, first: [] });
		},
		Math.max(30_000, CASES * 2),
	);
});
