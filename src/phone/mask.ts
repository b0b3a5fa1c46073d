/** Keeps '+', the country code (up to the first 2 digits) and the last 4 digits; everything else becomes '*'. */
export function maskPhoneNumber(value: string): string {
	const digitCount = value.replace(/\D/g, '').length;
	// A value too short to be a full number still keeps at least half of its digits hidden.
	const head = digitCount >= 8 ? 2 : 0;
	const tail = digitCount >= 8 ? 4 : Math.floor(digitCount / 2);
	let digitIndex = 0;
	return Array.from(value, (char, index) => {
		if (char === '+' && index === 0) return char;
		if (!/\d/.test(char)) return '*';
		digitIndex += 1;
		return digitIndex <= head || digitIndex > digitCount - tail ? char : '*';
	}).join('');
}

/** Digits a number has at least before it is taken for a phone number. */
const PHONE_DIGITS = 8;

// Dates and times stay as they are: 2026-11-22, 2026-11-22T09:30:45.123Z, 09:30, 21:00:00.
const DATE_OR_TIME =
	/(\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?|\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)/;
// Digits with spaces, dashes, dots or brackets between them, as people write phone numbers.
const DIGIT_RUN = /\+?\d[\d\s\-.()]*\d/g;

function maskRuns(text: string): string {
	return text.replace(DIGIT_RUN, (run) =>
		run.replace(/\D/g, '').length >= PHONE_DIGITS ? maskPhoneNumber(run) : run,
	);
}

/**
 * Masks every phone number found in free text, however its digits are separated
 * (+91 98765 43210, (022) 6600-1234, 98765.43210), and leaves dates and times as they are.
 */
export function maskPhoneNumbersInText(text: string): string {
	// split with a capturing group: dates and times at odd places, kept as they are
	return text
		.split(DATE_OR_TIME)
		.map((part, index) => (index % 2 === 1 ? part : maskRuns(part)))
		.join('');
}
