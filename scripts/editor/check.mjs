#!/usr/bin/env node
// npm run check:editor — the nodes in n8n's real editor, in a real (headless) Chromium.
//
//   1. starts `npm start` (build, sandbox, n8n with the package and the "CallKaro Sandbox"
//      credential) on its own ports, as a child in its own process group, and waits until ready
//   2. logs in, creates a workflow, and adds every CallKaro node through the node creator
//      (search by name), wiring Trigger -> Assign Workflow -> (Started) Outbound Call /
//      (Already Running) Delete Scheduled Call, plus Create Campaign
//   3. in each node's panel: checks the credential, the field labels (and their order), fills
//      the main fields, switches the options that show more fields, and takes screenshots
//   4. on the canvas: checks the node names, subtitles and Assign Workflow's two output names;
//      then the same canvas and one panel in the dark theme, with the dark icon
//   5. deletes its workflow, closes the browser, stops npm start (the whole process group)
//
// Screenshots go to scripts/editor/.screenshots/ (git-ignored; a dot folder, so the build does not
// copy the PNGs into dist/); npm start's output to
// screenshots/npm-start.log. Ends with "N passed, N failed"; exits 1 on any failure.
//
// Options: --port N (n8n, default 5690), --sandbox-port N (default 4090), --skip-build,
//   --url http://127.0.0.1:5678 (use an n8n already started with `npm start`; nothing is
//   started or stopped), --timeout S (whole run, default 170).
// Env: CALLKARO_CHROMIUM (default /usr/bin/chromium, Debian's `apt-get install chromium`),
//   CALLKARO_N8N_EMAIL, CALLKARO_N8N_PASSWORD.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium, selectors } from 'playwright-core';

import { portInUse } from '../n8n/host.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PROJECT_ROOT = path.resolve(HERE, '..', '..');
const SHOTS = path.join(HERE, '.screenshots');

