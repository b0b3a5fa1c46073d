// The guard's lock through its own faults (docs/running-at-scale.md, "The lock"): 2 to 5 n8n
// processes, each with its own copy of nodes/shared/guard.ts (its own in-memory queue), deliver
// leads of a few numbers at once over n8n's store modelled statement by statement
// (processedDataTable.ts), on virtual time. Seeded schedules add latency, statements that fail
// before or after they land, stalls longer than the stale timeout (within the timing assumption),
// and processes killed at any moment or the moment one of their statements lands.
//
//   CALLKARO_SIM_SEEDS=20000 npx jest guard.simulation    more schedules
//   CALLKARO_SIM_SEED=1234 npx jest guard.simulation      one schedule, with its statement trace
import type * as GuardModule from '../../../nodes/shared/guard';
import type { Clock } from '../../../src/schedule/clock';
import { DEFAULT_GUARD_TIMING } from '../../../src/guard/guard';
import { lockDurations, lockElements, plainRowElements } from '../../../src/guard/guardLock';
import { storedHash } from '../../../nodes/shared/guardLockRow';
import type { LockTiming } from '../../../src/guard/guardLock';
import { ProcessedDataTable } from '../../support/guardSimulation/processedDataTable';
import type {
	SimulatedProcess,
	Statement,
	StatementPlan,
} from '../../support/guardSimulation/processedDataTable';
import { VirtualTime } from '../../support/guardSimulation/virtualTime';
import {
	GUARDED_NODE,
	GUARD_NAMING,
	GUARD_SETTINGS,
} from '../../support/guardSimulation/guardedNode';
import { seededRandom } from '../../src/schedule/scheduleOracle';
import {
	busyProcessCounts,
	deepRun,
	edgeRuns,
	replaySeed,
	report,
	simulationSeeds,
} from '../../support/guardSimulation/host.mjs';

const TIMING: LockTiming = { pollMs: 20, settleMs: 400, callLimitMs: 1000 };
/** New executions start until then; faults happen until then. */
const WORK_END = 2500;
/** How long the probe may wait for the lock: a row left by a dead holder, or an election over it that stalled. */
const RECOVERY_BOUND = lockDurations(TIMING).recoveryAfterStall + 10 * TIMING.pollMs;
/** The history call's bound in the timing assumption. */
const HISTORY_CALL_MS = lockDurations(TIMING).historyCall;

/**
 * A copy of the guard's module per process: its queue of the workflow is its own. The libraries it
 * imports keep no state of the guard's, so every copy shares this file's: loading n8n's engine
 * afresh for each process cost half a second.
 */
function guardModule(): typeof GuardModule {
	let loaded: typeof GuardModule | undefined;
	for (const library of ['n8n-workflow', 'luxon', 'zod/v4']) {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const shared: unknown = require(library);
		jest.doMock(library, () => shared);
	}
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		loaded = require('../../../nodes/shared/guard') as typeof GuardModule;
	});
	return loaded!;
}
const MAX_PROCESSES = 5;
/** The edge search runs up to 8 processes, and for longer. */
const EDGE_PROCESSES = 8;
const EDGE_WORK_END = 3 * WORK_END;
let modules: Array<typeof GuardModule>;
/** The guard's copy of the process at `index`, loaded when first needed (the waits run up to 40). */
function moduleOf(index: number): typeof GuardModule {
	while (modules.length <= index) modules.push(guardModule());
	return modules[index];
}

/** What the faults of one schedule are like. */
interface FaultProfile {
	failEvery: number;
	stallEvery: number;
	killAtLandingEvery: number;
	killChance: number;
	/** A dead holder's row is there from the start: the elections over it run under the faults. */
	leftRow?: boolean;
}

const PROFILES: Record<string, FaultProfile> = {
	contention: { failEvery: 0, stallEvery: 0, killAtLandingEvery: 0, killChance: 0 },
	kills: { failEvery: 0, stallEvery: 0, killAtLandingEvery: 150, killChance: 0.4 },
	stalls: { failEvery: 0, stallEvery: 40, killAtLandingEvery: 0, killChance: 0 },
	failures: { failEvery: 25, stallEvery: 0, killAtLandingEvery: 0, killChance: 0 },
	everything: { failEvery: 40, stallEvery: 60, killAtLandingEvery: 200, killChance: 0.3 },
	leftRowUnderFire: {
		failEvery: 12,
		stallEvery: 30,
		killAtLandingEvery: 80,
		killChance: 0.3,
		leftRow: true,
	},
};

interface Claim {
	number: string;
	execution: number;
	at: number;
	/** When its key was given back; never when the release failed or the process died. */
	releasedAt?: number;
}

interface Outcome {
	seed: number;
	profile: string;
	processes: number;
	executions: number;
	completed: number;
	calls: number;
	skips: number;
	storeFailures: number;
	failedStatements: number;
	stalls: number;
	kills: number;
	probeWaitedMs?: number;
	erasedKeys: number;
	/** The longest an execution waited for its claim (the lock and the history call). */
	longestClaimMs: number;
	/** Statements that landed on the store. */
	statements: number;
	/** Bytes of the lock row and of the history read and written (ProcessedDataTable.traffic). */
	traffic: ProcessedDataTable['traffic'];
	/** Every completed claim's wait for the lock and the history call, in ms. */
	claimWaits: number[];
	/** When the first execution but the probe's got the lock and the history. */
	firstClaimAt?: number;
	/** When the last execution but the probe's ended. */
	lastDoneAt?: number;
	/** Why executions failed, and how many of each. */
	failures: Map<string, number>;
	violations: string[];
	trace: string[];
}

