#!/usr/bin/env node
// @ts-check
/**
 * npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--data FILE] [--latency-ms N]
 *   [--jitter-ms N] [--dialect spec|docs] [--run-duration-ms N] [--seed N]
 *   [--delete-not-found 200|404] [--webhook-url URL [--webhook-header H:V] [--webhook-duplicate]] [--verbose]
 *
 * Prints "CallKaro sandbox listening on <base URL>" and runs until stopped (Ctrl-C).
 */
import { DataError, readDataFile } from './data.mjs';
import { DEMO_API_KEY, OTHER_API_KEY } from './demoData.mjs';
import { USAGE, parseArgs } from './cliArgs.mjs';
import { startSandbox } from './server.mjs';

async function main() {
	let options;
	try {
		options = parseArgs(process.argv.slice(2));
		if (options.dataFile) options.data = readDataFile(options.dataFile);
	} catch (error) {
		const message =
			error instanceof DataError || error instanceof Error ? error.message : String(error);
		process.stderr.write(`sandbox: ${message}\n\n${USAGE}\n`);
		process.exit(2);
	}
	if (options.help) {
		process.stdout.write(`${USAGE}\n`);
		return;
	}
	const { verbose, ...sandboxOptions } = options;
	if (verbose) {
		sandboxOptions.onWebhookDelivery = (delivery) => {
			const status = delivery.status ?? delivery.error;
			process.stdout.write(
				`${delivery.time} webhook ${delivery.event} ${delivery.callId} #${delivery.attempt} -> ${delivery.url} ${status} ${delivery.durationMs}ms\n`,
			);
		};
		sandboxOptions.onRequest = (entry) => {
			const status = entry.status ?? 'dropped';
			const fault = entry.fault ? ` [fault ${entry.fault}]` : '';
			process.stdout.write(
				`${entry.time} ${entry.method} ${entry.path} -> ${status}${fault} ${entry.durationMs}ms\n`,
			);
		};
	}
	let sandbox;
	try {
		sandbox = await startSandbox(sandboxOptions);
	} catch (error) {
		process.stderr.write(`sandbox: cannot start: ${/** @type {Error} */ (error).message}\n`);
		process.exit(1);
	}
	// Ready to be stopped before saying so: whoever waits for the line below may signal at once.
	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		void sandbox.close().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
	process.stdout.write(`CallKaro sandbox listening on ${sandbox.url}\n`);
	const lines = [
		`  data:    ${options.dataFile ?? `built-in demo data (keys ${DEMO_API_KEY}, ${OTHER_API_KEY})`}`,
		`  dialect: ${sandbox.state.dialect}, run duration: ${sandbox.state.config.runDurationMs} ms`,
		`  admin:   ${sandbox.url}/__sandbox/state (loopback clients only)`,
	];
	if (options.webhook) {
		const headers = Object.keys(options.webhook.headers ?? {});
		lines.push(
			`  webhook: ${options.webhook.url}${headers.length ? ` (headers: ${headers.join(', ')})` : ''}${options.webhook.duplicate ? ', each event twice' : ''}`,
		);
	}
	const host = options.host ?? '127.0.0.1';
	if (!/^(127\.|::1$|localhost$)/.test(host)) {
		lines.push(`  warning: bound to ${host}; only loopback clients can use the admin API`);
	}
	process.stdout.write(`${lines.join('\n')}\n`);
}

void main();
