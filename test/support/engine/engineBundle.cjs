// n8n's engine (n8n-workflow and n8n-core) as one file for the jest runs. Jest loads every module
// of a test file afresh, and n8n-core is about 2,000 modules: two seconds of each engine test
// file went into loading it. Bundled once per installed version (jest's globalSetup), it loads in
// half that, with the same code. luxon and zod stay outside, shared with the package's code as
// they are in n8n. The shims beside this file stand in for the packages (jest.config.cjs,
// moduleNameMapper).
//
// One bundle, so that n8n-core and n8n-workflow share every module as they do when installed
// (n8n-core's errors are n8n-workflow's, and so on); but n8n-core's modules run only when a test
// file first asks for n8n-core: a file that needs only n8n-workflow (a node's description, the
// `sleep` of src/schedule/clock.ts) does not pay for the rest of the engine.
//
// Minified (names kept): every test file that loads it reads and compiles the whole file, and at
// 7 MB rather than 14 that costs each about a tenth of a second less, and the build a second less.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '../../..');
const EXTERNAL = ['luxon', 'zod', '*.node'];
const STALE_MS = 7 * 24 * 3600_000;
const DEDUPLICATION_HELPERS =
	'n8n-core/dist/execution-engine/node-execution-context/utils/deduplication-helper-functions';

function versionOf(name) {
	return require(path.join(ROOT, 'node_modules', name, 'package.json')).version;
}

// a change to how the bundle is made (this file) makes a new one
const RECIPE = crypto
	.createHash('sha1')
	.update(fs.readFileSync(__filename))
	.digest('hex')
	.slice(0, 8);

/** Where the bundle of the installed versions lives. */
function bundlePath() {
	const key = ['n8n-core', 'n8n-workflow', 'esbuild'].map((n) => `${n}@${versionOf(n)}`).join('+');
	const name = `${key.replace(/[@/]/g, '_')}+${RECIPE}.js`;
	return path.join(ROOT, 'node_modules/.cache/callkaro-engine', name);
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
			// esbuild wraps each bundled CommonJS module in a function that its first require runs:
			// n8n-core's modules run when a test file first reads `core`
			contents: `exports.workflow = require('n8n-workflow');
Object.defineProperty(exports, 'core', { get: () => require('n8n-core') });
Object.defineProperty(exports, 'deduplicationHelpers', {
	get: () => require('${DEDUPLICATION_HELPERS}'),
});`,
			resolveDir: ROOT,
			loader: 'js',
		},
		bundle: true,
		platform: 'node',
		format: 'cjs',
		target: 'node20',
		external: EXTERNAL,
		outfile: partial,
		minify: true,
		keepNames: true, // n8n's errors take their name from their class
		logLevel: 'error',
	});
	fs.renameSync(partial, out);
	// the bundles of other versions or recipes (7 to 14 MB each) are not loaded again, once
	// STALE_MS old: another checkout sharing node_modules (a git worktree) may still load its own
	const staleBefore = Date.now() - STALE_MS;
	for (const name of fs.readdirSync(path.dirname(out))) {
		const file = path.join(path.dirname(out), name);
		if (name.endsWith('.js') && file !== out && fs.statSync(file).mtimeMs < staleBefore)
			fs.rmSync(file, { force: true });
	}
}

/** The bundle's exports, once per jest module registry (test file). */
function engine() {
	return require(bundlePath());
}

module.exports = buildEngineBundle;
module.exports.engine = engine;
module.exports.DEDUPLICATION_HELPERS = DEDUPLICATION_HELPERS;
