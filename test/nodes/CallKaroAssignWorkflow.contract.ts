// CallKaro Assign Workflow's row of the action-node contract (test/nodes/shared/contract.ts).
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ASSIGN_WORKFLOW } from '../engine/callKaroNodes';
import { vocabulary } from '../../nodes/CallKaroAssignWorkflow/assignWorkflow.operation';
import { OTHER_API_KEY } from '../sandbox/sandbox.mjs';
import { FAR_AHEAD_SENT, HINTS, NO_SCHEDULE, WRONG_API_KEY, fromAI } from './fixtures';
import { PHONE_NUMBER_KEYS } from './shared/contract';
import type { ActionNodeRow } from './shared/contract';
import { rateLimitedBeyondWait } from './shared/refusals';

/** Phone number and workflow ID from each item, as a workflow fed by a CRM would map them. */
export function fromItems(extra: INodeParameters = {}): INodeParameters {
	return {
		phoneNumber: '={{ $json.phone }}',
		workflowId: '={{ $json.workflowId }}',
		...extra,
		options: { ...FAR_AHEAD_SENT, ...(extra.options as INodeParameters | undefined) },
	};
}

/** The json of an item for `phone` in wf_welcome, starting now and with no run unless `fields` say so. */
export function assigned(phone: string, fields: IDataObject): IDataObject {
	return {
		toNumber: phone,
		workflowId: 'wf_welcome',
		runId: null,
		enrollmentId: null,
		...NO_SCHEDULE,
		...fields,
	};
}

