// @ts-check
/** Command-line options of the sandbox CLI (kept apart from cli.mjs so tests can import it). */
import { parseWebhookConfig } from './webhooks.mjs';

export const USAGE = `Usage: npm run sandbox -- [options]

  --port N               port to listen on (default 4010; 0 = any free port)
  --host ADDR            address to bind (default 127.0.0.1)
  --data FILE            data file (JSON); default: the built-in demo data set
  --latency-ms N         delay every API request by N ms (default 0)
  --jitter-ms N          plus a random 0..N ms (default 0)
  --seed N               seed of the jitter (default 1)
  --dialect spec|docs    outbound success body (default spec)
  --run-duration-ms N    a run finishes N ms after it starts; 0 = never (default 60000)
  --delete-not-found S   delete-schedule-call status when nothing is scheduled: 200 or 404 (default 200)
  --request-log-limit N  requests kept in the log (default 10000)
  --webhook-url URL      post call_ended events to URL (for every agent without its own webhook)
  --webhook-header H:V   send header H with value V on every webhook post (repeatable)
  --webhook-duplicate    post every event twice (a duplicate delivery)
  --webhook-timeout-ms N a webhook post without an answer by then fails (default 5000)
  --verbose              print one line per API request
  --help                 show this text`;

/**
 * @param {string[]} argv
 * @returns {import('./server.mjs').SandboxOptions & { help?: boolean, verbose?: boolean }}
 */
export function parseArgs(argv) {
	/** @type {import('./server.mjs').SandboxOptions & { help?: boolean, verbose?: boolean }} */
	const options = { port: 4010 };
	/** @type {{ url?: string, headers: Record<string, string>, duplicate: boolean }} */
	const webhook = { headers: {}, duplicate: false };
	/** @param {string} flag @param {string | undefined} value */
	const number = (flag, value) => {
		const n = Number(value);
		if (value === undefined || value.trim() === '' || !Number.isInteger(n) || n < 0) {
			throw new Error(`${flag} needs a whole number >= 0`);
		}
		return n;
	};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		const [flag, inline] =
			arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s) : [arg, undefined];
		const value = () => {
			if (inline !== undefined) return inline;
			const next = argv[i + 1];
			if (next === undefined || next.startsWith('--')) throw new Error(`${flag} needs a value`);
			i++;
			return next;
		};
		switch (flag) {
			case '--port':
				options.port = number(flag, value());
				if (options.port > 65535) throw new Error('--port must be at most 65535');
				break;
			case '--host':
				options.host = value();
				break;
			case '--data':
				options.dataFile = value();
				break;
			case '--latency-ms':
				options.latencyMs = number(flag, value());
				break;
			case '--jitter-ms':
				options.jitterMs = number(flag, value());
				break;
			case '--seed':
				options.seed = number(flag, value());
				break;
			case '--dialect': {
				const dialect = value();
				if (dialect !== 'spec' && dialect !== 'docs')
					throw new Error('--dialect must be spec or docs');
				options.dialect = dialect;
				break;
			}
			case '--run-duration-ms':
				options.runDurationMs = number(flag, value());
				break;
			case '--delete-not-found': {
				const status = number(flag, value());
				if (status !== 200 && status !== 404)
					throw new Error('--delete-not-found must be 200 or 404');
				options.deleteNotFoundStatus = status;
				break;
			}
			case '--request-log-limit':
				options.requestLogLimit = number(flag, value());
				break;
			case '--webhook-url':
				webhook.url = value();
				break;
			case '--webhook-header': {
				const header = value();
				const colon = header.indexOf(':');
				if (colon <= 0) throw new Error('--webhook-header needs NAME:VALUE');
				webhook.headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
				break;
			}
			case '--webhook-duplicate':
				webhook.duplicate = true;
				break;
			case '--webhook-timeout-ms':
				options.webhookTimeoutMs = number(flag, value());
				break;
			case '--verbose':
				options.verbose = true;
				break;
			case '--help':
			case '-h':
				options.help = true;
				break;
			default:
				throw new Error(`unknown option ${arg}`);
		}
	}
	if (webhook.url !== undefined) {
		const parsed = parseWebhookConfig(webhook, 'webhook');
		if (!parsed.ok) throw new Error(parsed.message);
		options.webhook = parsed.config;
	} else if (webhook.duplicate || Object.keys(webhook.headers).length > 0) {
		throw new Error('--webhook-header and --webhook-duplicate need --webhook-url');
	}
	return options;
}
