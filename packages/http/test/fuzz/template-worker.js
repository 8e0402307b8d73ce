// Runs the built packages (pnpm test builds before jest) in a worker thread the fuzzer can
// terminate: a matcher that backtracks blocks its thread for minutes inside one regex, which no
// timer of the same thread can interrupt. Each message is { templates } (build an app) or
// { uri } (read it over the HTTP core, as a 2026-07-28 client); each reply is the answer.
'use strict';
require('reflect-metadata');
const { parentPort } = require('node:worker_threads');
const pino = require('pino');
const { createApp, defineResourceTemplate } = require('@mcpkit/core');
const { createHttpHandler } = require('../../dist/index.js');

const MODERN = '2026-07-28';
let handler;

parentPort.on('message', async (message) => {
  try {
    if (message.templates) {
      const providers = message.templates.map((uriTemplate, index) =>
        defineResourceTemplate({ uriTemplate, name: `generated_${index}` }, (variables) => JSON.stringify(variables)),
      );
      const app = createApp({ name: 'fuzz-templates', version: '1.0.0', providers, logger: pino({ level: 'silent' }) });
      handler = createHttpHandler({ app, path: '/mcp', sessions: false, responseMode: 'json' });
      parentPort.postMessage({ ok: true });
      return;
    }
    const { uri } = message;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'resources/read',
      params: { uri, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} } },
    });
    const headers = {
      host: 'localhost',
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'resources/read',
      'mcp-name': uri,
    };
    const result = await handler.handle({ method: 'POST', path: '/mcp', headers, body });
    parentPort.postMessage({ status: result.status, body: result.body });
  } catch (error) {
    parentPort.postMessage({ thrown: String(error && error.stack) });
  }
});
