// n8n-workflow, from the engine bundle (engineBundle.cjs).
module.exports = require('./testFileEngine.cjs')().workflow;
