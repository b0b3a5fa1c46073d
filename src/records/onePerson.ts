import { invalidInput } from '../input/inputError';
import { PHONE_KEY, isPlainObject, namedValuePairs, unwrapValue } from './recordShapes';
import type { SourceNodeRules } from './sourceNodes';

/**
 * One item is one person: a call carries one person's values, never another's. A list that holds
 * several people (n8n's Aggregate node's `data`, an API's list of contacts, several phone numbers
 * with nothing to say they are one person's) is refused before anything is sent, naming the list,
 * how many entries it holds, and how to make one item per person.
 *
 * A person is recognised by what reaches them: a phone number or an email address. A list entry
 * stands for a person when it holds one and either something more (a name, a city, an id) or
 * nothing at all beside it; an entry that holds a number or address with only labels beside it
 * (`{ label: 'work', value, primary }`, Keap's `{ number, field, type }`) is one of a person's
 * own numbers, as a contact's lists of phones and emails are.
 */

/** Keys under which nodes say which of one person's numbers or addresses an entry is. */
const CONTACT_LABEL_KEY =
	/^(type|label|field|kind|category|rel|primary|is[-_ ]?primary|preferred|default|extension|ext|formatted[-_ ]?type|metadata|source|timestamp|verified)$/i;
/** Keys whose values are never phone numbers, however many digits they have. */
const NOT_A_CONTACT_KEY =
	/^(id|zip|postal[-_ ]?code|post[-_ ]?code|pin[-_ ]?code)$|[-_ ]id$|[a-z]Id$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;
// A number's characters in any script: digits, +, spaces, brackets, dashes, dots, slashes and
// the invisible marks copied text carries (zero-width, bidi).
const PHONE_TEXT = /^\+*[\p{Nd}\s().\-/\u200b-\u200f\u2060\u202a-\u202e]+$/u;
// A date ('2026-12-03', '03/12/2026') has a number's characters too.
const DATE_TEXT = /^\p{Nd}{4}-\p{Nd}{2}-\p{Nd}{2}|^\p{Nd}{1,2}[/.-]\p{Nd}{1,2}[/.-]\p{Nd}{2,4}$/u;

/** A phone number's digits or an email address, as one person's contact; undefined for other values. */
function contactOf(value: unknown, key: string): string | undefined {
	if (NOT_A_CONTACT_KEY.test(key)) return undefined;
	if (typeof value === 'number') {
		const digits = String(value);
		return PHONE_KEY.test(key) && /^\d{7,15}$/.test(digits) ? digits : undefined;
	}
	if (typeof value !== 'string') return undefined;
	// Full-width forms (＋９１…) read as their plain forms.
	const text = value.normalize('NFKC').trim().replace(/^tel:/i, '');
	if (EMAIL.test(text)) return text.toLowerCase();
	if (!PHONE_TEXT.test(text) || DATE_TEXT.test(text)) return undefined;
	const digits = text.replace(/\P{Nd}/gu, '');
	return digits.length >= 7 && digits.length <= 15 ? digits : undefined;
}

/** What one list entry holds: contacts, labels of a contact, and any other value. */
interface EntryContents {
	contacts: Set<string>;
	labels: boolean;
	others: boolean;
}

// A wrapper is read whole: its labels say that its value is one of a person's own numbers.
function readEntry(inner: unknown, key: string, underLabel: boolean, into: EntryContents): void {
	if (Array.isArray(inner)) {
		inner.forEach((entry) => readEntry(entry, key, underLabel, into));
		return;
	}
	if (isPlainObject(inner)) {
		for (const [name, entry] of Object.entries(inner)) {
			readEntry(entry, name, underLabel || CONTACT_LABEL_KEY.test(name), into);
		}
		return;
	}
	if (inner === null || inner === undefined || inner === '') return;
	const contact = contactOf(inner, key);
	if (contact !== undefined) into.contacts.add(contact);
	else if (underLabel || typeof inner === 'boolean') into.labels = true;
	else into.others = true;
}

/**
 * How many different people a list's entries stand for: entries that share a contact are one
 * person; entries with no contact, and a person's own labelled numbers, stand for none.
 */
