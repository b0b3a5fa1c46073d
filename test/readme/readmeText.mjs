// The documentation's text, read here because the strict n8n lint forbids file access in every .ts
// file. jest loads this file as CommonJS (test/support/esbuildTransform.cjs), so no import.meta.
/* global __dirname */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const ROOT = join(__dirname, '../..');

/** A file's text with every run of whitespace (line breaks included) as one space. */
function flat(file) {
	return readFileSync(join(ROOT, file), 'utf8').replace(/\s+/g, ' ');
}

/** README.md with every run of whitespace (line breaks included) as one space. @returns {string} */
export function readmeText() {
	return flat('README.md');
}

/** The pages in docs/, relative to the project root, in name order. @returns {string[]} */
export function docsPages() {
	return readdirSync(join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.sort()
		.map((name) => `docs/${name}`);
}

/** Every file the documentation contract covers: README.md, docs/*.md and CONTRIBUTING.md. */
export function documentationFiles() {
	return ['README.md', ...docsPages(), 'CONTRIBUTING.md'];
}

/**
 * The text of README.md, every page in docs/ and CONTRIBUTING.md, each flattened as readmeText()
 * (so each on one line) and joined by line breaks: a quote is found wherever it lives, but never
 * across two files.
 * @returns {string}
 */
export function docText() {
	return documentationFiles()
		.map((file) => flat(file))
		.join('\n');
}

/**
 * Every relative link of a documentation file that does not resolve to a file or folder of the
 * project, and every #fragment of a Markdown link that names no heading of its target.
 * @param {string} file @returns {string[]}
 */
export function brokenLinks(file) {
	const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
	const broken = [];
	for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
		if (/^[a-z]+:/i.test(target)) continue;
		const [path, fragment] = target.split('#');
		const resolved = path ? normalize(join(dirname(file), path)) : file;
		if (!existsSync(join(ROOT, resolved))) {
			broken.push(`${file}: ${target}`);
			continue;
		}
		if (fragment && resolved.endsWith('.md') && !headingAnchors(resolved).includes(fragment))
			broken.push(`${file}: ${target} (no such heading)`);
	}
	return broken;
}

/** GitHub's anchors for a Markdown file's headings. @param {string} file @returns {string[]} */
function headingAnchors(file) {
	const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
	return [...text.matchAll(/^#+ (.+)$/gm)].map(([, heading]) =>
		heading
			.trim()
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/ /g, '-'),
	);
}

/** Whether a file named relative to the project root exists. @param {string} file @returns {boolean} */
export function projectFileExists(file) {
	return existsSync(join(ROOT, file));
}

/** A project file's text, named relative to the project root. @param {string} file @returns {string} */
export function projectFileText(file) {
	return readFileSync(join(ROOT, file), 'utf8');
}
