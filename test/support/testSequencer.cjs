// The order jest starts the test files in (jest.config.cjs, testSequencer). With a record of
// earlier runs in its cache, jest starts the slowest files first, so that no core waits alone on
// a long file at the end. Without one (a fresh clone, or after `npx jest --clearCache`) jest
// takes the biggest file first, and the files that import their tests (test/nodes/nodes.test.ts,
// shared/contract.test.ts and its rows) are among the smallest: the longest started last. Here a
// file without a record weighs the TypeScript it imports from test/ as well (its cases, rows and
// harness; not the sandbox or the data, which short tests use too), so the files with the most to
// run start first on a fresh clone as well. Otherwise jest's order is kept.
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const TEST_FOLDER = path.join(__dirname, '..');
// `import ... from './x'`, `export ... from './x'`, `import './x'`; not `import type`
const RELATIVE_IMPORT = /\b(?:import|export)\s+(?!type\b)(?:[^;'"]*?\sfrom\s+)?['"](\.[^'"]+)['"]/g;
const EXTENSIONS = ['', '.ts'];

function resolved(from, specifier) {
	const base = path.resolve(path.dirname(from), specifier);
	return EXTENSIONS.map((extension) => base + extension).find((file) => {
		try {
			return fs.statSync(file).isFile();
		} catch {
			return false;
		}
	});
}

/** The file and every .ts module under test/ it imports, directly or not. */
function importedFromTest(file, found = new Set()) {
	if (found.has(file)) return found;
	found.add(file);
	for (const [, specifier] of fs.readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
		const target = resolved(file, specifier);
		if (target?.endsWith('.ts') && target.startsWith(TEST_FOLDER + path.sep))
			importedFromTest(target, found);
	}
	return found;
}

module.exports = class ImportWeightSequencer extends Sequencer {
	#weights = new Map();

	/** Bytes of a test file and of what it imports from test/. */
	weight(file) {
		if (!this.#weights.has(file)) {
			let bytes = 0;
			for (const module of importedFromTest(file)) bytes += fs.statSync(module).size;
			this.#weights.set(file, bytes);
		}
		return this.#weights.get(file);
	}

	// jest's own sort (@jest/test-sequencer), the weight standing in for the file's size
	sort(tests) {
		for (const test of tests) test.duration = this.time(test);
		return tests.sort((a, b) => {
			const failedA = this.hasFailed(a);
			if (failedA !== this.hasFailed(b)) return failedA ? -1 : 1;
			const timedA = a.duration != null;
			// a file without a record first: it may be new, and it may be long
			if (timedA !== (b.duration != null)) return timedA ? 1 : -1;
			if (timedA) return b.duration - a.duration;
			return this.weight(b.path) - this.weight(a.path);
		});
	}
};
