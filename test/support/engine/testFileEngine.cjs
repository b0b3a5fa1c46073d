// The engine bundle's exports (engineBundle.cjs), run once per test file. jest.isolateModules
// gives what is required inside it a module registry of its own (a node loaded afresh, as by a
// new n8n process), these shims included: each such load ran the 13 MB bundle again, about half a
// second of a core. Kept on the test file's global, which no other file shares.
const ENGINE = Symbol.for('callkaro.testFileEngine');

module.exports = () => (globalThis[ENGINE] ??= require('./engineBundle.cjs').engine());
