// The project's import graph, read here because the strict n8n lint forbids file access in .ts files.
/* global __dirname */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const ROOT = join(__dirname, '../..');

/** Every .ts file under the given top-level folders, relative to the project root. */
function tsFiles(folders) {
	return folders.flatMap((folder) =>
		readdirSync(join(ROOT, folder), { recursive: true })
			.filter((file) => String(file).endsWith('.ts'))
			.map((file) => join(folder, String(file))),
	);
}

/**
 * file -> the project files it imports (value and type imports alike), for the shipped folders.
 * @returns {Record<string, string[]>}
 */
export function importGraph(folders = ['src', 'nodes', 'credentials']) {
	const graph = {};
	for (const file of tsFiles(folders)) {
		const source = readFileSync(join(ROOT, file), 'utf8');
		const targets = [...source.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((match) => {
			const base = normalize(join(dirname(file), match[1]));
			return [`${base}.ts`, join(base, 'index.ts'), base].find((c) => existsSync(join(ROOT, c)));
		});
		graph[file] = targets.filter(Boolean).map((target) => relative('.', target));
	}
	return graph;
}

/** The folders directly under src/. */
export function srcFolders() {
	return readdirSync(join(ROOT, 'src'), { withFileTypes: true })
		.filter((entry) => entry.isDirectory())
		.map((entry) => entry.name)
		.sort();
}
