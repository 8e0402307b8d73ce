import { createFetchHandler, type FetchHandler } from '../src';
import { cancelled, fixtureApp } from '../../fastify/test/fixture-app';

// The fetch binding in process: web Requests in, web Responses out, no server in between.
const URL_ = 'http://localhost/mcp';
const HEADERS = { host: 'localhost', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const call = (id: string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'steps', arguments: args, _meta: { progressToken: id } } });

/** A body that arrives in chunks, with no Content-Length to refuse up front. */
function chunked(total: number, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const size = Math.min(chunk, total - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
  });
}

async function waitFor(check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('createFetchHandler', () => {
  let handler: FetchHandler;

  afterEach(async () => {
    await handler?.close();
  });

  const alive = async () => {
    const answer = await handler(new Request(URL_, { method: 'POST', headers: HEADERS, body: '{"jsonrpc":"2.0","id":"alive","method":"ping"}' }));
    expect(await answer.json()).toEqual({ jsonrpc: '2.0', id: 'alive', result: {} });
  };

  it('streams progress then the result as SSE, and the stream ends', async () => {
    handler = createFetchHandler(fixtureApp(), { sessions: false });
    const response = await handler(new Request(URL_, { method: 'POST', headers: HEADERS, body: call('p1', { steps: 3, delayMs: 5 }) }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text()).split('\n\n').filter((event) => event.startsWith('event: message'));
    expect(events.map((event) => JSON.parse(event.split('data: ')[1]).method ?? 'result')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      'result',
    ]);
  });

  it('cancels stateless work when the client cancels the stream, and serves on', async () => {
    handler = createFetchHandler(fixtureApp(), { sessions: false });
    cancelled.length = 0;
    const response = await handler(new Request(URL_, { method: 'POST', headers: HEADERS, body: call('gone-stream', { steps: 100, delayMs: 20 }) }));
    const reader = response.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    await reader.cancel();
    await waitFor(() => cancelled.includes('gone-stream'));
    await alive();
  });

  it('cancels stateless work when the request signal aborts before the answer, and serves on', async () => {
    handler = createFetchHandler(fixtureApp(), { sessions: false, responseMode: 'json' });
    cancelled.length = 0;
    const client = new AbortController();
    const pending = handler(
      new Request(URL_, { method: 'POST', headers: HEADERS, body: call('gone-json', { steps: 100, delayMs: 20 }), signal: client.signal }),
    );
    setTimeout(() => client.abort(), 50);
    await waitFor(() => cancelled.includes('gone-json'));
    expect((await pending).status).toBe(200);
    await alive();
  });

  it('drops a client that does not read once maxEventBytesPerSession waits: its stream errors, its work is cancelled, the server serves on', async () => {
    handler = createFetchHandler(fixtureApp(), { sessions: false, maxEventBytesPerSession: 2_048 });
    cancelled.length = 0;
    // Nobody reads while progress events (~150 bytes each) pile up.
    const response = await handler(new Request(URL_, { method: 'POST', headers: HEADERS, body: call('slow-reader', { steps: 500, delayMs: 2 }) }));
    await waitFor(() => cancelled.includes('slow-reader'), 10_000);
    const reader = response.body!.getReader();
    await expect(reader.read()).rejects.toThrow('does not read');
    await alive();
  });

  it('refuses bodies with the Fastify binding statuses: 413 announced or chunked, 415, and serves on', async () => {
    handler = createFetchHandler(fixtureApp(), { sessions: false, maxMessageBytes: 1_024 });
    const announced = await handler(new Request(URL_, { method: 'POST', headers: { ...HEADERS, 'content-length': '5000' }, body: ' '.repeat(5_000) }));
    expect(announced.status).toBe(413);
    expect(await announced.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Payload Too Large: the limit is 1024 bytes' } });
    const streamed = await handler(new Request(URL_, { method: 'POST', headers: HEADERS, body: chunked(1_000_000), duplex: 'half' } as RequestInit));
    expect(streamed.status).toBe(413);
    const compressed = await handler(new Request(URL_, { method: 'POST', headers: { ...HEADERS, 'content-encoding': 'gzip' }, body: '{}' }));
    expect(compressed.status).toBe(415);
    expect(await compressed.json()).toMatchObject({ error: { code: -32600, message: expect.stringContaining('compressed body') } });
    const plain = await handler(new Request(URL_, { method: 'POST', headers: { ...HEADERS, 'content-type': 'text/plain' }, body: '{}' }));
    expect(plain.status).toBe(415);
    await alive();
  });

  it('guards the Host of a Request that carries none by its URL, and answers other paths 404', async () => {
    handler = createFetchHandler(fixtureApp(), { sessions: false });
    const { host: _host, ...noHost } = HEADERS;
    const foreign = await handler(
      new Request('http://evil.example/mcp', { method: 'POST', headers: noHost, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }),
    );
    expect(foreign.status).toBe(403);
    const local = await handler(
      new Request('http://127.0.0.1:8080/mcp', { method: 'POST', headers: noHost, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }),
    );
    expect(await local.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    const elsewhere = await handler(new Request('http://localhost/other', { headers: { host: 'localhost' } }));
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toMatchObject({ error: { code: -32600, message: expect.stringContaining('Not Found') } });
  });

  it('serves the legacy HTTP+SSE endpoint: the endpoint event, then answers on the stream', async () => {
    handler = createFetchHandler(fixtureApp(), { legacySse: true });
    const stream = await handler(new Request('http://localhost/sse', { headers: { host: 'localhost', accept: 'text/event-stream' } }));
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    const endpoint = /^event: endpoint\ndata: (\/messages\?sessionId=[\w-]+)\n\n/.exec((await reader.read()).value!);
    expect(endpoint).not.toBeNull();
    const posted = await handler(
      new Request(`http://localhost${endpoint![1]}`, { method: 'POST', headers: HEADERS, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }),
    );
    expect(posted.status).toBe(202);
    expect((await reader.read()).value).toBe('event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
    await reader.cancel();
  });
});
