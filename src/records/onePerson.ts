import { listEntries } from '../input/input';
import { invalidInput } from '../input/inputError';
import type { Advice } from '../input/inputError';
import { PHONE_KEY, isPlainObject, namedValuePairs, unwrapValue } from './recordShapes';
import type { SourceNodeRules } from './sourceNodes';

/**
 * One item is one person: a call carries one person's values, never another's. A list that holds
 * several people (n8n's Aggregate node's `data`, an API's list of contacts, a meeting's guests) is
 * refused before anything is sent, naming the list and how to leave it out or make one item per
 * person.
 *
 * A person is recognised by what a person is, not by how many values they have: a list entry
 * stands for a person when it holds a way to reach them (a phone number or an email address) and
 * anything that says who they are (a name, a city, an id, a date), or nothing at all beside it.
 * An entry that holds a number or an address with only what describes it beside it (its type or
 * label, its parts such as an area code, flags such as `is_primary_phone: 0`) is one of a person's
 * own numbers, as a contact's lists of phones and emails are (Xero's `Phones`).
 */

/** Keys that describe a number or an address: its type or label, its parts, its flags. */
const DESCRIBES_A_CONTACT =
	/(type|label|kind|category|field)$|^(rel|ext|timestamp|default|verified)$|primary|preferred|(area|country|city|calling|dial(l)?ing|trunk|international)[-_ ]?(code|prefix)|extension$/i;
/** Flags named as such in camelCase or snake_case: `is_primary_phone`, `isPrimary`, `HasWhatsApp`. */
const FLAG_KEY = /^(?:is|has|Is|Has)(?:[-_ ]|[A-Z])/;
/** Keys whose whole value describes the number beside it (Google's metadata: primary, source). */
const DESCRIPTION_KEY = /^(metadata|source)$/i;
/** Keys that name a way to reach a person: empty, they are still a person's place for one. */
const CONTACT_KEY = /phone|mobile|e-?mail|whatsapp|^tel$/i;
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

function describesAContact(key: string): boolean {
	return DESCRIBES_A_CONTACT.test(key) || FLAG_KEY.test(key);
}

/** What one list entry holds: a way to reach someone, what describes it, and anything else. */
interface EntryContents {
	reaches: boolean;
	/** A key for a number or an address, empty in this entry: the place of one. */
	placeForOne: boolean;
	describes: boolean;
	others: boolean;
}

function isEmpty(value: unknown): boolean {
	return value === null || value === undefined || value === '';
}

// Read by its keys: an empty name is still a name's place, so entries of one shape read alike.
function readEntry(inner: unknown, key: string, described: boolean, into: EntryContents): void {
	if (Array.isArray(inner)) {
		inner.forEach((entry) => readEntry(entry, key, described, into));
		return;
	}
	if (isPlainObject(inner)) {
		for (const [name, entry] of Object.entries(inner)) {
			readEntry(entry, name, described || DESCRIPTION_KEY.test(name), into);
		}
		return;
	}
	if (described || describesAContact(key) || typeof inner === 'boolean') into.describes = true;
	else if (contactOf(inner, key) !== undefined) into.reaches = true;
	else if (isEmpty(inner) && CONTACT_KEY.test(key)) into.placeForOne = true;
	else into.others = true;
}

/** Keys that identify a record, keys that point at the record an entry belongs to, and names. */
const IDENTIFIER_KEY = /^(id|name|uuid|vid|guid)$/i;
const PARENT_KEY = /^parent$|^(parent|customer|contact|person)[-_ ]?id$/i;
const PERSON_NAME_KEY = /^(first|last|given|family|full|middle|display)?[-_ ]?name$/i;