/**
 * Draws every bound of the timing assumption up to `scale` times its edge: a lock call (two
 * statements) ends within scale × settleMs / 2, a history call within scale × 2 × settleMs, clocks
 * lie up to scale × settleMs / 2 apart; answers come late, statements fail and land after all.
 */
interface EdgeBounds {
	scale: number;
}

/**
 * The longest a statement may take in the timing assumption of `settleMs`: its call's share (a
 * lock call's only statement, a count or a delete, the whole lock call; rescues' too).
 */
function statementBound(statement: Statement, settleMs: number): number {
	if (statement.scope === 'node') return settleMs;
	return statement.whole ? settleMs / 2 : settleMs / 4;
}

/** Up to `max`: 9 times in 10 exactly there, else anywhere below. */
function towardEdge(random: () => number, max: number): number {
	return random() < 0.9 ? max : max * random();
}

/** What one guarded execution costs with no fault: `processes` busy, every statement `roundTripMs`. */
interface CostRun {
	processes: number;
	roundTripMs: number;
	/** How long the processes send executions. */
	durationMs: number;
	/** Deletes of the lock row refused this long, from REFUSAL_START (a BEFORE DELETE trigger). */
	refuseDeletesMs?: number;
	/**
	 * The first history write sent after PAUSE_START lands this much later: its process was frozen
	 * between reading the history and writing it. Once it has landed, every number called so far is
	 * delivered again.
	 */
	pausedWriteMs?: number;
	/**
	 * Instead of executions until durationMs: `jobs` delivered at once, each process running up to
	 * `slots` of them at a time (n8n's worker concurrency), behind a dead holder's row created at
	 * the start (the queue e2e's fault). One statement in 50 is slow, up to `scale` × its bound.
	 */
	burst?: { jobs: number; slots: number; scale: number };
	/**
	 * With `burst`: the row at the start is a stuck election's (its voters gone), and the store is
	 * slow: every count (a rescue's too) takes `countMs`, or every statement `statementMs`.
	 */
	stuck?: { countMs?: number; statementMs?: number };
}
const PAUSE_START = 10_000;
/** The value a stuck election's row is left at: a value of its fourth round's band. */
const STUCK_ELECTION = 40;
/** Schedules per length of a freeze. */
const FREEZE_SCHEDULES = 10;
const REFUSAL_START = 5_000;

/** Runs simulated so far in this file: each has a workflow of its own. */
let simulationRuns = 0;

