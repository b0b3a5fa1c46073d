// Preloaded into `n8n execute` by the bench (node --require), to observe only: as the process exits
// (n8n's CLI ends with process.exit(), after printing the execution), it appends its CPU time and
// memory high-water mark (VmHWM) to $CALLKARO_BENCH_PROBE as one JSON line.
'use strict';
const fs = require('node:fs');

const file = process.env.CALLKARO_BENCH_PROBE;
if (file)
	process.on('exit', () => {
		const { user, system } = process.cpuUsage();
		const status = fs.readFileSync('/proc/self/status', 'utf8');
		const vmHwmKb = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)[1]);
		fs.appendFileSync(file, `${JSON.stringify({ cpuUs: user + system, vmHwmKb })}\n`);
	});
