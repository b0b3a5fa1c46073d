// Once per `npm run test:e2e`: build (unless --skip-build), pack, and install n8n (cached). The
// *.e2e.mjs files read the result through harness.mjs's packed().
import fs from 'node:fs';
import path from 'node:path';

import { ensureN8n } from '../../scripts/n8n/install.mjs';
import { buildPackage, packPackage, tempDir } from '../../scripts/n8n/host.mjs';

export default async function globalSetup() {
	const log = (m) => console.log(`[e2e] ${m}`);
	const work = tempDir('callkaro-e2e-');
	log(`work folder ${work}`);
	if (!process.env.CALLKARO_E2E_SKIP_BUILD) await buildPackage({ log });
	const { tarball, files } = await packPackage({ outDir: work, log });
	const { n8nDir } = await ensureN8n({ log });
	fs.writeFileSync(
		path.join(work, 'packed.json'),
		JSON.stringify({ work, tarball, files, n8nDir }),
	);
	process.env.CALLKARO_E2E_WORK = work;
}
