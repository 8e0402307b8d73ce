// The testbed surface written with the official SDK (v1 McpServer + zod), as its docs show.
// Run: node sdk-server.js stdio | http   (MCP_HTTP_MODE=stateful|stateless, PORT, HOST, TOOLS)
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

function buildServer(): McpServer {
  const server = new McpServer({ name: 'sdk-testbed', version: '0.1.0' });
  server.registerTool('echo', { description: 'Returns the text it was given', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('add', { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  server.registerTool(
    'validate',
    {
      description: 'Validates a ten-field object',
      inputSchema: {
        name: z.string().min(1).max(64),
        email: z.string().email(),
        age: z.number().int().min(0).max(150),
        score: z.number().min(0).max(100),
        role: z.enum(['admin', 'editor', 'viewer']),
        active: z.boolean(),
        tags: z.array(z.string().min(1)).max(20),
        address: z.object({ street: z.string().min(1), city: z.string().min(1), zip: z.string().regex(/^[0-9]{5}$/) }),
        nickname: z.string().max(32).optional(),
        priority: z.number().int().min(1).max(5),
      },
    },
    async (input) => ({
      content: [{ type: 'text', text: `valid:${input.name}:${input.age}:${input.tags.length}:${input.address.zip}:${input.nickname ?? '-'}` }],
    }),
  );
  server.registerTool('fail', { description: 'Always fails' }, async () => {
    throw new Error('the fail tool failed');
  });
  server.registerTool('slow', { description: 'Sleeps', inputSchema: { ms: z.number().int().min(0) } }, async ({ ms }, extra) => {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      extra.signal.addEventListener('abort', () => (clearTimeout(timer), resolve(undefined)), { once: true });
    });
    return { content: [{ type: 'text', text: `slept ${ms}` }] };
  });
  const extra = Number(process.env.TOOLS ?? 0);
  for (let i = 0; i < extra; i++) {
    server.registerTool(
      `tool_${i}`,
      { description: `Synthetic tool number ${i} for tools/list benchmarks`, inputSchema: { x: z.number(), label: z.string().optional() } },
      async ({ x }) => ({
        content: [{ type: 'text', text: `tool_${i}:${x}` }],
      }),
    );
  }
  server.registerResource('static', 'test://static', { description: 'A fixed text resource', mimeType: 'text/plain' }, async () => ({
    contents: [{ uri: 'test://static', mimeType: 'text/plain', text: 'static resource content' }],
  }));
  server.registerPrompt('greet', { description: 'Greets someone by name', argsSchema: { name: z.string() } }, ({ name }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Please greet ${name} warmly.` } }],
  }));
  return server;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  let body = '';
  for await (const chunk of request) body += chunk;
  return body ? JSON.parse(body) : undefined;
}

async function main(): Promise<void> {
  if (process.argv[2] !== 'http') {
    await buildServer().connect(new StdioServerTransport());
    return;
  }
  const stateless = process.env.MCP_HTTP_MODE === 'stateless';
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const body = request.method === 'POST' ? await readBody(request) : undefined;
      if (stateless) {
        // The SDK's documented stateless pattern: a new server and transport per request.
        const server = buildServer();
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        response.on('close', () => void transport.close().then(() => server.close()));
        await server.connect(transport);
        await transport.handleRequest(request, response, body);
        return;
      }
      const id = request.headers['mcp-session-id'] as string | undefined;
      let transport = id ? transports.get(id) : undefined;
      if (!transport) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => void transports.set(sid, transport!),
        });
        await buildServer().connect(transport);
      }
      await transport.handleRequest(request, response, body);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  http.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1', () => {
    const address = http.address() as { port: number };
    process.stderr.write(`sdk testbed listening on http://127.0.0.1:${address.port}/mcp\n`);
  });
  process.once('SIGTERM', () => http.close(() => process.exit(0)));
}

void main();
