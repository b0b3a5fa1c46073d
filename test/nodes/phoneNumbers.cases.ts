// Phone numbers through n8n's real engine (issues 24 and 38): a per-item country from the CRM as
// Default Country Code, read as libphonenumber reads it in any country, and a sample of the phone
// oracle (test/src/phone/oracle.test.ts) as items of one Outbound Call run: each number sent is
// libphonenumber's, each refused item says why, and nothing is sent for it.
import type { IDataObject } from 'n8n-workflow';

import type { Advice } from '../../src/input/inputError';
import { OUTBOUND_CALL } from '../engine/callKaroNodes';
import { seededRandom } from '../src/schedule/scheduleOracle';
import { casesOf, expectedReading, oracleNumbers, reasonOf } from '../support/phoneOracle';
import {
	NODE_NAME,
	apiRequests,
	pairedItems,
	refusedItemJson,
	runNode,
	sentNumbers,
	useSandbox,
} from './fixtures';
import { adviceOf, followAdvice } from './advice';

describe('Phone numbers on Outbound Call', () => {
	const sandbox = useSandbox();
	/** Outbound Call on each item's `phone`, with its `country` as Default Country Code. */
	const callEach = async (items: IDataObject[]) =>
		await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: {
				agentId: 'agent_sales_01',
				phoneNumber: '={{ $json.phone }}',
				options: { defaultCountryCode: '={{ $json.country }}' },
			},
			items,
			settings: { continueOnFail: true },
		});

	it("reads each item's number in its own country, and drops a trunk (0)", async () => {
		const result = await callEach([
			{ phone: '98765 43210', country: 'IN' },
			{ phone: '(415) 555-0134', country: 'us' },
			{ phone: '+44 (0)20 7946 0958', country: '' },
			{ phone: '9186 92855738', country: 'DE' },
			{ phone: '067 123 4567', country: 380 },
		]);

		expect(sentNumbers(sandbox())).toEqual([
			'+919876543210',
			'+14155550134',
			'+442079460958',
			'+49918692855738',
			'+380671234567',
		]);
		expect(result.json(NODE_NAME).map((json) => json.toNumber)).toEqual(sentNumbers(sandbox()));
	});

	it('refuses a US number under India, an unknown ISO code and a short number, sending nothing', async () => {
		const result = await callEach([
			{ phone: '(312) 345-6789', country: '91' },
			{ phone: '98765 43210', country: 'XX' },
			{ phone: '+376 312 34', country: '' },
		]);

		expect(apiRequests(sandbox())).toEqual([]);
		const [usNumber, unknownCountry, shortNumber] = result
			.outputOf(NODE_NAME)[0]
			.map((item) => item.json);
		expect(usNumber).toEqual(
			refusedItemJson(
				'"Phone Number" cannot be a number in India (+91), the Default Country Code: "31****6789". Without + or a leading 0, an Indian number is a mobile number, 10 digits starting with 6, 7, 8 or 9. Write a landline with its 0 STD code, such as 022 6600 1234, or write a number of another country with + and its country code, such as +1 415 555 0100. [item 0]',
			),
		);
		expect(unknownCountry.error).toBe(
			'"Default Country Code" is not an ISO country code of any country or region: "XX". Enter a two-letter ISO 3166 code, such as IN or DE, or the calling code, such as 91 or +49. [item 1]',
		);
		expect(shortNumber).toEqual(
			refusedItemJson(
				'"Phone Number" is too short for a number in Andorra (+376): "+37**1234". Check for a missing digit, or write a number of another country with + and its country code. [item 2]',
			),
		);
	});

	it('a sample of the oracle in one run: what is sent is libphonenumber’s, every refusal says why', async () => {
		const random = seededRandom(3801);
		const numbers = oracleNumbers(3801, 1, 0.25);
		// 60 numbers, none twice (the node reaches a number once a run)
		const picked = new Set<number>();
		while (picked.size < 60) picked.add(Math.floor(random() * numbers.length));
		const sample = [...picked].map((index) => {
			const forms = casesOf(numbers[index], random);
			return forms[Math.floor(random() * forms.length)];
		});
		const expected = sample.map((one) => expectedReading(one).reading);

		const result = await callEach(
			sample.map((one) => ({
				phone: one.raw,
				country: one.defaultCountryCode ?? '',
			})) as IDataObject[],
		);

		const items = result.outputOf(NODE_NAME)[0];
		expect(pairedItems(items)).toEqual(sample.map((_, item) => ({ item })));
		const readings = items.map((item) =>
			typeof item.json.error === 'string'
				? { refused: reasonOf(item.json.error) }
				: { e164: item.json.toNumber },
		);
		expect(readings).toEqual(expected);
		expect(sentNumbers(sandbox())).toEqual(
			expected.flatMap((reading) => ('e164' in reading ? [reading.e164] : [])),
		);
		// the sample holds both
		expect(new Set(readings.map((reading) => 'e164' in reading)).size).toBe(2);
	});
});

