// The oldest n8n the README promises is the one CI proves: .ci/run installs that version and runs
// an example workflow on it.
import { projectFileText, readmeText } from './readmeText.mjs';

describe('Compatibility', () => {
	const oldest = /Oldest n8n: (\d+\.\d+\.\d+)\b/.exec(readmeText())?.[1];

	it('the README names the oldest n8n the package runs on', () => {
		expect(oldest).toMatch(/^1\.\d+\.\d+$/);
	});

	it('.ci/run runs an example workflow on that n8n', () => {
		const run = projectFileText('.ci/run');
		expect(run).toContain(`npm run test:e2e -- --skip-build --n8n ${oldest} -t "sheet example`);
	});

	it('the README names as the newest 2.x the n8n the e2e runs by default (scripts/n8n/install.mjs)', () => {
		const newest = /export const DEFAULT_N8N = '(\d+\.\d+\.\d+)'/.exec(
			projectFileText('scripts/n8n/install.mjs'),
		)?.[1];
		expect(newest).toMatch(/^2\.\d+\.\d+$/);
		expect(readmeText()).toContain(
			`| n8n ${newest} (real process), the newest 2.x that installs |`,
		);
	});
});
