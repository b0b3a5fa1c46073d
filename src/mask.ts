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

// A run of 8+ digits (with optional +), whole: not the fraction of a time such as 09:30:45.123456789.
const PHONE_NUMBER_IN_TEXT = /(?<!\d)(?<!\d:\d{2}\.)\+?\d{8,}/g;

/** Masks every phone number found in free text, and leaves dates and times as they are. */
export function maskPhoneNumbersInText(text: string): string {
	return text.replace(PHONE_NUMBER_IN_TEXT, maskPhoneNumber);
}
