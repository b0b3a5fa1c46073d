// The README's text, read here because the strict n8n lint forbids file access in every .ts file.
// jest loads this file through babel (CommonJS), so no import.meta.
/* global __dirname */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** README.md with every run of whitespace (line breaks included) as one space. @returns {string} */
export function readmeText() {
	return readFileSync(join(__dirname, '../../README.md'), 'utf8').replace(/\s+/g, ' ');
}

/** Whether a file named relative to the project root exists. @param {string} file @returns {boolean} */
export function projectFileExists(file) {
	return existsSync(join(__dirname, '../..', file));
}

/** A project file's text, named relative to the project root. @param {string} file @returns {string} */
export function projectFileText(file) {
	return readFileSync(join(__dirname, '../..', file), 'utf8');
}
