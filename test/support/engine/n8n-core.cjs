// n8n-core, from the engine bundle (engineBundle.cjs).
module.exports = require('./testFileEngine.cjs')().core;
