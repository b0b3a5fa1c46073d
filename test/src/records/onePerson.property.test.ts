// One item is one person (issue 46): over generated people and containers, a call made from one
// person's record never carries a value that only another person has; the item is refused first.
import fc from 'fast-check';
import { DateTime } from 'luxon';

import { CallKaroInputError } from '../../../src/input/inputError';
import { prepareAssign, prepareOutbound } from '../../../src/input/requests';
import { looseKey } from '../../../src/records/recordValues';
import type { SourceNodeRules } from '../../../src/records/sourceNodes';
import { sourceNodeRules } from '../../../src/records/sourceNodes';
import { propertyRuns } from '../../support/property.mjs';
import { thrownBy } from '../helpers';

type Json = unknown;

/** Letters of several scripts: names, cities and keys as people write them. */
const SCRIPTS = [
	'abcdefghij',
	'अआइकखगनमरस',
	'অআইকখগনমরস',
	'กขคงจฉชซญด',
	'абвгдежзик',
	'日本語名前都市東京大阪',
];
const word = fc
	.constantFrom(...SCRIPTS)
	.chain((letters) => fc.string({ unit: fc.constantFrom(...letters), minLength: 3, maxLength: 8 }));
const key = fc.oneof(
	word,
	fc.string({ unit: fc.constantFrom(...'abcdefxyz_'), minLength: 2, maxLength: 6 }),
);

/** Digits of several scripts, and full width: a number as a sheet, a form or a chat app writes it. */
const DIGITS = ['0123456789', '०१२३४५६७८९', '০১২৩৪৫৬৭৮৯', '๐๑๒๓๔๕๖๗๘๙', '０１２３４５６７８９'];
function written(digits: string, script: string, spaced: boolean): string {
	const shown = Array.from(digits, (digit) => script[Number(digit)]).join('');
	return `+91${spaced ? ' ' : ''}${spaced ? `${shown.slice(2, 7)} ${shown.slice(7)}` : shown.slice(2)}`;
}

/** A distinct Indian mobile number per person: 91 and 10 digits. */
const mobileOf = (index: number) => `9198200${String(10000 + index * 7919).padStart(5, '0')}`;

/** A person's own labelled numbers, as CRMs give them (Pipedrive's, Keap's shapes). */
const contactPoints = (numbers: string[]) =>
	fc.constantFrom(
		numbers.map((value, index) => ({
			label: index === 0 ? 'mobile' : 'work',
			value,
			primary: index === 0,
		})),
		numbers.map((number, index) => ({
			number,
			field: `PHONE${index + 1}`,
			type: 'Mobile',
			extension: '',
		})),
	);

/** A generated person: a unique number, unique values, random keys and nesting. */
interface Person {
	record: Record<string, Json>;
	/** The number as written in the record, in any script. */
	phone: string;
	/** The same number in ASCII digits, as Phone Number is mapped. */
	e164: string;
	/** Values no other person has. */
	own: string[];
}

const person = (index: number) =>
	fc
		.record({
			phoneKey: key,
			script: fc.constantFrom(...DIGITS),
			spaced: fc.boolean(),
			values: fc.uniqueArray(fc.tuple(key, word), {
				minLength: 1,
				maxLength: 4,
				// Keys CallKaro reads as one attribute (`f_`, `_f`) are another rule's case.
				selector: ([name]) => looseKey(name),
			}),
			nested: fc.option(fc.tuple(key, key, word), { nil: undefined }),
			tags: fc.option(fc.array(word, { minLength: 1, maxLength: 3 }), { nil: undefined }),
			secondNumber: fc.boolean(),
			numbered: fc.boolean(),
		})
		.chain((shape) =>
			contactPoints([
				written(
					`91982${String(10000 + index * 7919).padStart(5, '0')}`,
					shape.script,
					shape.spaced,
				),
				`+91 99${String(100000 + index).padStart(8, '0')}`,
			]).map((points) => {
				// Each person's values carry the person's index: unique to them, in any script.
				const own = shape.values.map(([, value]) => `${value}·${index}`);
				const phone = written(
					`91982${String(10000 + index * 7919).padStart(5, '0')}`,
					shape.script,
					shape.spaced,
				);
				const record: Record<string, Json> = {};
				shape.values.forEach(([name], at) => {
					record[name] = own[at];
				});
				record[`${shape.phoneKey}_phone`] = phone;
				if (shape.nested)
					record[`${shape.nested[0]}_at`] = { [shape.nested[1]]: `${shape.nested[2]}·${index}` };
				if (shape.tags) record.tags = shape.tags;
				if (shape.secondNumber) record.phones = points;
				if (shape.numbered) record.id = 1000 + index;
				const nestedOwn = shape.nested ? [`${shape.nested[2]}·${index}`] : [];
				return {
					record,
					phone,
					e164: `+${mobileOf(index)}`,
					own: [...own, ...nestedOwn, phone],
				} satisfies Person;
			}),
		);

