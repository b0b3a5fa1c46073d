#!/usr/bin/env node
// `node scripts/release-check.mjs` (.ci/run, after the build): the release path, up to the publish.
// In a throw-away git repository made from this work tree (tracked and untracked files, not the
// ignored ones: what a fresh clone holds), with this project's node_modules linked in:
//
// 1. publish workflow (.github/workflows/publish.yml): its release step, `npm run release` with
//    GITHUB_ACTIONS=true, which makes `n8n-node release` lint, build and `npm publish` with
//    RELEASE_MODE=true and NPM_CONFIG_PROVENANCE=true, run with npm_config_dry_run=true and no
//    token (an empty user .npmrc, NPM_TOKEN unset).
// 2. pack: `npm pack --dry-run --json` of that build ships package.json, README.md, LICENSE and dist/ only, and in
//    dist/ only what the build makes from nodes/, credentials/, src/ and icons/ (libphonenumber's
//    bundle from src/phone/libphonenumber.ts among them; no tests, sandbox,
//    scripts, examples or docs), with every file n8n loads (package.json's `n8n` section).
// 3. local release: `npm run release` as a maintainer runs it (`n8n-node release` -> release-it,
//    with the git checks: branch main, clean tree, an upstream, commits since the last tag), with
//    release-it's dry run on (a .release-it.json committed in the throw-away repository only), its
//    upstream a bare repository beside it. It must bump to the next patch version and stop before
//    publishing (n8n-node passes --npm.publish=false).
//
// Options: --tracked-only (leave out untracked files, e.g. someone else's work in progress).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	BUNDLE as LIBPHONENUMBER_BUNDLE,
	ENTRY as LIBPHONENUMBER_ENTRY,
} from './build/libphonenumber.mjs';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const trackedOnly = process.argv.includes('--tracked-only');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const log = (m) => console.log(`[release-check] ${m}`);
const failures = [];
const check = (ok, what) => {
	if (!ok) failures.push(what);
	log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
};

/** Runs a command; returns { status, out } (stdout and stderr together). */
function run(cmd, args, { cwd, env = process.env, timeout = 10 * 60_000 } = {}) {
	const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout, maxBuffer: 64 << 20 });
	return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}
function must(cmd, args, opts) {
	const r = run(cmd, args, opts);
	if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.out}`);
	return r.out;
}
const git = (cwd, ...args) =>
	must('git', ['-c', 'user.name=release-check', '-c', 'user.email=ci@example.invalid', ...args], {
		cwd,
	});
const timed = (label, fn) => {
	const started = Date.now();
	try {
		return fn();
	} finally {
		log(`${label} took ${((Date.now() - started) / 1000).toFixed(1)} s`);
	}
};

/** The throw-away repository: the work tree's files, one commit, branch main, a bare upstream. */
function makeClone(base) {
	const work = path.join(base, 'work');
	const listArgs = ['ls-files', '-z', '--cached', ...(trackedOnly ? [] : ['--others'])];
	const files = must('git', [...listArgs, '--exclude-standard'], { cwd: ROOT })
		.split('\0')
		.filter((f) => f && fs.existsSync(path.join(ROOT, f)));
	for (const f of files) {
		fs.mkdirSync(path.dirname(path.join(work, f)), { recursive: true });
		fs.copyFileSync(path.join(ROOT, f), path.join(work, f));
	}
	fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(work, 'node_modules'));
	git(work, 'init', '-q', '-b', 'main');
	git(work, 'add', '-A');
	git(work, 'commit', '-q', '-m', 'the work tree, for the release check');
	const upstream = path.join(base, 'upstream.git');
	git(base, 'init', '-q', '--bare', upstream);
	git(work, 'remote', 'add', 'origin', upstream);
	git(work, 'push', '-q', '-u', 'origin', 'main');
	return work;
}

/** Environment of npm with no token and nothing of the machine's own npm settings. */
function cleanEnv(base, extra) {
	const env = { ...process.env };
	for (const k of Object.keys(env))
		if (/^(npm_|NPM_TOKEN$|NODE_AUTH_TOKEN$|GITHUB_|RELEASE_MODE$)/i.test(k)) delete env[k];
	const userconfig = path.join(base, 'empty-npmrc');
	fs.writeFileSync(userconfig, '');
	return {
		...env,
		npm_config_userconfig: userconfig,
		npm_config_update_notifier: 'false',
		...extra,
	};
}

// 2. what `npm pack` ships
function checkPack(work) {
	const out = must('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: work });
	const [info] = JSON.parse(out.slice(out.indexOf('[')));
	const files = info.files.map((f) => f.path);
	log(
		`npm pack: ${files.length} files, ${(info.size / 1024).toFixed(0)} KiB packed, ${(info.unpackedSize / 1024).toFixed(0)} KiB unpacked`,
	);
	const top = [...new Set(files.map((f) => f.split('/')[0]))].sort();
	check(
		JSON.stringify(top) === JSON.stringify(['LICENSE', 'README.md', 'dist', 'package.json']),
		`the tarball's top level is LICENSE, README.md, dist/, package.json (got ${top.join(', ')})`,
	);
	const fromSource = (f) => {
		const rel = f.slice('dist/'.length);
		if (rel === 'package.json') return true; // n8n-node build's copy of package.json
		if (/^icons\/[^/]+\.svg$/.test(rel)) return fs.existsSync(path.join(work, rel));
		if (/\.node\.json$/.test(rel)) return fs.existsSync(path.join(work, rel)); // codex files
		if (rel === LIBPHONENUMBER_BUNDLE) return fs.existsSync(path.join(work, LIBPHONENUMBER_ENTRY));
		const m = /^((?:nodes|credentials|src)\/.+?)(\.js|\.d\.ts|\.js\.map)$/.exec(rel);
		return Boolean(m) && fs.existsSync(path.join(work, `${m[1]}.ts`));
	};
	const stray = files.filter((f) => f.startsWith('dist/') && !fromSource(f));
	check(
		stray.length === 0,
		`every file in dist/ is built from nodes/, credentials/, src/ or icons/ (stray: ${stray.join(', ') || 'none'})`,
	);
	const forbidden = files.filter((f) =>
		/(^|\/)(test|tests|__tests__|sandbox|scripts|examples|docs|coverage|node_modules)\/|\.(test|spec)\.|\.tgz$|\.env|\.npmrc$|tsbuildinfo$/.test(
			f,
		),
	);
	check(
		forbidden.length === 0,
		`no tests, sandbox, scripts, examples, docs, .npmrc or tarballs (found: ${forbidden.join(', ') || 'none'})`,
	);
	const n8nFiles = [...pkg.n8n.nodes, ...pkg.n8n.credentials];
	const missing = n8nFiles.filter((f) => !files.includes(f));
	check(
		missing.length === 0,
		`every file of package.json's n8n section is in it (${n8nFiles.length}; missing: ${missing.join(', ') || 'none'})`,
	);
	const icons = files.filter((f) => f.startsWith('dist/icons/'));
	check(icons.length > 0, `the icons ship (${icons.join(', ')})`);
	check(!('dependencies' in pkg), 'no runtime dependencies');
}

