import Fastify from 'fastify';
import { createApp, Tool, type RequestContext } from '@mcpkit/core';
import { mcpkit, serveHttp } from '@mcpkit/fastify';

class Reports {
  @Tool({ description: 'Builds a report, reporting progress', input: null })
  async build(_input: unknown, ctx: RequestContext): Promise<string> {
    for (let step = 1; step <= 3; step++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      ctx.progress(step, 3, `part ${step} of 3`); // turns the answer into an SSE stream
    }
    return `report for ${String(ctx.transport.headers?.['x-team'] ?? 'everyone')}`;
  }
}

export const app = createApp({ name: 'reports', version: '1.0.0', providers: [Reports] });

// 1. Mounted on a service you already run: its other routes, hooks and parsers are untouched.
export async function mounted() {
  const service = Fastify();
  service.get('/health', async () => ({ ok: true }));
  await service.register(mcpkit, { app, path: '/mcp', allowedHosts: ['localhost', 'reports.internal'] });
  return service;
}

// 2. Standalone, one call: Fastify inside, loopback only by default.
export async function standalone() {
  const server = await serveHttp(app, { port: 0, sessionIdleTimeoutMs: 10 * 60_000 });
  return server; // server.url is http://127.0.0.1:<port>/mcp; server.close() ends it
}