describe("A number refusal's advice, followed in n8n's engine (issue 52)", () => {
	const sandbox = useSandbox();
	const parameters = {
		agentId: 'agent_sales_01',
		phoneNumber: '={{ $json.phone }}',
		options: { defaultCountryCode: '={{ $json.country }}' },
	};
	const call = async (nodeParameters: typeof parameters, item: IDataObject) =>
		await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters: nodeParameters,
			items: [item],
			settings: { continueOnFail: true },
		});

	it.each([
		['two numbers joined by "; "', '+91 98200 11112; +91 98200 11113', '', '+919820011112'],
		['two numbers joined by ", "', '098200 11112, 098200 11113', 'IN', '+919820011112'],
		['two numbers on two lines', '+44 20 7946 0958\n+44 7911 123456', '', '+442079460958'],
		["a short country's two numbers", '22158; 22159', 'SH', '+29022158'],
		['a +1 number after the trunk 1, under Trinidad', '1 310-2806', 'TT', '+13102806'],
		['a local number of Trinidad, also +1 310 2806', '310-2806', 'TT', '+18683102806'],
		['a calling code without + that is also national', '4915123456789', '49', '+4915123456789'],
		["a sheet's decimal", '49301234567.0', '49', '+49301234567'],
		[
			'phones grouped by type',
			{ mobile: ['+91 98200-17523'], work: ['+91 22 4000 1234'] },
			'',
			'+919820017523',
		],
	])('%s: the advice sends the right number', async (_case, phone, country, sent) => {
		const refused = await call(parameters, { phone, country });
		expect(apiRequests(sandbox())).toEqual([]);
		const advice = adviceOf(refused, NODE_NAME);
		expect(advice).toEqual({
			field: 'Phone Number',
			set: expect.stringMatching(/^\{\{ .*\$json\.phone.* \}\}$/),
		});
		expect(String(refused.json(NODE_NAME)[0].error)).toContain((advice as { set: string }).set);

		const followed = await call(
			followAdvice(OUTBOUND_CALL, parameters, advice as Advice) as typeof parameters,
			{ phone, country },
		);
		expect(followed.json(NODE_NAME)[0].error).toBeUndefined();
		expect(sentNumbers(sandbox())).toEqual([sent]);
	});

	it("reads India's service numbers as India writes them", async () => {
		const result = await runNode(sandbox(), {
			type: OUTBOUND_CALL,
			parameters,
			items: [
				{ phone: '1800 12 3456', country: 'IN' },
				{ phone: '1800-123-4567', country: 'IN' },
				{ phone: '1860 345 1234', country: 'IN' },
				{ phone: '000 800 100 1234', country: 'IN' },
			],
			settings: { continueOnFail: true },
		});
		expect(result.json(NODE_NAME).map((json) => json.error)).toEqual([
			undefined,
			undefined,
			undefined,
			undefined,
		]);
		expect(sentNumbers(sandbox())).toEqual([
			'+911800123456',
			'+9118001234567',
			'+9118603451234',
			'+910008001001234',
		]);
	});
});
