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
});
