// npm run check:editor: the nodes in n8n's real editor, in Debian's headless Chromium, against
// `npm start` (or the n8n at CALLKARO_EDITOR_URL). See scripts/editor/README.md.
// Each node is added once (once() steps, so `-t` may pick any test); each test opens its panel.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { chromium, selectors } from 'playwright-core';

import { once } from '../e2e/harness.mjs';
import { PROJECT_ROOT, portInUse, startProcess, stopProcess } from '../n8n/host.mjs';

const SHOTS = path.join(PROJECT_ROOT, 'scripts', 'editor', '.screenshots');
const N8N_PORT = Number(process.env.CALLKARO_EDITOR_PORT || 5690);
const SANDBOX_PORT = Number(process.env.CALLKARO_EDITOR_SANDBOX_PORT || 4090);
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

/** UX findings that are not failures (a name cut short, a link that misses its anchor). */
const note = (m) => console.warn(`note: ${m}`);

// ---------------------------------------------------------------------------------------------
// npm start, and the browser

let npmStart = null;
let baseUrl;
let context;
let page;
let workflowId = null; // the workflow this run made, deleted at the end

async function startN8n() {
	for (const port of [N8N_PORT, SANDBOX_PORT])
		if (await portInUse(port))
			throw new Error(`port ${port} is in use: pick others with --port / --sandbox-port`);
	const args = ['start', '--', '--port', String(N8N_PORT), '--sandbox-port', String(SANDBOX_PORT)];
	if (process.env.CALLKARO_E2E_SKIP_BUILD) args.push('--skip-build');
	const log = fs.createWriteStream(path.join(SHOTS, 'npm-start.log'));
	let output = '';
	const ready = new Promise((resolve, reject) => {
		const onOutput = (s) => {
			log.write(s);
			output = (output + s).slice(-20_000);
			const url = /^\s+n8n\s+(http:\/\/\S+)/m.exec(output)?.[1];
			if (url && /Press Ctrl-C/.test(output)) resolve(url);
		};
		npmStart = startProcess('npm', args, {
			env: { ...process.env, FORCE_COLOR: '0' },
			onStdout: onOutput,
			onStderr: onOutput,
		});
		npmStart.once('close', (code) =>
			reject(new Error(`npm start exited (${code}) before n8n was ready:\n${output.slice(-3000)}`)),
		);
	});
	return await ready;
}

beforeAll(async () => {
	if (!fs.existsSync(CHROMIUM))
		throw new Error(
			`${CHROMIUM} is missing: apt-get update && apt-get install -y chromium (or set CALLKARO_CHROMIUM)`,
		);
	fs.rmSync(SHOTS, { recursive: true, force: true });
	fs.mkdirSync(SHOTS, { recursive: true });
	// the very first run installs n8n (~4 min) within npm start: run `npm start -- --exit-when-ready` once
	baseUrl = process.env.CALLKARO_EDITOR_URL?.replace(/\/+$/, '') ?? (await startN8n());
	selectors.setTestIdAttribute('data-test-id');
	context = await chromium.launchPersistentContext(
		fs.mkdtempSync(path.join(os.tmpdir(), 'callkaro-editor-chromium-')),
		{
			executablePath: CHROMIUM,
			headless: true,
			args: CHROMIUM_ARGS,
			viewport: { width: 1440, height: 900 },
		},
	);
	page = context.pages()[0] ?? (await context.newPage());
	page.setDefaultTimeout(20_000);
	page.setDefaultNavigationTimeout(60_000);
	page.on('pageerror', (err) => {
		if (/callkaro/i.test(err.message)) note(`page error: ${err.message.slice(0, 200)}`);
	});
	await page.goto(`${baseUrl}/signin`);
	await page.locator('input[name="emailOrLdapLoginId"]').fill(OWNER.email);
	await page.locator('input[name="password"]').fill(OWNER.password);
	await byId('form-submit-button').click();
	await page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: 20_000 });
	await page.goto(`${baseUrl}/workflow/new`);
	await byId('canvas-plus-button').waitFor({ timeout: 90_000 }); // the editor's first load is slow on a busy machine
}, 240_000);

