#!/usr/bin/env node
// `npm run build`'s last step, after `n8n-node build`: libphonenumber into dist/ without a
// dependency. esbuild bundles src/phone/libphonenumber.ts (the package's one door to
// libphonenumber-js, a devDependency) with the library's code and its max metadata into
// dist/src/phone/libphonenumber.bundle.js, and tsc's dist/src/phone/libphonenumber.js (which
// requires libphonenumber-js) is replaced by a loader with the same exports that requires the
// bundle on the first number a process reads: loading the nodes stays as fast as without it
// (the bench's our_modules_require_ms).
//
// The metadata it bundles is src/phone/metadata.json, made by `node scripts/build/libphonenumber.mjs
// --metadata` (phoneMetadata()): libphonenumber-js's max metadata, how numbers are read, with each
// region's number ranges (its patterns, lengths and types: which numbers are valid) from Google's
// own libphonenumber as google-libphonenumber publishes it. libphonenumber-js's ranges lag or
// differ from Google's in regions Google did not change (docs/phone-numbers.md); Google's are the
// authority. test/src/phone/google.test.ts fails when the file is not what the installed
// packages give.
//
// `node scripts/build/libphonenumber.mjs [--out DIR] [--metadata]`; bundleLibphonenumber() and
// phoneMetadata() for tests.
import { build } from 'esbuild';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const ENTRY = 'src/phone/libphonenumber.ts';
/** The files this step writes into dist/, beside tsc's output of ENTRY. */
export const BUNDLE = 'src/phone/libphonenumber.bundle.js';
const LOADER = 'src/phone/libphonenumber.js';

const require = createRequire(import.meta.url);

export const METADATA = 'src/phone/metadata.json';

function versions() {
	const lib = require('libphonenumber-js/package.json').version;
	const google = require('google-libphonenumber/package.json').version;
	return { lib, google };
}

// libphonenumber-js's places in a region's entry (its metadata format 4), and its types' order
const GENERAL_PATTERN = 2;
const POSSIBLE_LENGTHS = 3;
const LEADING_DIGITS = 10;
const TYPES = 11;
const TYPE_GETTERS = [
	'getFixedLine',
	'getMobile',
	'getTollFree',
	'getPremiumRate',
	'getPersonalNumber',
	'getVoicemail',
	'getUan',
	'getPager',
	'getVoip',
	'getSharedCost',
];

/** A number description of Google's as libphonenumber-js writes one: [pattern, lengths], or 0. */
function description(desc) {
	const pattern = desc?.getNationalNumberPattern();
	const lengths = desc?.possibleLengthArray() ?? [];
	if (!pattern || lengths[0] === -1) return 0;
	return lengths.length ? [pattern, lengths] : [pattern];
}

/** One region's (or global code's) entry with Google's ranges in place of libphonenumber-js's. */
function withGoogleRanges(entry, google) {
	const merged = [...entry];
	while (merged.length <= TYPES) merged.push(0);
	merged[GENERAL_PATTERN] = google.getGeneralDesc().getNationalNumberPattern();
	merged[POSSIBLE_LENGTHS] = google.getGeneralDesc().possibleLengthArray();
	merged[LEADING_DIGITS] = google.getLeadingDigits() || 0;
	merged[TYPES] = TYPE_GETTERS.map((getter) => description(google[getter]()));
	return merged;
}

/**
 * The metadata the package bundles: libphonenumber-js's max metadata with every region's and
 * global code's number ranges from google-libphonenumber. Fails on a region only one of them knows.
 */
export function phoneMetadata() {
	const js = require('libphonenumber-js/metadata.max.json');
	const util = require('google-libphonenumber').PhoneNumberUtil.getInstance();
	const regions = util.getSupportedRegions().sort();
	const codes = util.getSupportedGlobalNetworkCallingCodes().map(String).sort();
	const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
	if (!same(regions, Object.keys(js.countries).sort())) {
		throw new Error('google-libphonenumber and libphonenumber-js know different regions');
	}
	if (!same(codes, Object.keys(js.nonGeographic).sort())) {
		throw new Error('google-libphonenumber and libphonenumber-js know different global codes');
	}
	const countries = Object.fromEntries(
		Object.entries(js.countries).map(([region, entry]) => [
			region,
			withGoogleRanges(entry, util.getMetadataForRegion(region)),
		]),
	);
	const nonGeographic = Object.fromEntries(
		Object.entries(js.nonGeographic).map(([code, entry]) => [
			code,
			withGoogleRanges(entry, util.getMetadataForNonGeographicalRegion(Number(code))),
		]),
	);
	return { ...js, countries, nonGeographic };
}

