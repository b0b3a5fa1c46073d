// The records corpus of issue 52 (test/fixtures/node-outputs): one person's several numbers and
// addresses as Xero, ERPNext, Telegram and Shopify give them, and a Calendly invitee with guests,
// run through the CallKaro nodes in n8n's engine behind a stand-in of their node. Each run states
// the number called and what the call carries; a refusal's advice is followed as a builder would,
// until the item is sent or refused without advice.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Advice } from '../../src/input/inputError';
import type { RunResult } from '../engine/harness';
import { readNodeOutput } from '../fixtures/node-outputs/nodeOutputs.mjs';
import { adviceOf, followAdvice } from './advice';
import { NODE_NAME, apiRequests, runNode } from './fixtures';
import {
	DEFAULTS,
	INDEX,
	RECORDS_CORPUS_FILES,
	TYPES,
	assignRecord,
	outboundRecord,
	sourceOf,
	useNodeOutputSandbox,
} from './nodeOutputRuns';

type CorpusFile = (typeof RECORDS_CORPUS_FILES)[number];

const CALENDLY_GUESTS: CorpusFile = 'calendly-trigger-invitee-created-guests.json';
const XERO: CorpusFile = 'xero-contact-get.json';
const ERPNEXT: CorpusFile = 'erpnext-contact-get.json';
const TELEGRAM: CorpusFile = 'telegram-trigger-message-contact.json';
const SHOPIFY: CorpusFile = 'shopify-trigger-customer-update.json';

/** Values of other people in the items: none of them may reach the call. */
const OTHERS: Partial<Record<CorpusFile, string[]>> = {
	[CALENDLY_GUESTS]: ['arjun.menon@example.com', 'kavya.pillai@example.com'],
	[XERO]: ['accounts@example.co.uk', 'priya.chandra@example.co.uk', 'Ashby', 'Chandra'],
};

/** A Xero Phones entry of one type, its three parts written together as one number. */
function xeroNumber(type: 'DEFAULT' | 'MOBILE'): string {
	return `(p => \`+\${p.PhoneCountryCode} \${p.PhoneAreaCode} \${p.PhoneNumber}\`)($json.Phones.find(p => p.PhoneType === '${type}'))`;
}
const XERO_MOBILE = xeroNumber('MOBILE');

interface CorpusRun {
	name: string;
	file: CorpusFile;
	node: 'assign' | 'outbound';
	parameters: INodeParameters;
	/** The items of one run: the fixture, or items of its shape made from it. */
	items?: (fixture: IDataObject) => IDataObject[];
	/**
	 * The number called for each item, after following any advice (a list: any one of the person's
	 * own numbers, in full). `orRefusedNaming`: a refusal without advice that names this list of
	 * other people is right too.
	 */
	outcome: Array<{ sent: string | string[]; scheduleAt?: string; orRefusedNaming?: string }>;
	/** Values of the person that the call carries (attributes or metadata), after any advice. */
	carries?: string[];
}

/** Shopify's customer with one address: the same shape as the fixture, fewer values. */
function withOneAddress(customer: IDataObject): IDataObject {
	const [home] = customer.addresses as IDataObject[];
	return { ...customer, addresses: [home] };
}

/** Xero's contact with only its DEFAULT number and no ContactPersons: the same shape, fewer values. */
function withOneNumber(contact: IDataObject): IDataObject {
	const phones = (contact.Phones as IDataObject[]).map((phone) =>
		phone.PhoneType === 'DEFAULT'
			? phone
			: { ...phone, PhoneNumber: '', PhoneAreaCode: '', PhoneCountryCode: '' },
	);
	return { ...contact, Phones: phones, ContactPersons: [] };
}

