// One server per run, chosen by the first argument, as scripts/runtimes/run.js starts each cell:
//   stdio       newline-delimited JSON-RPC on stdin/stdout (@mcpkit/stdio)
//   http        serveHttp (@mcpkit/fastify)
//   node-fetch  the fetch binding (@mcpkit/http) on node:http, through the testbed's adapter
//   hono        the fetch binding in a Hono app on @hono/node-server (docs/http.md's example)
//   bun         the fetch binding on Bun.serve (run with bun)
// HTTP modes listen on 127.0.0.1:$PORT (0: any free port) and print `listening <url>` on stderr.
import { serveStdio } from '@mcpkit/stdio';
import { createRuntimeApp } from './app';

const mode = process.argv[2] ?? 'stdio';
const port = Number(process.env.PORT ?? 0);
const app = createRuntimeApp();

function listening(url: string): void {
  process.stderr.write(`listening ${url}\n`);
}

async function serve(): Promise<void> {
  if (mode === 'stdio') {
    serveStdio(app);
    return;
  }
  if (mode === 'http') {
    const { serveHttp } = await import('@mcpkit/fastify');
    const server = await serveHttp(app, { host: '127.0.0.1', port });
    listening(server.url);
    return;
  }
  const { createFetchHandler } = await import('@mcpkit/http');
  const mcp = createFetchHandler(app, { path: '/mcp' });
  if (mode === 'node-fetch') {
    const { serveFetch } = await import('@mcpkit/app-testbed/dist/fetch-server.js');
    listening((await serveFetch(mcp, '127.0.0.1', port)).url);
  } else if (mode === 'hono') {
    const { serveHono } = await import('./hono.js');
    serveHono(mcp, port, listening);
  } else if (mode === 'bun') {
    const { serveBun } = await import('./bun.js');
    listening(serveBun(mcp, port));
  } else {
    throw new Error(`unknown mode ${mode}: stdio, http, node-fetch, hono or bun`);
  }
}

serve().catch((error: unknown) => {
  process.stderr.write(`runtimes fixture could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
