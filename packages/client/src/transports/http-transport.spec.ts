import { HttpClientTransport } from './http-transport';

const LIMITS = { maxMessageBytes: 10_000, maxBatchBytes: 10_000, maxReconnects: 3, reconnectDelayMs: 1_000 };
const INITIALIZED = { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25', capabilities: {} } } as const;

/** A transport whose every POST gets `answer`; the messages the sink was given, by kind. */
async function answering(answer: () => Response) {
  const told: unknown[] = [];
  const transport = new HttpClientTransport({ url: 'http://mcp.test/mcp', fetch: (() => Promise.resolve(answer())) as typeof globalThis.fetch }, LIMITS);
  await transport.start({ message: (message) => void told.push(message), failed: () => undefined, closed: () => undefined });
  return { transport, told };
}

/** A transport on a scripted `fetch`: POSTs open session s1, GETs answer `getBody` as an event stream that ends at once. */
async function openedWith(getBody: string) {
  const calls: string[] = [];
  const fetch = (_url: unknown, init?: RequestInit) => {
    calls.push(init?.method ?? 'GET');
    if (init?.method === 'GET') return Promise.resolve(new Response(getBody, { headers: { 'content-type': 'text/event-stream' } }));
    return Promise.resolve(Response.json(INITIALIZED, { headers: { 'mcp-session-id': 's1' } }));
  };
  const transport = new HttpClientTransport({ url: 'http://mcp.test/mcp', fetch: fetch as typeof globalThis.fetch }, LIMITS);
  await transport.start({ message: () => undefined, failed: () => undefined, closed: () => undefined });
  await transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
  return { transport, gets: () => calls.filter((method) => method === 'GET').length };
}

describe('HttpClientTransport', () => {
  afterEach(() => jest.useRealTimers());

  it.each(['retry: 0', 'retry: 99999999999999999999'])('bounds how often the GET stream is reopened whatever the server names (%s)', async (retry) => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const { transport, gets } = await openedWith(`${retry}\n\n`);
    transport.opened();
    await jest.advanceTimersByTimeAsync(1_000);
    // Reopened at most every 100 ms; a delay past the timer range is not cut to 1 ms.
    expect(gets()).toBeGreaterThanOrEqual(1);
    expect(gets()).toBeLessThanOrEqual(11);
    jest.useRealTimers();
    await transport.close();
  });

  it('fails a request answered 202 Accepted at once: no answer can follow', async () => {
    const { transport } = await answering(() => new Response(null, { status: 202 }));
    await expect(transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' })).rejects.toMatchObject({
      message: 'Invalid answer to tools/list: HTTP 202 carries no answer, and a request needs one (JSON or an event stream)',
    });
    await expect(transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).resolves.toBeUndefined();
  });

  it.each([
    ['a space', 'abc def'],
    ['a character past ASCII', 'caf\u00e9'],
    ['1 025 characters', 'x'.repeat(1_025)],
  ])('does not keep a session id with %s, nor send it back', async (_what, id) => {
    const { transport, told } = await answering(() => Response.json(INITIALIZED, { headers: { 'mcp-session-id': id } }));
    await expect(transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })).rejects.toMatchObject({
      message: 'Invalid answer to initialize: its Mcp-Session-Id is not 1 to 1024 visible ASCII characters (0x21-0x7E)',
    });
    expect(transport.session).toBeUndefined();
    expect(told).toEqual([]);
  });

  it('reads no stream the server opens in answer to a notification or a response: it is cancelled, not held', async () => {
    let cancelled = 0;
    const endless = () =>
      new Response(new ReadableStream({ pull: () => new Promise(() => undefined), cancel: () => void cancelled++ }), {
        headers: { 'content-type': 'text/event-stream' },
      });
    const { transport } = await answering(endless);
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await transport.send({ jsonrpc: '2.0', id: 'server-1', result: {} });
    expect(cancelled).toBe(2);
    await transport.close();
  });
});