const people = fc
	.integer({ min: 2, max: 5 })
	.chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => person(index))));

/** Where the people sit in the item: a list under a key, Aggregate's data, nested lists, pages. */
type Container = { item: Record<string, Json>; mapped: Json; viaAggregate?: boolean };
const container = (members: Person[]) =>
	fc
		.record({ listKey: key, outerKey: key, shape: fc.integer({ min: 0, max: 5 }) })
		.map(({ listKey, outerKey, shape }): Container => {
			const records = members.map((member) => member.record);
			switch (shape) {
				case 0:
					return { item: { data: records }, mapped: { data: records }, viaAggregate: true };
				case 1:
					return { item: { [listKey]: records }, mapped: { [listKey]: records } };
				case 2:
					return {
						item: { [outerKey]: { results: [{ [listKey]: records }] } },
						mapped: { [outerKey]: { results: [{ [listKey]: records }] } },
					};
				case 3:
					return {
						item: { pages: [records.slice(0, 1), records.slice(1)] },
						mapped: { pages: [records.slice(0, 1), records.slice(1)] },
					};
				case 4:
					return { item: { [listKey]: records }, mapped: records };
				default: {
					// Aggregate's Individual Fields: each field's values listed.
					const columns = {
						numbers: members.map((member) => member.phone),
						names: members.map((member) => member.own[0]),
					};
					return { item: columns, mapped: columns, viaAggregate: true };
				}
			}
		});

const AGGREGATE = sourceNodeRules('n8n-nodes-base.aggregate');

function sentValues(run: () => { request: object }): string | CallKaroInputError {
	let sent = '';
	const error = thrownBy(() => {
		sent = JSON.stringify(run().request);
	});
	if (error === undefined) return sent;
	expect(error).toBeInstanceOf(CallKaroInputError);
	return error as CallKaroInputError;
}

function call(
	kind: 'assign' | 'outbound',
	phone: string,
	mapped: Json,
	jsonText: boolean,
	source?: SourceNodeRules,
	keysToLeaveOut: string[] = [],
) {
	return kind === 'assign'
		? () =>
				prepareAssign({
					phoneNumber: phone,
					workflowId: 'wf_welcome',
					attributes: { object: mapped, replace: false },
					attributeRules: {
						handling: jsonText ? 'jsonText' : 'leaveOut',
						keysToSend: [],
						keysToLeaveOut,
					},
					sourceNode: source,
				})
		: () =>
				prepareOutbound({
					agentId: 'agent_sales_01',
					phoneNumber: phone,
					sourceNode: source,
					options: {
						metadata: mapped,
						metadataHandling: jsonText ? 'jsonText' : 'leaveOut',
						metadataKeysToLeaveOut: keysToLeaveOut,
					},
				});
}

