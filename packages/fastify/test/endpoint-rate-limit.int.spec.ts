import { request as httpRequest } from 'node:http';
import { createApp, Tool } from '@mcpkit/core';
import { InvalidTokenError } from '@mcpkit/http';
import pino from 'pino';
import { serveHttp, type HttpServer, type ServeHttpOptions } from '../src';

// Issue #14: the endpoint-wide rate limit of the HTTP core, over loopback: 429 with Retry-After,
// decided in onRequest, before the body is read or parsed.
class Tools {
  @Tool({ input: null })
  ping() {
    return 'pong';
  }
}

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

describe('the endpoint-wide rate limit on Fastify', () => {
  const servers: HttpServer[] = [];
  const serveWith = async (logger: pino.Logger, options: ServeHttpOptions) => {
    const server = await serveHttp(createApp({ name: 't', version: '1', providers: [Tools], logger }), { port: 0, ...options });
    servers.push(server);
    return server;
  };
  const serve = (options: ServeHttpOptions) => serveWith(pino({ level: 'silent' }), options);
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  const post = (url: string, body: string, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });

  it('answers 429 with Retry-After and a JSON-RPC body; a limited request is never parsed (a malformed body gets 429, not 400)', async () => {
    const server = await serve({ rateLimit: { limit: 2, windowMs: 60_000 } });
    expect((await post(server.url, '{')).status).toBe(400);
    expect((await post(server.url, INIT)).status).toBe(200);
    const limited = await post(server.url, '{');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^(29|30)$/);
    expect(await limited.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringMatching(/^Too Many Requests: retry in \d+ s$/), data: { retryAfterMs: expect.any(Number) } },
    });
    // Nor read: a body far over maxMessageBytes is 429, not 413, and the connection is answered at once.
    const big = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        server.url,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(64 * 1024 * 1024) } },
        (response) => {
          resolve(response.statusCode!);
          response.resume();
          request.destroy();
        },
      );
      request.on('error', reject);
      request.write('{"jsonrpc":');
    });
    expect(big).toBe(429);
    // A GET (the session stream) counts too: it is the same endpoint.
    expect((await fetch(server.url, { headers: { accept: 'text/event-stream' } })).status).toBe(429);
  });

  it('keys authenticated callers by subject, after the token check', async () => {
    const server = await serve({
      rateLimit: { limit: 1, windowMs: 60_000 },
      auth: {
        resource: 'http://127.0.0.1/mcp',
        authorizationServers: ['https://as.example'],
        verifier: {
          verify: (token) => {
            if (!token.startsWith('user-')) throw new InvalidTokenError('unknown');
            return { subject: token, scopes: [] };
          },
        },
      },
    });
    expect((await post(server.url, INIT, { authorization: 'Bearer user-a' })).status).toBe(200);
    expect((await post(server.url, INIT, { authorization: 'Bearer user-a' })).status).toBe(429);
    // Another subject from the same address has its own bucket; a stranger is refused by the token check (counted by address).
    expect((await post(server.url, INIT, { authorization: 'Bearer user-b' })).status).toBe(200);
    expect((await post(server.url, '{', { authorization: 'Bearer nobody' })).status).toBe(401);
  });

  it('counts each message of a batch (2025-03-26), not the batch as one request, and serves another caller on', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const server = await serveWith(logger, {
      rateLimit: { limit: 6, windowMs: 60_000 },
      auth: {
        resource: 'http://127.0.0.1/mcp',
        authorizationServers: ['https://as.example'],
        verifier: { verify: (token) => ({ subject: token, scopes: [] }) },
      },
    });
    const open = async (who: string) => {
      const opened = await post(server.url, INIT.replace('2025-11-25', '2025-03-26'), { authorization: `Bearer ${who}` });
      expect(opened.status).toBe(200);
      const session = { authorization: `Bearer ${who}`, 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-03-26' };
      expect((await post(server.url, '{"jsonrpc":"2.0","method":"notifications/initialized"}', session)).status).toBe(202);
      return session;
    };
    const pings = (ids: number[]) => JSON.stringify(ids.map((id) => ({ jsonrpc: '2.0', id, method: 'ping' })));
    // Two tokens so far; a batch of three takes three more.
    const ann = await open('ann');
    const three = await post(server.url, pings([1, 2, 3]), ann);
    expect(three.status).toBe(200);
    expect(await three.json()).toEqual([1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, result: {} })));
    // One token left: a batch of two is over the limit, as two requests would be.
    const two = await post(server.url, pings([4, 5]), ann);
    expect(two.status).toBe(429);
    expect(await two.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/^Too Many Requests/) } });
    // Another caller has its own bucket and is served.
    const bo = await open('bo');
    expect(await (await post(server.url, pings([6, 7]), bo)).json()).toEqual([6, 7].map((id) => ({ jsonrpc: '2.0', id, result: {} })));
    // Each request of the refused batch has its request line, as each of a served one does; so has
    // an initialize refused inside a batch.
    const batched = await post(server.url, JSON.stringify([JSON.parse(INIT.replace('"id":1', '"id":8')), { jsonrpc: '2.0', id: 9, method: 'ping' }]), bo);
    expect(await batched.json()).toEqual([
      { jsonrpc: '2.0', id: 8, error: { code: -32600, message: 'initialize must not be part of a batch' } },
      { jsonrpc: '2.0', id: 9, result: {} },
    ]);
    const audit = lines
      .filter((line) => line.msg === 'request' && line.method !== 'initialize')
      .map(({ rpcId, subject, outcome }) => `${String(rpcId)} ${String(subject)} ${String(outcome)}`);
    expect(audit.sort()).toEqual(['1 ann ok', '2 ann ok', '3 ann ok', '4 ann rate_limited', '5 ann rate_limited', '6 bo ok', '7 bo ok', '9 bo ok']);
    expect(lines.filter((line) => line.msg === 'request' && line.rpcId === 8)).toMatchObject([
      { subject: 'bo', method: 'initialize', outcome: 'error -32600' },
    ]);
  });

  // The legacy HTTP+SSE paths serve the same app: a caller refused on /mcp must not go on there.
  it('covers the legacy GET /sse and POST /messages (each message of a batch counted), and serves another address on', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const server = await serveWith(logger, { legacySse: true, rateLimit: { limit: 5, windowMs: 60_000 } });
    const base = server.url.replace(/\/mcp$/, '');
    // Two callers on loopback: 127.0.0.1 and 127.0.0.2 (the address keys the bucket).
    const call = (from: string, method: string, path: string, body?: string) =>
      new Promise<{ status: number; text: () => Promise<string>; read: (until: string) => Promise<string>; close: () => void }>((resolve, reject) => {
        const request = httpRequest(
          `${base}${path}`,
          {
            method,
            localAddress: from,
            agent: false,
            headers: { accept: 'application/json, text/event-stream', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          },
          (response) => {
            let received = '';
            const waiters: Array<() => void> = [];
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              received += chunk;
              for (const wake of waiters.splice(0)) wake();
            });
            const ended = new Promise<string>((done) => response.on('end', () => done(received)));
            resolve({
              status: response.statusCode!,
              text: () => ended,
              read: async (until) => {
                while (!received.includes(until)) await new Promise<void>((wake) => waiters.push(wake));
                return received;
              },
              close: () => request.destroy(),
            });
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    const stream = await call('127.0.0.1', 'GET', '/sse');
    expect(stream.status).toBe(200);
    const messages = /data: (\S+)/.exec(await stream.read('sessionId='))![1];
    const init = INIT.replace('2025-11-25', '2025-03-26');
    expect((await call('127.0.0.1', 'POST', messages, init)).status).toBe(202);
    await stream.read('"id":1');
    // Two tokens taken (the stream, initialize): a batch of four needs four, as four messages would.
    const pings = (ids: number[]) => JSON.stringify(ids.map((id) => ({ jsonrpc: '2.0', id, method: 'ping' })));
    const batch = await call('127.0.0.1', 'POST', messages, pings([2, 3, 4, 5]));
    expect(batch.status).toBe(429);
    expect(JSON.parse(await batch.text())).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringMatching(/^Too Many Requests/) },
    });
    // Out of tokens: a new stream, a message and the MCP endpoint are refused alike, before their bodies are read.
    expect((await call('127.0.0.1', 'GET', '/sse')).status).toBe(429);
    expect((await call('127.0.0.1', 'POST', messages, pings([6]))).status).toBe(429);
    expect((await call('127.0.0.1', 'POST', '/mcp', INIT)).status).toBe(429);
    // Nothing of the refused batch ran (no answer on the stream), and each of its requests has its line.
    stream.close();
    expect(lines.filter((line) => line.msg === 'request' && line.method === 'ping').map((line) => `${String(line.rpcId)} ${String(line.outcome)}`)).toEqual([
      '2 rate_limited',
      '3 rate_limited',
      '4 rate_limited',
      '5 rate_limited',
    ]);
    // Another address has its own bucket and is served on both transports.
    const other = await call('127.0.0.2', 'GET', '/sse');
    expect(other.status).toBe(200);
    const otherMessages = /data: (\S+)/.exec(await other.read('sessionId='))![1];
    expect((await call('127.0.0.2', 'POST', otherMessages, init)).status).toBe(202);
    expect(await other.read('"id":1')).toContain('"result":{"protocolVersion":"2025-03-26"');
    other.close();
    expect((await call('127.0.0.2', 'POST', '/mcp', INIT)).status).toBe(200);
  });

  it('is off by default', async () => {
    const server = await serve({});
    const statuses = await Promise.all(Array.from({ length: 20 }, () => post(server.url, '{').then((response) => response.status)));
    expect(new Set(statuses)).toEqual(new Set([400]));
  });
});
