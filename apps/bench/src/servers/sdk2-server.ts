// The testbed surface written with the official SDK v2 (`@modelcontextprotocol/server` 2.4,
// zod 4), as its docs show: one factory behind `serveStdio` and `createMcpHandler`, both dual-era.
// Run: node sdk2-server.js stdio | http   (PORT, HOST, TOOLS)
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod4';

function buildServer(): McpServer {
  const server = new McpServer({ name: 'sdk2-testbed', version: '0.1.0' }, { capabilities: { tools: {}, resources: {}, prompts: {} } });
  server.registerTool('echo', { description: 'Returns the text it was given', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('add', { description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  server.registerTool(
    'validate',
    {
      description: 'Validates a ten-field object',
      inputSchema: z.object({
        name: z.string().min(1).max(64),
        email: z.email(),
        age: z.int().min(0).max(150),
        score: z.number().min(0).max(100),
        role: z.enum(['admin', 'editor', 'viewer']),
        active: z.boolean(),
        tags: z.array(z.string().min(1)).max(20),
        address: z.object({ street: z.string().min(1), city: z.string().min(1), zip: z.string().regex(/^[0-9]{5}$/) }),
        nickname: z.string().max(32).optional(),
        priority: z.int().min(1).max(5),
      }),
    },
    async (input) => ({
      content: [{ type: 'text', text: `valid:${input.name}:${input.age}:${input.tags.length}:${input.address.zip}:${input.nickname ?? '-'}` }],
    }),
  );
  server.registerTool('fail', { description: 'Always fails' }, async () => {
    throw new Error('the fail tool failed');
  });
  server.registerTool('slow', { description: 'Sleeps', inputSchema: z.object({ ms: z.int().min(0) }) }, async ({ ms }, ctx) => {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      ctx.mcpReq.signal.addEventListener('abort', () => (clearTimeout(timer), resolve(undefined)), { once: true });
    });
    return { content: [{ type: 'text', text: `slept ${ms}` }] };
  });
  const extra = Number(process.env.TOOLS ?? 0);
  for (let i = 0; i < extra; i++) {
    server.registerTool(
      `tool_${i}`,
      { description: `Synthetic tool number ${i} for tools/list benchmarks`, inputSchema: z.object({ x: z.number(), label: z.string().optional() }) },
      async ({ x }) => ({
        content: [{ type: 'text', text: `tool_${i}:${x}` }],
      }),
    );
  }
  return server;
}

if (process.argv[2] === 'http') {
  const handle = toNodeHandler(createMcpHandler(buildServer));
  const http = createServer((request, response) => void handle(request, response));
  http.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1', () => {
    const address = http.address() as { port: number };
    process.stderr.write(`sdk2 testbed listening on http://127.0.0.1:${address.port}/mcp\n`);
  });
  process.once('SIGTERM', () => http.close(() => process.exit(0)));
} else {
  serveStdio(buildServer);
}
