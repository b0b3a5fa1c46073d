// How people, sheets, forms and chat apps write a number, brought to the characters
// libphonenumber-js reads: any script's digits, full-width forms, invisible marks, any dash or
// space, RFC 3966 `tel:` URIs with `phone-context`, several numbers in one field, a sheet's decimal.

// Unicode lays out each script's decimal digits as a run of ten, 0 first (𝟎-𝟿 are five runs).
const DIGIT = /\p{Nd}/u;
const OTHER_SCRIPT_DIGIT = /(?![0-9])\p{Nd}/gu;
// Invisible formatting: bidi marks (chat apps in Arabic, Hebrew or Urdu put them around a number),
// zero-width spaces and joiners, the soft hyphen, the byte order mark.
const INVISIBLE = /\p{Cf}/gu;
// Full-width forms (＋９１, （０２２）) are ASCII's characters 0xFEE0 further on.
const FULL_WIDTH = /[\uFF01-\uFF5E]/gu;
const FULL_WIDTH_OFFSET = 0xfee0;
const ANY_SPACE = /[\p{Zs}\t]/gu;
// Any dash, the minus sign and the katakana prolonged sound mark, which Japanese text uses as one.
const ANY_DASH = /[\p{Pd}\u2212\u30FC]/gu;

/** The value of any script's decimal digit: its place in its run of ten. */
function digitValue(digit: string): string {
	const codePoint = digit.codePointAt(0) ?? 0;
	let zero = codePoint;
	while (DIGIT.test(String.fromCodePoint(zero - 1))) zero -= 1;
	return String((codePoint - zero) % 10);
}

/**
 * The text with only the characters libphonenumber-js reads: every script's digits as 0-9 (as
 * Google's libphonenumber reads them), full-width forms as ASCII, any space as a space, any dash as
 * `-`, and invisible marks removed. Nothing else changes: letters stay letters.
 */
export function plainCharacters(text: string): string {
	return text
		.replace(INVISIBLE, '')
		.replace(FULL_WIDTH, (char) => String.fromCharCode(char.charCodeAt(0) - FULL_WIDTH_OFFSET))
		.replace(OTHER_SCRIPT_DIGIT, digitValue)
		.replace(ANY_SPACE, ' ')
		.replace(ANY_DASH, '-');
}

// Twilio writes a WhatsApp sender as 'whatsapp:+919820011112': the number, behind its channel.
const WHATSAPP_ADDRESS = /^\s*whatsapp:(?=\s*\+)/i;

/** A WhatsApp address ('whatsapp:+91…', as Twilio's trigger gives it) as its number. */
export function withoutWhatsAppChannel(text: string): string {
	return text.replace(WHATSAPP_ADDRESS, '');
}

const PHONE_CONTEXT = ';phone-context=';
// RFC 3966's global-number-digits, and its domain name (a context that adds no digits).
// (Written so that no text can make them backtrack at length.)
const GLOBAL_NUMBER_DIGITS = /^\+[\d\-.()]*\d[-.()]*$/;
const DOMAIN_NAME = /^(?:[\da-z]+(?:-+[\da-z]+)*\.)*[a-z][\da-z]*(?:-+[\da-z]+)*\.?$/i;

/**
 * An RFC 3966 `tel:` URI with a `phone-context` as the number it names: `tel:98200-11112;
 * phone-context=+91` is `+91 98200-11112`, as libphonenumber reads it; a domain name adds no
 * digits. libphonenumber-js reads this itself, but checks the context with a regular expression
 * that keeps its state between calls, so every other read of the same value failed. The URI's
 * other parameters stay (an `;ext=` is an extension); undefined for a context that is neither.
 */
