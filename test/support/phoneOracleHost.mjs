// The phone oracle's size and the metadata's freshness, read here because the strict n8n lint
// forbids `process`, child processes and file access in .ts files.
/* global __dirname, process */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { scaled } from './testScale.mjs';

/** Numbers drawn per region and type (CALLKARO_PHONE_NUMBERS): 1 in `npm test`, 5 in the deep run. */
export const numbersPerType = () => scaled('CALLKARO_PHONE_NUMBERS', 1, 5);
/** Forms written of each number (CALLKARO_PHONE_FORMS): 4 drawn in `npm test`, all in the deep run. */
export const formsPerNumber = () => scaled('CALLKARO_PHONE_FORMS', 4, Infinity);
/** The seed of the draw (CALLKARO_PHONE_SEED). */
export const oracleSeed = () => Number(process.env.CALLKARO_PHONE_SEED ?? 38);
/** Numbers drawn per region and type from Google's patterns (CALLKARO_GOOGLE_NUMBERS): 0 in `npm test` (its examples only), 5 in the deep run. */
export const googleNumbersPerType = () => scaled('CALLKARO_GOOGLE_NUMBERS', 0, 5);

/**
 * Whether src/phone/metadata.json is what `node scripts/build/libphonenumber.mjs --metadata` makes
 * from the installed google-libphonenumber and libphonenumber-js (in a child process: the build
 * script is an ES module with top-level await).
 */
export function metadataIsFresh() {
	const root = join(__dirname, '../..');
	const made = spawnSync(
		process.execPath,
		[
			'--input-type=module',
			'-e',
			"import { phoneMetadata } from './scripts/build/libphonenumber.mjs'; process.stdout.write(JSON.stringify(phoneMetadata()) + '\\n');",
		],
		{ cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 },
	);
	if (made.status !== 0) throw new Error(made.stderr);
	return made.stdout === readFileSync(join(root, 'src/phone/metadata.json'), 'utf8');
}

/**
 * An advice's `{{ … }}` evaluated on an item's `$json`, as n8n evaluates a field's expression (the
 * strict n8n lint forbids the Function constructor in .ts files); text without `{{ }}` as it is.
 */
export function evaluatedOn(expression, json) {
	const inside = /^\{\{([\s\S]*)\}\}$/.exec(expression)?.[1];
	if (inside === undefined) return expression;
	return new Function('$json', `return (${inside});`)(json);
}
