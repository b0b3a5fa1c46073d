// What `npm run build` ships for phone numbers (scripts/build/libphonenumber.mjs): a loader in place
// of src/phone/libphonenumber.ts that loads the bundled libphonenumber on first use, and reads every
// number as the source does.
import { libphonenumber } from '../../../src/phone/libphonenumber';
import type { Libphonenumber } from '../../../src/phone/libphonenumber';
import { casesOf, oracleNumbers } from '../../support/phoneOracle';
import {
	buildPhoneBundle,
	loadInFreshProcess,
	requireBuilt,
} from '../../support/phoneBundleHost.mjs';
import { seededRandom } from '../schedule/scheduleOracle';

describe('the libphonenumber bundle the build ships', () => {
	const built = buildPhoneBundle();
	afterAll(() => built.remove());

	test('loading the nodes does not load it; the first number read does', () => {
		expect(loadInFreshProcess(built.loader, built.bundle, '+91 98765 43210')).toEqual({
			afterRequire: false,
			afterRead: true,
			reading: expect.objectContaining({ e164: '+919876543210', valid: true, kind: 'MOBILE' }),
		});
	});

	test('reads a tenth of the regions, drawn with a seed, as the source does', () => {
		const bundled = (
			requireBuilt(built.loader) as { libphonenumber(): Libphonenumber }
		).libphonenumber();
		const random = seededRandom(41);
		const sample = oracleNumbers(41, 1, 0.1)
			.flatMap((number) => casesOf(number, random))
			.map(({ raw, defaultCountryCode = '' }) => ({
				text: String(raw),
				// the reading context of an ISO code; a calling code as Default Country Code reads alike
				context: /^[a-z]{2}$/i.test(defaultCountryCode)
					? { region: defaultCountryCode.toUpperCase() }
					: defaultCountryCode
						? { callingCode: defaultCountryCode }
						: {},
			}));
		expect(sample.length).toBeGreaterThan(400);
		const differences = sample.filter(
			({ text, context }) =>
				JSON.stringify(bundled.read(text, context)) !==
				JSON.stringify(libphonenumber().read(text, context)),
		);
		expect(differences).toEqual([]);
		expect(bundled.regions()).toEqual(libphonenumber().regions());
		// every region's international prefixes, as the source reads them from the metadata
		const prefixes = (lib: Libphonenumber) =>
			lib.regions().map((region) => lib.internationalPrefixOf(region).source);
		expect(prefixes(bundled)).toEqual(prefixes(libphonenumber()));
	});
});
