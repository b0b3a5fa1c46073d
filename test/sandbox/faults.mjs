// @ts-check
/**
 * Fault injection: latency, jitter, error answers (500/502/503/429) and dropped connections,
 * per endpoint, seeded so that a run repeats, or scripted as an exact sequence.
 */

export const FAULT_ENDPOINTS = Object.freeze(['all', 'assign', 'delete', 'outbound', 'campaign']);

/**
 * Outcomes, usable in `sequence` and as keys of `rates`.
 * - ok: process normally
 * - 500 | 502 | 503: answer that status before processing (nothing changes)
 * - 429: answer 429 with Retry-After before processing (nothing changes)
 * - drop-before: destroy the connection before processing (nothing changes, no answer)
 * - drop-after: process fully, then destroy the connection (state changed, no answer)
 * - 500-after: process, then answer 500. On assign the contact and attributes are saved but the
 *   run is not started (the 500 body reports the attributes); elsewhere the change is made.
 */
export const FAULT_OUTCOMES = Object.freeze([
	'ok',
	'500',
	'502',
	'503',
	'429',
	'drop-before',
	'drop-after',
	'500-after',
]);

/**
 * @typedef {'ok' | '500' | '502' | '503' | '429' | 'drop-before' | 'drop-after' | '500-after'} FaultOutcome
 * @typedef {'all' | 'assign' | 'delete' | 'outbound' | 'campaign'} FaultEndpoint
 *
 * @typedef {object} FaultInput  what POST /__sandbox/faults and setFaults() accept
 * @property {FaultEndpoint} [endpoint]  default "all"
 * @property {number} [seed]  PRNG seed (integer); random when omitted and reported back
 * @property {number} [latencyMs]  added delay for every request
 * @property {number} [jitterMs]  plus a uniform random 0..jitterMs
 * @property {Partial<Record<Exclude<FaultOutcome, 'ok'>, number>>} [rates]  probabilities, sum <= 1
 * @property {number | null} [retryAfterSeconds]  Retry-After of a 429, default 0; null sends none
 * @property {FaultOutcome[]} [sequence]  consumed one per request before rates apply
 *
 * @typedef {object} FaultConfig  a checked FaultInput, as shown in state.faults
 * @property {FaultEndpoint} endpoint
 * @property {number} seed
 * @property {number} latencyMs
 * @property {number} jitterMs
 * @property {Partial<Record<Exclude<FaultOutcome, 'ok'>, number>>} rates
 * @property {number | null} retryAfterSeconds
 * @property {FaultOutcome[]} sequence  what is left of it
 * @property {number} requests  requests decided by this config so far
 *
 * @typedef {{ outcome: FaultOutcome, delayMs: number, retryAfterSeconds: number | null }} FaultDecision
 */

/**
 * mulberry32: a tiny, fast, seedable PRNG returning floats in [0, 1).
 * @param {number} seed
 * @returns {() => number}
 */
