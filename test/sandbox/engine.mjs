// @ts-check
/**
 * The CallKaro service model: accounts, contacts, runs, calls, scheduled calls and campaigns,
 * and the rules of every endpoint. No HTTP here: the server parses a request, the engine
 * answers { status, body }.
 */
import { randomBytes } from 'node:crypto';

import { applyAttributes, checkAttributeRows } from './attributes.mjs';
import { buildAccounts } from './data.mjs';
import {
	SCHEDULE_AT_MESSAGE,
	TO_NUMBER_MESSAGE,
	isAbsent,
	isMissing,
	isPhoneNumber,
	normaliseNumber,
	parseScheduleAt,
	validateOutboundOptions,
} from './validate.mjs';
import { HANGUP_REASONS, callEndedPayload, maskedConfig, parseWebhookConfig } from './webhooks.mjs';

export const DIALECTS = Object.freeze(['spec', 'docs']);
export const DEFAULT_RUN_DURATION_MS = 60_000;

/**
 * @typedef {import('./data.mjs').Account} Account
 * @typedef {import('./data.mjs').DataFile} DataFile
 * @typedef {import('./attributes.mjs').AttributeValue} AttributeValue
 * @typedef {import('./attributes.mjs').AttributeRow} AttributeRow
 * @typedef {import('./bodies.mjs').ParsedBody | import('./bodies.mjs').BodyError} BodyResult
 * @typedef {'spec' | 'docs'} Dialect
 * @typedef {'assign' | 'delete' | 'outbound' | 'campaignV1' | 'campaignV2'} Route
 *
 * @typedef {object} Contact
 * @property {number} account  index of the account in the data set
 * @property {string} number  digits only, no +
 * @property {Record<string, AttributeValue>} values  by attribute name
 * @property {string[]} manual  attribute names whose value a person typed by hand
 * @property {'data' | 'api'} source
 * @property {string} createdAt
 * @property {string} updatedAt
 *
 * @typedef {object} Run
 * @property {string} id
 * @property {string} enrollmentId
 * @property {number} account
 * @property {string} workflowId
 * @property {string} number
 * @property {'scheduled' | 'running' | 'finished'} status
 * @property {string | null} scheduleAt  schedule_at as sent (IST wall-clock time)
 * @property {string | null} scheduledFor  the same instant as an ISO string (UTC)
 * @property {string} createdAt
 * @property {string | null} startedAt
 * @property {string | null} finishedAt
 * @property {'timer' | 'admin' | null} finishedBy
 *
 * @typedef {object} Call
 * @property {string} id
 * @property {number} account
 * @property {string} agentId
 * @property {string} toNumber  as sent
 * @property {string} number  digits only
 * @property {'outbound-api' | 'outbound-scheduled'} type
 * @property {'queued' | 'scheduled' | 'deleted' | 'ended'} status
 * @property {string | null} scheduledFor
 * @property {string | null} batchId
 * @property {import('./validate.mjs').OutboundOptions} options  the optional fields, as sent
 * @property {string} createdAt
 * @property {string | null} queuedAt
 * @property {string | null} deletedAt
 * @property {string | null} hangupReason  DELETED_SCH_CALL_ONE / _ALL when deleted, the end's reason when ended
 * @property {string | null} endedAt
 * @property {number | null} durationSeconds
 *
 * @typedef {object} Campaign
 * @property {string} batchId
 * @property {'v1' | 'v2'} version
 * @property {string} name
 * @property {string | null} agentId  v1 only
 * @property {number} account
 * @property {string[]} callIds
 * @property {string} createdAt
 *
 * @typedef {object} LogEntry
 * @property {number} id
 * @property {string} time
 * @property {string} method
 * @property {string} path
 * @property {Record<string, string>} query
 * @property {Record<string, string | string[] | undefined>} headers  X-API-KEY masked
 * @property {unknown} body  parsed body, or the raw text when it did not parse
 * @property {number | null} status  null when the connection was dropped
 * @property {string | null} fault
 * @property {number} durationMs
 *
 * @typedef {object} SandboxState
 * @property {string} startedAt
 * @property {Dialect} dialect
 * @property {{ runDurationMs: number, deleteNotFoundStatus: number, requestLogLimit: number }} config
 * @property {{ index: number, apiKey: string, attributes: import('./attributes.mjs').AttributeDef[], workflows: { id: string, steps: number, available: boolean }[], agents: string[] }[]} accounts
 * @property {Contact[]} contacts
 * @property {Run[]} runs
 * @property {Call[]} calls
 * @property {Call[]} scheduledCalls  every call made with a future schedule_at (any status)
 * @property {Campaign[]} campaigns
 * @property {Record<string, import('./faults.mjs').FaultConfig>} faults
 * @property {number} requestCount  API requests seen since the last reset
 * @property {number} maxConcurrentRequests  the most API requests being answered at one time since the last reset
 * @property {LogEntry[]} requests  the last config.requestLogLimit API requests
 * @property {{ sandbox: unknown, agents: Record<string, unknown> }} webhooks  webhooks set at start or through the admin API (header values masked)
 * @property {import('./webhooks.mjs').WebhookDelivery[]} webhookDeliveries  the last config.requestLogLimit deliveries
 *
 * @typedef {{ status: number, body: Record<string, unknown>, headers?: Record<string, string> }} Reply
 */