const RUNS: CorpusRun[] = [
	{
		name: "Calendly invitee with two guests, the docs' recipe (Outbound Call, Metadata {{ $json.payload }})",
		file: CALENDLY_GUESTS,
		node: 'outbound',
		parameters: outboundRecord('$json.payload.scheduled_event.location.location', '$json.payload', {
			scheduleAt: '={{ $json.payload.scheduled_event.start_time }}',
		}),
		outcome: [{ sent: '+919820017641', scheduleAt: '2026-12-14T14:00:00' }],
		carries: ['Meera Iyer', 'meera.iyer@example.com'],
	},
	{
		name: 'Calendly invitee with two guests as attributes (Assign Workflow, {{ $json.payload }})',
		file: CALENDLY_GUESTS,
		node: 'assign',
		parameters: assignRecord('$json.payload.scheduled_event.location.location', '$json.payload', {
			options: {
				attributeKeysToSend: 'name, email, questions_and_answers, scheduled_event',
			},
		}),
		outcome: [{ sent: '+919820017641' }],
		carries: ['Meera Iyer', 'meera.iyer@example.com'],
	},
	{
		name: 'Calendly invitee with two guests, the guests left out by their nested path (Assign Workflow)',
		file: CALENDLY_GUESTS,
		node: 'assign',
		parameters: assignRecord('$json.payload.scheduled_event.location.location', '$json.payload', {
			options: {
				attributeKeysToSend: 'name, email, questions_and_answers, scheduled_event',
				attributeKeysToLeaveOut: 'scheduled_event.event_guests',
			},
		}),
		outcome: [{ sent: '+919820017641' }],
		carries: ['Meera Iyer', 'meera.iyer@example.com'],
	},
	{
		name: 'Xero contact: the MOBILE entry by its parts, the contact as metadata (two ContactPersons: other people)',
		file: XERO,
		node: 'outbound',
		parameters: outboundRecord(XERO_MOBILE, '$json'),
		outcome: [{ sent: '+447400123461', orRefusedNaming: 'ContactPersons' }],
		carries: ['Eleanor', 'eleanor.whitfield@example.co.uk', '496 0321'],
	},
	{
		name: 'Xero contact without its ContactPersons: Phones (DDI, DEFAULT, FAX, MOBILE) is one person',
		file: XERO,
		node: 'outbound',
		parameters: outboundRecord(XERO_MOBILE, '{ ...$json, ContactPersons: undefined }'),
		outcome: [{ sent: '+447400123461' }],
		carries: ['Eleanor', '496 0321', '496 0388', 'Canal Wharf'],
	},
	{
		name: 'Xero contact: Phone Number mapped to Phones, then to the one advised (never local digits alone)',
		file: XERO,
		node: 'outbound',
		parameters: outboundRecord('$json.Phones', '{ name: $json.Name }'),
		outcome: [{ sent: ['+441134960388', '+441134960321', '+447400123461'] }],
	},
	{
		name: "Xero contact's Phones and Addresses as attributes (Assign Workflow)",
		file: XERO,
		node: 'assign',
		parameters: assignRecord(XERO_MOBILE, '$json', {
			options: {
				attributeKeysToSend: 'Name, FirstName, LastName, EmailAddress, Phones, Addresses',
			},
		}),
		outcome: [{ sent: '+447400123461' }],
		carries: ['Eleanor', 'Whitfield', '496 0321'],
	},
	{
		name: 'Xero contacts of one shape, four numbers and one: the same verdict',
		file: XERO,
		node: 'outbound',
		parameters: outboundRecord(xeroNumber('DEFAULT'), '{ ...$json, ContactPersons: undefined }'),
		items: (contact) => [contact, withOneNumber(contact)],
		outcome: [{ sent: '+441134960321' }, { sent: '+441134960321' }],
	},
	{
		name: 'ERPNext Contact, its person and phone_nos rows as attributes: three numbers of one person',
		file: ERPNEXT,
		node: 'assign',
		parameters: assignRecord('$json.mobile_no', '$json', {
			options: {
				attributeKeysToSend: 'full_name, email_id, company_name, phone_nos',
			},
		}),
		outcome: [{ sent: '+919820017645' }],
		carries: ['Meenakshi', 'meenakshi@example.in', '+91 44 4859 0175'],
	},
	{
		name: 'ERPNext Contact: Phone Number mapped to all its phone_nos rows, then to the one advised',
		file: ERPNEXT,
		node: 'outbound',
		parameters: outboundRecord('$json.phone_nos', '{ name: $json.full_name }'),
		outcome: [{ sent: ['+919820017645', '+914448590175', '+919820017646'] }],
	},
	{
		name: 'ERPNext Contact: the primary mobile row, the document as metadata',
		file: ERPNEXT,
		node: 'outbound',
		parameters: outboundRecord(
			'$json.phone_nos.find(row => row.is_primary_mobile_no === 1).phone',
			'$json',
		),
		outcome: [{ sent: '+919820017645' }],
		carries: ['Meenakshi', '+91 44 4859 0175'],
	},
	{
		name: 'ERPNext Contact: only its phone_nos rows as metadata (is_primary flags are no numbers)',
		file: ERPNEXT,
		node: 'outbound',
		parameters: outboundRecord('$json.mobile_no', '{ phone_nos: $json.phone_nos }'),
		outcome: [{ sent: '+919820017645' }],
		carries: ['+91 44 4859 0175', '9820017646'],
	},
	{
		name: 'Telegram shared contact: contact.phone_number (country code, no +), the update as metadata',
		file: TELEGRAM,
		node: 'outbound',
		parameters: outboundRecord('$json.message.contact.phone_number', '$json'),
		outcome: [{ sent: '+919820017647' }],
		carries: ['Vikram', 'Nair'],
	},
	{
		name: 'Telegram shared contact: the message as attributes (from, chat and contact: one person)',
		file: TELEGRAM,
		node: 'assign',
		parameters: assignRecord('$json.message.contact.phone_number', '$json.message'),
		outcome: [{ sent: '+919820017647' }],
		carries: ['Vikram'],
	},
	{
		name: 'Shopify customer with three addresses, the whole customer as metadata',
		file: SHOPIFY,
		node: 'outbound',
		parameters: outboundRecord('$json.phone', '$json'),
		outcome: [{ sent: '+919820017648' }],
		carries: ['Nandini', 'Sakar Tower', 'Marine View'],
	},
	{
		name: "Shopify customer's addresses as attributes (Assign Workflow)",
		file: SHOPIFY,
		node: 'assign',
		parameters: assignRecord('$json.phone', '$json', {
			options: {
				attributeKeysToSend: 'first_name, last_name, email, note, addresses',
			},
		}),
		outcome: [{ sent: '+919820017648' }],
		carries: ['Nandini', 'Sakar Tower'],
	},
	{
		name: "Shopify customer: the default address's phone",
		file: SHOPIFY,
		node: 'outbound',
		parameters: outboundRecord('$json.default_address.phone', '$json'),
		outcome: [{ sent: '+919820017648' }],
	},
	{
		name: 'Shopify customers of one shape, three addresses and one: the same verdict',
		file: SHOPIFY,
		node: 'outbound',
		parameters: outboundRecord('$json.phone', '$json'),
		items: (customer) => [customer, withOneAddress(customer)],
		outcome: [{ sent: '+919820017648' }, { sent: '+919820017648' }],
	},
];