afterAll(async () => {
	if (workflowId && page) await deleteWorkflow(workflowId);
	await context?.close().catch(() => {});
	if (npmStart) {
		// npm start's own SIGTERM handler stops n8n (its task runner) and the sandbox
		await stopProcess(npmStart, 30_000);
		for (let i = 0; i < 20 && (await portInUse(N8N_PORT)); i++)
			await new Promise((r) => setTimeout(r, 500));
		if (await portInUse(N8N_PORT))
			throw new Error(`npm start stopped, yet port ${N8N_PORT} answers`);
	}
	const shots = fs.readdirSync(SHOTS).filter((f) => f.endsWith('.png')).length;
	console.log(`screenshots: ${path.relative(process.cwd(), SHOTS)}/ (${shots})`);
}, 60_000);

/** Archives, then deletes, the workflow this run made (n8n 2.x deletes only archived ones). */
async function deleteWorkflow(id) {
	const [archived, deleted] = await page
		.evaluate(async (wid) => {
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
		}, id)
		.catch((err) => [err.message.split('\n')[0], null]);
	if (deleted !== 200)
		note(
			`could not delete the workflow ${id} (archive ${archived}, delete ${deleted}): delete it by hand`,
		);
}

// ---------------------------------------------------------------------------------------------
// the editor

const byId = (id) => page.getByTestId(id);
const ndv = () => byId('ndv');

