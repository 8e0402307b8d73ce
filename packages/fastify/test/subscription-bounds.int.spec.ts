import pino from 'pino';
import { serveHttp, type HttpServer } from '../src';
import { fixtureApp, INITIALIZE, post } from './fixture-app';

// Review of #26, finding 4: what a client subscribes to is kept for as long as it follows it, so
// it is bounded per session (maxSubscriptions) and answered -32602 past it.
describe('resources/subscribe past maxSubscriptions (Fastify, loopback)', () => {
  let server: HttpServer;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    server = await serveHttp(fixtureApp(logger, { subscriptions: true, maxSubscriptions: 3 }), { port: 0 });
  });
  afterAll(() => server.close());

  /** A 2025-03-26 session: batches carry several subscribes in one POST, as the review's script did. */
  async function session(): Promise<Record<string, string>> {
    const opened = await post(server.url, { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: '2025-03-26' } });
    expect(opened.status).toBe(200);
    const headers = { 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-03-26' };
    expect((await post(server.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
    return headers;
  }
  const subscribe = (id: number, uri: string, method = 'resources/subscribe') => ({ jsonrpc: '2.0', id, method, params: { uri } });
  const long = (n: number) => `fixture://${n}/${'x'.repeat(8000)}`;

  it('keeps at most maxSubscriptions URIs per session, refuses the next with -32602 and data.limit, and makes room on unsubscribe', async () => {
    const headers = await session();
    const first = await post(
      server.url,
      [1, 2, 3, 4].map((n) => subscribe(n, long(n))),
      headers,
    );
    expect(first.status).toBe(200);
    expect(await first.text()).toBe(
      '[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{}},{"jsonrpc":"2.0","id":3,"result":{}},' +
        '{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Too many subscriptions: this session is already subscribed to 3 resources (maxSubscriptions); unsubscribe from one first","data":{"limit":3}}}]',
    );
    // A URI it already follows is no new subscription; another session has its own share.
    expect(await (await post(server.url, subscribe(5, long(1)), headers)).json()).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
    const other = await session();
    expect(await (await post(server.url, subscribe(6, long(4)), other)).json()).toEqual({ jsonrpc: '2.0', id: 6, result: {} });
    // Unsubscribing makes room, once.
    expect(await (await post(server.url, subscribe(7, long(2), 'resources/unsubscribe'), headers)).json()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    const again = await post(
      server.url,
      [8, 9].map((n) => subscribe(n, long(n))),
      headers,
    );
    expect(await again.json()).toEqual([
      { jsonrpc: '2.0', id: 8, result: {} },
      { jsonrpc: '2.0', id: 9, error: { code: -32602, message: expect.stringContaining('Too many subscriptions'), data: { limit: 3 } } },
    ]);
    // Logged once each time the session fills up (two refusals here), with each refusal's request line.
    expect(lines.filter((line) => line.msg === 'refused a resources/subscribe over maxSubscriptions').map((line) => line.limit)).toEqual([3, 3]);
    expect(lines.filter((line) => line.msg === 'request' && (line.rpcId === 4 || line.rpcId === 9)).map((line) => line.outcome)).toEqual([
      'invalid',
      'invalid',
    ]);
    // And the session serves on.
    expect(await (await post(server.url, { jsonrpc: '2.0', id: 10, method: 'ping' }, headers)).json()).toEqual({ jsonrpc: '2.0', id: 10, result: {} });
  });
});
