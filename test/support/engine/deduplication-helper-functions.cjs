// n8n-core's deduplication helpers, from the engine bundle (engineBundle.cjs).
module.exports = require('./testFileEngine.cjs')().deduplicationHelpers;
