// Preloaded into `n8n execute` by the benchmark (node --require). Observation only: when the
// process exits (n8n's CLI ends with process.exit()), it appends one JSON line to
// $CALLKARO_BENCH_PROBE with this process's CPU time and memory high-water mark, read at the
// very end, after n8n has printed the execution.
// { pid, ppid, cpuUserUs, cpuSystemUs, maxRssKb, vmHwmKb, vmRssKb }
'use strict';
const fs = require('node:fs');

const file = process.env.CALLKARO_BENCH_PROBE;
const statusKb = (text, field) => {
	const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
	return match ? Number(match[1]) : null;
};

if (file) {
	process.on('exit', () => {
		try {
			const cpu = process.cpuUsage();
			const status = fs.readFileSync('/proc/self/status', 'utf8');
			const line = {
				pid: process.pid,
				ppid: process.ppid,
				cpuUserUs: cpu.user,
				cpuSystemUs: cpu.system,
				maxRssKb: process.resourceUsage().maxRSS,
				vmHwmKb: statusKb(status, 'VmHWM'),
				vmRssKb: statusKb(status, 'VmRSS'),
			};
			fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
		} catch {}
	});
}
