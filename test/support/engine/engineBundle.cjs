// n8n's engine (n8n-workflow and n8n-core) as one file for the jest runs. Jest loads every module
// of a test file afresh, and n8n-core is about 2,000 modules: two seconds of each engine test
// file went into loading it. Bundled once per installed version (jest's globalSetup), it loads in
// half that, with the same code. luxon and zod stay outside, shared with the package's code as
// they are in n8n. The shims beside this file stand in for the packages (jest.config.cjs,
// moduleNameMapper).
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '../../..');
const EXTERNAL = ['luxon', 'zod', '*.node'];
const DEDUPLICATION_HELPERS =
	'n8n-core/dist/execution-engine/node-execution-context/utils/deduplication-helper-functions';

function versionOf(name) {
	return require(path.join(ROOT, 'node_modules', name, 'package.json')).version;
}

/** Where the bundle of the installed versions lives. */
function bundlePath() {
	const key = ['n8n-core', 'n8n-workflow', 'esbuild'].map((n) => `${n}@${versionOf(n)}`).join('+');
	return path.join(ROOT, 'node_modules/.cache/callkaro-engine', `${key.replace(/[@/]/g, '_')}.js`);
}

/** jest's globalSetup: builds the bundle unless this version's is there. */
async function buildEngineBundle() {
	const out = bundlePath();
	if (fs.existsSync(out)) return;
	const { build } = require('esbuild');
	fs.mkdirSync(path.dirname(out), { recursive: true });
	const partial = `${out}.${process.pid}.partial`;
	await build({
		absWorkingDir: ROOT,
		stdin: {
			contents: `exports.workflow = require('n8n-workflow');
exports.core = require('n8n-core');
exports.deduplicationHelpers = require('${DEDUPLICATION_HELPERS}');`,
			resolveDir: ROOT,
			loader: 'js',
		},
		bundle: true,
		platform: 'node',
		format: 'cjs',
		target: 'node20',
		external: EXTERNAL,
		outfile: partial,
		keepNames: true, // n8n's errors take their name from their class
		logLevel: 'error',
	});
	fs.renameSync(partial, out);
}

/** The bundle's exports, once per jest module registry (test file). */
function engine() {
	return require(bundlePath());
}

module.exports = buildEngineBundle;
module.exports.engine = engine;
module.exports.DEDUPLICATION_HELPERS = DEDUPLICATION_HELPERS;
