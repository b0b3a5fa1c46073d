// The house (issue 41): src/ by domain, mapped in CONTRIBUTING.md, and no import circles among
// src/, nodes/ and credentials/ (type imports count: a circle of types is a circle of ideas).
import { projectFileText } from '../readme/readmeText.mjs';
import { importGraph, srcFolders } from '../support/importGraph.mjs';

/** Every cycle of the graph, each as the files around it. */
function cycles(graph: Record<string, string[]>): string[][] {
	const found: string[][] = [];
	const state = new Map<string, 'open' | 'done'>();
	const path: string[] = [];
	const visit = (file: string) => {
		state.set(file, 'open');
		path.push(file);
		for (const next of graph[file] ?? []) {
			if (state.get(next) === 'open') found.push(path.slice(path.indexOf(next)));
			else if (!state.has(next)) visit(next);
		}
		path.pop();
		state.set(file, 'done');
	};
	for (const file of Object.keys(graph).sort()) if (!state.has(file)) visit(file);
	return found;
}

describe('the house', () => {
	test('no import circles among src/, nodes/ and credentials/', () => {
		const graph = importGraph();
		expect(Object.keys(graph).length).toBeGreaterThan(40);
		expect(cycles(graph)).toEqual([]);
	});

	test('finds a circle when there is one', () => {
		expect(cycles({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] })).toEqual([['a', 'b', 'c']]);
	});

	test('src/ keeps to its domains, and CONTRIBUTING.md maps each', () => {
		const contributing = projectFileText('CONTRIBUTING.md');
		const folders = srcFolders();
		expect(folders).toEqual([
			'agent',
			'client',
			'guard',
			'input',
			'phone',
			'records',
			'run',
			'schedule',
			'trigger',
		]);
		expect(folders.filter((folder) => !contributing.includes(`\`src/${folder}/\``))).toEqual([]);
	});

	test('the core imports nothing of the nodes', () => {
		const graph = importGraph(['src']);
		const intoNodes = Object.entries(graph).flatMap(([file, targets]) =>
			targets
				.filter((target) => !target.startsWith('src/'))
				.map((target) => `${file} -> ${target}`),
		);
		expect(intoNodes).toEqual([]);
	});
});
