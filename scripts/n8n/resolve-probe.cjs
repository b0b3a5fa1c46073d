// Preloaded into an n8n CLI process (node --require) by the e2e: records how the modules that
// n8n-nodes-callkaro needs but does not ship (zod, luxon, n8n-workflow) resolve when n8n loads the
// installed community package. Observation only: it calls the real resolver and changes nothing.
// Writes JSON lines to $CALLKARO_RESOLVE_LOG: { request, from, resolved }.
'use strict';
const fs = require('node:fs');
const Module = require('node:module');

const logFile = process.env.CALLKARO_RESOLVE_LOG;
const marker = `${require('node:path').sep}n8n-nodes-callkaro${require('node:path').sep}`;
const watched = /^(zod|luxon|n8n-workflow|n8n-core)(\/|$)/;
const original = Module._resolveFilename;
const seen = new Set();
Module._resolveFilename = function (request, parent, ...rest) {
	const resolved = original.call(this, request, parent, ...rest);
	try {
		const from = parent && parent.filename;
		if (logFile && from && from.includes(marker) && watched.test(request)) {
			const key = `${request}\0${resolved}`;
			if (!seen.has(key)) {
				seen.add(key);
				fs.appendFileSync(logFile, `${JSON.stringify({ request, from, resolved })}\n`);
			}
		}
	} catch {}
	return resolved;
};