/**
 * Mask an API key for logs: "ck_demo_key_0123456789" -> "ck_d…89".
 * @param {string} key
 */
export function maskKey(key) {
	return key.length >= 8 ? `${key.slice(0, 4)}…${key.slice(-2)}` : '…';
}

/** @param {number} [ms] */
const iso = (ms = Date.now()) => new Date(ms).toISOString();

/**
 * @param {number} status
 * @param {string} message
 * @param {Record<string, unknown>} [extra]
 * @returns {Reply}
 */
export function errorReply(status, message, extra) {
	return { status, body: { status: 'error', message, ...extra } };
}

/** 24 hex characters, shaped like a MongoDB ObjectId (time, random, counter). */
export function createIdGenerator() {
	const middle = randomBytes(5).toString('hex');
	let counter = randomBytes(3).readUIntBE(0, 3);
	return () => {
		counter = (counter + 1) & 0xffffff;
		const seconds = Math.floor(Date.now() / 1000)
			.toString(16)
			.padStart(8, '0');
		return `${seconds}${middle}${counter.toString(16).padStart(6, '0')}`;
	};
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/** Timers that can wait longer than 24.8 days, all cleared at once by clear(). */
export class Timers {
	constructor() {
		/** @type {Set<{ id: ReturnType<typeof setTimeout> | undefined }>} */
		this.pending = new Set();
	}

	/**
	 * Call fn at an epoch-millisecond time (never synchronously).
	 * @param {number} when
	 * @param {() => void} fn
	 */
	at(when, fn) {
		/** @type {{ id: ReturnType<typeof setTimeout> | undefined }} */
		const handle = { id: undefined };
		const arm = () => {
			const delay = Math.max(0, Math.min(when - Date.now(), MAX_TIMER_MS));
			handle.id = setTimeout(() => {
				if (Date.now() < when) return arm();
				this.pending.delete(handle);
				fn();
			}, delay);
			handle.id.unref();
		};
		this.pending.add(handle);
		arm();
		return handle;
	}

	/** @param {{ id: ReturnType<typeof setTimeout> | undefined } | undefined} handle */
	cancel(handle) {
		if (!handle) return;
		clearTimeout(handle.id);
		this.pending.delete(handle);
	}

	clear() {
		for (const handle of this.pending) clearTimeout(handle.id);
		this.pending.clear();
	}

	get size() {
		return this.pending.size;
	}
}

/**
 * @param {unknown} v
 * @returns {v is Record<string, unknown>}
 */
function isPlainObject(v) {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * @typedef {object} EngineOptions
 * @property {DataFile} data
 * @property {Dialect} [dialect]
 * @property {number} [runDurationMs]
 * @property {200 | 404} [deleteNotFoundStatus]
 * @property {number} [requestLogLimit]
 * @property {import('./webhooks.mjs').WebhookConfig | null} [webhook]  sandbox-wide webhook given at start (CLI --webhook-url)
 * @property {(event: { call: Call, payload: Record<string, unknown>, webhook: import('./webhooks.mjs').WebhookConfig }) => void} [onCallEnded]
 *   called when a call ends on its own (a deleted scheduled call) and a webhook is set for it
 */

/**
 * @typedef {{ ok: true, call: Call, payload: Record<string, unknown>, webhook: import('./webhooks.mjs').WebhookConfig | null }} EndedCall
 * @typedef {{ ok: false, status: number, message: string }} AdminError
 */

/**
 * @param {EngineOptions} options
 */
export function createEngine(options) {
	const initialDialect = options.dialect ?? 'spec';
	if (!DIALECTS.includes(initialDialect))
		throw new Error(`dialect must be one of ${DIALECTS.join(', ')}`);
	const runDurationMs = options.runDurationMs ?? DEFAULT_RUN_DURATION_MS;
	if (!Number.isFinite(runDurationMs) || runDurationMs < 0)
		throw new Error('runDurationMs must be >= 0');
	const deleteNotFoundStatus = options.deleteNotFoundStatus ?? 200;
	if (deleteNotFoundStatus !== 200 && deleteNotFoundStatus !== 404) {
		throw new Error('deleteNotFoundStatus must be 200 or 404');
	}
	const nextId = createIdGenerator();
	const timers = new Timers();

	/** @type {DataFile} */
	let data = JSON.parse(JSON.stringify(options.data));
	/** @type {Account[]} */
	let accounts = buildAccounts(data);

	/** @type {SandboxState} */
	const state = {
		startedAt: iso(),
		dialect: initialDialect,
		config: {
			runDurationMs,
			deleteNotFoundStatus,
			requestLogLimit: options.requestLogLimit ?? 10_000,
		},
		accounts: [],
		contacts: [],
		runs: [],
		calls: [],
		scheduledCalls: [],
		campaigns: [],
		faults: {},
		requestCount: 0,
		maxConcurrentRequests: 0,
		requests: [],
		webhooks: { sandbox: null, agents: {} },
		webhookDeliveries: [],
	};

	// Webhooks: the one given at start, and those set through the admin API (cleared by reset).
	const startWebhook = options.webhook ?? null;
	/** @type {import('./webhooks.mjs').WebhookConfig | null} */
	let sandboxWebhook = startWebhook;
	/** @type {Map<string, import('./webhooks.mjs').WebhookConfig>} */
	const agentWebhooks = new Map();
	/** @type {Map<string, string>} agent -> versionId */
	const versionIds = new Map();
	/** @type {Map<string, Call>} */
	const callsById = new Map();

	// O(1) lookups, rebuilt by reset().
	/** @type {Map<string, Account>} */
	const accountsByKey = new Map();
	/** @type {Map<string, Contact>} account|number */
	const contactsByKey = new Map();
	/** @type {Map<string, Run>} account|number|workflow */
	const activeRuns = new Map();
	/** @type {Map<string, Run>} */
	const runsById = new Map();
	/** @type {Map<string, Call[]>} account|agent|number -> calls still scheduled */
	const pendingCalls = new Map();
	/** @type {Map<string, Campaign>} */
	const campaignsById = new Map();
	/** @type {Map<string, ReturnType<Timers['at']>>} run or call id -> its timer */
	const timerOf = new Map();

	function reset() {
		timers.clear();
		timerOf.clear();
		accountsByKey.clear();
		contactsByKey.clear();
		activeRuns.clear();
		runsById.clear();
		pendingCalls.clear();
		campaignsById.clear();
		callsById.clear();
		sandboxWebhook = startWebhook;
		agentWebhooks.clear();
		showWebhooks();
		state.webhookDeliveries.length = 0;
		state.startedAt = iso();
		state.dialect = initialDialect;
		state.accounts.length = 0;
		state.contacts.length = 0;
		state.runs.length = 0;
		state.calls.length = 0;
		state.scheduledCalls.length = 0;
		state.campaigns.length = 0;
		state.requestCount = 0;
		state.maxConcurrentRequests = 0;
		state.requests.length = 0;
		for (const key of Object.keys(state.faults)) delete state.faults[key];
		const now = iso();
		for (const account of accounts) {
			accountsByKey.set(account.apiKey, account);
			state.accounts.push({
				index: account.index,
				apiKey: maskKey(account.apiKey),
				attributes: account.attributes.map((a) => ({ ...a })),
				workflows: [...account.workflows.values()].map((w) => ({ ...w })),
				agents: [...account.agents],
			});
			for (const c of account.contacts) {
				/** @type {Contact} */
				const contact = {
					account: account.index,
					number: c.number,
					values: { ...c.values },
					manual: [...c.manual],
					source: 'data',
					createdAt: now,
					updatedAt: now,
				};
				contactsByKey.set(`${account.index}|${c.number}`, contact);
				state.contacts.push(contact);
			}
		}
	}

	/**
	 * Replace the data set (checked first; throws DataError) and reset.
	 * @param {unknown} next
	 */
	function load(next) {
		const built = buildAccounts(next);
		data = JSON.parse(JSON.stringify(next));
		accounts = built;
		reset();
	}

	/** @param {Dialect} dialect */
	function setDialect(dialect) {
		if (!DIALECTS.includes(dialect))
			throw new Error(`dialect must be one of ${DIALECTS.join(', ')}`);
		state.dialect = dialect;
	}

	// ---- runs ---------------------------------------------------------------------------

	/** @param {Run} run */
	const runKey = (run) => `${run.account}|${run.number}|${run.workflowId}`;

	/**
	 * @param {Run} run
	 * @param {'timer' | 'admin'} by
	 */
	function finishRun(run, by) {
		if (run.status === 'finished') return false;
		timers.cancel(timerOf.get(run.id));
		timerOf.delete(run.id);
		run.status = 'finished';
		run.finishedAt = iso();
		run.finishedBy = by;
		const key = runKey(run);
		if (activeRuns.get(key) === run) activeRuns.delete(key);
		return true;
	}

	/** @param {Run} run */
	function beginRun(run) {
		run.status = 'running';
		run.startedAt = iso();
		timerOf.delete(run.id);
		if (runDurationMs > 0) {
			timerOf.set(
				run.id,
				timers.at(Date.now() + runDurationMs, () => finishRun(run, 'timer')),
			);
		}
	}

	/**
	 * @param {Account} account
	 * @param {string} workflowId
	 * @param {string} number
	 * @param {string | null} scheduleAt
	 * @param {number | null} scheduleAtMs
	 */
	function startRun(account, workflowId, number, scheduleAt, scheduleAtMs) {
		const now = Date.now();
		const later = scheduleAtMs !== null && scheduleAtMs > now;
		/** @type {Run} */
		const run = {
			id: nextId(),
			enrollmentId: nextId(),
			account: account.index,
			workflowId,
			number,
			status: later ? 'scheduled' : 'running',
			scheduleAt,
			scheduledFor: scheduleAtMs === null ? null : iso(scheduleAtMs),
			createdAt: iso(now),
			startedAt: null,
			finishedAt: null,
			finishedBy: null,
		};
		state.runs.push(run);
		runsById.set(run.id, run);
		activeRuns.set(runKey(run), run);
		if (later) {
			timerOf.set(
				run.id,
				timers.at(/** @type {number} */ (scheduleAtMs), () => beginRun(run)),
			);
		} else {
			beginRun(run);
		}
		return run;
	}

	/**
	 * Finish runs: { runId } | { number, workflowId } | { all: true }.
	 * @param {unknown} selector
	 * @returns {{ ok: true, finished: string[] } | { ok: false, status: number, message: string }}
	 */
	function finishRuns(selector) {
		const usage = 'Give { runId }, { number, workflowId } or { all: true }';
		if (!isPlainObject(selector)) return { ok: false, status: 400, message: usage };
		/** @type {Run[]} */
		let targets;
		if (typeof selector.runId === 'string') {
			const run = runsById.get(selector.runId);
			if (!run) return { ok: false, status: 404, message: `Run not found: ${selector.runId}` };
			targets = [run];
		} else if (typeof selector.number === 'string' && typeof selector.workflowId === 'string') {
			const number = normaliseNumber(selector.number);
			targets = [];
			for (const account of accounts) {
				const run = activeRuns.get(`${account.index}|${number}|${selector.workflowId}`);
				if (run) targets.push(run);
			}
		} else if (selector.all === true) {
			targets = [...activeRuns.values()];
		} else {
			return { ok: false, status: 400, message: usage };
		}
		const finished = targets.filter((run) => finishRun(run, 'admin')).map((run) => run.id);
		return { ok: true, finished };
	}

	// ---- endpoints ----------------------------------------------------------------------

	/**
	 * @param {Account} account
	 * @param {string} number  normalised
	 */
	function contactFor(account, number) {
		const key = `${account.index}|${number}`;
		let contact = contactsByKey.get(key);
		if (!contact) {
			const now = iso();
			contact = {
				account: account.index,
				number,
				values: {},
				manual: [],
				source: 'api',
				createdAt: now,
				updatedAt: now,
			};
			contactsByKey.set(key, contact);
			state.contacts.push(contact);
		}
		return contact;
	}

	/**
	 * Check required string fields in order.
	 * @param {Record<string, unknown>} body
	 * @param {string[]} fields
	 * @returns {Reply | null}
	 */
	function requireFields(body, fields) {
		for (const field of fields) {
			if (isMissing(body[field])) return errorReply(400, `Missing required field: ${field}`);
		}
		for (const field of fields) {
			if (typeof body[field] !== 'string') return errorReply(400, `${field} must be a string`);
		}
		return null;
	}

	/**
	 * POST /workflow/assign (spec §2.1-2.3, §3, §4.1, §7.1).
	 * @param {Account} account
	 * @param {Record<string, unknown>} body
	 * @param {boolean} failAfter  answer 500 after the contact is saved, before the run starts
	 * @returns {Reply}
	 */
	function assign(account, body, failAfter) {
		const missing = requireFields(body, ['to_number', 'workflow_id']);
		if (missing) return missing;
		const toNumber = /** @type {string} */ (body.to_number);
		const workflowId = /** @type {string} */ (body.workflow_id);
		if (!isPhoneNumber(toNumber)) return errorReply(400, TO_NUMBER_MESSAGE);
		let scheduleAtMs = null;
		if (!isAbsent(body.schedule_at)) {
			scheduleAtMs = parseScheduleAt(body.schedule_at);
			if (scheduleAtMs === null) return errorReply(400, SCHEDULE_AT_MESSAGE);
		}
		/** @type {AttributeRow[]} */
		let rows = [];
		if (!isAbsent(body.attributes)) {
			const shapeError = checkAttributeRows(body.attributes);
			if (shapeError) return errorReply(400, shapeError);
			rows = /** @type {AttributeRow[]} */ (body.attributes);
		}

		// 1. The workflow is checked.
		const workflow = account.workflows.get(workflowId);
		if (!workflow) return errorReply(404, 'Workflow not found');
		if (workflow.steps === 0) return errorReply(400, 'This workflow has no steps yet');
		if (!workflow.available) return errorReply(400, 'This workflow is no longer available');

		// 2. The number becomes a contact and the attributes are saved.
		const number = normaliseNumber(toNumber);
		const contact = contactFor(account, number);
		const attributes = applyAttributes(contact, rows, account.attributeIndex);
		if (attributes.updated.length > 0) contact.updatedAt = iso();

		// 3. The run starts, unless one is in progress (or a fault fires).
		if (activeRuns.has(`${account.index}|${number}|${workflowId}`)) {
			return errorReply(409, 'This number is already running in this workflow', { attributes });
		}
		if (failAfter) return errorReply(500, 'Internal server error', { attributes });
		const scheduleAt = scheduleAtMs === null ? null : /** @type {string} */ (body.schedule_at);
		const run = startRun(account, workflowId, number, scheduleAt, scheduleAtMs);
		return {
			status: 200,
			body: {
				status: 'done',
				message: run.status === 'scheduled' ? 'Workflow run scheduled' : 'Workflow run started',
				run_id: run.id,
				enrollment_id: run.enrollmentId,
				attributes,
			},
		};
	}

	/**
	 * POST /call/outbound (spec §2.6, §4.3, §7.3; public docs §2).
	 * @param {Account} account
	 * @param {Record<string, unknown>} body
	 * @param {boolean} failAfter
	 * @returns {Reply}
	 */
	function outbound(account, body, failAfter) {
		const missing = requireFields(body, ['to_number', 'agent_id']);
		if (missing) return missing;
		const toNumber = /** @type {string} */ (body.to_number);
		const agentId = /** @type {string} */ (body.agent_id);
		if (!isPhoneNumber(toNumber)) return errorReply(400, TO_NUMBER_MESSAGE);
		const checked = validateOutboundOptions(body);
		if (!checked.ok) return errorReply(400, checked.message);
		if (!account.agents.has(agentId)) return errorReply(404, 'Agent does not exist');
		const batchId = checked.options.batch_id ?? null;
		/** @type {Campaign | undefined} */
		let campaign;
		if (batchId !== null) {
			campaign = campaignsById.get(batchId);
			if (!campaign || campaign.account !== account.index)
				return errorReply(404, 'Campaign not found');
			if (campaign.agentId !== null && campaign.agentId !== agentId) {
				return errorReply(400, 'Agent does not match the campaign');
			}
		}

		const now = Date.now();
		const { scheduleAtMs } = checked;
		const later = scheduleAtMs !== null && scheduleAtMs > now;
		const number = normaliseNumber(toNumber);
		/** @type {Call} */
		const call = {
			id: nextId(),
			account: account.index,
			agentId,
			toNumber,
			number,
			type: later ? 'outbound-scheduled' : 'outbound-api',
			status: later ? 'scheduled' : 'queued',
			scheduledFor: scheduleAtMs === null ? null : iso(scheduleAtMs),
			batchId,
			options: checked.options,
			createdAt: iso(now),
			queuedAt: later ? null : iso(now),
			deletedAt: null,
			hangupReason: null,
			endedAt: null,
			durationSeconds: null,
		};
		state.calls.push(call);
		callsById.set(call.id, call);
		campaign?.callIds.push(call.id);
		if (later) {
			state.scheduledCalls.push(call);
			const key = `${account.index}|${agentId}|${number}`;
			const list = pendingCalls.get(key);
			if (list) list.push(call);
			else pendingCalls.set(key, [call]);
			const timer = timers.at(/** @type {number} */ (scheduleAtMs), () => {
				// Due: the call is placed and can no longer be deleted.
				timerOf.delete(call.id);
				call.status = 'queued';
				call.queuedAt = iso();
				const rest = (pendingCalls.get(key) ?? []).filter((c) => c !== call);
				if (rest.length > 0) pendingCalls.set(key, rest);
				else pendingCalls.delete(key);
			});
			timerOf.set(call.id, timer);
		}
		if (failAfter) return errorReply(500, 'Internal server error');
		const body200 =
			state.dialect === 'docs'
				? { status: 'done', message: 'Call queued successfully', call_sid: call.id }
				: { status: 'success', message: 'Call initiated successfully', call_id: call.id };
		return { status: 200, body: body200 };
	}

	/**
	 * POST /call/delete-schedule-call?agent_id= (spec §2.5, §4.2, §7.2; public docs §4).
	 * @param {Account} account
	 * @param {URLSearchParams} query
	 * @param {Record<string, unknown>} body
	 * @param {boolean} failAfter
	 * @returns {Reply}
	 */
	function deleteScheduled(account, query, body, failAfter) {
		const agentId = query.get('agent_id');
		if (isMissing(agentId)) return errorReply(400, 'Missing agent_id in request query');
		if (isMissing(body.to_number)) return errorReply(400, 'Missing to_number in request');
		if (!isPhoneNumber(body.to_number)) return errorReply(400, TO_NUMBER_MESSAGE);
		const agent = /** @type {string} */ (agentId);
		if (!account.agents.has(agent)) return errorReply(404, 'Agent does not exist');
		const key = `${account.index}|${agent}|${normaliseNumber(body.to_number)}`;
		const calls = pendingCalls.get(key) ?? [];
		if (calls.length === 0) {
			if (failAfter) return errorReply(500, 'Internal server error');
			return deleteNotFoundStatus === 404
				? errorReply(404, 'No scheduled call found')
				: { status: 200, body: { status: 'success', message: 'No scheduled call found' } };
		}
		pendingCalls.delete(key);
		const reason = calls.length === 1 ? 'DELETED_SCH_CALL_ONE' : 'DELETED_SCH_CALL_ALL';
		const now = iso();
		for (const call of calls) {
			timers.cancel(timerOf.get(call.id));
			timerOf.delete(call.id);
			call.status = 'deleted';
			call.deletedAt = now;
			call.hangupReason = reason;
			// The call ends without being placed: CallKaro reports it with this hangup reason.
			const webhook = webhookFor(call);
			if (webhook && options.onCallEnded) {
				const payload = callEndedPayload(call, {
					hangupReason: reason,
					durationSeconds: 0,
					versionId: versionIdOf(call.agentId),
					endedAtMs: Date.now(),
				});
				options.onCallEnded({ call, payload, webhook });
			}
		}
		if (failAfter) return errorReply(500, 'Internal server error');
		return {
			status: 200,
			body: { status: 'success', message: 'Scheduled call deleted successfully' },
		};
	}

	/**
	 * POST /call/campaign (v1, takes agent_id) and POST /v2/call/campaign (v2).
	 * @param {Account} account
	 * @param {Record<string, unknown>} body
	 * @param {'v1' | 'v2'} version
	 * @param {boolean} failAfter
	 * @returns {Reply}
	 */
	function campaign(account, body, version, failAfter) {
		const missing = requireFields(body, version === 'v1' ? ['name', 'agent_id'] : ['name']);
		if (missing) return missing;
		const agentId = version === 'v1' ? /** @type {string} */ (body.agent_id) : null;
		if (agentId !== null && !account.agents.has(agentId))
			return errorReply(404, 'Agent does not exist');
		/** @type {Campaign} */
		const created = {
			batchId: nextId(),
			version,
			name: /** @type {string} */ (body.name),
			agentId,
			account: account.index,
			callIds: [],
			createdAt: iso(),
		};
		campaignsById.set(created.batchId, created);
		state.campaigns.push(created);
		if (failAfter) return errorReply(500, 'Internal server error');
		return {
			status: 200,
			body: {
				status: 'success',
				message: 'Campaign created successfully',
				batch_id: created.batchId,
			},
		};
	}

	/**
	 * Answer one API request: key, body, then the endpoint's rules.
	 * @param {Route} route
	 * @param {{ apiKey: string | undefined, query: URLSearchParams, body: BodyResult }} request
	 * @param {{ failAfter?: boolean }} [mode]
	 * @returns {Reply}
	 */
	function handle(route, request, mode = {}) {
		const failAfter = mode.failAfter === true;
		const { apiKey } = request;
		const keyMissing = apiKey === undefined || apiKey.trim() === '';
		const account = keyMissing ? undefined : accountsByKey.get(apiKey);
		if (!account) {
			// Assign answers 401 (spec §5.5; a wrong key there is not specified). The other endpoints
			// answer 403 with one message for a missing or invalid key (spec §7.2, public docs).
			if (route !== 'assign') return errorReply(403, 'Missing X-API-KEY in headers');
			return errorReply(401, keyMissing ? 'Missing API key' : 'Invalid API key');
		}
		if (!request.body.ok) return errorReply(400, request.body.message);
		const body = request.body.value;
		if (!isPlainObject(body)) return errorReply(400, 'Request body must be a JSON object');
		switch (route) {
			case 'assign':
				return assign(account, body, failAfter);
			case 'outbound':
				return outbound(account, body, failAfter);
			case 'delete':
				return deleteScheduled(account, request.query, body, failAfter);
			case 'campaignV1':
				return campaign(account, body, 'v1', failAfter);
			case 'campaignV2':
				return campaign(account, body, 'v2', failAfter);
			default:
				return errorReply(404, 'Not found');
		}
	}

	// ---- webhooks and ending calls (admin) -----------------------------------------------

	function showWebhooks() {
		state.webhooks.sandbox = sandboxWebhook ? maskedConfig(sandboxWebhook) : null;
		state.webhooks.agents = Object.fromEntries(
			[...agentWebhooks].map(([id, config]) => [id, maskedConfig(config)]),
		);
	}

	/**
	 * The webhook a call's events go to: set for the agent through the admin API, else the agent's
	 * in the data file, else the account's in the data file, else the sandbox-wide one.
	 * @param {Call} call
	 */
	function webhookFor(call) {
		const account = accounts[call.account];
		return (
			agentWebhooks.get(call.agentId) ??
			account?.agentWebhooks.get(call.agentId) ??
			account?.webhook ??
			sandboxWebhook
		);
	}

	/** @param {string} agentId */
	function versionIdOf(agentId) {
		let id = versionIds.get(agentId);
		if (!id) {
			id = nextId();
			versionIds.set(agentId, id);
		}
		return id;
	}

	/**
	 * Set a webhook: { url, headers?, duplicate?, agentId? }. Without agentId it is sandbox-wide;
	 * url null removes the one set at that level.
	 * @param {unknown} input
	 * @returns {{ ok: true } | AdminError}
	 */
	function setWebhook(input) {
		if (!isPlainObject(input)) {
			return { ok: false, status: 400, message: 'Give { url, headers?, duplicate?, agentId? }' };
		}
		const { agentId, ...rest } = input;
		if (agentId !== undefined && (typeof agentId !== 'string' || agentId.trim() === '')) {
			return { ok: false, status: 400, message: 'agentId must be a non-empty string' };
		}
		if (rest.url === null) {
			if (typeof agentId === 'string') agentWebhooks.delete(agentId);
			else sandboxWebhook = null;
			showWebhooks();
			return { ok: true };
		}
		const parsed = parseWebhookConfig(rest, 'webhook');
		if (!parsed.ok) return { ok: false, status: 400, message: parsed.message };
		if (typeof agentId === 'string') agentWebhooks.set(agentId, parsed.config);
		else sandboxWebhook = parsed.config;
		showWebhooks();
		return { ok: true };
	}

	/** Back to the webhook given at start; those set through the admin API are removed. */
	function clearWebhooks() {
		sandboxWebhook = startWebhook;
		agentWebhooks.clear();
		showWebhooks();
	}

	/**
	 * End a call: { callId } or { number } (its latest call still placed or scheduled), with
	 * hangupReason?, durationSeconds?, transcript?, from?, tryCount?, data? (fields merged into the
	 * event's data). Marks it ended and builds its call_ended event.
	 * @param {unknown} input
	 * @returns {EndedCall | AdminError}
	 */
	function endCall(input) {
		/** @param {string} message */
		const bad = (message, status = 400) =>
			/** @type {AdminError} */ ({ ok: false, status, message });
		if (!isPlainObject(input))
			return bad(
				'Give { callId } or { number }, with hangupReason?, durationSeconds?, transcript?',
			);
		const allowed = [
			'callId',
			'number',
			'hangupReason',
			'durationSeconds',
			'transcript',
			'from',
			'tryCount',
			'data',
			'wait',
		];
		for (const key of Object.keys(input)) {
			if (!allowed.includes(key))
				return bad(`unknown field "${key}" (allowed: ${allowed.join(', ')})`);
		}
		const {
			callId,
			number,
			hangupReason = 'CLIENT_INITIATED',
			durationSeconds,
			transcript,
			from,
			tryCount,
			data,
		} = input;
		if (typeof hangupReason !== 'string' || hangupReason.trim() === '') {
			return bad(
				`hangupReason must be a non-empty string, e.g. one of ${HANGUP_REASONS.join(', ')}`,
			);
		}
		if (
			durationSeconds !== undefined &&
			!(
				typeof durationSeconds === 'number' &&
				Number.isFinite(durationSeconds) &&
				durationSeconds >= 0
			)
		) {
			return bad('durationSeconds must be a number >= 0');
		}
		if (transcript !== undefined && typeof transcript !== 'string')
			return bad('transcript must be a string');
		if (from !== undefined && !isPhoneNumber(from))
			return bad('from must be a phone number with country code');
		if (
			tryCount !== undefined &&
			!(typeof tryCount === 'number' && Number.isInteger(tryCount) && tryCount >= -1)
		) {
			return bad('tryCount must be an integer >= -1');
		}
		if (data !== undefined && !isPlainObject(data)) return bad('data must be an object');
		if (input.wait !== undefined && typeof input.wait !== 'boolean')
			return bad('wait must be a boolean');

		/** @type {Call | undefined} */
		let call;
		if (typeof callId === 'string') {
			call = callsById.get(callId);
			if (!call) return bad(`Call not found: ${callId}`, 404);
		} else if (typeof number === 'string' && isPhoneNumber(number)) {
			const digits = normaliseNumber(number);
			const open = state.calls.filter(
				(c) => c.number === digits && (c.status === 'queued' || c.status === 'scheduled'),
			);
			call = open.filter((c) => c.status === 'queued').at(-1) ?? open.at(-1);
			if (!call) return bad(`No placed or scheduled call to ${number}`, 404);
		} else {
			return bad('Give { callId } or { number } (with country code)');
		}
		if (call.status === 'ended' || call.status === 'deleted') {
			return bad(`Call ${call.id} is already ${call.status}`, 409);
		}
		if (call.status === 'scheduled') {
			// Placed now, ahead of its time: no longer scheduled or deletable.
			timers.cancel(timerOf.get(call.id));
			timerOf.delete(call.id);
			const key = `${call.account}|${call.agentId}|${call.number}`;
			const rest = (pendingCalls.get(key) ?? []).filter((c) => c !== call);
			if (rest.length > 0) pendingCalls.set(key, rest);
			else pendingCalls.delete(key);
			call.queuedAt = iso();
		}
		const endedAtMs = Date.now();
		const payload = callEndedPayload(call, {
			hangupReason: hangupReason.trim(),
			durationSeconds: /** @type {number | undefined} */ (durationSeconds),
			transcript: /** @type {string | undefined} */ (transcript),
			from: /** @type {string | undefined} */ (from),
			tryCount: /** @type {number | undefined} */ (tryCount),
			versionId: versionIdOf(call.agentId),
			endedAtMs,
			extra: /** @type {Record<string, unknown> | undefined} */ (data),
		});
		call.status = 'ended';
		call.endedAt = iso(endedAtMs);
		call.hangupReason = hangupReason.trim();
		const duration = payload.data.call_duration;
		call.durationSeconds = typeof duration === 'number' ? duration : null;
		return { ok: true, call, payload, webhook: webhookFor(call) };
	}

	function dispose() {
		timers.clear();
		timerOf.clear();
	}

	reset();

	return {
		state,
		handle,
		reset,
		load,
		setDialect,
		finishRuns,
		setWebhook,
		clearWebhooks,
		endCall,
		webhookFor,
		dispose,
		/** Pending timers (runs and scheduled calls), for tests. */
		get pendingTimers() {
			return timers.size;
		},
	};
}
