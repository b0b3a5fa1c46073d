#!/usr/bin/env node
// `npm test` on a busy machine: CPU-bound loops run beside jest (the same config as `npm test`),
// so that a test whose outcome depends on the machine's speed fails here rather than on a
// contributor's laptop. Exits with jest's code.
//   npm run test:busy [-- --loops-per-core N] [-- jest options, e.g. test/nodes/shared/contract]
// Two loops per core by default: beside one per core, jest still gets its share of each core at
// once and the guard's engine tests on real time passed; beside two they failed (4 to 9 of 298).
// Each loop is a process of its own that stops by itself after BUSY_LIMIT_MS, should this script
// die without stopping it; otherwise it is stopped as soon as jest ends.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';

/** Longer than `npm test` takes beside the loops on a 2-core machine, so the loops outlast it. */
const BUSY_LIMIT_MS = 5 * 60_000;
const loop = `const end = Date.now() + ${BUSY_LIMIT_MS}; while (Date.now() < end);`;

const { values, tokens } = parseArgs({
	options: { 'loops-per-core': { type: 'string', default: '2' } },
	strict: false,
	tokens: true,
});
const loopsPerCore = Number(values['loops-per-core']);
// what is not ours goes to jest, in order
const ours = new Set();
for (const token of tokens.filter((t) => t.kind === 'option' && t.name === 'loops-per-core')) {
	ours.add(token.index);
	if (!token.inlineValue) ours.add(token.index + 1);
}
const jestArgs = process.argv.slice(2).filter((_, index) => !ours.has(index));

const loops = Array.from({ length: loopsPerCore * availableParallelism() }, () =>
	spawn(process.execPath, ['-e', loop], { stdio: 'ignore' }),
);
const stopLoops = () => {
	for (const child of loops) if (child.exitCode === null) child.kill('SIGKILL');
};

const jest = spawn(
	process.execPath,
	[createRequire(import.meta.url).resolve('jest/bin/jest'), ...jestArgs],
	{ stdio: 'inherit' },
);
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, () => {
		stopLoops();
		jest.kill(signal);
	});
}
const started = Date.now();
jest.on('exit', (code, signal) => {
	stopLoops();
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	process.stdout.write(`jest beside ${loops.length} busy loops: ${seconds} s\n`);
	process.exit(code ?? (signal ? 1 : 0));
});
