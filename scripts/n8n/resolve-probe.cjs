// Preloaded into an n8n CLI process (node --require) by the e2e: records how the modules that
// n8n-nodes-callkaro needs but does not ship (zod, luxon, n8n-workflow) resolve when n8n loads the
// installed community package. Observation only: it calls the real resolver and changes nothing.
// Writes JSON lines to $CALLKARO_RESOLVE_LOG: { request, from, resolved }.
'use strict';
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const logFile = process.env.CALLKARO_RESOLVE_LOG;
const marker = `${path.sep}n8n-nodes-callkaro${path.sep}`;
const watched = /^(zod|luxon|n8n-workflow|n8n-core)(\/|$)/;
const original = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
	const resolved = original.call(this, request, parent, ...rest);
	const from = parent?.filename;
	if (logFile && from?.includes(marker) && watched.test(request))
		fs.appendFileSync(logFile, `${JSON.stringify({ request, from, resolved })}\n`);
	return resolved;
};