function peopleIn(entries: unknown[]): number {
	const seen = new Set<string>();
	let people = 0;
	for (const entry of entries) {
		const contents: EntryContents = { contacts: new Set(), labels: false, others: false };
		readEntry(entry, '', false, contents);
		const { contacts } = contents;
		const standsForPerson = contacts.size > 0 && (contents.others || !contents.labels);
		if (!standsForPerson) continue;
		if (![...contacts].some((contact) => seen.has(contact))) people += 1;
		for (const contact of contacts) seen.add(contact);
	}
	return people;
}

/** `$json.data[0]`, or `$json['Form Answers']` for a key an identifier cannot be. */
export function expressionOf(path: ReadonlyArray<string | number>): string {
	return path
		.map((name) => {
			if (typeof name === 'number') return `[${name}]`;
			return /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `['${name}']`;
		})
		.join('');
}

/** The refusal's fix: Split Out, one record, or (where the field has the option) leaving it out. */
function oneItemPerPerson(path: ReadonlyArray<string | number>, leaveOutOption?: string): string {
	const where = expressionOf(path).replace(/^\./, '');
	const leaveOut = leaveOutOption ? `, or leave "${where}" out in Options > ${leaveOutOption}` : '';
	return `Make one item per person with n8n's Split Out node (Fields To Split Out: ${where}), or map one record, e.g. {{ $json${expressionOf([...path, 0])} }}${leaveOut}`;
}

interface ListOfPeople {
	path: Array<string | number>;
	/** 'records of 3 different people', '3 different phone numbers or email addresses'. */
	holds: string;
}

function listOfPeopleIn(value: unknown, path: Array<string | number>): ListOfPeople | undefined {
	const inner = unwrapValue(value).value;
	if (Array.isArray(inner)) {
		// A list of named values is one record's fields (Agile CRM's properties, a form's answers).
		if (namedValuePairs(inner) === undefined) {
			// Lists inside lists (pages of results) hold the records of their entries.
			const entries = inner.flat(Number.POSITIVE_INFINITY) as unknown[];
			const people = peopleIn(entries);
			if (people >= 2) {
				const holds = entries.some(isPlainObject)
					? `${entries.length} records of ${people} different people`
					: `${people} different phone numbers or email addresses`;
				return { path, holds };
			}
		}
		return firstFound(
			inner.map((entry, index) => [index, entry] as const),
			path,
		);
	}
	return isPlainObject(inner) ? firstFound(Object.entries(inner), path) : undefined;
}

function firstFound(
	entries: ReadonlyArray<readonly [string | number, unknown]>,
	path: Array<string | number>,
): ListOfPeople | undefined {
	for (const [name, entry] of entries) {
		const found = listOfPeopleIn(entry, [...path, name]);
		if (found) return found;
	}
	return undefined;
}

/**
 * Refuses a record whose values hold a list of several people, at any depth, naming the first
 * such list. After n8n's Aggregate node, each list of two entries or more holds several items'
 * values, whatever they are.
 */
export function refuseSeveralPeople(
	entries: ReadonlyArray<readonly [string, unknown]>,
	field: string,
	options: { leaveOutOption?: string; source?: SourceNodeRules } = {},
): void {
	const { source, leaveOutOption } = options;
	const aggregated = source?.putsItemsInLists
		? entries.find(([, value]) => Array.isArray(value) && value.length >= 2)
		: undefined;
	const found: ListOfPeople | undefined =
		firstFound(entries, []) ??
		(aggregated && {
			path: [aggregated[0]],
			holds: `${(aggregated[1] as unknown[]).length} items' values (${source?.displayName} puts several items in one)`,
		});
	if (!found) return;
	throw invalidInput(
		field,
		`holds a list of ${found.holds} in "${expressionOf(found.path).replace(/^\./, '')}": a call carries one person's values`,
		oneItemPerPerson(found.path, leaveOutOption),
	);
}

/**
 * A record mapped as a list: one record in it is that record; several entries are refused as a
 * list (how many, and how to make one item of each). Any other value comes back as it is.
 */
export function recordOfList(given: unknown, field: string): unknown {
	if (!Array.isArray(given) || given.length === 0) return given;
	if (given.length === 1) return isPlainObject(given[0]) ? given[0] : given;
	throw invalidInput(
		field,
		`is a list of ${given.length} ${given.every(isPlainObject) ? 'records' : 'values'}, not one record: a call carries one person's values`,
		"Make one item per record with n8n's Split Out node, or map one record, e.g. add [0] to the end of the expression",
	);
}
