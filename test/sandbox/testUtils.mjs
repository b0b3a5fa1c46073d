// @ts-check
/**
 * Node-level helpers for the sandbox tests (child processes, temp files, network interfaces).
 * They live in .mjs because the strict n8n lint forbids these imports in .ts files.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/* global __dirname */
const here = typeof __dirname === 'string' ? __dirname : resolve('test/sandbox');
export const CLI_PATH = join(here, 'cli.mjs');

/**
 * Write JSON to a fresh temporary file.
 * @param {unknown} value
 * @param {string} [name]
 */
export function writeTempJson(value, name = 'data.json') {
	const dir = mkdtempSync(join(tmpdir(), 'callkaro-sandbox-'));
	const file = join(dir, name);
	writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
	return file;
}

/** A non-internal IPv4 address of this machine, or null when there is none. */
export function externalIPv4() {
	for (const list of Object.values(networkInterfaces())) {
		for (const item of list ?? []) {
			if (item.family === 'IPv4' && !item.internal) return item.address;
		}
	}
	return null;
}

/**
 * Start the CLI as a child process and wait until it prints its base URL (or exits). The wait is
 * generous: on a loaded machine starting Node can take seconds, and speed is not what is tested.
 * @param {string[]} args
 * @param {number} [timeoutMs]
 * @returns {Promise<{ url: string | null, exitCode: number | null, output: () => string, stop: (signal?: NodeJS.Signals) => Promise<{ code: number | null, signal: NodeJS.Signals | null }> }>}
 */
export function runCli(args, timeoutMs = 20000) {
	const child = spawn(process.execPath, [CLI_PATH, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	/** @type {{ code: number | null, signal: NodeJS.Signals | null } | null} */
	let exited = null;
	/** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} */
	const exit = new Promise((resolveExit) => {
		child.on('exit', (code, signal) => {
			exited = { code, signal };
			resolveExit(exited);
		});
	});
	/** @param {NodeJS.Signals} [signal] */
	const stop = async (signal = 'SIGTERM') => {
		if (!exited) child.kill(signal);
		return exit;
	};
	/** @param {string | null} url */
	const started = (url) => ({
		url,
		exitCode: exited?.code ?? null,
		output: () => output,
		stop,
	});
	return new Promise((resolveRun, reject) => {
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`CLI did not start within ${timeoutMs} ms. Output:\n${output}`));
		}, timeoutMs);
		/** @param {Buffer} chunk */
		const onData = (chunk) => {
			output += chunk.toString();
			const m = /listening on (http:\/\/\S+)/.exec(output);
			if (m) {
				clearTimeout(timer);
				resolveRun(started(m[1]));
			}
		};
		child.stdout.on('data', onData);
		child.stderr.on('data', onData);
		void exit.then(() => {
			clearTimeout(timer);
			resolveRun(started(null));
		});
	});
}

/**
 * Send raw bytes over TCP and collect what comes back until the server closes (or timeoutMs).
 * @param {string} baseUrl
 * @param {string} text
 * @param {number} [timeoutMs]
 * @returns {Promise<string>}
 */
export function rawHttp(baseUrl, text, timeoutMs = 2000) {
	const { hostname, port } = new URL(baseUrl);
	return new Promise((resolveRaw, reject) => {
		let received = '';
		const socket = connect(Number(port), hostname.replace(/^\[|\]$/g, ''), () =>
			socket.write(text),
		);
		const timer = setTimeout(() => socket.destroy(), timeoutMs);
		socket.on('data', (chunk) => {
			received += chunk.toString();
		});
		socket.on('close', () => {
			clearTimeout(timer);
			resolveRaw(received);
		});
		socket.on('error', reject);
	});
}