async function simulate(
	seed: number,
	tracing = false,
	edge?: EdgeBounds,
	cost?: CostRun,
): Promise<Outcome> {
	const random = seededRandom(seed);
	const time = new VirtualTime();
	const profileName = edge
		? `edge ${edge.scale}`
		: cost
			? 'cost'
			: Object.keys(PROFILES)[seed % Object.keys(PROFILES).length];
	const profile = edge ? PROFILES.everything : (PROFILES[profileName] ?? PROFILES.contention);
	const processCount =
		cost?.processes ?? 2 + Math.floor(random() * ((edge ? EDGE_PROCESSES : MAX_PROCESSES) - 1));
	const workEnd = edge ? EDGE_WORK_END : cost ? cost.durationMs : WORK_END;
	// the cost is n8n's: its default timing
	const timing = cost ? DEFAULT_GUARD_TIMING : TIMING;
	const pool = Array.from({ length: 2 + Math.floor(random() * 6) }, (_, n) => `+9198200${n}`);
	// a workflow of its own per run: a dead process's queue in the shared modules must not hold it
	// up, and what a process learnt of another run's lock (its usual wait) must not shape this one
	const workflowId = `wf-${++simulationRuns}-seed-${seed}`;
	const outcome: Outcome = {
		seed,
		profile: profileName,
		processes: processCount,
		executions: 0,
		completed: 0,
		calls: 0,
		skips: 0,
		storeFailures: 0,
		failedStatements: 0,
		stalls: 0,
		kills: 0,
		erasedKeys: 0,
		longestClaimMs: 0,
		statements: 0,
		traffic: { lockRead: 0, lockWritten: 0, historyRead: 0, historyWritten: 0 },
		claimWaits: [],
		failures: new Map(),
		violations: [],
		trace: [],
	};
	const violation = (text: string) => outcome.violations.push(`${time.now.toFixed(1)} ${text}`);

	const edgePlan = (scale: number, process: SimulatedProcess, statement: Statement) => {
		const total = towardEdge(random, statementBound(statement, scale * TIMING.settleMs));
		// most often the answer is what comes late: the statement lands early, its answer at the bound
		const landAfter = random() < 0.5 ? 0 : total * random();
		const planned: StatementPlan = { landAfter, answerAfter: total - landAfter };
		if (time.now >= workEnd || process.name === 'probe') return planned;
		const fault = random() * 40;
		if (fault < 1) {
			planned.fails = (['before', 'after', 'late'] as const)[Math.floor(random() * 3)];
			if (planned.fails === 'late') {
				planned.answerAfter = landAfter * random();
			}
			outcome.failedStatements++;
		}
		if (random() * 200 < 1) {
			planned.killsProcess = true;
			outcome.kills++;
		}
		return planned;
	};

	const pausedWrite: { sent: boolean; landsAt?: number } = { sent: false };
	/** Numbers called, in order, and how far they have been delivered again. */
	const calledNumbers: string[] = [];
	let redelivered = 0;
	const plan = (process: SimulatedProcess, statement: Statement): StatementPlan => {
		if (edge) return edgePlan(edge.scale, process, statement);
		if (cost) {
			if (
				cost.pausedWriteMs &&
				!pausedWrite.sent &&
				time.now >= PAUSE_START &&
				statement.scope === 'node' &&
				statement.kind !== 'read'
			) {
				pausedWrite.sent = true;
				pausedWrite.landsAt = time.now + cost.pausedWriteMs;
				return { landAfter: cost.pausedWriteMs, answerAfter: cost.roundTripMs / 2 };
			}
			const refusedUntil = REFUSAL_START + (cost.refuseDeletesMs ?? 0);
			const refused =
				statement.kind === 'delete' &&
				statement.scope === 'workflow' &&
				time.now >= REFUSAL_START &&
				time.now < refusedUntil;
			if (cost.stuck) {
				const { countMs, statementMs } = cost.stuck;
				const count =
					statement.scope === 'workflow' && statement.kind === 'read' && statement.whole;
				const total = statementMs ?? (count && countMs ? countMs : cost.roundTripMs);
				const landAfter = total * random();
				return { landAfter, answerAfter: total - landAfter };
			}
			if (cost.burst) {
				// a busy machine: latency around the round trip, and now and then a statement slow
				// up to the edge of its call's bound (as in the edge search)
				const total =
					random() < 0.02
						? towardEdge(random, statementBound(statement, cost.burst.scale * timing.settleMs))
						: 2 * cost.roundTripMs * random();
				const landAfter = total * random();
				return { landAfter, answerAfter: total - landAfter };
			}
			return {
				landAfter: cost.roundTripMs / 2,
				answerAfter: cost.roundTripMs / 2,
				...(refused && { fails: 'before' as const }),
			};
		}
		const planned: StatementPlan = {
			landAfter: 0.2 + random() * 1.5,
			answerAfter: 0.2 + random() * 1.5,
		};
		if (time.now >= workEnd || process.name === 'probe') return planned;
		if (profile.failEvery && random() * profile.failEvery < 1) {
			planned.fails = random() < 0.5 ? 'before' : 'after';
			outcome.failedStatements++;
		}
		// Stalls within the timing assumption: a lock call ends within settleMs / 2. A history write
		// may stall past the history call's bound (1.5 × it), inside its holder's window.
		if (profile.stallEvery && random() * profile.stallEvery < 1) {
			const lockRow = statement.scope === 'workflow';
			if (lockRow || statement.kind !== 'read') {
				planned.landAfter += random() * (lockRow ? 0.2 * TIMING.settleMs : 1.5 * HISTORY_CALL_MS);
				outcome.stalls++;
			}
		}
		if (profile.killAtLandingEvery && random() * profile.killAtLandingEvery < 1) {
			planned.killsProcess = true;
			outcome.kills++;
		}
		return planned;
	};
	const table = new ProcessedDataTable(time, plan, tracing);
	// where the clocks stand when the run starts: a rescue instant comes at any moment of the work
	// or soon after it (a cost run meets one at 200 s)
	const { rescuePeriod } = lockDurations(timing);
	const instantAt = cost ? 200_000 : random() * 2 * workEnd;
	const clockBase = 1_000 * rescuePeriod - instantAt;
	if (cost?.burst) {
		// a holder that died just after creating its row, or an election whose voters are gone
		table.rows.set(`${workflowId}|`, {
			mode: 'latestIncrementalKey',
			data: (cost.stuck
				? lockElements(0, STUCK_ELECTION)
				: plainRowElements(clockBase, timing)
			).map(storedHash),
		});
	}
	let jobsLeft = cost?.burst?.jobs ?? 0;
	if (profile.leftRow) {
		// created by a holder that died a while before the processes start
		const createdAt = clockBase - lockDurations(timing).deadAge - random() * 2 * TIMING.settleMs;
		table.rows.set(`${workflowId}|`, {
			mode: 'latestIncrementalKey',
			data: plainRowElements(createdAt, timing).map(storedHash),
		});
	}

	const claims: Claim[] = [];
	const callsTo = new Map<string, number>();
	let executionCount = 0;
	const pending = new Set<number>();

	function startProcess(name: string, module: typeof GuardModule): SimulatedProcess {
		const process: SimulatedProcess = { name, alive: true, failedAt: [] };
		// clocks of different machines: a few ms apart, or as far as the assumption allows
		const offset = (random() - 0.5) * (edge ? (edge.scale * TIMING.settleMs) / 2 : 50);
		// a dead process's waits, and its time limits, end nothing
		const wait = async (ms: number, signal?: AbortSignal) => {
			await time.sleep(ms, signal);
			if (!process.alive) await new Promise<never>(() => undefined);
		};
		const clock: Clock = { now: () => clockBase + time.now + offset, sleep: wait, expire: wait };
		const helpers = table.helpersFor(process, workflowId, GUARDED_NODE.id);
		const context = {
			getNode: () => GUARDED_NODE,
			getWorkflow: () => ({ id: workflowId }),
			helpers,
		} as unknown as Parameters<typeof module.createItemGuard>[0];
		const processRandom = seededRandom(seed * 7919 + name.length * 31 + name.charCodeAt(1));

		/** One execution: a lead of one or two numbers, claimed, sent, refusals given back. */
		const execute = async (numbers: string[]): Promise<void> => {
			const execution = ++executionCount;
			pending.add(execution);
			outcome.executions++;
			const guard = module.createItemGuard(
				{ ...context, getExecutionId: () => String(execution) },
				GUARD_SETTINGS,
				GUARD_NAMING,
				timing,
				clock,
				processRandom,
			);
			const keys = new Map(
				numbers.map((number, item) => [item, guard.keyOf({ target: 'agent', toNumber: number })]),
			);
			const claimedAt = time.now;
			const failedBefore = process.failedAt.length;
			const attempts: Claim[] = numbers.map((number) => ({ number, execution, at: claimedAt }));
			// a claim that fails may still have landed: its numbers count as claimed
			claims.push(...attempts);
			let skipped: Set<number>;
			try {
				skipped = await guard.claim(keys);
				outcome.longestClaimMs = Math.max(outcome.longestClaimMs, time.now - claimedAt);
				outcome.claimWaits.push(time.now - claimedAt);
				if (name !== 'probe') outcome.firstClaimAt ??= time.now;
			} catch (error) {
				const message = (error as Error).message;
				outcome.storeFailures++;
				outcome.failures.set(message, (outcome.failures.get(message) ?? 0) + 1);
				if (cost?.refuseDeletesMs) {
					// measured, not judged: the refusal fails executions whose own statements did not fail
				} else if (!message.includes("n8n's store of processed items failed")) {
					violation(`${name} #${execution}: claim failed with "${message}"`);
				} else if (process.failedAt.length === failedBefore) {
					violation(`${name} #${execution}: a store failure with no failed statement`);
				}
				// its numbers stay claimed: the failed call may have landed
				pending.delete(execution);
				outcome.completed++;
				if (name !== 'probe') outcome.lastDoneAt = time.now;
				return;
			}
			const refused: number[] = [];
			for (const [item, number] of numbers.entries()) {
				if (skipped.has(item)) {
					outcome.skips++;
					attempts[item].releasedAt = time.now;
					// skipped as called before: another execution recorded it, and has not given it back
					const recorded = claims.some(
						(claim) =>
							claim.number === number &&
							claim.execution !== execution &&
							claim.at <= time.now &&
							(claim.releasedAt === undefined || claim.releasedAt >= claimedAt),
					);
					if (!recorded) violation(`${name} #${execution}: ${number} skipped, never recorded`);
					continue;
				}
				await clock.sleep(5 + processRandom() * 40);
				const fate = processRandom();
				if (fate < 0.15) {
					refused.push(item);
					continue;
				}
				// placed, or a lost answer: either may have called
				const calls = (callsTo.get(number) ?? 0) + 1;
				callsTo.set(number, calls);
				if (calls === 1) calledNumbers.push(number);
				outcome.calls++;
				if (calls > 1) violation(`${name} #${execution}: ${number} called ${calls} times`);
			}
			await guard.release(refused);
			const forgotten = !guard.storeFailures().some((failure) => failure.includes('forget'));
			for (const item of refused) if (forgotten) attempts[item].releasedAt = time.now;
			await guard.hints();
			pending.delete(execution);
			outcome.completed++;
			if (name !== 'probe') outcome.lastDoneAt = time.now;
		};

		return Object.assign(process, { execute });
	}

	const processes = Array.from(
		{ length: processCount },
		(_, index) => startProcess(`p${index}`, moduleOf(index + 1)) as ReturnType<typeof startProcess>,
	);
	for (const process of processes) {
		const run = process as SimulatedProcess & { execute: (numbers: string[]) => Promise<void> };
		const slots = cost ? (cost.burst?.slots ?? 1) : 1 + Math.floor(random() * 3);
		for (let slot = 0; slot < slots; slot++) {
			const loop = async () => {
				await time.sleep(random() * (cost?.burst ? 20 : 200));
				while ((cost?.burst ? jobsLeft-- > 0 : time.now < workEnd) && run.alive) {
					// at the edge: new numbers throughout, each soon delivered again elsewhere
					const again =
						pausedWrite.landsAt !== undefined &&
						time.now > pausedWrite.landsAt + 1_000 &&
						redelivered < calledNumbers.length;
					if ((edge && random() < 0.4) || (cost && !again)) pool.push(`+9198300${pool.length}`);
					if (again) pool.push(calledNumbers[redelivered++]);
					const recent = edge ? pool.slice(-3) : cost ? pool.slice(-1) : pool;
					const first = recent[Math.floor(random() * recent.length)];
					const second = recent[Math.floor(random() * recent.length)];
					await run.execute(random() < 0.7 || first === second || cost ? [first] : [first, second]);
					if (!cost) await time.sleep(random() * 150);
				}
			};
			void loop();
		}
		if (random() < profile.killChance) {
			time.after(random() * workEnd, () => {
				if (run.alive) outcome.kills++;
				run.alive = false;
			});
		}
	}

	// After the faults: a process that saw none delivers a new number, and must get the lock in time.
	const probe = startProcess('probe', moduleOf(0)) as SimulatedProcess & {
		execute: (numbers: string[]) => Promise<void>;
	};
	const probeAt = workEnd + 2 * TIMING.settleMs;
	time.after(probeAt, () => {
		void probe.execute(['+919999999999']).then(() => {
			outcome.probeWaitedMs = time.now - probeAt;
		});
	});

	await time.run(probeAt + (cost?.refuseDeletesMs ? 900_000 : 60_000));
	if (cost?.refuseDeletesMs) {
		// measured: how long after the refusal the probe waited
	} else if (outcome.probeWaitedMs === undefined) violation('the probe never got the lock');
	else if (outcome.probeWaitedMs > RECOVERY_BOUND) {
		violation(`the probe waited ${outcome.probeWaitedMs.toFixed(0)} ms for the lock`);
	}
	const alive = new Set(processes.filter((process) => process.alive).map((p) => p.name));
	if (pending.size > 0 && alive.size === processes.length) {
		violation(`${pending.size} executions of live processes never finished`);
	}
	if (table.rows.has(`${workflowId}|`)) violation('the lock row is left in place at the end');
	for (const overlap of table.overlaps) outcome.violations.push(overlap);
	outcome.erasedKeys = table.erasedKeys;
	outcome.statements = table.statements;
	Object.assign(outcome.traffic, table.traffic);
	outcome.trace = table.trace;
	return outcome;
}

