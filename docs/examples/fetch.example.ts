import { Hono } from 'hono';
import { createApp, Tool, type RequestContext } from '@mcpkit/core';
import { createFetchHandler } from '@mcpkit/http';

class Search {
  @Tool({ description: 'Searches the catalogue, reporting progress', input: null })
  async search(_input: unknown, ctx: RequestContext): Promise<string> {
    ctx.progress(1, 2, 'indexing'); // the answer becomes an SSE stream (a ReadableStream)
    await new Promise((resolve) => setTimeout(resolve, 10));
    return `3 hits for ${String(ctx.transport.headers?.['x-user'] ?? 'anyone')}`;
  }
}

export const app = createApp({ name: 'catalogue', version: '1.0.0', providers: [Search] });

// Same options, defaults and answers as the Fastify plugin (sessions, SSE, resumption, Host/Origin).
const mcp = createFetchHandler(app, { path: '/mcp' });

// Hono (or Bun.serve({ fetch: mcp }), Deno.serve(mcp), a Workers `fetch`).
export const hono = new Hono();
hono.get('/health', (c) => c.json({ ok: true }));
hono.all('/mcp', (c) => mcp(c.req.raw));

// On shutdown: ends open streams and sessions.
export const shutdown = () => mcp.close();