function option(name, fallback) {
	const i = process.argv.indexOf(name);
	return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
const flag = (name) => process.argv.includes(name);

const N8N_PORT = Number(option('--port', 5690));
const SANDBOX_PORT = Number(option('--sandbox-port', 4090));
const EXISTING_URL = option('--url', null);
const RUN_TIMEOUT_MS = Number(option('--timeout', 170)) * 1000;
const CHROMIUM = process.env.CALLKARO_CHROMIUM || '/usr/bin/chromium';
const OWNER = {
	email: process.env.CALLKARO_N8N_EMAIL || 'owner@example.com',
	password: process.env.CALLKARO_N8N_PASSWORD || 'CallKaro-Sandbox-1',
};
// Chromium's own background traffic (component updates, sync, QUIC probes) is refused on a
// closed network and can stall start-up; these flags switch it off.
const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

const CREDENTIAL = 'CallKaro Sandbox';
const NODES = {
	trigger: 'CallKaro Trigger',
	assign: 'CallKaro Assign Workflow',
	outbound: 'CallKaro Outbound Call',
	del: 'CallKaro Delete Scheduled Call',
	campaign: 'CallKaro Create Campaign',
};
const VALUES = {
	phone: '+91 98200 11111',
	workflowId: '6650f0c2a1b2c3d4e5f60718',
	agentId: 'agent_sales_01',
	campaignName: 'November renewals',
	secret: 'a-long-random-shared-secret',
};

const t0 = Date.now();
const secs = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`.padStart(6);
const log = (m) => console.log(`[editor ${secs()}] ${m}`);

// ---------------------------------------------------------------------------------------------
// results

const results = [];
const notes = [];
let passed = 0;
let failed = 0;

function record(name, ok, detail = '') {
	results.push({ name, ok, detail });
	if (ok) passed++;
	else failed++;
	console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
}

function note(m) {
	notes.push(m);
	console.log(`  note ${m}`);
}

/** Runs one named step; a thrown error is a failure of that step, the run goes on. */
async function step(name, fn) {
	try {
		const detail = await fn();
		record(name, true, typeof detail === 'string' ? detail : '');
		return true;
	} catch (err) {
		record(
			name,
			false,
			String(err?.message ?? err)
				.split('\n')[0]
				.slice(0, 300),
		);
		return false;
	}
}

function expect(condition, message) {
	if (!condition) throw new Error(message);
}

/** Each of `expected` appears in `actual`, in this order (others may come between). */
function expectInOrder(actual, expected, what) {
	let at = -1;
	for (const label of expected) {
		const i = actual.indexOf(label, at + 1);
		if (i < 0) {
			const missing = !actual.includes(label);
			throw new Error(
				`${what}: "${label}" ${missing ? 'is not shown' : 'is out of order'} (shown: ${actual.join(' | ')})`,
			);
		}
		at = i;
	}
}

// ---------------------------------------------------------------------------------------------
// npm start, in its own process group

let server = null; // { child, url, closed }

async function startN8n() {
	for (const [port, opt] of [
		[N8N_PORT, '--port'],
		[SANDBOX_PORT, '--sandbox-port'],
	]) {
		if (await portInUse(port))
			throw new Error(`port ${port} is in use: pick another with ${opt} N`);
	}
	const args = ['start', '--', '--port', String(N8N_PORT), '--sandbox-port', String(SANDBOX_PORT)];
	if (flag('--skip-build')) args.push('--skip-build');
	// under `npm run`, npm_execpath is npm's own CLI: run it with this Node, not whatever `npm` is on PATH
	const npmCli = process.env.npm_execpath;
	const [cmd, cmdArgs] =
		npmCli && /npm-cli\.js$/.test(npmCli) ? [process.execPath, [npmCli, ...args]] : ['npm', args];
	const logFile = fs.createWriteStream(path.join(SHOTS, 'npm-start.log'));
	const child = spawn(cmd, cmdArgs, {
		cwd: PROJECT_ROOT,
		detached: true, // its own process group: stopped as a whole at the end
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, FORCE_COLOR: '0' },
	});
	const closed = new Promise((resolve) =>
		child.once('close', (code, signal) => resolve(code ?? signal)),
	);
	server = { child, closed, url: null };
	let output = '';
	const ready = new Promise((resolve, reject) => {
		const onData = (d) => {
			const s = d.toString();
			logFile.write(s);
			output = (output + s).slice(-20_000);
			const url = /^\s+n8n\s+(http:\/\/\S+)/m.exec(output)?.[1];
			if (url && /Press Ctrl-C/.test(output)) resolve(url);
		};
		child.stdout.on('data', onData);
		child.stderr.on('data', onData);
		closed.then((code) =>
			reject(new Error(`npm start exited (${code}) before n8n was ready:\n${output.slice(-3000)}`)),
		);
	});
	const timer = new Promise((_, reject) =>
		setTimeout(
			() =>
				reject(
					new Error(
						`npm start not ready within 150s (the very first run installs n8n, ~4 min: run \`npm start -- --exit-when-ready\` once):\n${output.slice(-3000)}`,
					),
				),
			150_000,
		).unref(),
	);
	server.url = await Promise.race([ready, timer]);
	return server.url;
}

async function stopN8n() {
	if (!server) return;
	const { child, closed } = server;
	const group = (signal) => {
		try {
			process.kill(-child.pid, signal);
		} catch {}
	};
	if (child.exitCode === null && child.signalCode === null) {
		// npm start's own SIGTERM handler stops n8n (its task runner) and the sandbox
		group('SIGTERM');
		const done = await Promise.race([
			closed.then(() => true),
			new Promise((r) => setTimeout(() => r(false), 30_000)),
		]);
		if (!done) group('SIGKILL');
	}
	group('SIGKILL'); // anything of the group still there (npm, sh)
	for (let i = 0; i < 20 && (await portInUse(N8N_PORT)); i++)
		await new Promise((r) => setTimeout(r, 500));
	if (await portInUse(N8N_PORT))
		record('npm start stopped, nothing left listening', false, `port ${N8N_PORT} still answers`);
	server = null;
}

// ---------------------------------------------------------------------------------------------
// the editor

let page;
let baseUrl;
let context = null;
let workflowId = null; // the workflow this run made, deleted at the end
let workflowDeleted = false;

