// A digit of any script: ९८२००, ٩٨٢٠٠ and ９８２００ are digits of a number as much as 98200.
const DIGIT = /\p{Nd}/u;
const NOT_DIGITS = /\P{Nd}/gu;
const LETTER = /\p{L}/u;

/** Digits a number has at least before it is taken for a phone number. */
const PHONE_DIGITS = 8;

/**
 * Masks the digits of a number: keeps its first 2 and last 4 (a value too short to be a full
 * number keeps at most half of them), and shows every other character of `value` as `keep` says.
 */
function maskDigits(value: string, keep: (char: string, index: number) => boolean): string {
	const digitCount = value.replace(NOT_DIGITS, '').length;
	const head = digitCount >= PHONE_DIGITS ? 2 : 0;
	const tail = digitCount >= PHONE_DIGITS ? 4 : Math.floor(digitCount / 2);
	let digitIndex = 0;
	return Array.from(value, (char, index) => {
		if (!DIGIT.test(char)) return keep(char, index) ? char : '*';
		digitIndex += 1;
		return digitIndex <= head || digitIndex > digitCount - tail ? char : '*';
	}).join('');
}

/** Keeps '+', the country code (up to the first 2 digits) and the last 4 digits; everything else becomes '*'. */
export function maskPhoneNumber(value: string): string {
	return maskDigits(value, (char, index) => /[+＋]/.test(char) && index === 0);
}

/** Digits a value has at least before they can be someone's number (fewer: a country code, `1 800`). */
const NUMBER_DIGITS = 5;

/**
 * A phone field's value as written, masked as one number from its first digit to its last, in any
 * script and whatever is between its digits (invisible marks, a letter O for a 0): letters are
 * shown, so that the builder sees them.
 */
export function maskWrittenNumber(value: string): string {
	if (value.replace(NOT_DIGITS, '').length < NUMBER_DIGITS) return value;
	const chars = Array.from(value);
	const first = chars.findIndex((char) => DIGIT.test(char));
	const last = chars.length - [...chars].reverse().findIndex((char) => DIGIT.test(char));
	const number = chars.slice(first, last).join('');
	const masked = maskDigits(number, (char) => LETTER.test(char));
	return `${chars.slice(0, first).join('')}${masked}${chars.slice(last).join('')}`;
}

// Dates and times stay as they are: 2026-11-22, 2026-11-22T09:30:45.123Z, 09:30, 21:00:00.
const DATE_OR_TIME =
	/(\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?|\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)/;
// Digits of any script with spaces, dashes, dots, brackets or invisible marks between them, as
// people and chat apps write phone numbers.
const DIGIT_RUN = /[+＋]?\p{Nd}[\p{Nd}\s\p{Pd}.()\p{Cf}]*\p{Nd}/gu;

function maskRuns(text: string): string {
	return text.replace(DIGIT_RUN, (run) =>
		run.replace(NOT_DIGITS, '').length >= PHONE_DIGITS ? maskPhoneNumber(run) : run,
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
