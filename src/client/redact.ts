/** What an API key found in CallKaro's answer is replaced with. */
export const REDACTED_KEY = '[API key removed]';

// Shorter "keys" would turn ordinary words into redactions; CallKaro's keys are much longer.
const MIN_SECRET_LENGTH = 4;

/**
 * A copy of `value` (parsed JSON or text) in which every occurrence of `secret`, in any string
 * or object key, is replaced, so that no answer of the service can carry the key into an output.
 */
export function redactSecret(value: unknown, secret: string): unknown {
	if (secret.length < MIN_SECRET_LENGTH) return value;
	const redact = (current: unknown): unknown => {
		if (typeof current === 'string') return current.split(secret).join(REDACTED_KEY);
		if (Array.isArray(current)) return current.map(redact);
		if (typeof current === 'object' && current !== null) {
			return Object.fromEntries(
				Object.entries(current).map(([key, entry]) => [redact(key), redact(entry)]),
			);
		}
		return current;
	};
	return redact(value);
}