const byId = (id) => page.getByTestId(id);
const ndv = () => byId('ndv');

async function shot(name) {
	await page.waitForTimeout(250); // let transitions settle
	await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** Labels of the parameters the open panel shows, top to bottom (credential included). */
async function panelLabels() {
	return await byId('node-parameters').evaluate((root) =>
		[
			...root.querySelectorAll(
				'[data-test-id="credentials-label"] label, [data-test-id="input-label"] label, .parameter-item > .parameter-name, [data-test-id="parameter-item"] .multi-parameter > .parameter-name',
			),
		]
			.filter((el) => el.offsetParent !== null)
			.map((el) =>
				el.innerText
					.split('\n')[0]
					.replace(/\s*\*$/, '')
					.trim(),
			)
			.filter(Boolean),
	);
}

async function openCreatorFrom(opener) {
	if (opener.kind === 'output') {
		const handle = page.locator(
			`[data-test-id="canvas-node-output-handle"][data-node-name="${opener.node}"][data-index="${opener.index ?? 0}"]`,
		);
		await handle.getByTestId('canvas-handle-plus').click();
	} else if (opener.kind === 'empty') {
		await byId('canvas-plus-button').click();
	} else {
		await byId('node-creator-plus-button').click();
	}
	await byId('node-creator-search-bar').waitFor();
}

/** Adds a node through the node creator, searching by its name; returns with its panel open. */
async function addNode(name, opener, { screenshotCreator } = {}) {
	await openCreatorFrom(opener);
	await byId('node-creator-search-bar').fill(name);
	const item = byId('node-creator-item-name').getByText(name, { exact: true });
	await item.waitFor();
	if (screenshotCreator) await shot(screenshotCreator);
	await item.click();
	// a community node opens its "Node details" page first, with an "Add to workflow" button
	const add = byId('node-creator').getByRole('button', { name: 'Add to workflow' });
	await Promise.race([add.waitFor({ timeout: 10_000 }), ndv().waitFor({ timeout: 10_000 })]);
	if (await add.isVisible()) await add.click();
	await ndv().waitFor();
	await byId('node-parameters').waitFor();
}

async function closePanel() {
	if (await ndv().isVisible()) {
		await byId('ndv-close-button').click();
		await ndv().waitFor({ state: 'hidden' });
	}
}

async function fill(param, value) {
	const input = byId(`parameter-input-${param}`)
		.locator('input:not([type=hidden]), textarea, [contenteditable=true]')
		.first();
	await input.click();
	await input.fill(value);
	await input.press('Tab');
}

async function selectOption(param, optionName) {
	await byId(`parameter-input-${param}`).click();
	// an option with a description has both as its accessible name: match the name line only
	await byId('parameter-input-item')
		.filter({ visible: true })
		.filter({ has: page.getByText(optionName, { exact: true }) })
		.click();
	await page.waitForTimeout(200);
}

/** Opens a collection's "Add …" dropdown; returns the option names offered. */
async function collectionOptions(collectionLabel) {
	const add = byId('node-parameters')
		.getByTestId('collection-parameter-add')
		.filter({ has: page.locator(`input[placeholder="${collectionLabel}"]`) });
	await add.click();
	const opts = byId('collection-parameter-option').filter({ visible: true });
	await opts.first().waitFor();
	return await opts.allInnerTexts();
}

async function pickCollectionOption(name) {
	await byId('collection-parameter-option')
		.filter({ visible: true })
		.getByText(name, { exact: true })
		.click();
	await page.waitForTimeout(200);
}

async function credentialShown() {
	const input = byId('node-credentials-select').locator('input').first();
	return await input.inputValue();
}

/** Shows a parameter's description tooltip (hover over its label's info icon). */
async function showHint(param) {
	const label = byId('node-parameters').locator(`label[for="${param}"]`).first();
	await label.hover();
	const icon = label.locator('svg').first();
	await icon.hover().catch(() => {});
	await page.waitForTimeout(500);
	return await page
		.locator('[role="tooltip"], .n8n-tooltip, [data-side]')
		.filter({ visible: true })
		.allInnerTexts();
}

async function canvasNode(name) {
	return page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
}

/** Text of an output label, and whether the canvas cuts it short. */
async function outputLabel(nodeName, index) {
	const handle = page.locator(
		`[data-test-id="canvas-node-output-handle"][data-node-name="${nodeName}"][data-index="${index}"]`,
	);
	return await handle.evaluate((el) => {
		const label = [...el.querySelectorAll('div')].find(
			(d) => d.children.length === 0 && d.innerText.trim(),
		);
		if (!label) return null;
		const r = label.getBoundingClientRect();
		return {
			text: label.innerText.trim(),
			visible: r.width > 0 && r.height > 0,
			truncated: label.scrollWidth > label.clientWidth + 1,
			scrollWidth: label.scrollWidth,
			clientWidth: label.clientWidth,
		};
	});
}

async function nodeSubtitle(name) {
	const node = await canvasNode(name);
	const text = await node.innerText();
	return text
		.split('\n')
		.map((s) => s.trim())
		.filter(Boolean);
}

async function iconSources(name) {
	const node = await canvasNode(name);
	return await node.locator('img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('src')));
}

// ---------------------------------------------------------------------------------------------

async function run() {
	fs.rmSync(SHOTS, { recursive: true, force: true });
	fs.mkdirSync(SHOTS, { recursive: true });

	if (!fs.existsSync(CHROMIUM)) {
		record(
			'Chromium is installed',
			false,
			`${CHROMIUM} is missing: apt-get update && apt-get install -y chromium (or set CALLKARO_CHROMIUM)`,
		);
		return;
	}

	if (EXISTING_URL) {
		baseUrl = EXISTING_URL.replace(/\/+$/, '');
		log(`using the n8n at ${baseUrl}`);
	} else {
		log(
			`npm start -- --port ${N8N_PORT} --sandbox-port ${SANDBOX_PORT}${flag('--skip-build') ? ' --skip-build' : ''} ...`,
		);
		const ok = await step('npm start: n8n with the package is ready', async () => {
			baseUrl = await startN8n();
			return `${baseUrl} after ${secs().trim()}`;
		});
		if (!ok) return;
	}

	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'callkaro-editor-chromium-'));
	selectors.setTestIdAttribute('data-test-id');
	context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		// this script's own handlers close Chromium, stop npm start and print the totals
		handleSIGINT: false,
		handleSIGTERM: false,
		handleSIGHUP: false,
		args: CHROMIUM_ARGS,
		viewport: { width: 1440, height: 900 },
		timeout: 60_000,
	});
	try {
		page = context.pages()[0] ?? (await context.newPage());
		page.setDefaultTimeout(10_000);
		page.on('pageerror', (err) => {
			if (/callkaro/i.test(err.message)) note(`page error: ${err.message.slice(0, 200)}`);
		});
		await editorChecks();
	} finally {
		await context.close().catch(() => {});
		fs.rmSync(profile, { recursive: true, force: true });
	}
}

