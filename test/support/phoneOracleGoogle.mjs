// Google's libphonenumber itself (npm google-libphonenumber, its Closure build), for the tests that
// hold the package's validity to it: every region's example number of every type, numbers drawn
// from its patterns, and the forms it writes them in.
/* global require */
const google = require('google-libphonenumber');
const util = google.PhoneNumberUtil.getInstance();
const { PhoneNumberFormat, PhoneNumberType } = google;

/** Google's types of number, by the names libphonenumber-js uses, with their metadata getters. */
export const GOOGLE_TYPES = {
	FIXED_LINE: 'getFixedLine',
	MOBILE: 'getMobile',
	TOLL_FREE: 'getTollFree',
	PREMIUM_RATE: 'getPremiumRate',
	SHARED_COST: 'getSharedCost',
	PERSONAL_NUMBER: 'getPersonalNumber',
	VOIP: 'getVoip',
	PAGER: 'getPager',
	UAN: 'getUan',
	VOICEMAIL: 'getVoicemail',
};

export const googleVersion = () => require('google-libphonenumber/package.json').version;

/** Every numbering plan: each region, and each calling code of no country as region '001'. */
export function googlePlans() {
	return [
		...util.getSupportedRegions().map((region) => ({
			region,
			callingCode: String(util.getCountryCodeForRegion(region)),
			metadata: util.getMetadataForRegion(region),
		})),
		...util.getSupportedGlobalNetworkCallingCodes().map((code) => ({
			region: '001',
			callingCode: String(code),
			metadata: util.getMetadataForNonGeographicalRegion(code),
		})),
	];
}

/** A type's national number pattern in a plan, or undefined where the plan has none. */
export function googlePattern(plan, type) {
	const desc = plan.metadata[GOOGLE_TYPES[type]]();
	const pattern = desc?.getNationalNumberPattern();
	return pattern && pattern !== 'NA' ? pattern : undefined;
}

/** Google's example number of a type in a plan, as E.164, or undefined. */
export function googleExample(plan, type) {
	const example =
		plan.region === '001'
			? util.getExampleNumberForNonGeoEntity(Number(plan.callingCode))
			: util.getExampleNumberForType(plan.region, PhoneNumberType[type]);
	if (!example) return undefined;
	const e164 = util.format(example, PhoneNumberFormat.E164);
	return googleRead(e164)?.type === type ? e164 : undefined;
}

/** Google's reading of a text: its E.164, region and type where it is valid, else undefined. */
export function googleRead(text, region = 'ZZ') {
	let number;
	try {
		number = util.parse(text, region);
	} catch {
		return undefined;
	}
	if (!util.isValidNumber(number)) return undefined;
	const type = Object.keys(PhoneNumberType).find(
		(name) => PhoneNumberType[name] === util.getNumberType(number),
	);
	return {
		e164: util.format(number, PhoneNumberFormat.E164),
		region: util.getRegionCodeForNumber(number),
		type: type === 'FIXED_LINE_OR_MOBILE' ? 'MOBILE' : type,
	};
}

/**
 * The ways Google writes a valid number, each with the Default Country Code it is read under:
 * E.164, international, RFC 3966, dialled from the US and the UK, and under its region: national,
 * for mobile dialling, and as a phone's keypad formats it while it is typed.
 */
export function googleForms(e164) {
	const number = util.parse(e164, 'ZZ');
	const region = util.getRegionCodeForNumber(number);
	const forms = [
		{ form: 'E.164', raw: e164 },
		{ form: 'international', raw: util.format(number, PhoneNumberFormat.INTERNATIONAL) },
		{ form: 'RFC 3966', raw: util.format(number, PhoneNumberFormat.RFC3966) },
		{ form: 'from the US', raw: util.formatOutOfCountryCallingNumber(number, 'US'), dcc: 'US' },
		{ form: 'from the UK', raw: util.formatOutOfCountryCallingNumber(number, 'GB'), dcc: 'GB' },
	];
	if (region && region !== '001') {
		const national = util.format(number, PhoneNumberFormat.NATIONAL);
		const mobile = util.formatNumberForMobileDialing(number, region, true);
		const asYouType = new google.AsYouTypeFormatter(region);
		const typed = [...national].map((char) => asYouType.inputDigit(char)).pop();
		forms.push(
			{ form: 'national', raw: national, dcc: region },
			{ form: 'for mobile dialling', raw: mobile, dcc: region },
			{ form: 'as you type', raw: typed, dcc: region },
		);
	}
	return forms.filter(({ raw }) => raw);
}