/** The words of the person names an object holds: 'Nandini Desai' -> Nandini, Desai. */
function nameWords(object: Record<string, unknown>): string[] {
	return Object.entries(object)
		.filter(([key, value]) => PERSON_NAME_KEY.test(key) && typeof value === 'string')
		.flatMap(([, value]) => (value as string).match(/\p{L}[\p{L}\p{M}'’-]+/gu) ?? []);
}

function scalarText(value: unknown): string | undefined {
	return isEmpty(value) || typeof value === 'object' ? undefined : String(value);
}

/**
 * Whether a list's entries are one record's own rows (its addresses, its numbers): each points at
 * the record that holds the list (Shopify's `customer_id` is the customer's `id`), or two or more
 * all point at one same record (ERPNext's `parent`), and none names anyone but that record's person.
 */
function areOwnRows(entries: unknown[], holder: Record<string, unknown> | undefined): boolean {
	if (entries.length === 0 || !entries.every(isPlainObject)) return false;
	const rows = entries as Array<Record<string, unknown>>;
	const identifiers = Object.entries(holder ?? {})
		.filter(([key]) => IDENTIFIER_KEY.test(key))
		.map(([key, value]) => [key, scalarText(value)] as const);
	// Under a key of its own (`customer_id`, `parent`), or the same id (HubSpot's profile `vid`).
	const pointsAtHolder = (row: Record<string, unknown>) =>
		Object.entries(row).some(([key, value]) =>
			identifiers.some(
				([holderKey, identifier]) =>
					identifier !== undefined &&
					scalarText(value) === identifier &&
					(key === holderKey ? holderKey !== 'name' : !IDENTIFIER_KEY.test(key)),
			),
		);
	const parentKeys = Object.keys(rows[0]).filter((key) => PARENT_KEY.test(key));
	// One entry alone shares its parent with no other: it must point at the holder.
	const oneParent =
		rows.length >= 2 &&
		parentKeys.some((key) => {
			const parent = scalarText(rows[0][key]);
			return parent !== undefined && rows.every((row) => scalarText(row[key]) === parent);
		});
	const holderNames = new Set(holder ? nameWords(holder) : []);
	const namesNoOneElse = rows.every((row) => nameWords(row).every((word) => holderNames.has(word)));
	return (oneParent || rows.every(pointsAtHolder)) && namesNoOneElse;
}

/**
 * How many of a list's entries stand for a person: one with a way to reach them and something
 * more, or nothing at all beside it, unless the entries are the holding record's own rows.
 * Decided by what each entry holds, never by comparing their contacts or counting their values,
 * so that entries of one shape from one node get one verdict.
 */
function peopleIn(entries: unknown[], holder: Record<string, unknown> | undefined): number {
	if (areOwnRows(entries, holder)) return 0;
	return entries.filter((entry) => {
		const contents: EntryContents = {
			reaches: false,
			placeForOne: false,
			describes: false,
			others: false,
		};
		readEntry(entry, '', false, contents);
		const { reaches, placeForOne, describes, others } = contents;
		// A person without a number yet is a person of the same shape.
		return (reaches && (others || !describes)) || (placeForOne && others);
	}).length;
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

/** A path as the key lists name it (`scheduled_event.event_guests`, `pages[0]`), as spread keys are. */
export function keyPathOf(path: ReadonlyArray<string | number>): string {
	return path
		.map((name, index) => (typeof name === 'number' ? `[${name}]` : index ? `.${name}` : name))
		.join('');
}

interface ListOfPeople {
	path: Array<string | number>;
	/** 'records of 3 people', '3 phone numbers or email addresses'. */
	holds: string;
}

/** Whether the list at a path stands beside a person's own values, as its other people do. */
type Beside = (path: ReadonlyArray<string | number>) => boolean;

function listOfPeopleIn(
	value: unknown,
	path: Array<string | number>,
	holder: Record<string, unknown> | undefined,
	beside: Beside,
): ListOfPeople | undefined {
	const inner = unwrapValue(value).value;
	if (Array.isArray(inner)) {
		// A list of named values is one record's fields (Agile CRM's properties, a form's answers).
		if (namedValuePairs(inner) === undefined) {
			// Lists inside lists (pages of results) hold the records of their entries.
			const entries = inner.flat(Number.POSITIVE_INFINITY) as unknown[];
			const people = peopleIn(entries, holder);
			// One record beside a person's own values is another person (a booking's one guest);
			// alone in the item, it is the person.
			const records = entries.some(isPlainObject);
			if (people >= 2 || (people === 1 && records && beside(path))) {
				const holds =
					people === 1
						? "another person's record"
						: records
							? `${people} people's records`
							: `${people} phone numbers or email addresses`;
				return { path, holds };
			}
		}
		return firstFound(
			inner.map((entry, index) => [index, entry] as const),
			path,
			undefined,
			beside,
		);
	}
	return isPlainObject(inner) ? firstFound(Object.entries(inner), path, inner, beside) : undefined;
}

function firstFound(
	entries: ReadonlyArray<readonly [string | number, unknown]>,
	path: Array<string | number>,
	holder: Record<string, unknown> | undefined,
	beside: Beside,
): ListOfPeople | undefined {
	for (const [name, entry] of entries) {
		const found = listOfPeopleIn(entry, [...path, name], holder, beside);
		if (found) return found;
	}
	return undefined;
}

/** Whether a value has a place for a value, empty or not: items of one shape answer alike. */
function holdsAny(value: unknown): boolean {
	const inner = unwrapValue(value).value;
	if (isPlainObject(inner) || Array.isArray(inner)) return Object.values(inner).some(holdsAny);
	return inner !== undefined;
}

/** The value at `path`, through wrappers; undefined where there is none. */
function valueAt(value: unknown, path: ReadonlyArray<string | number>): unknown {
	return path.reduce<unknown>((holder, name) => {
		const inner = unwrapValue(holder).value;
		return isPlainObject(inner) || Array.isArray(inner)
			? (inner as Record<string, unknown>)[String(name)]
			: undefined;
	}, value);
}

/** Whether anything but the value at `path` has a place for a value. */
function holdsMoreThan(value: unknown, path: ReadonlyArray<string | number>): boolean {
	if (path.length === 0) return false;
	const inner = unwrapValue(value).value;
	if (!isPlainObject(inner) && !Array.isArray(inner)) return false;
	return Object.entries(inner).some(([name, entry]) =>
		String(path[0]) === name ? holdsMoreThan(entry, path.slice(1)) : holdsAny(entry),
	);
}

/**
 * Whether the list at `path` stands beside a person's own values (a meeting's guests beside the
 * invitee): something outside it has a place for a value, and it is not one of the columns of
 * several items, lists of one length that make at least half of what stands beside it
 * (Aggregate's Individual Fields, behind any node).
 */
function besidePersonalValues(record: unknown, path: ReadonlyArray<string | number>): boolean {
	const name = String(path[path.length - 1]);
	const parent = unwrapValue(valueAt(record, path.slice(0, -1))).value;
	const { length } = unwrapValue(valueAt(record, path)).value as unknown[];
	const siblings = isPlainObject(parent)
		? Object.entries(parent).filter(([key]) => key !== name)
		: [];
	const columns = siblings.filter(([, sibling]) => {
		const other = unwrapValue(sibling).value;
		return Array.isArray(other) && other.length === length;
	});
	const column = length >= 2 && columns.length > 0 && columns.length * 2 >= siblings.length;
	return !column && holdsMoreThan(record, path);
}

/**
 * The fix for a list of people: beside a person's own values (a meeting's guests), leave it out,
 * as advice where the field has the option and a key list can name the path; as all the record
 * holds (Aggregate's `data`), make one item per person with Split Out.
 */
function fixFor(
	where: string,
	besidePerson: boolean,
	leaveOutOption: string | undefined,
): { fix: string; advice?: Advice } {
	const splitOut = `Make one item per person with n8n's Split Out node (Fields To Split Out: ${where})`;
	if (!besidePerson) return { fix: splitOut };
	if (leaveOutOption === undefined || listEntries(where).join() !== where) {
		return { fix: `Map only the called person's values, without "${where}"` };
	}
	return {
		fix: `Leave "${where}" out in Options > ${leaveOutOption}: it holds other people than the one called`,
		advice: { field: leaveOutOption, add: where },
	};
}

/**
 * Refuses a record whose values hold a list of several people, at any depth, naming the first
 * such list. After n8n's Aggregate node, each list of two entries or more holds several items'
 * values, whatever they are.
 */
export function refuseSeveralPeople(
	entries: ReadonlyArray<readonly [string, unknown]>,
	field: string,
	options: {
		leaveOutOption?: string;
		source?: SourceNodeRules;
		/** The whole record the entries were kept from: its id names its own rows. */
		record?: ReadonlyArray<readonly [string, unknown]>;
	} = {},
): void {
	const { source, leaveOutOption, record = entries } = options;
	const kept = Object.fromEntries(entries);
	const beside: Beside = (path) => besidePersonalValues(kept, path);
	const people = firstFound(entries, [], Object.fromEntries(record), beside);
	const aggregated = source?.putsItemsInLists
		? entries.find(([, value]) => Array.isArray(value) && value.length >= 2)
		: undefined;
	const found: ListOfPeople | undefined =
		people ??
		(aggregated && {
			path: [aggregated[0]],
			holds: `${(aggregated[1] as unknown[]).length} items' values (${source?.displayName} puts several items in one)`,
		});
	if (!found) return;
	const where = keyPathOf(found.path);
	const besidePerson = people !== undefined && beside(found.path);
	const { fix, advice } = fixFor(where, besidePerson, leaveOutOption);
	throw invalidInput(
		field,
		`holds a list of ${found.holds} in "${where}": a call carries one person's values`,
		fix,
		advice,
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
		"Make one item per record with n8n's Split Out node before this node",
	);
}
