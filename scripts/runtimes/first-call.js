#!/usr/bin/env node
// How long the first validated tools/call takes, with validators compiled at first use (ajv at run
// time) and with validators compiled ahead of time (`mcpkit build-validators`), on Node: each in
// fresh processes, the median of RUNS. Uses the Worker cell's app as workerd.js builds it (run
// that first). A measurement, not a test: it prints figures for docs/runtimes-workers.md.
'use strict';

const { execFileSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const BUILD = join(ROOT, '.cache', 'runtimes', 'workerd', 'build');
const NODE_PATHS = [join(ROOT, 'apps', 'testbed', 'node_modules'), join(ROOT, 'packages', 'http', 'node_modules')];
const RUNS = Number(process.env.RUNS ?? 7);

// One process: build the app (with or without the generated module), then time the first call and a second one.
const CHILD = `
const { performance } = require('node:perf_hooks');
const { createFetchHandler } = require('@mcpkit/http');
const { createWorkerApp } = require(${JSON.stringify(join(BUILD, 'app.js'))});
const validators = process.argv[1] === 'precompiled' ? require(${JSON.stringify(join(BUILD, 'validators.generated.js'))}) : undefined;
const mcp = createFetchHandler(createWorkerApp(validators), { path: '/mcp' });
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'first-call', version: '1' } };
const call = (id) => mcp(new Request('http://127.0.0.1/mcp', {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'greet' },
  body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'greet', arguments: { name: 'Ada' }, _meta: meta } }),
})).then((response) => response.text());
(async () => {
  let at = performance.now();
  const first = await call(1);
  const firstMs = performance.now() - at;
  at = performance.now();
  await call(2);
  const secondMs = performance.now() - at;
  if (!first.includes('Hello, Ada!')) throw new Error(first);
  process.stdout.write(JSON.stringify({ firstMs, secondMs }));
  await mcp.close();
})();
`;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

if (!existsSync(join(BUILD, 'validators.generated.js'))) {
  console.error('No Worker build: run node scripts/runtimes/workerd.js first.');
  process.exit(1);
}
const results = {};
for (const mode of ['runtime', 'precompiled']) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const out = execFileSync(process.execPath, ['-e', CHILD, mode], {
      encoding: 'utf8',
      env: { ...process.env, NODE_PATH: NODE_PATHS.join(':'), LOG_LEVEL: 'warn' },
    });
    runs.push(JSON.parse(out));
  }
  results[mode] = { first: median(runs.map((r) => r.firstMs)), second: median(runs.map((r) => r.secondMs)) };
  console.log(
    `${mode.padEnd(11)} first tools/call ${results[mode].first.toFixed(1)} ms, second ${results[mode].second.toFixed(1)} ms (median of ${RUNS} processes, Node ${process.version})`,
  );
}
console.log(`precompiled validators save ${(results.runtime.first - results.precompiled.first).toFixed(1)} ms on the first call`);
