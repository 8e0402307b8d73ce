// An app served through the fetch binding, as an edge or Bun user ships it: bundled by
// esm-fetch-bundle.js into one ES module with everything inside. It answers one tools/list
// through the handler and prints the status and the tool names as JSON.
import { createFetchHandler } from '@mcpkit/http';
import testbed from '../../apps/testbed/dist/app.js';

const mcp = createFetchHandler(testbed.createTestbedApp(), { path: '/mcp' });
const revision = '2026-07-28';
const response = await mcp(
  new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': revision,
      'mcp-method': 'tools/list',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': revision,
          'io.modelcontextprotocol/clientInfo': { name: 'esm-smoke', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  }),
);
const body = await response.json();
process.stdout.write(`${JSON.stringify({ status: response.status, tools: body.result?.tools?.map((tool) => tool.name) ?? body })}\n`);
await mcp.close();
