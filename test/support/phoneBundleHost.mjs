// Runs the build's libphonenumber step into a temp folder, for test/src/phone/bundle.test.ts:
// the strict n8n lint forbids child processes and file access in .ts files.
/* global __dirname, process, require */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

/** `node scripts/build/libphonenumber.mjs --out DIR` into a new temp folder; returns the loader's path. */
export function buildPhoneBundle() {
	const outDir = mkdtempSync(join(tmpdir(), 'callkaro-phone-'));
	const run = spawnSync(process.execPath, ['scripts/build/libphonenumber.mjs', '--out', outDir], {
		cwd: ROOT,
		encoding: 'utf8',
	});
	if (run.status !== 0) throw new Error(`the bundle step failed: ${run.stderr}${run.stdout}`);
	return {
		loader: join(outDir, 'src/phone/libphonenumber.js'),
		bundle: join(outDir, 'src/phone/libphonenumber.bundle.js'),
		remove: () => rmSync(outDir, { recursive: true, force: true }),
	};
}

/** Requires a file of the temp folder (jest's own require). */
export function requireBuilt(file) {
	return require(file);
}

/**
 * In a fresh Node process: requires the loader, then reads one number; says whether the bundle was
 * loaded after each step, and what was read.
 */
export function loadInFreshProcess(loader, bundle, number) {
	const script = `
		const loaded = () => Object.keys(require.cache).includes(${JSON.stringify(bundle)});
		const lib = require(${JSON.stringify(loader)});
		const afterRequire = loaded();
		const reading = lib.libphonenumber().read(${JSON.stringify(number)}, {});
		console.log(JSON.stringify({ afterRequire, afterRead: loaded(), reading }));`;
	const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
	if (run.status !== 0) throw new Error(run.stderr);
	return JSON.parse(run.stdout);
}
