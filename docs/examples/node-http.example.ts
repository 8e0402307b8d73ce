import { createServer } from 'node:http';
import { createApp, Tool, type RequestContext } from '@mcpkit/core';
import { createNodeHandler } from '@mcpkit/http';

class Clock {
  @Tool({ description: 'Says the time in a city', input: null })
  now(_input: unknown, ctx: RequestContext): string {
    return `noon in ${String(ctx.transport.headers?.['x-city'] ?? 'Paris')}`;
  }
}

export const app = createApp({ name: 'clock', version: '1.0.0', providers: [Clock] });

// Same options, defaults and answers as the Fastify plugin and the fetch handler.
const mcp = createNodeHandler(app, { path: '/mcp' });

// A plain node:http server: other paths go to `next` (with Express: `service.use(mcp)`).
export const server = createServer((req, res) =>
  mcp(req, res, () => {
    res.writeHead(req.url === '/health' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: req.url === '/health' }));
  }),
);

// On shutdown: ends open streams and sessions, then the server. A client still sending its
// request would hold `close` until the server's requestTimeout: its connection is cut.
export const shutdown = () =>
  mcp.close().then(
    () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  );
