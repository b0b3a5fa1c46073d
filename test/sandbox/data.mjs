// @ts-check
/**
 * The data file: load it, check it, and turn it into lookup-friendly accounts.
 * Format (see README.md): { "accounts": [ { apiKey, attributes, workflows, agents, contacts } ] }
 */
import { readFileSync } from 'node:fs';

import { ATTRIBUTE_TYPES, normaliseKey } from './attributes.mjs';
import { isPhoneNumber, normaliseNumber } from './validate.mjs';
import { parseWebhookConfig } from './webhooks.mjs';

/**
 * @typedef {import('./attributes.mjs').AttributeDef} AttributeDef
 * @typedef {import('./attributes.mjs').AttributeValue} AttributeValue
 * @typedef {{ id: string, steps?: number, available?: boolean }} WorkflowDef
 * @typedef {{ url: string, headers?: Record<string, string>, duplicate?: boolean }} WebhookDef
 * @typedef {{ id: string, webhook?: WebhookDef }} AgentDef
 * @typedef {{ number: string, values?: Record<string, AttributeValue>, manual?: string[] }} ContactDef
 * @typedef {{ apiKey: string, attributes?: AttributeDef[], workflows?: WorkflowDef[], agents?: AgentDef[], contacts?: ContactDef[], webhook?: WebhookDef }} AccountDef
 * @typedef {{ accounts: AccountDef[] }} DataFile
 *
 * @typedef {object} Account  A checked account with its lookup maps.
 * @property {number} index  position in data.accounts
 * @property {string} apiKey
 * @property {AttributeDef[]} attributes
 * @property {Map<string, AttributeDef>} attributeIndex  by normaliseKey(name)
 * @property {Map<string, { id: string, steps: number, available: boolean }>} workflows
 * @property {Set<string>} agents
 * @property {{ number: string, values: Record<string, AttributeValue>, manual: string[] }[]} contacts
 * @property {import('./webhooks.mjs').WebhookConfig | null} webhook  the account's webhook (every agent)
 * @property {Map<string, import('./webhooks.mjs').WebhookConfig>} agentWebhooks  agents' own webhooks
 */

export class DataError extends Error {
	/** @param {string} message */
	constructor(message) {
		super(message);
		this.name = 'DataError';
	}
}

/**
 * @param {unknown} v
 * @returns {v is Record<string, unknown>}
 */