export const assignWorkflow: ActionNodeRow = {
	displayName: 'CallKaro Assign Workflow',
	type: ASSIGN_WORKFLOW,
	path: '/workflow/assign',
	faultEndpoint: 'assign',
	vocabulary,
	mainOutputs: 2, // Started, Already Running
	parameters: fromItems,
	...PHONE_NUMBER_KEYS,
	item: (phone) => ({
		phone,
		workflowId: 'wf_welcome',
		crm: {},
		when: '2030-01-02T10:00:00Z',
		zone: 'Asia/Kolkata',
		country: '91',
	}),
	succeeded: (phone, attempts = 1) =>
		expect.objectContaining({
			status: 'started',
			toNumber: phone,
			workflowId: 'wf_welcome',
			attempts,
		}),
	done: (sandbox) => sandbox.state.runs.map((run) => `+${run.number}`),
	recorded: (sandbox, json) => {
		const run = sandbox.state.runs.find((entry) => entry.id === json.runId);
		return run && `+${run.number}`;
	},
	retriesServerErrors: true,
	requiredField: 'workflowId',
	preview: {
		title: 'attributes as CallKaro takes them',
		parameters: {
			phoneNumber: '={{ $json.phone }}',
			workflowId: 'wf_welcome',
			attributeSource: 'json',
			attributesJson: '={{ { city: $json.city } }}',
			schedule: 'now',
		},
		items: [{ phone: '+919876543210', city: 'Pune' }],
		requests: [
			{
				method: 'POST',
				path: '/workflow/assign',
				body: {
					to_number: '+919876543210',
					workflow_id: 'wf_welcome',
					attributes: [{ key: 'city', value: 'Pune', replace: false }],
				},
			},
		],
	},
	schedule: {
		parameters: (scheduleAt, timeZone) => ({
			schedule: 'at',
			scheduleAt,
			options: { ...FAR_AHEAD_SENT, ...(timeZone ? { timeZone } : {}) },
		}),
		held: (sandbox, phone) => sandbox.state.runs.find((run) => `+${run.number}` === phone),
		startedNowStatus: 'running',
		scheduledJson: { status: 'started', message: 'Workflow run scheduled' },
		pastJson: { status: 'started', message: 'Workflow run started' },
	},
	guard: {
		displayName: 'Skip Numbers Enrolled Before',
		verb: 'enrolled',
		// not started by this run: it goes with Already Running
		skipped: (phone) =>
			assigned(phone, {
				status: 'enrolledBefore',
				message: `Not enrolled: this node has already enrolled +91******${phone.slice(-4)} in this workflow ("Skip Numbers Enrolled Before" is on)`,
			}),
		skippedOutput: 1,
		otherTarget: { workflowId: 'wf_followup' },
		// CallKaro itself refuses a number while its run goes on: the guard must skip it after
		reopen: (sandbox) => sandbox.finishRuns({ all: true }),
	},
	badInput: [
		[
			'a phone number with letters',
			{},
			{ phone: '+91 98765 4321O' },
			'"Phone Number" must be a phone number: digits, spaces, dashes, dots, brackets and a leading +, but is "+91*******4321O". Letters are not dialled: give the number in digits, with + and its country code. [item 1]',
		],
		[
			'a phone number without country code',
			{},
			{ phone: '9876501234' },
			'"Phone Number" has no country code: "98****1234". Start the number with + and the country code, e.g. +919876543210, or set a default country code. [item 1]',
		],
		[
			'a phone number of 5 digits',
			{},
			{ phone: '12345' },
			'"Phone Number" has no country code: "***45". Start the number with + and the country code, e.g. +919876543210, or set a default country code. [item 1]',
		],
		[
			'an empty Workflow ID (from an expression)',
			{},
			{ workflowId: '' },
			'"Workflow ID" is empty. Enter the ID of a CallKaro workflow. Its expression {{ $json.workflowId }} gave an empty value for this item: check that the input item has the field it reads. [item 1]',
		],
		[
			'51 attribute values to send',
			{ attributeSource: 'json', attributesJson: '={{ $json.crm }}' },
			// The last key holds a comma, which no key list can name: the fix names no key to drop.
			{
				crm: Object.fromEntries(
					Array.from({ length: 51 }, (_, i) => [i === 50 ? 'Notes, extra' : `Field ${i}`, i]),
				),
			},
			'"Attributes" has 51 values to send, 1 more than the 50 CallKaro accepts. List the keys to send in Options > Attribute Keys to Send, or the keys to drop in Options > Attribute Keys to Leave Out. [item 1]',
		],
		[
			'attribute JSON that does not parse',
			{ attributeSource: 'json', attributesJson: '={{ $json.crm }}' },
			{ crm: '{"City": Pune}' },
			'"Attributes" is not valid JSON: "{"City": Pune}". Enter a JSON object such as {"city": "Pune"}. [item 1]',
		],
		[
			'two attribute keys CallKaro would treat as one',
			{ attributeSource: 'json', attributesJson: '={{ $json.crm }}' },
			{ crm: { 'First Name': 'A', first_name: 'B' } },
			'"Attributes" has the keys "First Name" and "first_name", which CallKaro treats as the same attribute. Keep only one of them. [item 1]',
		],
		[
			'an impossible date',
			{ schedule: 'at', scheduleAt: '={{ $json.when }}' },
			{ when: '2030-02-30T10:00:00' },
			'"Schedule Time" is not a real date or time: "2030-02-30T10:00:00". Use a date and time such as 2026-11-22T09:30:00 (read in India time, or in Time Zone) or 2026-11-22T09:30:00+05:30. [item 1]',
		],
		[
			'a time the clocks skip in the Time Zone option',
			{
				schedule: 'at',
				scheduleAt: '={{ $json.when }}',
				options: { timeZone: 'America/New_York' },
			},
			{ when: '2030-03-10T02:30:00' },
			'"Schedule Time" does not exist in the time zone America/New_York, because the clocks skip it: "2030-03-10T02:30:00". The clocks go from 2030-03-10T01:59:59 straight to 2030-03-10T03:00:00; pick a time outside that gap. [item 1]',
		],
		[
			'an unknown Time Zone option',
			{
				schedule: 'at',
				scheduleAt: '2030-01-02T10:00:00',
				options: { timeZone: '={{ $json.zone }}' },
			},
			{ zone: 'Mars/Olympus_Mons' },
			'"Time Zone" is not a known time zone: "Mars/Olympus_Mons". Use an IANA time zone name such as Asia/Kolkata or America/New_York. [item 1]',
		],
		[
			'a bad Default Country Code',
			{ options: { defaultCountryCode: '={{ $json.country }}' } },
			{ country: 'IND' },
			'"Default Country Code" must be a calling code such as 91 or +91, or an ISO country code such as IN, not "IND". Enter the calling code in digits, such as 49 or +49, or the two-letter ISO code, such as DE. [item 1]',
		],
	],
	apiErrors: [
		{
			title: '400 workflow without steps',
			httpCode: '400',
			refused: () => ({ workflowId: 'wf_empty' }),
			message: 'CallKaro rejected the request (HTTP 400): This workflow has no steps yet',
			kind: 'bad-request',
			serviceMessage: 'This workflow has no steps yet',
			description: HINTS.badRequest,
		},
		{
			title: '400 workflow no longer available',
			httpCode: '400',
			refused: () => ({ workflowId: 'wf_legacy' }),
			message: 'CallKaro rejected the request (HTTP 400): This workflow is no longer available',
			kind: 'bad-request',
			serviceMessage: 'This workflow is no longer available',
			description: HINTS.badRequest,
		},
		{
			title: '401 invalid key',
			httpCode: '401',
			apiKey: WRONG_API_KEY,
			message: 'The API key was missing or not accepted (HTTP 401): Invalid API key',
			kind: 'auth',
			serviceMessage: 'Invalid API key',
			description: HINTS.auth,
			allFail: true,
		},
		{
			title: '401 missing key',
			httpCode: '401',
			apiKey: '',
			message: 'The API key was missing or not accepted (HTTP 401): Missing API key',
			kind: 'auth',
			serviceMessage: 'Missing API key',
			description: HINTS.auth,
			allFail: true,
		},
		{
			title: '404 unknown workflow',
			httpCode: '404',
			refused: () => ({ workflowId: 'wf_unknown' }),
			message: 'Not found (HTTP 404): Workflow not found',
			kind: 'not-found',
			serviceMessage: 'Workflow not found',
			description: HINTS.notFound,
		},
		{
			title: "404 a workflow of another account's key",
			httpCode: '404',
			apiKey: OTHER_API_KEY,
			message: 'Not found (HTTP 404): Workflow not found',
			kind: 'not-found',
			serviceMessage: 'Workflow not found',
			description: HINTS.notFound,
			allFail: true,
		},
		rateLimitedBeyondWait(60),
		{
			title: '500 on every attempt',
			httpCode: '500',
			faults: { sequence: ['ok', '500', '500', '500', '500', 'ok'] },
			message:
				'CallKaro failed (HTTP 500) after 4 attempts and the workflow run may or may not have started: Internal server error',
			kind: 'service-failure',
			serviceMessage: 'Internal server error',
			description: HINTS.outcomeUnknown,
			outcomeUnknown: true,
			attempts: 4,
		},
		{
			title: '502 then 503 until the attempts are used up',
			httpCode: '503',
			faults: { sequence: ['ok', '502', '503', '502', '503', 'ok'] },
			message:
				'CallKaro failed (HTTP 503) after 4 attempts and the workflow run may or may not have started: Service unavailable',
			kind: 'service-failure',
			serviceMessage: 'Service unavailable',
			description: HINTS.outcomeUnknown,
			outcomeUnknown: true,
			attempts: 4,
		},
		{
			title: '503 at a rate of 1',
			httpCode: '503',
			faults: { rates: { 503: 1 }, seed: 1 },
			message:
				'CallKaro failed (HTTP 503) after 4 attempts and the workflow run may or may not have started: Service unavailable',
			kind: 'service-failure',
			serviceMessage: 'Service unavailable',
			description: HINTS.outcomeUnknown,
			outcomeUnknown: true,
			attempts: 4,
			allFail: true,
		},
	],
	tool: {
		parameters: {
			phoneNumber: fromAI('phoneNumber', 'The number to enrol, with country code'),
			workflowId: 'wf_welcome',
		},
		args: (phoneNumber) => ({ phoneNumber }),
		schemaKeys: ['phoneNumber'],
		body: (phone): IDataObject => ({ to_number: phone, workflow_id: 'wf_welcome' }),
		badInput: [
			{ phoneNumber: '98765 01234' },
			'"Phone Number" has no country code: "98****1234". Start the number with + and the country code, e.g. +919876543210, or set a default country code. [item 0]',
		],
	},
};
