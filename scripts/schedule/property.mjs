#!/usr/bin/env node
// node scripts/schedule/property.mjs --cases 1000000 [--seed N]
//
// Runs the property test of toIstSchedule (test/src/schedule.property.test.ts, against an
// Intl.DateTimeFormat oracle) with more cases than the 20,000 of `npm test`, and prints the
// number of cases, the seed and how long it took. The test itself reports any mismatch.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function option(name, fallback) {
	const index = process.argv.indexOf(`--${name}`);
	if (index === -1) return fallback;
	const value = Number(process.argv[index + 1]);
	if (!Number.isSafeInteger(value) || value < 1) {
		console.error(`--${name} takes a positive whole number`);
		process.exit(2);
	}
	return value;
}

const cases = option('cases', 20_000);
const seed = option('seed', 20261122);
const globals = JSON.stringify({ SCHEDULE_PROPERTY_CASES: cases, SCHEDULE_PROPERTY_SEED: seed });
const started = process.hrtime.bigint();
const run = spawnSync(
	process.execPath,
	[
		path.join(root, 'node_modules/jest/bin/jest.js'),
		'--runTestsByPath',
		'test/src/schedule.property.test.ts',
		'--globals',
		globals,
	],
	{ cwd: root, stdio: 'inherit' },
);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.log(
	`schedule property test: ${cases} cases, seed ${seed}, ${seconds.toFixed(1)} s, ${
		run.status === 0 ? '0 mismatches' : 'FAILED (see the mismatches above)'
	}`,
);
process.exit(run.status ?? 1);