async function shot(name) {
	await page.waitForTimeout(250); // let transitions settle
	await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** Each of `expected` appears in `actual`, in this order (others may come between). */
function expectInOrder(actual, expected, what) {
	let at = -1;
	for (const label of expected) {
		const i = actual.indexOf(label, at + 1);
		if (i < 0)
			throw new Error(
				`${what}: "${label}" ${actual.includes(label) ? 'is out of order' : 'is not shown'} (shown: ${actual.join(' | ')})`,
			);
		at = i;
	}
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

/** Adds a node through the node creator, searching by its name; leaves its panel closed. */
async function addNode(name, opener) {
	await closePanel();
	await openCreatorFrom(opener);
	await byId('node-creator-search-bar').fill(name);
	const item = byId('node-creator-item-name').getByText(name, { exact: true });
	await item.waitFor();
	await item.click();
	// a community node opens its "Node details" page first, with an "Add to workflow" button
	const add = byId('node-creator').getByRole('button', { name: 'Add to workflow' });
	await Promise.race([add.waitFor({ timeout: 10_000 }), ndv().waitFor({ timeout: 10_000 })]);
	if (await add.isVisible()) await add.click();
	await ndv().waitFor();
	await closePanel();
	if (!workflowId) {
		workflowId = /\/workflow\/([^/?#]+)/.exec(page.url())?.[1] ?? null;
		if (workflowId === 'new') workflowId = null;
	}
}

const added = {
	trigger: once(() => addNode(NODES.trigger, { kind: 'empty' })),
	assign: once(async () => {
		await added.trigger();
		await addNode(NODES.assign, { kind: 'output', node: NODES.trigger, index: 0 });
	}),
	outbound: once(async () => {
		await added.assign();
		await addNode(NODES.outbound, { kind: 'output', node: NODES.assign, index: 0 });
	}),
	del: once(async () => {
		await added.assign();
		await addNode(NODES.del, { kind: 'output', node: NODES.assign, index: 1 });
	}),
	campaign: once(async () => {
		await added.trigger();
		await addNode(NODES.campaign, { kind: 'canvas' });
	}),
};

/** Opens the panel of a node (added first if need be). */
async function openPanel(key) {
	await added[key]();
	await closePanel();
	await canvasNode(NODES[key]).dblclick();
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
	await byId('node-parameters')
		.getByTestId('collection-parameter-add')
		.filter({ has: page.locator(`input[placeholder="${collectionLabel}"]`) })
		.click();
	const opts = byId('collection-parameter-option').filter({ visible: true });
	await opts.first().waitFor();
	return (await opts.allInnerTexts()).map((s) => s.trim());
}

async function pickCollectionOption(name) {
	await byId('collection-parameter-option')
		.filter({ visible: true })
		.getByText(name, { exact: true })
		.click();
	await page.waitForTimeout(200);
}

const credentialShown = () => byId('node-credentials-select').locator('input').first().inputValue();

/** Shows a parameter's description tooltip (hover over its label's info icon). */
async function showHint(param) {
	const label = byId('node-parameters').locator(`label[for="${param}"]`).first();
	await label.hover();
	await label
		.locator('svg')
		.first()
		.hover()
		.catch(() => {});
	await page.waitForTimeout(500);
	return await page
		.locator('[role="tooltip"], .n8n-tooltip, [data-side]')
		.filter({ visible: true })
		.allInnerTexts();
}

const canvasNode = (name) => page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);

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
	return (await canvasNode(name).innerText())
		.split('\n')
		.map((s) => s.trim())
		.filter(Boolean);
}

const iconSources = (name) =>
	canvasNode(name)
		.locator('img')
		.evaluateAll((imgs) => imgs.map((i) => i.getAttribute('src')));

// ---------------------------------------------------------------------------------------------

test('node creator: searching "CallKaro" lists all five nodes, with descriptions', async () => {
	await closePanel();
	await openCreatorFrom({
		kind: (await byId('canvas-plus-button').isVisible()) ? 'empty' : 'canvas',
	});
	await byId('node-creator-search-bar').fill('CallKaro');
	await byId('node-creator-item-name').first().waitFor();
	await page.waitForTimeout(300);
	const names = (await byId('node-creator-item-name').allInnerTexts()).map((n) => n.trim());
	expect(names).toEqual(expect.arrayContaining(Object.values(NODES)));
	const descriptions = await byId('node-creator-item-description').allInnerTexts();
	expect(descriptions.length).toBeGreaterThanOrEqual(5);
	await shot('01-node-creator-search');
	await page.keyboard.press('Escape');
	await byId('node-creator')
		.waitFor({ state: 'hidden' })
		.catch(() => {});
});

describe(NODES.trigger, () => {
	test('added from the node creator, its panel shows its fields and the webhook help', async () => {
		await openPanel('trigger');
		expectInOrder(
			await panelLabels(),
			['Filters', 'Verify Shared Secret', 'Options'],
			'Trigger fields',
		);
		await ndv().getByText('CallKaro has no API to register webhooks', { exact: false }).waitFor();
		await ndv().getByText('Webhook URLs', { exact: true }).waitFor();
		await shot('02-trigger-panel');
	});

	test('Webhook URLs, filters and the shared secret', async () => {
		await openPanel('trigger');
		await ndv().getByText('Webhook URLs', { exact: true }).click();
		await page.waitForTimeout(300);
		const filterNames = await collectionOptions('Add Filter');
		expectInOrder(
			filterNames,
			['Agent IDs', 'Call Types', 'Campaign ID', 'Outcomes'],
			'Add Filter',
		);
		await shot('03-trigger-filters-and-urls');
		await pickCollectionOption('Call Types');
		await byId('parameter-input-verifySecret').click();
		await byId('parameter-input-secretHeaderValue').waitFor();
		await fill('secretHeaderValue', VALUES.secret);
		expectInOrder(
			await panelLabels(),
			['Call Types', 'Verify Shared Secret', 'Secret Header Name', 'Secret Header Value'],
			'Trigger fields',
		);
		expect(await byId('parameter-input-headerName').locator('input').first().inputValue()).toBe(
			'X-CallKaro-Secret',
		);
		await shot('04-trigger-secret');
	});

	test('"When will this node trigger my flow?" shows the setup help', async () => {
		await openPanel('trigger');
		await ndv().getByText('When will this node trigger my flow?').click();
		await ndv().getByText('paste the Test URL into CallKaro', { exact: false }).waitFor();
		await shot('05-trigger-help');
		// the help names a button; is there one with that name?
		const named = /click "([^"]+)"/.exec(await ndv().innerText())?.[1];
		if (named && (await ndv().getByRole('button', { name: named, exact: true }).count()) === 0) {
			const buttons = (await ndv().getByRole('button').allInnerTexts())
				.map((b) => b.trim())
				.filter((b) => /test|execute|listen/i.test(b));
			note(
				`Trigger help says click "${named}", but no button has that name (buttons: ${[...new Set(buttons)].join(', ')})`,
			);
		}
		await closePanel();
	});
});

