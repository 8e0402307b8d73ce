import { serve } from '@hono/node-server';
import { Hono } from 'hono';

/** docs/http.md's Hono app, served as @hono/node-server's README does. */
export function serveHono(mcp: (request: Request) => Promise<Response>, port: number, listening: (url: string) => void): void {
  const hono = new Hono();
  hono.get('/health', (c) => c.json({ ok: true }));
  hono.all('/mcp', (c) => mcp(c.req.raw));
  serve({ fetch: hono.fetch, port, hostname: '127.0.0.1' }, (info) => listening(`http://127.0.0.1:${info.port}/mcp`));
}