// 1. the publish workflow's release step, as a dry run
function checkPublishWorkflow(base, work) {
	const env = cleanEnv(base, { GITHUB_ACTIONS: 'true', npm_config_dry_run: 'true' });
	const r = run('npm', ['run', 'release'], { cwd: work, env });
	const tail = r.out.split('\n').slice(-25).join('\n');
	check(
		r.status === 0,
		`publish workflow: npm run release (lint, build, npm publish --dry-run) exits 0${r.status === 0 ? '' : `:\n${tail}`}`,
	);
	check(
		/> n8n-node lint/.test(r.out) && /> n8n-node build/.test(r.out),
		'publish workflow: it linted and built',
	);
	check(
		new RegExp(`\\+ ${pkg.name}@${pkg.version.replace(/\./g, '\\.')}`).test(r.out) &&
			/\(dry-run\)/.test(r.out),
		`publish workflow: npm publish stopped at its dry run, for ${pkg.name}@${pkg.version}`,
	);
}

// 3. the maintainer's `npm run release` (release-it), as a dry run
function checkLocalRelease(work) {
	fs.writeFileSync(path.join(work, '.release-it.json'), '{ "dry-run": true }\n');
	git(work, 'add', '.release-it.json');
	git(work, 'commit', '-q', '-m', 'release-it dry run (the release check only)');
	git(work, 'push', '-q');
	const env = cleanEnv(path.dirname(work), { CI: 'true' });
	const r = run('npm', ['run', 'release'], { cwd: work, env });
	const next = pkg.version.replace(/\d+$/, (p) => String(Number(p) + 1));
	const tail = r.out.split('\n').slice(-25).join('\n');
	check(
		r.status === 0,
		`npm run release (release-it dry run) exits 0${r.status === 0 ? '' : `:\n${tail}`}`,
	);
	check(
		r.out.includes(`Let's release ${pkg.name} (${pkg.version}...${next})`),
		`release-it: next version ${next}`,
	);
	check(
		/! git tag .*Release/.test(r.out) && /! git push/.test(r.out),
		'release-it: tag and push are dry (not run)',
	);
	check(
		!/npm publish/.test(r.out) && /not published to NPM/.test(r.out),
		'release-it: nothing published (n8n-node passes --npm.publish=false)',
	);
}

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'callkaro-release-check-'));
try {
	const work = timed('the throw-away clone', () => makeClone(base));
	timed('publish workflow dry run', () => checkPublishWorkflow(base, work));
	timed('pack contents', () => checkPack(work));
	// the publish step built dist/ and may have touched tracked files; start the release clean
	git(work, 'checkout', '--', '.');
	timed('release-it dry run', () => checkLocalRelease(work));
} catch (err) {
	failures.push(err.message);
	console.error(err.message);
} finally {
	fs.rmSync(base, { recursive: true, force: true });
}
if (failures.length) {
	console.error(`[release-check] ${failures.length} failed`);
	process.exit(1);
}
log('all passed');