const seedCount = simulationSeeds();
const onlySeed = replaySeed();

beforeAll(() => {
	modules = Array.from({ length: EDGE_PROCESSES + 1 }, guardModule);
});

describe("the guard's lock, simulated with faults", () => {
	if (onlySeed !== undefined) {
		it(`replays seed ${onlySeed}`, async () => {
			const outcome = await simulate(Number(onlySeed), true);
			report([...outcome.trace, ...outcome.violations].join('\n'));
			expect(outcome.violations).toEqual([]);
		});
		return;
	}

	it(`${seedCount} seeded schedules: at most one call per number, no lead dropped, no state that needs a hand`, async () => {
		const outcomes: Outcome[] = [];
		for (let seed = 1; seed <= seedCount; seed++) outcomes.push(await simulate(seed));

		const failing = outcomes.filter((outcome) => outcome.violations.length > 0);
		const sum = (field: keyof Outcome) =>
			outcomes.reduce((total, outcome) => total + Number(outcome[field] ?? 0), 0);
		const waits = outcomes
			.map((outcome) => outcome.probeWaitedMs ?? Infinity)
			.sort((a, b) => a - b);
		report(
			`${seedCount} schedules, ${sum('processes')} processes: ${sum('executions')} executions ` +
				`(${sum('completed')} completed), ${sum('calls')} calls, ${sum('skips')} skipped, ` +
				`${sum('storeFailures')} failed on the store; faults: ${sum('failedStatements')} failed ` +
				`statements, ${sum('stalls')} stalls, ${sum('kills')} kills; the probe waited at most ` +
				`${waits[waits.length - 1].toFixed(0)} ms (bound ${RECOVERY_BOUND}); ` +
				`${failing.length} schedules with violations`,
		);
		const seedsByKind = new Map<string, number[]>();
		for (const { seed, violations } of failing) {
			for (const violation of violations) {
				const kind = violation.replace(/^[\d.]+ /, '').replace(/[+\d.]+/g, 'N');
				seedsByKind.set(kind, [...new Set([...(seedsByKind.get(kind) ?? []), seed])]);
			}
		}
		for (const [kind, seeds] of seedsByKind) {
			report(`${kind}: seeds ${seeds.slice(0, 8).join(', ')} (${seeds.length})`);
		}
		expect(
			failing.slice(0, 5).map(({ seed, profile, violations }) => ({
				seed,
				profile,
				violations: violations.slice(0, 3),
			})),
		).toEqual([]);
		// every fault was tried
		expect(sum('failedStatements')).toBeGreaterThan(0);
		expect(sum('stalls')).toBeGreaterThan(0);
		expect(sum('kills')).toBeGreaterThan(0);
	}, 1_200_000);
});