function isObject(v) {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * @param {Record<string, unknown>} obj
 * @param {string[]} allowed
 * @param {string} where
 */
function rejectUnknownKeys(obj, allowed, where) {
	for (const key of Object.keys(obj)) {
		if (!allowed.includes(key)) {
			throw new DataError(`${where}: unknown field "${key}" (allowed: ${allowed.join(', ')})`);
		}
	}
}

/**
 * @param {unknown} v
 * @param {string} where
 * @returns {unknown[]}
 */
function optionalArray(v, where) {
	if (v === undefined) return [];
	if (!Array.isArray(v)) throw new DataError(`${where} must be an array`);
	return v;
}

/**
 * @param {unknown} v
 * @param {string} where
 * @returns {string}
 */
function requiredString(v, where) {
	if (typeof v !== 'string' || v.trim() === '')
		throw new DataError(`${where} must be a non-empty string`);
	return v;
}

/**
 * @param {unknown} value
 * @param {string} where
 */
function webhookConfig(value, where) {
	const parsed = parseWebhookConfig(value, where);
	if (!parsed.ok) throw new DataError(parsed.message);
	return parsed.config;
}

/**
 * Check a data file and build the accounts. Throws DataError with a path-like message.
 * The input is never mutated; every returned structure is a fresh copy.
 * @param {unknown} data
 * @returns {Account[]}
 */
export function buildAccounts(data) {
	if (!isObject(data)) throw new DataError('data must be an object with an "accounts" array');
	rejectUnknownKeys(data, ['accounts'], 'data');
	if (!Array.isArray(data.accounts)) throw new DataError('data.accounts must be an array');
	const seenKeys = new Set();
	return data.accounts.map((raw, index) => {
		const at = `accounts[${index}]`;
		if (!isObject(raw)) throw new DataError(`${at} must be an object`);
		rejectUnknownKeys(
			raw,
			['apiKey', 'attributes', 'workflows', 'agents', 'contacts', 'webhook'],
			at,
		);
		const apiKey = requiredString(raw.apiKey, `${at}.apiKey`);
		if (seenKeys.has(apiKey)) throw new DataError(`${at}.apiKey is used by another account`);
		seenKeys.add(apiKey);

		/** @type {AttributeDef[]} */
		const attributes = [];
		/** @type {Map<string, AttributeDef>} */
		const attributeIndex = new Map();
		optionalArray(raw.attributes, `${at}.attributes`).forEach((a, i) => {
			const aAt = `${at}.attributes[${i}]`;
			if (!isObject(a)) throw new DataError(`${aAt} must be an object`);
			rejectUnknownKeys(a, ['name', 'type', 'options'], aAt);
			const name = requiredString(a.name, `${aAt}.name`);
			if (typeof a.type !== 'string' || !ATTRIBUTE_TYPES.includes(a.type)) {
				throw new DataError(`${aAt}.type must be one of ${ATTRIBUTE_TYPES.join(', ')}`);
			}
			const type = /** @type {AttributeDef['type']} */ (a.type);
			/** @type {AttributeDef} */
			const def = { name, type };
			if (type === 'enum') {
				if (
					!Array.isArray(a.options) ||
					a.options.length === 0 ||
					!a.options.every((o) => typeof o === 'string')
				) {
					throw new DataError(`${aAt}.options must be a non-empty array of strings for an enum`);
				}
				def.options = [...a.options];
			} else if (a.options !== undefined) {
				throw new DataError(`${aAt}.options is only allowed on an enum attribute`);
			}
			const norm = normaliseKey(name);
			if (attributeIndex.has(norm)) {
				throw new DataError(`${aAt}.name "${name}" matches another attribute of the account`);
			}
			attributeIndex.set(norm, def);
			attributes.push(def);
		});

		/** @type {Account['workflows']} */
		const workflows = new Map();
		optionalArray(raw.workflows, `${at}.workflows`).forEach((w, i) => {
			const wAt = `${at}.workflows[${i}]`;
			if (!isObject(w)) throw new DataError(`${wAt} must be an object`);
			rejectUnknownKeys(w, ['id', 'steps', 'available'], wAt);
			const id = requiredString(w.id, `${wAt}.id`);
			if (workflows.has(id)) throw new DataError(`${wAt}.id "${id}" is listed twice`);
			const steps = w.steps === undefined ? 1 : w.steps;
			if (typeof steps !== 'number' || !Number.isInteger(steps) || steps < 0) {
				throw new DataError(`${wAt}.steps must be an integer >= 0`);
			}
			const available = w.available === undefined ? true : w.available;
			if (typeof available !== 'boolean') throw new DataError(`${wAt}.available must be a boolean`);
			workflows.set(id, { id, steps, available });
		});

		/** @type {Set<string>} */
		const agents = new Set();
		/** @type {Account['agentWebhooks']} */
		const agentWebhooks = new Map();
		optionalArray(raw.agents, `${at}.agents`).forEach((g, i) => {
			const gAt = `${at}.agents[${i}]`;
			if (!isObject(g)) throw new DataError(`${gAt} must be an object`);
			rejectUnknownKeys(g, ['id', 'webhook'], gAt);
			const id = requiredString(g.id, `${gAt}.id`);
			agents.add(id);
			if (g.webhook !== undefined)
				agentWebhooks.set(id, webhookConfig(g.webhook, `${gAt}.webhook`));
		});

		/** @type {Account['contacts']} */
		const contacts = [];
		const seenNumbers = new Set();
		optionalArray(raw.contacts, `${at}.contacts`).forEach((c, i) => {
			const cAt = `${at}.contacts[${i}]`;
			if (!isObject(c)) throw new DataError(`${cAt} must be an object`);
			rejectUnknownKeys(c, ['number', 'values', 'manual'], cAt);
			if (!isPhoneNumber(c.number)) {
				throw new DataError(
					`${cAt}.number must be a phone number with country code, e.g. 919876543210`,
				);
			}
			const number = normaliseNumber(c.number);
			if (seenNumbers.has(number)) throw new DataError(`${cAt}.number ${number} is listed twice`);
			seenNumbers.add(number);
			/** @param {string} key @param {string} where */
			const attributeName = (key, where) => {
				const def = attributeIndex.get(normaliseKey(key));
				if (!def) throw new DataError(`${where}: "${key}" is not an attribute of the account`);
				return def.name;
			};
			/** @type {Record<string, AttributeValue>} */
			const values = {};
			if (c.values !== undefined) {
				if (!isObject(c.values)) throw new DataError(`${cAt}.values must be an object`);
				for (const [key, value] of Object.entries(c.values)) {
					if (
						typeof value !== 'string' &&
						typeof value !== 'number' &&
						typeof value !== 'boolean'
					) {
						throw new DataError(`${cAt}.values["${key}"] must be a string, number or boolean`);
					}
					values[attributeName(key, `${cAt}.values`)] = value;
				}
			}
			const manual = optionalArray(c.manual, `${cAt}.manual`).map((m, j) => {
				if (typeof m !== 'string') throw new DataError(`${cAt}.manual[${j}] must be a string`);
				return attributeName(m, `${cAt}.manual[${j}]`);
			});
			contacts.push({ number, values, manual: [...new Set(manual)] });
		});

		const webhook = raw.webhook === undefined ? null : webhookConfig(raw.webhook, `${at}.webhook`);
		return {
			index,
			apiKey,
			attributes,
			attributeIndex,
			workflows,
			agents,
			contacts,
			webhook,
			agentWebhooks,
		};
	});
}

/**
 * Read and check a data file from disk.
 * @param {string} file
 * @returns {DataFile}
 */
export function readDataFile(file) {
	let text;
	try {
		text = readFileSync(file, 'utf8');
	} catch (error) {
		throw new DataError(`cannot read data file ${file}: ${/** @type {Error} */ (error).message}`);
	}
	let data;
	try {
		data = JSON.parse(text);
	} catch (error) {
		throw new DataError(
			`data file ${file} is not valid JSON: ${/** @type {Error} */ (error).message}`,
		);
	}
	buildAccounts(data);
	return data;
}