export function withPhoneContext(text: string): string | undefined {
	const at = text.toLowerCase().indexOf(PHONE_CONTEXT);
	if (at < 0) return text;
	const start = at + PHONE_CONTEXT.length;
	const end = text.indexOf(';', start) < 0 ? text.length : text.indexOf(';', start);
	const context = text.slice(start, end);
	const local = text.slice(/^tel:/i.test(text) ? 'tel:'.length : 0, at);
	const rest = text.slice(end);
	if (GLOBAL_NUMBER_DIGITS.test(context)) return `${context} ${local}${rest}`;
	if (DOMAIN_NAME.test(context)) return `${local}${rest}`;
	return undefined;
}

/** A `tel:` URI's ISDN subaddress, which reaches a terminal behind the number, as an extension does. */
export function hasSubaddress(text: string): boolean {
	return /;isub=/i.test(text);
}

/** A number as a sheet holds a decimal: `49301234567.0`, which libphonenumber reads with a last 0. */
export function spreadsheetDecimal(text: string): { digits: string; fraction: string } | undefined {
	const match = /^(\+?\d+)\.(0+)$/.exec(text);
	return match ? { digits: match[1], fraction: match[2] } : undefined;
}

/** A number in exponent notation, as a sheet shows a long number: `9.82001E+09`, its last digits lost. */
export function exponentNotation(text: string): boolean {
	return /^\+?\d+(\.\d+)?e\+?\d+$/i.test(text);
}

// Between two numbers in one field: a comma, semicolon (Latin, ideographic and Arabic), pipe,
// ampersand, line break, tab or a wider space, "or", "and", a slash or a dash with spaces around
// it, a slash before a +, and a + that starts a second number. Asked only of a value that is not
// one valid number, so a number written with a wide space is never split.
const BETWEEN_NUMBERS =
	/\s*(?:[,;|&\n\t、،؛]|\s[/-]\s|\/(?=\s*\+)|\s(?:or|and)\s)\s*|\s{2,}|(?=\+)(?<=\d[\s)]*)/i;
// A part with fewer digits than this is a part of one number (an area code, `/13` for a second
// line, an extension after a comma), unless it is a number by itself.
const DIGITS_OF_A_NUMBER = 6;

/**
 * The regular expression, as an n8n expression writes it, that splits a text where this separator
 * stands between its numbers, in the characters it is written in (full-width forms, any dash).
 */
function splitterOf(separator: string): string {
	const between = separator.trim();
	if (separator === '') return '/(?<=\\p{Nd}[\\s)]*)(?=[+＋])/u';
	if (between === '') return '/\\s*[\\n\\t]\\s*|\\s{2,}/';
	if (between === '/') return '/\\s\\/\\s|\\/(?=\\s*[+＋])/';
	if (between === '-') return '/\\s\\p{Pd}\\s/u';
	if (/^(or|and)$/i.test(between)) return '/\\s(?:or|and)\\s/i';
	return '/[,;|&，；｜＆、،؛]/';
}

/**
 * The numbers a text holds, where it holds several: ['+91 98200 11112', '+91 98200 11113'], and
 * the regular expression that splits them. A part is a number when it has a number's digits, or
 * when `isNumber` says so (a short country's, `22158; 22159`).
 */
export function numbersIn(
	text: string,
	isNumber: (part: string) => boolean = () => false,
): { numbers: string[]; splitter: string } | undefined {
	const found = BETWEEN_NUMBERS.exec(text);
	if (!found) return undefined;
	const numbers = text
		.split(new RegExp(BETWEEN_NUMBERS.source, 'i'))
		.filter((part) => /\d/.test(part))
		.map((part) => part.trim());
	const whole = numbers.every(
		(part) => part.replace(/\D/g, '').length >= DIGITS_OF_A_NUMBER || isNumber(part),
	);
	if (numbers.length < 2 || !whole) return undefined;
	return { numbers, splitter: splitterOf(found[0]) };
}

/** Letters in the text, outside a `tel:` URI's own. */
export function hasLetters(text: string): boolean {
	return /\p{L}/u.test(text.replace(/^tel:|;[a-z-]+=[^;]*/gi, ''));
}
