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

/** Masks every run of 8+ digits (with optional +) found in free text. */
export function maskPhoneNumbersInText(text: string): string {
	return text.replace(/\+?\d{8,}/g, maskPhoneNumber);
}
