// A real npm registry on 127.0.0.1 for the installer end-to-end run (test/e2e/installer.e2e.mjs):
// Verdaccio, with a user whose token publishes, no uplinks (nothing is proxied to the internet),
// and its storage in a folder of the caller's.
//
// n8n's Community Nodes installer asks only https://registry.npmjs.org: N8N_COMMUNITY_PACKAGES_REGISTRY
// is an enterprise feature (without the licence, n8n 2.41.1 and 1.123.81 refuse every install with
// FeatureNotLicensedError). So, as a company proxy would, an HTTPS proxy on 127.0.0.1 (`gateway`)
// answers for registry.npmjs.org with a certificate of its own throw-away CA and forwards to
// Verdaccio; the n8n process gets npm's own settings for it (`npmEnv`: npm_config_https_proxy,
// npm_config_cafile). Every other host is refused, so nothing else leaves the machine through it.
//
// Verdaccio 6.10 needs Node >= 22: it runs on the Node that n8n 2.x runs on (install.mjs). It is
// installed like n8n, in the cache, never in the project: one of its packages (verdaccio-audit)
// asks for node-fetch's `cjs` dist-tag, which the registry does not have, so node-fetch is
// overridden there to 2.7.0, the last CommonJS (2.x) release.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { ensureCachedPackages, ensureNode2x } from './install.mjs';
import { freePort, runOrThrow, startProcess, stopProcess } from './host.mjs';

export const VERDACCIO_VERSION = '6.10.4';
const NPMJS = 'registry.npmjs.org';
const USER = { name: 'callkaro-release', password: 'callkaro-release-e2e-1' };

async function ensureVerdaccio(log) {
	const nodeBin = await ensureNode2x({ log });
	const dir = await ensureCachedPackages({
		name: `verdaccio-${VERDACCIO_VERSION}-r1`,
		nodeBin,
		log,
		packageJson: {
			name: 'callkaro-verdaccio',
			private: true,
			dependencies: { verdaccio: VERDACCIO_VERSION },
			overrides: { 'verdaccio-audit': { 'node-fetch': '2.7.0' } },
		},
	});
	return { nodeBin, bin: path.join(dir, 'node_modules', 'verdaccio', 'bin', 'verdaccio') };
}

