import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeHandler } from '../src';
import { ACCEPT_BOTH, fixtureApp } from '../../fastify/test/fixture-app';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

// Express and Connect mount a middleware at a prefix (`app.use('/mcp', mcp)`, the usual way) by
// handing it `req.url` without the prefix and the whole target in `req.originalUrl`: this server
// does what their routers do, so the spec needs neither.
function mounted(prefix: string, handler: ReturnType<typeof createNodeHandler>, passed: string[]): Server {
  return createServer((req: IncomingMessage & { originalUrl?: string }, res) => {
    const next = (): void => {
      passed.push(req.originalUrl ?? req.url!);
      res.writeHead(404).end();
    };
    const url = req.url!;
    if (url !== prefix && !url.startsWith(`${prefix}/`) && !url.startsWith(`${prefix}?`)) return next();
    req.originalUrl = url;
    req.url = url.slice(prefix.length) || '/';
    if (req.url.startsWith('?')) req.url = `/${req.url}`;
    handler(req, res, next);
  });
}

describe('createNodeHandler mounted at a prefix (Express, Connect)', () => {
  const passed: string[] = [];
  const mcp = createNodeHandler(fixtureApp(), { path: '/mcp' });
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = mounted('/mcp', mcp, passed).listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await mcp.close();
    await new Promise((resolve) => server.close(resolve));
  });

  // A connection of its own per request (no agent): `fetch` reuses the process's pooled keep-alive
  // connections by origin, and another suite in this jest worker may have left one open to an
  // earlier server on the same port, which would answer instead.
  const post = (path: string): Promise<{ status: number; json: () => Promise<unknown> }> =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify(INIT);
      const headers = { 'content-type': 'application/json', accept: ACCEPT_BOTH, 'content-length': String(Buffer.byteLength(body)) };
      request(`${base}${path}`, { method: 'POST', headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, json: () => Promise.resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))) }));
        res.on('error', reject);
      })
        .on('error', reject)
        .end(body);
    });

  it('serves its path as clients send it, the query too', async () => {
    for (const path of ['/mcp', '/mcp?x=1']) {
      const answer = await post(path);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ id: 1, result: { serverInfo: { name: 'fixture' } } });
    }
    expect(passed).toEqual([]);
  });

  it('hands a path under the prefix that is not its own to next', async () => {
    expect((await post('/mcp/other')).status).toBe(404);
    expect(passed).toEqual(['/mcp/other']);
  });
});
