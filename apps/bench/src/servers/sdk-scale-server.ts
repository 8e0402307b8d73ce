// pnpm bench:scale's official-SDK server: the SDK's documented session pattern (one McpServer and
// one StreamableHTTPServerTransport per session, on node:http), the same `echo` tool and
// subscribable resource as mcpkit's scale server. The SDK keeps no subscriptions of its own, so
// each session's `resources/subscribe` handler remembers it and an update goes to every
// subscribed session's server (`sendResourceUpdated`, on the session's GET stream).
// Run: node --expose-gc sdk-scale-server.js   (PORT, HOST)
import { createServer, type IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { serveControl } from './scale-control';

const SCALE_URI = 'bench://counter';
const transports = new Map<string, StreamableHTTPServerTransport>();
const subscribed = new Set<McpServer>();
let counter = 0;

function buildServer(): McpServer {
  const server = new McpServer({ name: 'sdk-scale', version: '1.0.0' }, { capabilities: { resources: { subscribe: true } } });
  server.registerTool('echo', { description: 'Returns the text it was given', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerResource('counter', SCALE_URI, { description: 'Counts the updates', mimeType: 'text/plain' }, async () => ({
    contents: [{ uri: SCALE_URI, mimeType: 'text/plain', text: String(counter) }],
  }));
  server.server.setRequestHandler(SubscribeRequestSchema, async () => (subscribed.add(server), {}));
  server.server.setRequestHandler(UnsubscribeRequestSchema, async () => (subscribed.delete(server), {}));
  return server;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  let body = '';
  for await (const chunk of request) body += chunk;
  return body ? JSON.parse(body) : undefined;
}

const http = createServer((request, response) => {
  void (async () => {
    const body = request.method === 'POST' ? await readBody(request) : undefined;
    const id = request.headers['mcp-session-id'] as string | undefined;
    let transport = id ? transports.get(id) : undefined;
    if (!transport) {
      const server = buildServer();
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void transports.set(sid, created),
      });
      created.onclose = () => (subscribed.delete(server), created.sessionId && transports.delete(created.sessionId));
      transport = created;
      await server.connect(transport);
    }
    await transport.handleRequest(request, response, body);
  })().catch((error: unknown) => {
    if (!response.headersSent) response.writeHead(500).end(String(error));
  });
});
http.maxConnections = 50_000;
http.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1', () => {
  serveControl(() => {
    counter += 1;
    for (const server of subscribed) void server.server.sendResourceUpdated({ uri: SCALE_URI });
  });
});
process.once('SIGTERM', () => http.close(() => process.exit(0)));