/** A CA and a certificate for registry.npmjs.org signed by it (openssl), in dir. */
async function makeCertificates(dir) {
	const f = (name) => path.join(dir, name);
	const openssl = (args) => runOrThrow('openssl', args, { cwd: dir, timeoutMs: 60_000 });
	await openssl([
		...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2'],
		...['-keyout', f('ca.key'), '-out', f('ca.pem'), '-subj', '/CN=CallKaro e2e registry CA'],
		...['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign'],
	]);
	await openssl([
		...['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('host.key'), '-out', f('host.csr')],
		...['-subj', `/CN=${NPMJS}`],
	]);
	fs.writeFileSync(
		f('host.ext'),
		`subjectAltName=DNS:${NPMJS}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
	);
	await openssl([
		...['x509', '-req', '-in', f('host.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key')],
		...['-CAcreateserial', '-days', '2', '-out', f('host.pem'), '-extfile', f('host.ext')],
	]);
	return {
		ca: f('ca.pem'),
		key: fs.readFileSync(f('host.key')),
		cert: fs.readFileSync(f('host.pem')),
	};
}

/**
 * The HTTPS proxy that answers for registry.npmjs.org from Verdaccio. `requests` lists what it
 * forwarded ({ method, url, status }); `refused` the CONNECT targets it turned away.
 */
async function startGateway({ dir, target }) {
	const { ca, key, cert } = await makeCertificates(dir);
	const requests = [];
	const refused = [];
	const forward = (req, res) => {
		const upstream = http.request(
			`${target}${req.url}`,
			{
				method: req.method,
				// Verdaccio writes tarball URLs from the host and protocol it is asked with
				headers: { ...req.headers, host: NPMJS, 'x-forwarded-proto': 'https' },
			},
			(answer) => {
				requests.push({ method: req.method, url: req.url, status: answer.statusCode });
				res.writeHead(answer.statusCode, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', (err) => res.destroy(err));
		req.pipe(upstream);
	};
	const tlsServer = https.createServer({ key, cert }, forward);
	const proxy = http.createServer((req, res) => {
		refused.push(req.url);
		res.writeHead(403).end('only registry.npmjs.org, over CONNECT');
	});
	proxy.on('connect', (req, socket, head) => {
		if (req.url !== `${NPMJS}:443`) {
			refused.push(req.url);
			socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
			return;
		}
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		if (head.length) socket.unshift(head);
		tlsServer.emit('connection', socket);
	});
	const sockets = new Set();
	proxy.on('connection', (s) => sockets.add(s.on('close', () => sockets.delete(s))));
	await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${proxy.address().port}`;
	return {
		url,
		ca,
		requests,
		refused,
		close: () =>
			new Promise((resolve) => {
				sockets.forEach((s) => s.destroy());
				proxy.close(() => resolve());
			}),
	};
}

/**
 * Starts Verdaccio (storage in `dir`) and the registry.npmjs.org gateway to it. Returns
 *   url                 Verdaccio's own address
 *   publish(target, { tag })   `npm publish <folder or tarball>` to it with the user's token,
 *                              as the release workflow publishes (provenance off: no OIDC here)
 *   npmEnv              the environment that sends npm's registry.npmjs.org traffic to it
 *   gateway             { requests, refused }: what passed through the gateway
 *   close()
 */
export async function startRegistry({ dir, log = (m) => console.log(`[registry] ${m}`) }) {
	const started = Date.now();
	const { nodeBin, bin } = await ensureVerdaccio(log);
	fs.mkdirSync(path.join(dir, 'storage'), { recursive: true });
	const config = path.join(dir, 'config.yaml');
	fs.writeFileSync(
		config,
		[
			'storage: ./storage',
			'auth:',
			'  htpasswd:',
			'    file: ./htpasswd',
			'    max_users: 1',
			'uplinks: {}',
			'packages:',
			"  '**':",
			'    access: $all',
			'    publish: $authenticated',
			'    unpublish: $authenticated',
			'log: { type: stdout, format: pretty, level: warn }',
			'',
		].join('\n'),
	);
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const logFile = fs.createWriteStream(path.join(dir, 'verdaccio.log'));
	const child = startProcess(nodeBin, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], {
		cwd: dir,
		onStdout: (d) => logFile.write(d),
		onStderr: (d) => logFile.write(d),
	});
	for (const deadline = Date.now() + 60_000; ; await sleep(200)) {
		const ok = await fetch(`${url}/-/ping`).then(
			(r) => r.ok,
			() => false,
		);
		if (ok) break;
		if (child.exitCode !== null || Date.now() > deadline)
			throw new Error(`Verdaccio did not start; see ${path.join(dir, 'verdaccio.log')}`);
	}
	// `npm adduser` against Verdaccio: creates the user and returns its token
	const res = await fetch(`${url}/-/user/org.couchdb.user:${USER.name}`, {
		method: 'PUT',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ ...USER, type: 'user', roles: [] }),
	});
	if (!res.ok) throw new Error(`Verdaccio adduser: HTTP ${res.status} ${await res.text()}`);
	const { token } = await res.json();
	const gateway = await startGateway({ dir, target: url });
	// a user config of its own: nothing of the machine's ~/.npmrc
	const userconfig = path.join(dir, 'npmrc');
	fs.writeFileSync(userconfig, `//127.0.0.1:${port}/:_authToken=${token}\n`);
	log(
		`Verdaccio ${VERDACCIO_VERSION} on ${url}, gateway ${gateway.url} (${Date.now() - started} ms)`,
	);
	// n8n's own HTTP client reads these too (proxy-from-env): https only, never for 127.0.0.1
	const npmEnv = {
		npm_config_https_proxy: gateway.url,
		npm_config_noproxy: '127.0.0.1,localhost',
		npm_config_no_proxy: '127.0.0.1,localhost',
		npm_config_cafile: gateway.ca,
		// n8n 1.x asks the registry itself first (axios, through the proxy), for `<name>/latest`;
		// without it, its fallback (`npm view`) refuses every install without a version
		NODE_EXTRA_CA_CERTS: gateway.ca,
		npm_config_update_notifier: 'false',
	};
	return {
		url,
		npmEnv,
		/**
		 * Writes the same settings as npm's own config file of n8n's nodes folder: n8n 1.x runs
		 * `npm outdated` (the panel's "update available") with a bare environment (PATH, NODE_PATH,
		 * NODE_ENV), so only a .npmrc in its working folder reaches it.
		 */
		writeNpmrc(nodesDir, extra = {}) {
			fs.mkdirSync(nodesDir, { recursive: true });
			const settings = {
				'https-proxy': gateway.url,
				noproxy: '127.0.0.1,localhost',
				cafile: gateway.ca,
				...extra,
			};
			fs.writeFileSync(
				path.join(nodesDir, '.npmrc'),
				Object.entries(settings)
					.map(([k, v]) => `${k}=${v}\n`)
					.join(''),
			);
		},
		gateway,
		token,
		async publish(target, { tag = 'latest' } = {}) {
			const env = { ...process.env, npm_config_userconfig: userconfig };
			for (const k of Object.keys(env))
				if (/^npm_config_(provenance|registry)$/i.test(k)) delete env[k];
			const args = ['publish', target, `--registry=${url}`, `--tag=${tag}`, '--provenance=false'];
			return runOrThrow('npm', [...args, '--ignore-scripts'], {
				env,
				timeoutMs: 120_000,
				label: `npm publish ${path.basename(target)}`,
			});
		},
		/** The versions and dist-tags the registry holds for a package. */
		async packument(name) {
			const r = await fetch(`${url}/${encodeURIComponent(name)}`);
			return r.ok ? r.json() : null;
		},
		async close() {
			await gateway.close();
			await stopProcess(child, 5000);
			logFile.end();
		},
	};
}