/** The `$json.a.b[0]` paths of an expression that name nothing in the item. */
function unresolvedPaths(expression: string, item: IDataObject): string[] {
	const paths = expression.match(/\$json(?:\.[A-Za-z_$][\w$]*|\[\d+\]|\['[^']*'\])+/g) ?? [];
	return paths.filter((path) => {
		const keys = [
			...path.slice('$json'.length).matchAll(/\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\['([^']*)'\]/g),
		];
		let value: unknown = item;
		for (const [, name, index, quoted] of keys) {
			if (value === null || typeof value !== 'object') return true;
			value = (value as IDataObject)[name ?? index ?? quoted];
		}
		return value === undefined;
	});
}

/** One item's path: each run's error or body, and the advice followed after it. */
interface Step {
	error?: string;
	advice?: Advice;
	body?: IDataObject;
}

/** The most advice a builder is asked to follow, one refusal after another. */
const MOST_ADVICE = 3;

describe('the records corpus (issue 52): one person, several numbers and addresses, guests', () => {
	const sandbox = useNodeOutputSandbox();

	test('every file of the corpus is in index.json and run', () => {
		const files = new Set(INDEX.map((entry) => entry.file));
		for (const file of RECORDS_CORPUS_FILES) expect(files).toContain(file);
		expect(new Set(RUNS.map((run) => run.file))).toEqual(new Set(RECORDS_CORPUS_FILES));
	});

	async function runOnce(
		run: CorpusRun,
		parameters: INodeParameters,
		item: IDataObject,
	): Promise<{ result: RunResult; body?: IDataObject }> {
		sandbox().reset();
		const result = await runNode(sandbox(), {
			type: TYPES[run.node],
			parameters: { ...DEFAULTS[run.node], ...parameters },
			items: [item],
			upstream: [sourceOf(run.file).upstream],
			settings: { continueOnFail: true },
		});
		const requests = apiRequests(sandbox());
		expect(requests.length).toBeLessThanOrEqual(1);
		return { result, body: requests[0]?.body as IDataObject | undefined };
	}

	/** Runs one item, following each refusal's advice, until it is sent or refused without advice. */
	async function followUntilDone(run: CorpusRun, item: IDataObject): Promise<Step[]> {
		const steps: Step[] = [];
		let { parameters } = run;
		for (let asked = 0; asked <= MOST_ADVICE; asked++) {
			const { result, body } = await runOnce(run, parameters, item);
			const [output] = result.json(NODE_NAME);
			const advice = adviceOf(result, NODE_NAME);
			steps.push({ body, error: output.error as string | undefined, advice });
			if (body || !advice) return steps;
			parameters = followAdvice(TYPES[run.node], parameters, advice);
		}
		return steps;
	}

	test.each(RUNS.map((run) => [`${run.file}: ${run.name}`, run] as const))(
		'%s',
		async (_name, run) => {
			const fixture = readNodeOutput(run.file) as IDataObject;
			const items = run.items ? run.items(fixture) : [fixture];
			expect(items).toHaveLength(run.outcome.length);
			for (const [index, item] of items.entries()) {
				const steps = await followUntilDone(run, item);
				const last = steps[steps.length - 1];
				const expected = run.outcome[index];
				const history = steps.map(({ error, advice }) => ({ error, advice }));
				// An expression in advice is written from the item, as the builder's field reads it.
				for (const { advice } of steps) {
					if (advice && 'set' in advice) expect(unresolvedPaths(advice.set, item)).toEqual([]);
				}
				if (
					!last.body &&
					expected.orRefusedNaming &&
					last.error?.includes(expected.orRefusedNaming)
				) {
					continue;
				}
				// The refusals on the way, and their advice, name what stood in the way.
				if (!last.body)
					throw new Error(`Item ${index} was not sent: ${JSON.stringify(history, null, 1)}`);
				expect([expected.sent].flat()).toContain(last.body.to_number);
				const body = last.body as IDataObject;
				if (expected.scheduleAt) expect(body.schedule_at).toBe(expected.scheduleAt);
				const carried = JSON.stringify(body.attributes ?? body.metadata ?? {});
				for (const value of run.carries ?? []) expect(carried).toContain(value);
				for (const value of OTHERS[run.file] ?? [])
					expect(JSON.stringify(body)).not.toContain(value);
			}
		},
	);
});