describe(NODES.assign, () => {
	test(`added after the trigger, credential "${CREDENTIAL}" preselected, fields in order, main ones filled`, async () => {
		await openPanel('assign');
		expect(await credentialShown()).toBe(CREDENTIAL);
		await shot('06-assign-panel-empty');
		expectInOrder(
			await panelLabels(),
			['Credential', 'Phone Number', 'Workflow ID', 'Attributes to Save', 'Start Run', 'Options'],
			'Assign fields',
		);
		await fill('phoneNumber', VALUES.phone);
		await fill('workflowId', VALUES.workflowId);
	});

	test('"Using Fields Below" shows attribute rows, "At a Set Time" shows Schedule Time, "Using JSON" the JSON field', async () => {
		await openPanel('assign');
		await selectOption('attributeSource', 'Using Fields Below');
		await byId('fixed-collection-attributes').getByTestId('fixed-collection-add').click();
		await fill('key', 'First Name');
		await fill('value', 'Asha');
		await selectOption('schedule', 'At a Set Time');
		await byId('parameter-input-scheduleAt').waitFor();
		expectInOrder(
			await panelLabels(),
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
		expectInOrder(
			await panelLabels(),
			['Attributes to Save', 'Attributes (JSON)', 'Replace Existing Values', 'Start Run'],
			'Assign fields (JSON)',
		);
		await shot('08-assign-panel-json');
		await collectionOptions('Add Option');
		await shot('09-assign-options');
		await page.keyboard.press('Escape');
	});

	test("the panel's Docs link points at the README; descriptions show as hints", async () => {
		await openPanel('assign');
		const href = await ndv().getByRole('link', { name: 'Docs' }).first().getAttribute('href');
		expect(href).toMatch(/github\.com\/callkaro\/n8n-nodes-callkaro/);
		// n8n appends ?utm_… to a codex primaryDocumentation URL, after any #fragment
		if (/#[^?]*\?/.test(href))
			note(
				`the Docs link ${href} puts n8n's ?utm_… query inside the #fragment, so the README opens at its top`,
			);
		const hint = (await showHint('phoneNumber')).join(' ');
		await shot('10-assign-phone-hint');
		expect(hint).toMatch(/country code/i);
		await closePanel();
	});

	test('the canvas shows the outputs "Started" and "Already Running", and the schedule as subtitle', async () => {
		await added.assign();
		await closePanel();
		const outputs = [await outputLabel(NODES.assign, 0), await outputLabel(NODES.assign, 1)];
		expect(outputs.map((o) => o && [o.text, o.visible])).toEqual([
			['Started', true],
			['Already Running', true],
		]);
		for (const o of outputs)
			if (o.truncated)
				note(
					`while unconnected, the canvas cuts the output name "${o.text}" short (${o.clientWidth}px of ${o.scrollWidth}px)`,
				);
		const sub = await nodeSubtitle(NODES.assign);
		expect(sub.includes('Start now') || sub.includes('Start at a set time')).toBe(true);
		await shot('11-canvas-assign-outputs');
	});
});

describe(NODES.outbound, () => {
	test('added on "Started", credential preselected, fields in order, main ones filled', async () => {
		await openPanel('outbound');
		expect(await credentialShown()).toBe(CREDENTIAL);
		expectInOrder(
			await panelLabels(),
			['Credential', 'Phone Number', 'Agent ID', 'Additional Fields', 'Options'],
			'Outbound fields',
		);
		await fill('agentId', VALUES.agentId);
		await fill('phoneNumber', VALUES.phone);
		await shot('12-outbound-panel');
	});

	test('Additional Fields offers the call settings', async () => {
		await openPanel('outbound');
		const opts = await collectionOptions('Add Field');
		expect(opts).toEqual(
			expect.arrayContaining([
				'Campaign ID',
				'Language',
				'Metadata',
				'Number of Retries',
				'Schedule Time',
			]),
		);
		await shot('13-outbound-additional-fields');
		await pickCollectionOption('Schedule Time');
		await collectionOptions('Add Field');
		await pickCollectionOption('Language');
		expectInOrder(
			await panelLabels(),
			['Additional Fields', 'Language', 'Schedule Time', 'Options'],
			'Outbound fields',
		);
		await shot('14-outbound-with-fields');
		// Time Zone sits under Options, as in Assign.
		expect(await collectionOptions('Add Option')).toContain('Time Zone');
		await shot('15-outbound-options');
		await page.keyboard.press('Escape');
		await closePanel();
	});
});

test(`${NODES.del}: added on "Already Running", credential preselected, fields in order`, async () => {
	await openPanel('del');
	expect(await credentialShown()).toBe(CREDENTIAL);
	expectInOrder(
		await panelLabels(),
		['Credential', 'Phone Number', 'Agent ID', 'Options'],
		'Delete fields',
	);
	await fill('agentId', VALUES.agentId);
	await fill('phoneNumber', VALUES.phone);
	await collectionOptions('Add Option');
	await shot('16-delete-panel');
	await page.keyboard.press('Escape');
	await closePanel();
});

test(`${NODES.campaign}: added, fields in order, Agent ID only for a single-agent campaign`, async () => {
	await openPanel('campaign');
	expect(await credentialShown()).toBe(CREDENTIAL);
	expectInOrder(
		await panelLabels(),
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
	await closePanel();
});

const saved = once(async () => {
	for (const key of Object.keys(added)) await added[key]();
	await closePanel();
	await page.keyboard.press('Control+s').catch(() => {});
	await page.waitForTimeout(800);
	workflowId = /\/workflow\/([^/?#]+)/.exec(page.url())?.[1] ?? workflowId;
});

test('canvas: every node with its name and subtitle, the light icon', async () => {
	await saved();
	await byId('zoom-to-fit').click();
	await page.waitForTimeout(600);
	const lines = {};
	for (const name of Object.values(NODES)) {
		expect(await canvasNode(name).isVisible()).toBe(true);
		lines[name] = await nodeSubtitle(name);
	}
	expect(lines[NODES.trigger]).toContain('On call ended');
	expect(lines[NODES.outbound].some((l) => /^Call (now|at a set time)$/.test(l))).toBe(true);
	expect(lines[NODES.campaign].some((l) => /single agent/i.test(l))).toBe(true);
	expect((await iconSources(NODES.assign)).some((s) => /callkaro\.svg$/.test(s ?? ''))).toBe(true);
	await shot('19-canvas-light');
});

test('dark theme: canvas and two panels, with the dark icon', async () => {
	await saved();
	expect(workflowId).toBeTruthy(); // the workflow was saved (its id is in the URL)
	await page.goto(`${baseUrl}/workflow/${workflowId}?theme=dark`);
	await canvasNode(NODES.assign).waitFor({ timeout: 20_000 });
	await byId('zoom-to-fit').click();
	await page.waitForTimeout(600);
	expect((await iconSources(NODES.assign)).some((s) => /callkaro\.dark\.svg$/.test(s ?? ''))).toBe(
		true,
	);
	await shot('20-canvas-dark');
	for (const [key, name] of [
		['assign', '21-assign-panel-dark'],
		['trigger', '22-trigger-panel-dark'],
	]) {
		await canvasNode(NODES[key]).dblclick();
		await ndv().waitFor();
		await shot(name);
		await closePanel();
	}
});