/** What one scale of the edge search found, per schedule. */
function edgeFindings(outcomes: Outcome[]) {
	const having = (pattern: RegExp) =>
		outcomes.filter((outcome) => outcome.violations.some((text) => pattern.test(text))).length;
	return {
		schedules: outcomes.length,
		doubleCalls: having(/called \d+ times/),
		overlaps: having(/read the history while/),
		erasedKeys: outcomes.filter((outcome) => outcome.erasedKeys > 0).length,
		// a wait that gave up, or a probe late: a lock that did not clear in time
		stuck: having(/lock was held|the probe/),
		executions: outcomes.reduce((total, outcome) => total + outcome.executions, 0),
		failedOnStore: outcomes.reduce((total, outcome) => total + outcome.storeFailures, 0),
	};
}

describe("the guard's lock, with every bound of its timing assumption drawn to its edge", () => {
	const runs = edgeRuns();
	if (onlySeed !== undefined) {
		it(`replays seed ${onlySeed} at ${runs.map(({ scale }) => scale).join(', ')} × the bounds`, async () => {
			for (const { scale } of runs) {
				const outcome = await simulate(Number(onlySeed), true, { scale });
				report([`edge ${scale}`, ...outcome.trace, ...outcome.violations].join('\n'));
			}
		});
		return;
	}
	for (const { scale, seeds: count } of runs) {
		const inside = scale <= 1;
		it(`${count} schedules at ${scale} × the bounds: ${inside ? 'no number called twice, no two history calls at once, no key written over, no lock that does not clear' : 'measured'}`, async () => {
			const outcomes: Outcome[] = [];
			for (let seed = 1; seed <= count; seed++) {
				outcomes.push(await simulate(seed, false, { scale }));
			}
			const found = edgeFindings(outcomes);
			const seeds = (pattern: RegExp) =>
				outcomes
					.filter((outcome) => outcome.violations.some((text) => pattern.test(text)))
					.map((outcome) => outcome.seed)
					.slice(0, 6);
			report(
				`edge ${scale}: ${found.schedules} schedules, ${found.executions} executions ` +
					`(${found.failedOnStore} failed on the store): a number called twice in ` +
					`${found.doubleCalls}, history calls overlapping in ${found.overlaps}, keys ` +
					`written over in ${found.erasedKeys}, a wait given up or a probe late in ${found.stuck} ` +
					`(seeds: called twice ${seeds(/called \d+ times/).join(' ')}; ` +
					`overlapping ${seeds(/read the history while/).join(' ')}; ` +
					`stuck ${seeds(/lock was held|the probe/).join(' ')})`,
			);
			expect(found.executions).toBeGreaterThan(found.schedules);
			// inside the assumption the lock is exact; past it, the findings are measured (and
			// docs/running-at-scale.md says what remains)
			if (inside) {
				expect({
					calledTwice: seeds(/called \d+ times/),
					overlapping: seeds(/read the history while/),
					keysWrittenOver: found.erasedKeys,
					stuck: seeds(/lock was held|the probe/),
				}).toEqual({ calledTwice: [], overlapping: [], keysWrittenOver: 0, stuck: [] });
			}
		}, 1_800_000);
	}
});