async function editorChecks() {
	const loggedIn = await step('log in as the owner', async () => {
		await page.goto(`${baseUrl}/signin`);
		await page.locator('input[name="emailOrLdapLoginId"]').fill(OWNER.email);
		await page.locator('input[name="password"]').fill(OWNER.password);
		await byId('form-submit-button').click();
		await page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: 20_000 });
	});
	if (!loggedIn) return;

	const created = await step('new workflow: the canvas opens', async () => {
		await page.goto(`${baseUrl}/workflow/new`);
		await byId('canvas-plus-button').waitFor({ timeout: 20_000 });
	});
	if (!created) return;

	try {
		// ---- the node creator, and CallKaro Trigger (first step) ----
		await step('node creator: searching "CallKaro" lists all five nodes', async () => {
			await openCreatorFrom({ kind: 'empty' });
			await byId('node-creator-search-bar').fill('CallKaro');
			await byId('node-creator-item-name').first().waitFor();
			await page.waitForTimeout(300);
			const names = await byId('node-creator-item-name').allInnerTexts();
			const trimmed = names.map((n) => n.trim());
			for (const name of Object.values(NODES))
				expect(trimmed.includes(name), `"${name}" not listed (got ${trimmed.join(', ')})`);
			const descriptions = await byId('node-creator-item-description').allInnerTexts();
			expect(descriptions.length >= 5, 'node descriptions are missing');
			await shot('01-node-creator-search');
			await page.keyboard.press('Escape');
			await byId('node-creator')
				.waitFor({ state: 'hidden' })
				.catch(() => {});
			return trimmed.join(', ');
		});

		await step(
			`${NODES.trigger}: added from the node creator, panel shows its fields`,
			async () => {
				await addNode(NODES.trigger, { kind: 'empty' });
				const labels = await panelLabels();
				expectInOrder(labels, ['Filters', 'Verify Shared Secret', 'Options'], 'Trigger fields');
				await ndv()
					.getByText('CallKaro has no API to register webhooks', { exact: false })
					.waitFor();
				await ndv().getByText('Webhook URLs', { exact: true }).waitFor();
				await shot('02-trigger-panel');
				return labels.join(' | ');
			},
		);
		await step(`${NODES.trigger}: Webhook URLs, filters and the shared secret`, async () => {
			await ndv().getByText('Webhook URLs', { exact: true }).click();
			await page.waitForTimeout(300);
			const filterNames = await collectionOptions('Add Filter');
			expectInOrder(
				filterNames.map((s) => s.trim()),
				['Agent IDs', 'Call Types', 'Campaign ID', 'Outcomes'],
				'Add Filter',
			);
			await shot('03-trigger-filters-and-urls');
			await pickCollectionOption('Call Types');
			await byId('parameter-input-verifySecret').click();
			await byId('parameter-input-secretHeaderValue').waitFor();
			await fill('secretHeaderValue', VALUES.secret);
			const labels = await panelLabels();
			expectInOrder(
				labels,
				['Call Types', 'Verify Shared Secret', 'Secret Header Name', 'Secret Header Value'],
				'Trigger fields',
			);
			const headerName = await byId('parameter-input-headerName')
				.locator('input')
				.first()
				.inputValue();
			expect(headerName === 'X-CallKaro-Secret', `Secret Header Name default is "${headerName}"`);
			await shot('04-trigger-secret');
			return filterNames.join(', ');
		});
		await step(
			`${NODES.trigger}: "When will this node trigger my flow?" shows the setup help`,
			async () => {
				await ndv().getByText('When will this node trigger my flow?').click();
				await ndv().getByText('paste the Test URL into CallKaro', { exact: false }).waitFor();
				await shot('05-trigger-help');
				// the help names a button; is there one with that name?
				const named = /click "([^"]+)"/.exec(await ndv().innerText())?.[1];
				if (
					named &&
					(await ndv().getByRole('button', { name: named, exact: true }).count()) === 0
				) {
					const buttons = (await ndv().getByRole('button').allInnerTexts())
						.map((b) => b.trim())
						.filter((b) => /test|execute|listen/i.test(b));
					note(
						`Trigger help says click "${named}", but no button has that name (buttons: ${[...new Set(buttons)].join(', ')})`,
					);
				}
			},
		);
		await closePanel();
		workflowId = /\/workflow\/([^/?#]+)/.exec(page.url())?.[1] ?? null;
		if (workflowId === 'new') workflowId = null;

		// ---- CallKaro Assign Workflow, after the trigger ----
		await step(
			`${NODES.assign}: added after the trigger, credential "${CREDENTIAL}" preselected`,
			async () => {
				await addNode(NODES.assign, { kind: 'output', node: NODES.trigger, index: 0 });
				const cred = await credentialShown();
				expect(cred === CREDENTIAL, `credential shows "${cred}"`);
				await shot('06-assign-panel-empty');
			},
		);
		await step(`${NODES.assign}: fields in order, main ones filled`, async () => {
			const labels = await panelLabels();
			expectInOrder(
				labels,
				['Credential', 'Phone Number', 'Workflow ID', 'Attributes to Save', 'Start Run', 'Options'],
				'Assign fields',
			);
			await fill('phoneNumber', VALUES.phone);
			await fill('workflowId', VALUES.workflowId);
			return labels.join(' | ');
		});
		await step(
			`${NODES.assign}: "Using Fields Below" shows attribute rows, "At a Set Time" shows Schedule Time`,
			async () => {
				await selectOption('attributeSource', 'Using Fields Below');
				await byId('fixed-collection-attributes').getByTestId('fixed-collection-add').click();
				await fill('key', 'First Name');
				await fill('value', 'Asha');
				await selectOption('schedule', 'At a Set Time');
				await byId('parameter-input-scheduleAt').waitFor();
				const labels = await panelLabels();
				expectInOrder(
					labels,
					[
						'Attributes to Save',
						'Attributes',
						'Attribute Name',
						'Value',
						'Replace Existing Value',
						'Start Run',
						'Schedule Time',
					],
					'Assign fields',
				);
				await shot('07-assign-panel-filled');
				await selectOption('attributeSource', 'Using JSON');
				await byId('parameter-input-attributesJson').waitFor();
				const jsonLabels = await panelLabels();
				expectInOrder(
					jsonLabels,
					['Attributes to Save', 'Attributes (JSON)', 'Replace Existing Values', 'Start Run'],
					'Assign fields (JSON)',
				);
				await shot('08-assign-panel-json');
				const opts = await collectionOptions('Add Option');
				await shot('09-assign-options');
				await page.keyboard.press('Escape');
				return `options: ${opts.join(', ')}`;
			},
		);
		await step(`${NODES.assign}: the panel's Docs link points at the README`, async () => {
			const href = await ndv().getByRole('link', { name: 'Docs' }).first().getAttribute('href');
			expect(
				href && /github\.com\/callkaro\/n8n-nodes-callkaro/.test(href),
				`Docs link is ${href}`,
			);
			// n8n appends ?utm_… to a codex primaryDocumentation URL, after any #fragment
			if (/#[^?]*\?/.test(href))
				note(
					`the Docs link ${href} puts n8n's ?utm_… query inside the #fragment, so the README opens at its top, not at the section`,
				);
			return href;
		});
		await step(`${NODES.assign}: descriptions show as hints`, async () => {
			const hint = (await showHint('phoneNumber')).join(' ');
			await shot('10-assign-phone-hint');
			expect(
				/country code/i.test(hint),
				`no Phone Number hint found (tooltip text: "${hint.slice(0, 120)}")`,
			);
		});
		await closePanel();

		await step(
			`${NODES.assign}: canvas shows the outputs "Started" and "Already Running"`,
			async () => {
				const out0 = await outputLabel(NODES.assign, 0);
				const out1 = await outputLabel(NODES.assign, 1);
				expect(out0?.text === 'Started' && out0.visible, `output 0 is ${JSON.stringify(out0)}`);
				expect(
					out1?.text === 'Already Running' && out1.visible,
					`output 1 is ${JSON.stringify(out1)}`,
				);
				for (const o of [out0, out1]) {
					if (o.truncated)
						note(
							`while unconnected, the canvas cuts the output name "${o.text}" short (${o.clientWidth}px shown of ${o.scrollWidth}px)`,
						);
				}
				const sub = await nodeSubtitle(NODES.assign);
				expect(
					sub.includes('Start now') || sub.includes('Start at a set time'),
					`subtitle lines: ${sub.join(' | ')}`,
				);
				await shot('11-canvas-assign-outputs');
				return `subtitle: ${sub.filter((s) => !['Started', 'Already Running', NODES.assign].includes(s)).join(' | ')}`;
			},
		);

		// ---- Outbound Call on "Started", Delete Scheduled Call on "Already Running" ----
		await step(
			`${NODES.outbound}: added on "Started", fields in order, main ones filled`,
			async () => {
				await addNode(NODES.outbound, { kind: 'output', node: NODES.assign, index: 0 });
				const cred = await credentialShown();
				expect(cred === CREDENTIAL, `credential shows "${cred}"`);
				const labels = await panelLabels();
				expectInOrder(
					labels,
					['Credential', 'Phone Number', 'Agent ID', 'Additional Fields', 'Options'],
					'Outbound fields',
				);
				await fill('agentId', VALUES.agentId);
				await fill('phoneNumber', VALUES.phone);
				await shot('12-outbound-panel');
				return labels.join(' | ');
			},
		);
		await step(`${NODES.outbound}: Additional Fields offers the call settings`, async () => {
			const opts = (await collectionOptions('Add Field')).map((s) => s.trim());
			for (const o of [
				'Campaign ID',
				'Language',
				'Metadata',
				'Number of Retries',
				'Schedule Time',
			]) {
				expect(opts.includes(o), `"${o}" not offered (got ${opts.join(', ')})`);
			}
			await shot('13-outbound-additional-fields');
			await pickCollectionOption('Schedule Time');
			await collectionOptions('Add Field');
			await pickCollectionOption('Language');
			const labels = await panelLabels();
			expectInOrder(
				labels,
				['Additional Fields', 'Language', 'Schedule Time', 'Options'],
				'Outbound fields',
			);
			await shot('14-outbound-with-fields');
			const options = await collectionOptions('Add Option');
			expect(
				options.some((o) => o.trim() === 'Time Zone'),
				`"Time Zone" not under Options (got ${options.join(', ')})`,
			);
			await shot('15-outbound-options');
			await page.keyboard.press('Escape');
			return `fields: ${opts.join(', ')}; options: ${options.join(', ')}`;
		});
		await closePanel();

		await step(
			`${NODES.del}: added on "Already Running", fields in order, main ones filled`,
			async () => {
				await addNode(NODES.del, { kind: 'output', node: NODES.assign, index: 1 });
				const cred = await credentialShown();
				expect(cred === CREDENTIAL, `credential shows "${cred}"`);
				const labels = await panelLabels();
				expectInOrder(
					labels,
					['Credential', 'Phone Number', 'Agent ID', 'Options'],
					'Delete fields',
				);
				await fill('agentId', VALUES.agentId);
				await fill('phoneNumber', VALUES.phone);
				const options = await collectionOptions('Add Option');
				await shot('16-delete-panel');
				await page.keyboard.press('Escape');
				return `options: ${options.join(', ')}`;
			},
		);
		await closePanel();

		// ---- Create Campaign (from the canvas' + button) ----
		await step(
			`${NODES.campaign}: added, fields in order, Agent ID only for a single-agent campaign`,
			async () => {
				await addNode(NODES.campaign, { kind: 'canvas' });
				const cred = await credentialShown();
				expect(cred === CREDENTIAL, `credential shows "${cred}"`);
				const labels = await panelLabels();
				expectInOrder(
					labels,
					['Credential', 'Campaign Name', 'Campaign Type', 'Agent ID', 'Options'],
					'Campaign fields',
				);
				await fill('name', VALUES.campaignName);
				await fill('agentId', VALUES.agentId);
				await shot('17-campaign-panel');
				await selectOption('campaignType', 'Multi Agent (V2)');
				await byId('parameter-input-agentId').waitFor({ state: 'hidden' });
				await shot('18-campaign-multi-agent');
				await selectOption('campaignType', 'Single Agent (V1)');
				return labels.join(' | ');
			},
		);
		await closePanel();

		// ---- the whole canvas, light then dark ----
		await step('canvas: every node with its name and subtitle', async () => {
			await byId('zoom-to-fit').click();
			await page.waitForTimeout(600);
			const lines = {};
			for (const name of Object.values(NODES)) {
				const node = await canvasNode(name);
				expect(await node.isVisible(), `"${name}" is not on the canvas`);
				lines[name] = await nodeSubtitle(name);
			}
			expect(
				lines[NODES.trigger].includes('On call ended'),
				`trigger subtitle: ${lines[NODES.trigger].join(' | ')}`,
			);
			expect(
				lines[NODES.outbound].some((l) => /^Call (now|at a set time)$/.test(l)),
				`outbound subtitle: ${lines[NODES.outbound].join(' | ')}`,
			);
			expect(
				lines[NODES.campaign].some((l) => /single agent/i.test(l)),
				`campaign subtitle: ${lines[NODES.campaign].join(' | ')}`,
			);
			const light = await iconSources(NODES.assign);
			expect(
				light.some((s) => /callkaro\.svg$/.test(s ?? '')),
				`light icon: ${light.join(', ')}`,
			);
			await shot('19-canvas-light');
			await page.keyboard.press('Control+s').catch(() => {});
			await page.waitForTimeout(800);
			workflowId = /\/workflow\/([^/?#]+)/.exec(page.url())?.[1] ?? workflowId;
			return Object.entries(lines)
				.map(
					([n, l]) =>
						`${n}: ${l.filter((x) => x !== n && !['Started', 'Already Running', 'Execute workflow'].includes(x)).join(' / ') || '(none)'}`,
				)
				.join('; ');
		});

		await step('dark theme: canvas and a panel, with the dark icon', async () => {
			expect(workflowId, 'the workflow was not saved (no id in the URL)');
			await page.goto(`${baseUrl}/workflow/${workflowId}?theme=dark`);
			await (await canvasNode(NODES.assign)).waitFor({ timeout: 20_000 });
			await byId('zoom-to-fit').click();
			await page.waitForTimeout(600);
			const dark = await iconSources(NODES.assign);
			expect(
				dark.some((s) => /callkaro\.dark\.svg$/.test(s ?? '')),
				`dark icon: ${dark.join(', ')}`,
			);
			await shot('20-canvas-dark');
			await (await canvasNode(NODES.assign)).dblclick();
			await ndv().waitFor();
			await shot('21-assign-panel-dark');
			await closePanel();
			await (await canvasNode(NODES.trigger)).dblclick();
			await ndv().waitFor();
			await shot('22-trigger-panel-dark');
			await closePanel();
		});
	} finally {
		if (workflowId) await deleteWorkflow(workflowId);
	}
}

/** Archives, then deletes, the workflow this run made (n8n 2.x deletes only archived ones). */
async function deleteWorkflow(id) {
	if (workflowDeleted) return;
	workflowDeleted = true;
	try {
		const result = await page.evaluate(async (wid) => {
			const headers = {
				'content-type': 'application/json',
				'browser-id': localStorage.getItem('n8n-browserId') ?? '',
			};
			const a = await fetch(`/rest/workflows/${wid}/archive`, {
				method: 'POST',
				headers,
				body: '{}',
			});
			const d = await fetch(`/rest/workflows/${wid}`, { method: 'DELETE', headers });
			return [a.status, d.status];
		}, id);
		if (result[1] !== 200)
			note(
				`could not delete the workflow ${id} (archive ${result[0]}, delete ${result[1]}): delete it by hand`,
			);
	} catch (err) {
		note(`could not delete the workflow ${id}: ${err.message.split('\n')[0]}`);
	}
}

// ---------------------------------------------------------------------------------------------

let finished = false;
async function finish(code) {
	if (finished) return;
	finished = true;
	if (workflowId && page)
		await Promise.race([deleteWorkflow(workflowId), new Promise((r) => setTimeout(r, 5000))]);
	await Promise.race([context?.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
	await stopN8n().catch(() => {});
	const shots = fs.existsSync(SHOTS)
		? fs.readdirSync(SHOTS).filter((f) => f.endsWith('.png')).length
		: 0;
	console.log(
		`\nscreenshots: ${path.relative(process.cwd(), SHOTS) || SHOTS}/ (${shots})${notes.length ? `; ${notes.length} note(s) above` : ''}`,
	);
	console.log(`${passed} passed, ${failed} failed`);
	process.exit(code ?? (failed > 0 ? 1 : 0));
}

for (const sig of ['SIGINT', 'SIGTERM']) {
	process.on(sig, () => {
		record(`interrupted (${sig})`, false);
		void finish(1);
	});
}
setTimeout(() => {
	record(`whole run within ${RUN_TIMEOUT_MS / 1000}s`, false, 'timed out');
	void finish(1);
}, RUN_TIMEOUT_MS).unref();

run()
	.catch((err) =>
		record('editor check ran to the end', false, String(err?.message ?? err).split('\n')[0]),
	)
	.finally(() => finish());
