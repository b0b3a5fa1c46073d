// Preloaded into each n8n process of the local cluster (node --require). n8n names an instance
// `<role>-<hostname>` when it runs in a container, so two workers on one host share a host id
// and n8n's cluster check warns. CALLKARO_HOST_NAME gives each process its own.
const os = require('node:os');

const name = process.env.CALLKARO_HOST_NAME;
if (name) os.hostname = () => name;
