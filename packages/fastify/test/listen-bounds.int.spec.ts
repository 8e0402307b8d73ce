import v8 from 'node:v8';
import vm from 'node:vm';
import pino from 'pino';
import { serveHttp, type HttpServer } from '../src';
import { fixtureApp, post } from './fixture-app';

// Review of #26, finding 5: over HTTP each 2026-07-28 subscriptions/listen is a request of its own
// that stays open with its filter, so the filter is bounded (maxListenFilterEntries, -32602) and
// so is the number open at once on the endpoint (maxListens, 503).
describe('subscriptions/listen bounds (Fastify, loopback)', () => {
  let server: HttpServer;
  const lines: Array<Record<string, unknown>> = [];
  const open: AbortController[] = [];

  beforeAll(async () => {
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    server = await serveHttp(fixtureApp(logger, { subscriptions: true, maxListenFilterEntries: 3 }), { port: 0, maxListens: 2 });
  });
  afterAll(async () => {
    for (const listen of open) listen.abort();
    await server.close();
  });

  const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const HEADERS = { 'mcp-protocol-version': '2026-07-28' };
  const listenBody = (id: number, uris: string[]) => ({
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: { notifications: { resourceSubscriptions: uris }, _meta: META },
  });

  /** Opens a listen and reads its acknowledgement; the controller ends it. */
  async function listen(id: number): Promise<{ status: number; first: string; controller: AbortController }> {
    const controller = new AbortController();
    open.push(controller);
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-method': 'subscriptions/listen', ...HEADERS },
      body: JSON.stringify(listenBody(id, ['fixture://hello'])),
      signal: controller.signal,
    });
    if (response.status !== 200) return { status: response.status, first: await response.text(), controller };
    const reader = response.body!.getReader();
    const chunk = await reader.read();
    return { status: response.status, first: new TextDecoder().decode(chunk.value), controller };
  }

  it('refuses a filter over maxListenFilterEntries with -32602 and data.limit, logged, and opens nothing', async () => {
    const refused = await post(server.url, listenBody(1, ['fixture://a', 'fixture://b', 'fixture://c', 'fixture://d']), {
      ...HEADERS,
      'mcp-method': 'subscriptions/listen',
    });
    expect(await refused.text()).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"subscriptions/listen names 4 resources and tasks (params.notifications.resourceSubscriptions and taskIds), over the limit of 3 (maxListenFilterEntries)","data":{"limit":3}}}',
    );
    expect(refused.status).toBe(400);
    expect(lines.filter((line) => line.msg === 'refused a subscriptions/listen over maxListenFilterEntries')).toHaveLength(1);
  });

  it('keeps at most maxListens open: the next is 503 with Retry-After, logged once, and a listen that ends makes room', async () => {
    const [a, b] = [await listen(2), await listen(3)];
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.first).toContain('notifications/subscriptions/acknowledged');
    const full = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-method': 'subscriptions/listen', ...HEADERS },
      body: JSON.stringify(listenBody(4, ['fixture://hello'])),
    });
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).not.toBeNull();
    expect(await full.text()).toBe(
      '{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Too many open subscriptions/listen requests on this server (maxListens 2); try again later","data":{"limit":2}}}',
    );
    expect((await listen(5)).status).toBe(503);
    expect(lines.filter((line) => line.msg === 'refused a subscriptions/listen over maxListens')).toHaveLength(1);
    // Every refusal has its request line.
    expect(lines.filter((line) => line.msg === 'request' && (line.rpcId === 4 || line.rpcId === 5)).map((line) => line.rpcId)).toEqual([4, 5]);

    // Other requests are served meanwhile; a listen whose client leaves frees its place.
    const discover = await post(
      server.url,
      { jsonrpc: '2.0', id: 6, method: 'server/discover', params: { _meta: META } },
      { ...HEADERS, 'mcp-method': 'server/discover' },
    );
    expect(discover.status).toBe(200);
    await discover.text();
    a.controller.abort();
    let again = await listen(7);
    for (let tries = 0; again.status === 503 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      again = await listen(7);
    }
    expect(again.status).toBe(200);
    b.controller.abort();
    again.controller.abort();
  });
});

// What bounds a listen is its filter: not its body, which Fastify's request (kept for as long as
// the response streams) held until the client closed the listen.
describe('an open subscriptions/listen keeps nothing of its body (Fastify, loopback)', () => {
  it('twenty listens with 2 MB of _meta each leave the heap flat', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const server = await serveHttp(fixtureApp(undefined, { subscriptions: true }), { port: 0 });
    const open: AbortController[] = [];
    try {
      const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        padding: 'p'.repeat(2_000_000),
      };
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { notifications: {}, _meta: meta } });
      gc();
      const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < 20; i++) {
        const controller = new AbortController();
        open.push(controller);
        const response = await fetch(server.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'subscriptions/listen',
          },
          body,
          signal: controller.signal,
        });
        expect(response.status).toBe(200);
        await response.body!.getReader().read();
      }
      gc();
      // 20 bodies are 40 MB; what a listen itself keeps is a few KB.
      expect(process.memoryUsage().heapUsed - before).toBeLessThan(15 * 1024 * 1024);
      const discover = await post(
        server.url,
        { jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: meta } },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
      );
      expect(discover.status).toBe(200);
      await discover.text();
    } finally {
      for (const controller of open) controller.abort();
      await server.close();
    }
  });
});
