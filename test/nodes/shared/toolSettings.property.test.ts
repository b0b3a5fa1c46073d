// A wrong setting reaches the builder (issue 46): for generated settings of a tool (Allowed
// Numbers, Default Country Code, Time Zone, Calling Hours, Max Calls per Execution), each valid or
// not, the run as an AI agent's tool stops with an error naming a wrong one, and answers the model
// only when every setting is valid. The real readers and runner, over a stand-in for n8n's context.
import fc from 'fast-check';
import type { IExecuteFunctions, INode, INodeParameters } from 'n8n-workflow';

import { agentBudgetOf, checkToolSettings } from '../../../nodes/shared/agentLimits';
import { guard } from '../../../nodes/CallKaroOutboundCall/outboundCall.operation';
import { prepareItems } from '../../../nodes/shared/runItems';
import { readingSettings } from '../../../nodes/shared/toolMode';
import { WEEKDAYS } from '../../../src/schedule/callingHours';
import { propertyRuns } from '../../support/property.mjs';
import { EXAMPLE_NUMBERS } from '../../src/agent/agentSupport';

/** A setting, valid or not, and the field its error names when it is not. */
type Setting = { value: unknown; wrong?: string };

const valid = (value: unknown): Setting => ({ value });
const wrong =
	(field: string) =>
	(value: unknown): Setting => ({ value, wrong: field });

const allowedNumbers = fc.oneof(
	fc
		.array(fc.constantFrom(...EXAMPLE_NUMBERS), { minLength: 1, maxLength: 3 })
		.map((numbers) => valid(numbers.map(({ international }) => international).join(';\n'))),
	fc
		.constantFrom('+91 98200 61O01', 'lead', '+44', '+919820061001\n12')
		.map(wrong('Allowed Numbers')),
);
const defaultCountryCode = fc.oneof(
	fc.constantFrom('IN', 'de', '+44', 91, '1').map(valid),
	fc.constantFrom('XX', '999', 'India', '+0').map(wrong('Default Country Code')),
);
const timeZone = fc.oneof(
	fc.constantFrom('', 'Europe/London', 'asia/kolkata', 'UTC').map(valid),
	fc.constantFrom('EST', 'Mars/Olympus', 'CET').map(wrong('Time Zone')),
);
const hourOfDay = (hour: number, minute: number) =>
	`${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
/** A window as n8n gives it once added: its fields' defaults filled in. */
const window = (start: string, end: string, days: string[] = [...WEEKDAYS]) => ({
	window: { start, end, days, zone: 'Asia/Kolkata', onOutside: 'move' },
});
const callingHours = fc.oneof(
	fc
		.tuple(
			fc.integer({ min: 0, max: 11 }),
			fc.integer({ min: 12, max: 23 }),
			fc.integer({ min: 0, max: 59 }),
			fc.subarray([...WEEKDAYS], { minLength: 1 }),
		)
		.map(([start, end, minute, days]) =>
			valid(window(hourOfDay(start, minute), hourOfDay(end, 0), days)),
		),
	fc
		.constantFrom('9am', '24:00', '9:5', '', '21.00')
		.map((start) => ({ value: window(start, '21:00'), wrong: 'Calling Hours' })),
	fc.constant({ value: window('09:00', '21:00', []), wrong: 'Calling Hours' }),
);
const maxCalls = fc.oneof(
	fc.oneof(fc.nat(), fc.nat().map(String)).map(valid),
	fc
		.oneof(fc.integer({ max: -1 }), fc.constantFrom(1.5, 'three', '', NaN, true))
		.map(wrong('Max Calls per Execution')),
);

function toolContext(parameters: INodeParameters): IExecuteFunctions {
	const node = { name: 'Tool', parameters, rewireOutputLogTo: 'ai_tool' } as unknown as INode;
	const context = {
		getNode: () => node,
		continueOnFail: () => false,
		getExecutionId: () => 'execution',
		isToolExecution: () => true,
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			name
				.split('.')
				.reduce<unknown>(
					(value, key) => (value as Record<string, unknown> | undefined)?.[key],
					parameters,
				) ?? fallback,
	};
	return context as unknown as IExecuteFunctions;
}

describe('a wrong setting of a tool reaches the builder', () => {
	it('any wrong setting stops the run with an error naming it; valid settings answer the model', () => {
		const settings = fc.record({
			allowedNumbers,
			defaultCountryCode,
			timeZone,
			callingHours,
			maxCalls,
		});
		fc.assert(
			fc.property(settings, (drawn) => {
				const context = toolContext({
					allowedNumbers: drawn.allowedNumbers.value,
					maxCallsPerExecution: drawn.maxCalls.value,
					options: {
						defaultCountryCode: drawn.defaultCountryCode.value,
						timeZone: drawn.timeZone.value,
						callingHours: drawn.callingHours.value,
					},
				} as INodeParameters);
				const state = prepareItems(
					context,
					1,
					(itemIndex) => {
						readingSettings(() => agentBudgetOf(context, guard, true));
						readingSettings(() => checkToolSettings(context, itemIndex));
						return { send: async () => await Promise.reject(new Error('not sent here')) };
					},
					false,
					true,
				);
				const wrongFields = Object.values(drawn).flatMap(({ wrong: field }) =>
					field ? [field] : [],
				);
				if (wrongFields.length === 0) {
					expect(state.stoppedBy?.message).toBeUndefined();
					return;
				}
				expect(state.stoppedBy?.message).toMatch(/^A setting of this tool is wrong: "/);
				const named =
					/^A setting of this tool is wrong: "([^"]+)"/.exec(state.stoppedBy?.message ?? '')?.[1] ??
					'';
				expect(wrongFields.some((field) => named.startsWith(field))).toBe(true);
			}),
			propertyRuns(60, 5_000),
		);
	});
});
