// request_guard_cpu_share, in a fresh process: the CPU that the last guard before sending
// (checkedRequest: the request parsed against its zod schema) takes per request, and per item the
// whole mapping (prepareAssign / prepareOutbound, the guard included), from dist/. Prints
// { assign: { guardUs, prepareUs }, outbound: { ... } } as JSON: CPU microseconds per call.
'use strict';
const path = require('node:path');

const requests = require(
	path.resolve(__dirname, '..', '..', 'dist', 'src', 'input', 'requests.js'),
);

const CALLS = 20_000;
const cpuUsPerCall = (fn) => {
	for (let i = 0; i < 2_000; i++) fn(i); // warm-up: the schemas are built, the code is optimised
	const { user, system } = process.cpuUsage();
	for (let i = 0; i < CALLS; i++) fn(i);
	const used = process.cpuUsage({ user, system });
	return (used.user + used.system) / CALLS;
};

// What the bench's Assign runs send, and an Outbound Call with the options a sheet would map.
const phoneNumber = (i) => `+9198${String(i % 100_000_000).padStart(8, '0')}`;
const assignInput = (i) => ({
	phoneNumber: phoneNumber(i),
	workflowId: 'wf_welcome',
	attributes: [],
});
const outboundInput = (i) => ({
	agentId: 'agent_sales',
	phoneNumber: phoneNumber(i),
	options: {
		metadataRows: [{ key: 'name', value: 'Asha' }],
		numberOfRetries: '2',
		gapBetweenRetries: '30, 60',
		language: 'hi',
	},
});

const measure = (prepare, schema, input) => {
	const request = prepare(input(0)).request;
	return {
		guardUs: cpuUsPerCall(() => requests.checkedRequest(schema(), request)),
		prepareUs: cpuUsPerCall((i) => prepare(input(i))),
	};
};
process.stdout.write(
	`${JSON.stringify({
		assign: measure(requests.prepareAssign, requests.assignRequestSchema, assignInput),
		outbound: measure(requests.prepareOutbound, requests.outboundRequestSchema, outboundInput),
	})}\n`,
);