/** The loader that stands in dist/ for ENTRY: each export calls into the bundle, loaded once. */
function loaderSource(exportNames, { lib }) {
	const exported = exportNames
		.map((name) => `exports.${name} = (...args) => bundle().${name}(...args);`)
		.join('\n');
	return `"use strict";
// Written by scripts/build/libphonenumber.mjs in place of tsc's output of ${ENTRY}: that file,
// bundled with libphonenumber-js ${lib}, is ./${path.basename(BUNDLE)}, loaded on first use.
Object.defineProperty(exports, "__esModule", { value: true });
let loaded;
function bundle() {
	if (loaded === undefined) loaded = require("./${path.basename(BUNDLE)}");
	return loaded;
}
${exported}
`;
}

/**
 * Bundles ENTRY into outDir (dist/ or a test's temp folder) as BUNDLE and writes its loader.
 * Returns the two files' paths and sizes.
 */
export async function bundleLibphonenumber({ outDir = path.join(ROOT, 'dist') } = {}) {
	const v = versions();
	const result = await build({
		absWorkingDir: ROOT,
		entryPoints: [ENTRY],
		bundle: true,
		platform: 'node',
		format: 'cjs',
		target: 'node20',
		minify: true,
		write: false,
		logLevel: 'silent',
		banner: {
			js: `// libphonenumber-js ${v.lib} (MIT, github.com/catamphetamine/libphonenumber-js) with libphonenumber's metadata (Apache-2.0, github.com/google/libphonenumber), its number ranges from google-libphonenumber ${v.google}, bundled by scripts/build/libphonenumber.mjs from ${ENTRY}.`,
		},
	});
	const bundlePath = path.join(outDir, BUNDLE);
	const loaderPath = path.join(outDir, LOADER);
	fs.mkdirSync(path.dirname(bundlePath), { recursive: true });
	fs.writeFileSync(bundlePath, result.outputFiles[0].contents);
	// the bundle must need nothing but Node's own modules, and export functions only
	const source = fs.readFileSync(bundlePath, 'utf8');
	const requires = [...source.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
	if (requires.length) throw new Error(`${BUNDLE} still requires ${requires.join(', ')}`);
	const bundled = require(bundlePath);
	const exportNames = Object.keys(bundled).filter((name) => name !== '__esModule');
	const notFunctions = exportNames.filter((name) => typeof bundled[name] !== 'function');
	if (!exportNames.length || notFunctions.length) {
		throw new Error(`${ENTRY} must export functions only (not: ${notFunctions.join(', ')})`);
	}
	fs.writeFileSync(loaderPath, loaderSource(exportNames, v));
	fs.rmSync(`${loaderPath}.map`, { force: true }); // tsc's map no longer matches the loader
	fs.rmSync(path.join(outDir, METADATA), { force: true }); // tsc's copy: the bundle holds it
	return {
		bundle: bundlePath,
		loader: loaderPath,
		bundleBytes: fs.statSync(bundlePath).size,
		exportNames,
	};
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--metadata')) {
	fs.writeFileSync(path.join(ROOT, METADATA), `${JSON.stringify(phoneMetadata())}\n`);
	console.log(
		`libphonenumber: ${METADATA}, its ranges from google-libphonenumber ${versions().google}`,
	);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const outIndex = process.argv.indexOf('--out');
	const outDir = outIndex > 0 ? path.resolve(process.argv[outIndex + 1]) : undefined;
	const made = await bundleLibphonenumber({ outDir });
	console.log(
		`libphonenumber: ${path.relative(ROOT, made.bundle)} (${(made.bundleBytes / 1024).toFixed(0)} KiB), loader ${path.relative(ROOT, made.loader)}`,
	);
}
