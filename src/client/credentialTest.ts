// What the credential's Test button concludes from CallKaro's answer (credentials/CallKaroApi).

/** An accepted key gets 400 "Missing agent_id in request query" from the test request. */
export const CREDENTIAL_TEST_PASSING_STATUS = 400;

/** Statuses with which CallKaro refuses a key (spec §5, §7). */
export const KEY_REFUSED_STATUSES = [401, 403];

/** CallKaro's messages for a missing or refused key (spec §7, public docs). */
export const KEY_REFUSED_SERVICE_MESSAGES = [
	'Missing X-API-KEY in headers',
	'Missing API key',
	'Invalid API key',
];

export const KEY_REFUSED_MESSAGE = 'CallKaro did not accept this API key';

const NO_API = 'No CallKaro API answered at this Base URL';

export function notCallKaroStatusMessage(status: number): string {
	return `${NO_API}: it answered HTTP ${status}, where CallKaro answers 400 or, for a refused key, 401 or 403`;
}

export const NOT_JSON_MESSAGE = `${NO_API}: the answer is not JSON`;

export const NOT_CALLKARO_SHAPE_MESSAGE = `${NO_API}: the answer does not have CallKaro's error shape {"status", "message"}`;