export function mulberry32(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/**
 * @param {unknown} v
 * @returns {v is number}
 */
function isNonNegative(v) {
	return typeof v === 'number' && Number.isFinite(v) && v >= 0;
}

/**
 * Check a fault description.
 * @param {unknown} input
 * @returns {{ ok: true, config: FaultConfig } | { ok: false, message: string }}
 */
export function parseFaults(input) {
	/** @param {string} message */
	const fail = (message) => /** @type {{ ok: false, message: string }} */ ({ ok: false, message });
	if (typeof input !== 'object' || input === null || Array.isArray(input)) {
		return fail('faults must be an object');
	}
	const f = /** @type {Record<string, unknown>} */ (input);
	const allowed = [
		'endpoint',
		'seed',
		'latencyMs',
		'jitterMs',
		'rates',
		'retryAfterSeconds',
		'sequence',
	];
	for (const key of Object.keys(f)) {
		if (!allowed.includes(key))
			return fail(`unknown fault option "${key}" (allowed: ${allowed.join(', ')})`);
	}
	const endpoint = f.endpoint ?? 'all';
	if (typeof endpoint !== 'string' || !FAULT_ENDPOINTS.includes(endpoint)) {
		return fail(`endpoint must be one of ${FAULT_ENDPOINTS.join(', ')}`);
	}
	let seed = f.seed;
	if (seed === undefined) seed = Math.floor(Math.random() * 2 ** 32);
	if (typeof seed !== 'number' || !Number.isInteger(seed)) return fail('seed must be an integer');
	for (const key of ['latencyMs', 'jitterMs']) {
		if (f[key] !== undefined && !isNonNegative(f[key])) return fail(`${key} must be a number >= 0`);
	}
	if (f.retryAfterSeconds != null && !isNonNegative(f.retryAfterSeconds)) {
		return fail('retryAfterSeconds must be a number >= 0, or null for no Retry-After');
	}
	/** @type {FaultConfig['rates']} */
	const rates = {};
	if (f.rates !== undefined) {
		if (typeof f.rates !== 'object' || f.rates === null || Array.isArray(f.rates)) {
			return fail('rates must be an object of probabilities');
		}
		let sum = 0;
		for (const [key, p] of Object.entries(f.rates)) {
			if (key === 'ok' || !FAULT_OUTCOMES.includes(key)) {
				return fail(`unknown rate "${key}" (allowed: ${FAULT_OUTCOMES.slice(1).join(', ')})`);
			}
			if (!isNonNegative(p) || p > 1) return fail(`rates.${key} must be a probability from 0 to 1`);
			rates[/** @type {Exclude<FaultOutcome, 'ok'>} */ (key)] = p;
			sum += p;
		}
		if (sum > 1 + 1e-9) return fail('the rates add up to more than 1');
	}
	/** @type {FaultOutcome[]} */
	const sequence = [];
	if (f.sequence !== undefined) {
		if (!Array.isArray(f.sequence)) return fail('sequence must be an array');
		for (const item of f.sequence) {
			const token = typeof item === 'number' ? String(item) : item;
			if (typeof token !== 'string' || !FAULT_OUTCOMES.includes(token)) {
				return fail(`sequence items must be one of ${FAULT_OUTCOMES.join(', ')}`);
			}
			sequence.push(/** @type {FaultOutcome} */ (token));
		}
	}
	return {
		ok: true,
		config: {
			endpoint: /** @type {FaultEndpoint} */ (endpoint),
			seed: seed >>> 0,
			latencyMs: /** @type {number} */ (f.latencyMs ?? 0),
			jitterMs: /** @type {number} */ (f.jitterMs ?? 0),
			rates,
			// 0 by default, so that no test waits unless it asks to
			retryAfterSeconds: /** @type {number | null} */ (
				f.retryAfterSeconds === undefined ? 0 : f.retryAfterSeconds
			),
			sequence,
			requests: 0,
		},
	};
}

/** Rates are drawn in this fixed order, so a seed gives the same outcomes every time. */
const RATE_ORDER = /** @type {const} */ ([
	'500',
	'502',
	'503',
	'429',
	'drop-before',
	'drop-after',
	'500-after',
]);

export class FaultController {
	/**
	 * @param {Record<string, FaultConfig>} view  the object shown as state.faults (kept in sync)
	 * @param {{ latencyMs?: number, jitterMs?: number, seed?: number }} [base]  baseline delay
	 */
	constructor(view, base = {}) {
		this.view = view;
		this.baseLatencyMs = base.latencyMs ?? 0;
		this.baseJitterMs = base.jitterMs ?? 0;
		this.baseRandom = mulberry32(base.seed ?? 1);
		/** @type {Map<string, () => number>} */
		this.randoms = new Map();
	}

	/**
	 * Set the faults of one endpoint (or "all"), replacing what was set there before.
	 * @param {FaultConfig} config  from parseFaults
	 */
	set(config) {
		this.view[config.endpoint] = config;
		this.randoms.set(config.endpoint, mulberry32(config.seed));
	}

	/**
	 * Clear the faults of one endpoint, or of every endpoint.
	 * @param {FaultEndpoint} [endpoint]
	 */
	clear(endpoint) {
		for (const key of Object.keys(this.view)) {
			if (endpoint === undefined || key === endpoint) {
				delete this.view[key];
				this.randoms.delete(key);
			}
		}
	}

	/**
	 * Decide what happens to one request of an endpoint.
	 * @param {Exclude<FaultEndpoint, 'all'>} endpoint
	 * @returns {FaultDecision}
	 */
	decide(endpoint) {
		let delayMs = this.baseLatencyMs;
		if (this.baseJitterMs > 0) delayMs += this.baseRandom() * this.baseJitterMs;
		const key = this.view[endpoint] ? endpoint : this.view.all ? 'all' : null;
		if (key === null) return { outcome: 'ok', delayMs, retryAfterSeconds: null };
		const config = this.view[key];
		const random = /** @type {() => number} */ (this.randoms.get(key));
		config.requests++;
		delayMs += config.latencyMs;
		if (config.jitterMs > 0) delayMs += random() * config.jitterMs;
		/** @type {FaultOutcome} */
		let outcome = 'ok';
		const scripted = config.sequence.shift();
		if (scripted !== undefined) {
			outcome = scripted;
		} else if (Object.keys(config.rates).length > 0) {
			const r = random();
			let acc = 0;
			for (const name of RATE_ORDER) {
				acc += config.rates[name] ?? 0;
				if (r < acc) {
					outcome = name;
					break;
				}
			}
		}
		return { outcome, delayMs, retryAfterSeconds: config.retryAfterSeconds };
	}
}
