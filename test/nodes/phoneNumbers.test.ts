// Phone numbers through n8n's real engine (issue 24, point 3): a per-item country from the CRM as
// Default Country Code, a trunk (0) after the country code, and a number of the wrong country
// refused before anything is sent. A national number is completed by its country's rule (Italy
// keeps its leading 0), and one of a calling code without a rule is refused.
import type { IDataObject } from 'n8n-workflow';

import { OUTBOUND_CALL } from '../engine/callKaroNodes';
import { NODE_NAME, apiRequests, refusedItemJson, runNode, useSandbox } from './fixtures';

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

	it("completes each item's number with its own ISO country code, and drops a trunk (0)", async () => {
		const result = await callEach([
			{ phone: '98765 43210', country: 'IN' },
			{ phone: '(415) 555-0134', country: 'us' },
			{ phone: '+44 (0)20 7946 0958', country: '' },
		]);

		const sent = apiRequests(sandbox()).map((request) => (request.body as IDataObject).to_number);
		expect(sent).toEqual(['+919876543210', '+14155550134', '+442079460958']);
		expect(result.json(NODE_NAME).map((json) => json.toNumber)).toEqual(sent);
	});

	it('refuses a US number with Default Country Code 91, and an unknown ISO code, sending nothing', async () => {
		const result = await callEach([
			{ phone: '(312) 345-6789', country: '91' },
			{ phone: '98765 43210', country: 'XX' },
			{ phone: '+91 98765 4321', country: '' },
		]);

		expect(apiRequests(sandbox())).toEqual([]);
		const [usNumber, unknownCountry, shortIndian] = result
			.outputOf(NODE_NAME)[0]
			.map((item) => item.json);
		expect(usNumber).toEqual(
			refusedItemJson(
				'"Phone Number" cannot be a number in India (+91), the Default Country Code: "31****6789". Without + or a leading 0, an Indian number is a mobile number, 10 digits starting with 6, 7, 8 or 9. Write a landline with its 0 STD code, such as 022 6600 1234, or write a number of another country with + and its country code, such as +1 415 555 0100. [item 0]',
			),
		);
		expect(unknownCountry.error).toMatch(
			/^"Default Country Code" is not an ISO country code this node knows: "XX"\. .* \[item 1\]$/,
		);
		expect(shortIndian).toEqual(
			refusedItemJson(
				'"Phone Number" cannot be a number in India (+91): "+91*****4321". Numbers there have 10 digits after +91, without the 0. Check the number, or write a number of another country with + and its country code. [item 2]',
			),
		);
	});

	it("keeps Italy's leading 0, and refuses a national number of a calling code without a rule", async () => {
		const result = await callEach([
			{ phone: '06 6988 4857', country: 'IT' },
			{ phone: '067 123 4567', country: '380' },
			{ phone: '+380 67 123 4567', country: '380' },
		]);

		const sent = apiRequests(sandbox()).map((request) => (request.body as IDataObject).to_number);
		expect(sent).toEqual(['+390669884857', '+380671234567']);
		const [, ukrainian] = result.outputOf(NODE_NAME)[0].map((item) => item.json);
		expect(ukrainian).toEqual(
			refusedItemJson(
				'"Phone Number" has no country code: "06****4567", and this node does not know how national numbers are written in the country of Default Country Code 380. Write it with + and the country code, as it is dialled from another country. [item 1]',
			),
		);
	});
});
