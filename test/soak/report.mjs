// @ts-check
// Plain .mjs because the strict lint forbids console in .ts files: the soak prints its counts.

/** @param {string} title @param {Record<string, number>} counts */
export function printCounts(title, counts) {
	const lines = Object.entries(counts).map(([name, count]) => `  ${name.padEnd(40)} ${count}`);
	process.stdout.write(`\n${title}\n${lines.join('\n')}\n`);
}