describe('one item is one person, over generated people and containers', () => {
	test('a call from one record never carries a value only another person has', () => {
		fc.assert(
			fc.property(
				people.chain((members) =>
					fc.tuple(
						fc.constant(members),
						container(members),
						fc.nat({ max: members.length - 1 }),
						fc.constantFrom('assign' as const, 'outbound' as const),
						fc.boolean(),
						fc.boolean(),
					),
				),
				([members, { mapped, viaAggregate }, called, kind, jsonText, knowSource]) => {
					const source = viaAggregate && knowSource ? AGGREGATE : undefined;
					const outcome = sentValues(call(kind, members[called].e164, mapped, jsonText, source));
					if (outcome instanceof CallKaroInputError) {
						expect(outcome.message).toMatch(/a call carries one person's values/);
						expect(outcome.message).toMatch(/Split Out/);
						return;
					}
					const others = members
						.filter((_, index) => index !== called)
						.flatMap((member) => member.own);
					for (const value of others)
						expect(outcome).not.toContain(JSON.stringify(value).slice(1, -1));
				},
			),
			propertyRuns(25, 5000),
		);
	});

	test('one person, however their record is shaped, is sent whole', () => {
		fc.assert(
			fc.property(
				person(0),
				fc.constantFrom('assign' as const, 'outbound' as const),
				fc.boolean(),
				(member, kind, inAList) => {
					const mapped = inAList ? [member.record] : member.record;
					const outcome = sentValues(call(kind, member.e164, mapped, false));
					if (outcome instanceof CallKaroInputError) throw outcome;
					for (const value of member.own)
						expect(outcome).toContain(JSON.stringify(value).slice(1, -1));
				},
			),
			propertyRuns(15, 2000),
		);
	});

	test("other people beside a person's values: following each refusal's advice sends the person's values and no one else's", () => {
		fc.assert(
			fc.property(
				people,
				fc.array(fc.tuple(key, fc.option(key, { nil: undefined })), { minLength: 1, maxLength: 2 }),
				fc.constantFrom('assign' as const, 'outbound' as const),
				fc.boolean(),
				([called, ...others], places, kind, jsonText) => {
					// Each list of the others sits under a key of its own, or inside an object.
					const record: Record<string, Json> = { ...called.record };
					places.forEach(([listKey, boxKey], index) => {
						const list = others.map((other) => other.record);
						if (boxKey === undefined) record[`${listKey}_list${index}`] = list;
						else record[`${boxKey}_box${index}`] = { [`${listKey}_list`]: list, note: `n${index}` };
					});
					const leaveOut: string[] = [];
					let outcome = sentValues(call(kind, called.e164, record, jsonText, undefined, leaveOut));
					for (
						let asked = 0;
						outcome instanceof CallKaroInputError && asked < places.length;
						asked++
					) {
						const { advice } = outcome;
						// Lists of one length making half the record read as the columns of several
						// items (Aggregate's Individual Fields): Split Out is the fix, and no leave-out.
						const lists = Object.values(record).filter(
							(value) => Array.isArray(value) && value.length === others.length,
						);
						if (advice === undefined && lists.length * 2 > Object.keys(record).length) {
							expect(outcome.message).toMatch(/Split Out/);
							return;
						}
						expect(advice).toEqual({
							field:
								kind === 'assign' ? 'Attribute Keys to Leave Out' : 'Metadata Keys to Leave Out',
							add: expect.any(String),
						});
						expect(outcome.message).toContain(`"${(advice as { add: string }).add}"`);
						leaveOut.push((advice as { add: string }).add);
						outcome = sentValues(call(kind, called.e164, record, jsonText, undefined, leaveOut));
					}
					if (outcome instanceof CallKaroInputError) throw outcome;
					for (const value of called.own)
						expect(outcome).toContain(JSON.stringify(value).slice(1, -1));
					for (const value of others.flatMap((other) => other.own))
						expect(outcome).not.toContain(JSON.stringify(value).slice(1, -1));
				},
			),
			propertyRuns(20, 2000),
		);
	});

	test('items of one shape get one verdict, however many of their values are empty', () => {
		/**
		 * The record with the fields `mask` picks emptied (null or ''), in order; a list of bare
		 * values keeps them, as they are all it has (an empty list of numbers holds no one).
		 */
		const emptied = (value: Json, mask: boolean[], at = { leaf: 0 }): Json => {
			if (Array.isArray(value)) {
				return value.map((entry) =>
					entry !== null && typeof entry === 'object' ? emptied(entry, mask, at) : entry,
				);
			}
			if (value !== null && typeof value === 'object') {
				return Object.fromEntries(
					Object.entries(value).map(([name, entry]) => [name, emptied(entry, mask, at)]),
				);
			}
			const index = at.leaf++;
			return mask[index % mask.length] ? (index % 2 ? null : '') : value;
		};
		const verdict = (outcome: string | CallKaroInputError) =>
			outcome instanceof CallKaroInputError ? outcome.message.replace(/:.*/, '') : 'sent';
		fc.assert(
			fc.property(
				people.chain((members) => fc.tuple(fc.constant(members), container(members))),
				fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }),
				fc.constantFrom('assign' as const, 'outbound' as const),
				fc.boolean(),
				([members, { mapped }], mask, kind, beside) => {
					// Beside the first person's own values, or alone as the container gives it.
					const item = beside
						? { ...members[0].record, others: members.slice(1).map((member) => member.record) }
						: mapped;
					const [called] = members;
					const full = verdict(sentValues(call(kind, called.e164, item, false)));
					const sparse = verdict(sentValues(call(kind, called.e164, emptied(item, mask), false)));
					expect(sparse).toBe(full);
				},
			),
			propertyRuns(20, 2000),
		);
	});

	test("one person's record with any number of their own numbers, in parts, with types and flags, is never refused", () => {
		const ownNumber = fc.oneof(
			// Xero: the number in its parts, with its type; an unused type is all empty.
			fc.record({
				PhoneType: fc.constantFrom('DEFAULT', 'DDI', 'FAX', 'MOBILE'),
				PhoneNumber: fc.constantFrom('496 0388', '496 0321', '123461', ''),
				PhoneAreaCode: fc.constantFrom('0113', '07400', ''),
				PhoneCountryCode: fc.constantFrom('44', ''),
			}),
			// ERPNext: a number with its 0/1 flags.
			fc.record({
				phone: fc.constantFrom('+91 98200 17645', '+91 44 4859 0175', '9820017646'),
				is_primary_phone: fc.constantFrom(0, 1),
				is_primary_mobile_no: fc.constantFrom(0, 1),
			}),
			// Pipedrive, Google: a labelled value with flags and metadata.
			fc.record({
				value: fc.constantFrom('+91 98200 22223', '022 6600 1234'),
				label: fc.constantFrom('work', 'mobile', 'home'),
				primary: fc.boolean(),
				metadata: fc.record({
					primary: fc.boolean(),
					source: fc.record({ type: fc.constant('CONTACT') }),
				}),
			}),
		);
		fc.assert(
			fc.property(
				person(0),
				key,
				fc.array(ownNumber, { maxLength: 6 }),
				fc.constantFrom('assign' as const, 'outbound' as const),
				(member, listKey, numbers, kind) => {
					const record = { ...member.record, [`${listKey}_numbers`]: numbers };
					const outcome = sentValues(call(kind, member.e164, record, false));
					if (outcome instanceof CallKaroInputError) throw outcome;
					for (const value of member.own)
						expect(outcome).toContain(JSON.stringify(value).slice(1, -1));
				},
			),
			propertyRuns(20, 2000),
		);
	});

	test('a record of 60 keys, in other scripts, with epoch seconds and dates: refused for its size, never for a person', () => {
		fc.assert(
			fc.property(
				fc.uniqueArray(key, {
					minLength: 60,
					maxLength: 60,
					selector: looseKey,
				}),
				fc.array(word, { minLength: 60, maxLength: 60 }),
				fc.integer({ min: 1_700_000_000, max: 1_900_000_000 }),
				(keys, values, epochSeconds) => {
					const record: Record<string, Json> = Object.fromEntries(
						keys.map((name, index) => [name, values[index]]),
					);
					record[keys[0]] = epochSeconds;
					record[keys[1]] = new Date(epochSeconds * 1000);
					record[keys[2]] = DateTime.fromSeconds(epochSeconds, { zone: 'Asia/Kolkata' });
					const outbound = prepareOutbound({
						agentId: 'a',
						phoneNumber: '+919820011112',
						options: { metadata: record },
					});
					const metadata = outbound.request.metadata ?? {};
					expect(Object.keys(metadata)).toHaveLength(60);
					expect(metadata[keys[1]]).toBe(new Date(epochSeconds * 1000).toISOString());
					expect(Date.parse(String(metadata[keys[2]]))).toBe(epochSeconds * 1000);
					expect(() =>
						prepareAssign({
							phoneNumber: '+919820011112',
							workflowId: 'w',
							attributes: { object: record, replace: false },
						}),
					).toThrow(/has 60 values to send, 10 more than the 50 CallKaro accepts/);
				},
			),
			propertyRuns(3, 300),
		);
	});
});