const kB = (bytes: number, executions: number) => (bytes / executions / 1000).toFixed(1);

/** The wait at `share` (0 to 1) of waits sorted from the shortest. */
function waitAt(sorted: number[], share: number): number {
	return sorted[Math.floor((sorted.length - 1) * share)];
}

/** The same, in seconds as the tables print them. */
const secondsAt = (sorted: number[], share: number) => (waitAt(sorted, share) / 1000).toFixed(2);

/** Reports a measurement as the markdown table docs/running-at-scale.md quotes. */
function reportTable(header: string[], rows: string[][]): void {
	const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
	report([line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n'));
}

// measurements, in the deep run only (docs/running-at-scale.md quotes them)
/** How long the processes stay busy: long enough for waits to build up. */
const BUSY_MS = 700_000;
/** Up to this many busy processes, no execution fails and no wait is over WAIT_BOUND_MS. */
const PROCESSES_BOUND = 20;
const WAIT_BOUND_MS = 10_000;
describe("the guard's lock, with no fault: what an execution costs, and how long the longest waits", () => {
	if (onlySeed !== undefined || !deepRun()) return;
	for (const roundTripMs of [10, 50]) {
		it(`statements and bytes per execution, and waits, over ${BUSY_MS / 1000} s at ${busyProcessCounts(roundTripMs).join(', ')} busy processes, at ${roundTripMs} ms a statement: none fails and none waits over ${WAIT_BOUND_MS / 1000} s up to ${PROCESSES_BOUND} processes`, async () => {
			const rows: string[][] = [];
			const outcomes: Array<{ processes: number; done: number; outcome: Outcome }> = [];
			for (const processes of busyProcessCounts(roundTripMs)) {
				const outcome = await simulate(1, false, undefined, {
					processes,
					roundTripMs,
					durationMs: BUSY_MS,
				});
				const done = outcome.completed - outcome.storeFailures;
				const { lockRead, lockWritten, historyRead, historyWritten } = outcome.traffic;
				const over = (ms: number) => outcome.claimWaits.filter((wait) => wait > ms).length;
				const waits = [...outcome.claimWaits].sort((x, y) => x - y);
				const seconds = (share: number) => secondsAt(waits, share);
				rows.push([
					`${roundTripMs} ms`,
					`${processes}`,
					`${done}`,
					(outcome.statements / done).toFixed(1),
					`${kB(lockRead, done)} + ${kB(historyRead, done)}`,
					`${kB(lockWritten, done)} + ${kB(historyWritten, done)}`,
					`${seconds(0.5)} / ${seconds(0.99)} / ${(outcome.longestClaimMs / 1000).toFixed(2)} s`,
					`${over(3_000)} / ${over(WAIT_BOUND_MS)}`,
					`${outcome.storeFailures}`,
				]);
				outcomes.push({ processes, done, outcome });
			}
			reportTable(
				[
					'Round trip',
					'Busy processes',
					`Executions in ${BUSY_MS / 1000} s`,
					'Statements per execution',
					'kB read per execution (lock row + history)',
					'kB written (lock row + history)',
					'Wait for the lock and history: median / 99th percentile / longest',
					'Waits over 3 s / 10 s',
					'Executions failed',
				],
				rows,
			);
			for (const { processes, done, outcome } of outcomes) {
				expect(done).toBeGreaterThan(processes);
				const { statements, traffic } = outcome;
				// the cost issue 54 holds the lock to: alone, and at 8 busy processes
				if (processes === 1) {
					expect(statements / done).toBeLessThanOrEqual(8);
					expect(traffic.lockWritten / done).toBeLessThanOrEqual(5_000);
				}
				if (processes === 8) {
					expect(statements / done).toBeLessThanOrEqual(12);
					expect(traffic.lockRead / done).toBeLessThanOrEqual(40_000);
					// issue 54: 8 busy processes over 700 s, the longest wait under 3 s
					if (roundTripMs === 50) expect(outcome.longestClaimMs).toBeLessThan(3_000);
				}
				if (processes <= PROCESSES_BOUND) {
					expect(outcome.violations).toEqual([]);
					expect(outcome.longestClaimMs).toBeLessThan(WAIT_BOUND_MS);
				}
			}
		}, 3_600_000);
	}
});

/** Schedules of 8 busy processes the waits in turn are measured over, and how many a row. */
const TURN_SCHEDULES = 40;
const TURN_SCHEDULES_A_ROW = 10;
describe("the guard's lock, with no fault: waits in turn over many schedules", () => {
	if (onlySeed !== undefined || !deepRun()) return;
	it(`8 busy processes at 50 ms a statement, ${TURN_SCHEDULES} schedules of ${BUSY_MS / 1000} s: fewer than 1 wait in 5,000 over 3 s, and the 99.9th percentile under 3 s`, async () => {
		const rows: string[][] = [];
		const all: number[] = [];
		const row = (name: string, waits: number[], schedulesOver: number) => {
			const sorted = [...waits].sort((x, y) => x - y);
			const at = (share: number) => secondsAt(sorted, share);
			rows.push([
				name,
				`${waits.length}`,
				`${schedulesOver}`,
				`${waits.filter((wait) => wait > 3_000).length}`,
				`${at(0.5)} / ${at(0.99)} / ${at(0.999)} s`,
				`${at(1)} s`,
			]);
		};
		let group: number[] = [];
		let groupOver = 0;
		let schedulesOver = 0;
		for (let seed = 1; seed <= TURN_SCHEDULES; seed++) {
			const outcome = await simulate(seed, false, undefined, {
				processes: 8,
				roundTripMs: 50,
				durationMs: BUSY_MS,
			});
			expect(outcome.violations).toEqual([]);
			all.push(...outcome.claimWaits);
			group.push(...outcome.claimWaits);
			if (outcome.longestClaimMs > 3_000) groupOver++;
			if (seed % TURN_SCHEDULES_A_ROW === 0) {
				row(`${seed - TURN_SCHEDULES_A_ROW + 1} to ${seed}`, group, groupOver);
				schedulesOver += groupOver;
				group = [];
				groupOver = 0;
			}
		}
		row('all', all, schedulesOver);
		reportTable(
			[
				'Schedules',
				'Waits',
				'Schedules with a wait over 3 s',
				'Waits over 3 s',
				'Median / 99th / 99.9th percentile',
				'Longest',
			],
			rows,
		);
		const sorted = [...all].sort((x, y) => x - y);
		expect(all.filter((wait) => wait > 3_000).length).toBeLessThan(all.length / 5_000);
		expect(waitAt(sorted, 0.999)).toBeLessThan(3_000);
	}, 600_000);
});

describe("the guard's lock, when a process freezes between reading and writing the history", () => {
	if (onlySeed !== undefined || !deepRun()) return;
	it('a write landing 30, 50, 60 and 120 s late, under 4 busy processes, 10 schedules each: the numbers it erases, and how many of them a later delivery calls again', async () => {
		const rows: string[][] = [];
		for (const pausedWriteMs of [30_000, 50_000, 60_000, 120_000]) {
			const total = { calls: 0, erased: 0, twice: 0, schedules: 0 };
			for (let seed = 1; seed <= FREEZE_SCHEDULES; seed++) {
				const outcome = await simulate(seed, false, undefined, {
					processes: 4,
					roundTripMs: 10,
					durationMs: PAUSE_START + pausedWriteMs + 30_000,
					pausedWriteMs,
				});
				total.calls += outcome.calls;
				total.erased += outcome.erasedKeys;
				const twice = outcome.violations.filter((text) => /called \d+ times/.test(text)).length;
				total.twice += twice;
				if (twice > 0) total.schedules++;
			}
			rows.push([
				`${pausedWriteMs / 1000} s`,
				`${total.calls}`,
				`${total.erased}`,
				`${total.twice}`,
				`${total.schedules} of ${FREEZE_SCHEDULES}`,
			]);
		}
		reportTable(
			[
				'The write landed after',
				'Numbers called',
				'Keys it wrote over',
				'Numbers called again when delivered again',
				'Schedules with a number called again',
			],
			rows,
		);
	}, 1_200_000);
});

describe("the guard's lock, when n8n's database refuses to delete its row", () => {
	if (onlySeed !== undefined || !deepRun()) return;
	it('deletes refused for 200 s and for 600 s under 4 busy processes: how long after it a new delivery waits', async () => {
		const rows: string[][] = [];
		for (const refuseDeletesMs of [200_000, 600_000]) {
			const outcome = await simulate(1, false, undefined, {
				processes: 4,
				roundTripMs: 10,
				durationMs: REFUSAL_START + refuseDeletesMs + 30_000,
				refuseDeletesMs,
			});
			const reasons = [...outcome.failures]
				.map(([message, times]) => `${times} × "${message.replace(/[+\d]{7,}/g, 'N')}"`)
				.join('; ');
			const probe =
				outcome.probeWaitedMs === undefined
					? 'never, within 900 s'
					: `after ${(outcome.probeWaitedMs / 1000).toFixed(1)} s`;
			rows.push([
				`${refuseDeletesMs / 1000} s`,
				`${outcome.completed - outcome.storeFailures} of ${outcome.executions}`,
				probe,
				reasons || 'none',
			]);
			expect(outcome.violations.filter((text) => /called \d+ times/.test(text))).toEqual([]);
		}
		reportTable(
			[
				'Deletes refused for',
				'Executions that got the lock',
				'A new delivery 38 s after the refusal got the lock',
				'Failed executions',
			],
			rows,
		);
	}, 1_200_000);
});

describe("the guard's lock, a stuck election's row and a slow store", () => {
	if (onlySeed !== undefined || !deepRun()) return;
	it("50 leads at once over 3 processes behind an election's row its voters left, every count taking 1, 1.5 or 2 s (a rescue's too), or every statement 1 s, 5 schedules each: the row is rescued at the first instant, every lead gets the lock, none fails", async () => {
		const rows: string[][] = [];
		const { electionStall, rescuePeriod, zoneAfter, lockCall, historyCall } =
			lockDurations(DEFAULT_GUARD_TIMING);
		// a cost run's clocks meet an instant 200 s in: the first after the row has stalled
		const instantAt = 200_000;
		expect(instantAt).toBeGreaterThan(electionStall + DEFAULT_GUARD_TIMING.settleMs);
		const stores: Array<[string, NonNullable<CostRun['stuck']>]> = [
			['every count 1 s', { countMs: 1_000 }],
			['every count 1.5 s', { countMs: 1_500 }],
			['every count 2 s (the lock call)', { countMs: 2_000 }],
			['every statement 1 s', { statementMs: 1_000 }],
		];
		for (const [store, stuck] of stores) {
			const outcomes: Outcome[] = [];
			for (let seed = 1; seed <= 5; seed++) {
				outcomes.push(
					await simulate(seed, false, undefined, {
						processes: 3,
						roundTripMs: 20,
						durationMs: 2 * rescuePeriod,
						burst: { jobs: 50, slots: 10, scale: 1 },
						stuck,
					}),
				);
			}
			const firstLock = Math.max(...outcomes.map((outcome) => outcome.firstClaimAt ?? Infinity));
			const sum = (of: (outcome: Outcome) => number) =>
				outcomes.reduce((total, outcome) => total + of(outcome), 0);
			const failed = sum((outcome) => outcome.storeFailures);
			// the probe aside
			const leads = sum((outcome) => outcome.executions - 1);
			const locked = sum((outcome) => outcome.claimWaits.length - 1);
			rows.push([
				store,
				`${(firstLock / 1000).toFixed(1)} s`,
				`${(Math.max(...outcomes.map((outcome) => outcome.lastDoneAt ?? Infinity)) / 1000).toFixed(1)} s`,
				`${locked} of ${leads}`,
				`${failed}`,
			]);
			expect(outcomes.flatMap((outcome) => outcome.violations)).toEqual([]);
			expect({ failed, locked }).toEqual({ failed: 0, locked: leads });
			// rescued at the first instant: the first holder's create is sent once its zone ends, and
			// its history call follows
			expect(firstLock).toBeLessThan(instantAt + zoneAfter + lockCall + historyCall);
		}
		reportTable(
			[
				'The store',
				'The first lead got the lock after, at most',
				'The last',
				'Leads that got the lock',
				'Executions failed',
			],
			rows,
		);
	}, 1_200_000);
});

describe("the guard's lock, a dead holder's row and then a burst", () => {
	if (onlySeed !== undefined || !deepRun()) return;
	it("140 deliveries over 3 processes, 10 at a time each, behind a row its holder left at the start (the queue e2e's fault), 10 schedules a round trip, slow statements up to 1 and 2 × their bound", async () => {
		const rows: string[][] = [];
		const { recoveryAfterStall } = lockDurations(DEFAULT_GUARD_TIMING);
		for (const scale of [1, 2]) {
			for (const roundTripMs of [5, 20, 50]) {
				const outcomes: Outcome[] = [];
				for (let seed = 1; seed <= 10; seed++) {
					outcomes.push(
						await simulate(seed, false, undefined, {
							processes: 3,
							roundTripMs,
							durationMs: 200_000,
							burst: { jobs: 140, slots: 10, scale },
						}),
					);
				}
				const most = (of: (outcome: Outcome) => number) =>
					`${(Math.max(...outcomes.map(of)) / 1000).toFixed(1)} s`;
				const failed = outcomes.reduce((total, outcome) => total + outcome.storeFailures, 0);
				const unfinished = outcomes.filter(
					(outcome) => outcome.completed < outcome.executions,
				).length;
				rows.push([
					`${scale} ×`,
					`${roundTripMs} ms`,
					most((outcome) => outcome.lastDoneAt ?? Infinity),
					most((outcome) => outcome.longestClaimMs),
					`${failed}`,
					`${unfinished}`,
				]);
				const calledTwice = outcomes.flatMap((outcome) =>
					outcome.violations.filter((text) => /called \d+ times/.test(text)),
				);
				expect(calledTwice).toEqual([]);
				if (scale === 1) {
					expect(outcomes.flatMap((outcome) => outcome.violations)).toEqual([]);
					expect(outcomes.every((outcome) => outcome.longestClaimMs < recoveryAfterStall)).toBe(
						true,
					);
				}
			}
		}
		reportTable(
			[
				'Slow statements up to',
				'Round trip',
				'Last of the 140 done, at most',
				'Longest wait',
				'Executions failed',
				'Schedules with executions unfinished',
			],
			rows,
		);
	}, 1_200_000);
});
