import fs from 'node:fs';

/** Removes the work folder, unless --keep. */
export default async function globalTeardown() {
	const work = process.env.CALLKARO_E2E_WORK;
	if (process.env.CALLKARO_E2E_KEEP) console.log(`[e2e] kept ${work}`);
	else fs.rmSync(work, { recursive: true, force: true });
}
