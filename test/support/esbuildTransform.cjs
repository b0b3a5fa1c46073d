// jest's transform for the project's TypeScript and ES modules: esbuild, the bundler the build
// already uses, instead of ts-jest and babel. It strips types without checking them (`npm run
// typecheck` does that) and is fast enough that a fresh clone's first run, with nothing cached,
// costs little more than the next.
const crypto = require('node:crypto');
const fs = require('node:fs');
const { transformSync, version } = require('esbuild');

// jest caches what this returns: the key holds esbuild's version and this file, options and all
const TRANSFORMER = `${version}\0${fs.readFileSync(__filename, 'utf8')}`;

module.exports = {
	process(source, filename) {
		const { code, map } = transformSync(source, {
			loader: filename.endsWith('.ts') ? 'ts' : 'js',
			format: 'cjs',
			// also names the exports for Node's ESM import of CommonJS (the queue e2e imports .ts)
			platform: 'node',
			target: 'node20',
			sourcemap: 'external',
			sourcefile: filename,
		});
		return { code, map };
	},
	getCacheKey(source, filename) {
		return crypto.createHash('sha1').update(`${TRANSFORMER}\0${filename}\0${source}`).digest('hex');
	},
};
