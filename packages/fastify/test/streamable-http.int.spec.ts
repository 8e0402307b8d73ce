import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import pino from 'pino';
import { SessionRecordTooLargeError } from '@mcpkit/http';
import { MemoryEventStore, MemorySessionStore, serveHttp, type HttpServer, type ServeHttpOptions, type SessionRecord } from '../src';
import { cancelled, fixtureApp, INITIALIZE, openSession, parseSse, post } from './fixture-app';

const servers: HttpServer[] = [];

async function start(options: ServeHttpOptions = {}): Promise<HttpServer> {
  const server = await serveHttp(fixtureApp(), { port: 0, ...options });
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function call(id: number | string, name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) } };
}

/** Raw HTTP, for headers fetch refuses to send (Host) or methods it mangles. */
function raw(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    request.on('error', reject);
    if (body !== undefined) request.write(body);
    request.end();
  });
}

describe('Streamable HTTP, stateful', () => {
  it('serves the official SDK client: list, call, read, get', async () => {
    const server = await start();
    const client = new Client({ name: 'sdk', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['route', 'echo', 'tagged', 'steps', 'polling']);
    expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({ content: [{ type: 'text', text: 'hi|session' }] });
    expect((await client.readResource({ uri: 'fixture://hello' })).contents[0]).toMatchObject({ text: 'hello' });
    expect((await client.getPrompt({ name: 'hi' })).messages).toHaveLength(1);
    const progress: number[] = [];
    const result = await client.callTool({ name: 'steps', arguments: { steps: 3, delayMs: 5, settleMs: 20 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(result).toEqual({ content: [{ type: 'text', text: 'done 3' }] });
    expect(progress).toEqual([1, 2, 3]);
    await transport.terminateSession();
    await client.close();
  });

  it('answers JSON until the handler streams, then SSE with a priming event and event ids', async () => {
    const server = await start();
    const session = await openSession(server.url);
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const plain = await post(server.url, call(1, 'echo', { text: 'x' }), headers);
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await plain.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x|session' }] } });

    const streamed = await post(server.url, call(2, 'steps', { steps: 2, delayMs: 5 }, { progressToken: 'tok' }), headers);
    expect(streamed.headers.get('content-type')).toBe('text/event-stream');
    expect(streamed.headers.get('x-accel-buffering')).toBe('no');
    expect(streamed.headers.get('mcp-session-id')).toBe(session);
    const events = parseSse(await streamed.text());
    expect(events[0]).toMatchObject({ id: expect.stringMatching(/_1$/), retry: '1000', data: '' });
    expect(events.slice(1).map((event) => JSON.parse(event.data))).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: 1, total: 2, message: 'step 1' } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: 2, total: 2, message: 'step 2' } },
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'done 2' }] } },
    ]);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
  });

  it('sends no priming event to clients older than 2025-11-25', async () => {
    const server = await start({ responseMode: 'sse' });
    const session = await openSession(server.url, '2025-06-18');
    const streamed = await post(server.url, call(1, 'echo', { text: 'z' }), { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' });
    const events = parseSse(await streamed.text());
    expect(events.every((event) => event.data !== '')).toBe(true);
    expect(JSON.parse(events[0].data)).toMatchObject({ id: 1 });
  });

  it('always answers JSON in json mode and always streams in sse mode', async () => {
    const json = await start({ responseMode: 'json' });
    const jsonSession = await openSession(json.url);
    const answer = await post(json.url, call(1, 'steps', { steps: 2, delayMs: 1 }, { progressToken: 1 }), { 'mcp-session-id': jsonSession });
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await answer.json()).toMatchObject({ id: 1, result: { content: [{ text: 'done 2' }] } });

    const sse = await start({ responseMode: 'sse' });
    const sseSession = await openSession(sse.url);
    const streamed = await post(sse.url, call(1, 'echo', { text: 'y' }), { 'mcp-session-id': sseSession });
    expect(streamed.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await streamed.text());
    expect(JSON.parse(events[events.length - 1].data)).toMatchObject({ id: 1, result: { content: [{ text: 'y|session' }] } });
  });

  it('answers a refused initialize on its stream in sse mode, and opens no session (found by the fuzzer)', async () => {
    const server = await start({ responseMode: 'sse' });
    const refused = await post(server.url, { jsonrpc: '2.0', id: 2, method: 'initialize', params: { capabilities: {} } });
    const events = parseSse(await refused.text()).filter((event) => event.data !== '');
    // The session was discarded before its answer was written: the stream ended with the priming event only.
    expect(events.map((event) => JSON.parse(event.data))).toEqual([
      { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'initialize needs params.protocolVersion, a string' } },
    ]);
    // The stream's head went out before the answer, naming the session; it no longer exists.
    const named = refused.headers.get('mcp-session-id')!;
    expect((await post(server.url, call(4, 'echo', { text: 'x' }), { 'mcp-session-id': named })).status).toBe(404);
    const session = await openSession(server.url);
    const streamed = await post(server.url, call(3, 'echo', { text: 'still serving' }), { 'mcp-session-id': session });
    expect(JSON.parse(parseSse(await streamed.text()).pop()!.data)).toMatchObject({ id: 3, result: { content: [{ text: 'still serving|session' }] } });
  });

  // The session is stored once initialize has passed dispatch: a store that refuses it (down, or
  // a record too large to keep) makes the answer an error, and the request line says that error.
  it.each(['json', 'sse'] as const)('answers an initialize whose session the store refuses with that refusal, and logs it so (%s)', async (responseMode) => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    let refusal: Error | undefined;
    class RefusingStore extends MemorySessionStore {
      override set(record: SessionRecord): void {
        if (refusal !== undefined) throw refusal;
        super.set(record);
      }
    }
    const server = await serveHttp(fixtureApp(logger), { port: 0, sessionStore: new RefusingStore(), responseMode });
    servers.push(server);
    const initialize = async (id: string) => {
      const response = await post(server.url, { ...INITIALIZE, id });
      const text = await response.text();
      const message = (responseMode === 'sse' ? JSON.parse(parseSse(text).pop()!.data) : JSON.parse(text)) as Record<string, unknown>;
      return { status: response.status, retryAfter: response.headers.get('retry-after'), session: response.headers.get('mcp-session-id'), message };
    };
    refusal = new Error('the store is down');
    const down = await initialize('down');
    refusal = new SessionRecordTooLargeError(20_000, 16_384);
    const large = await initialize('large');
    refusal = undefined;
    const kept = await initialize('kept');

    expect([down.message, large.message]).toEqual([
      {
        jsonrpc: '2.0',
        id: 'down',
        error: { code: -32603, message: 'Service temporarily unavailable: the session store cannot be reached; try again shortly' },
      },
      {
        jsonrpc: '2.0',
        id: 'large',
        error: { code: -32602, message: "initialize: the client's info and capabilities are too large to keep for a session (at most 16384 bytes)" },
      },
    ]);
    if (responseMode === 'json') {
      expect([down, large].map(({ status, retryAfter, session }) => ({ status, retryAfter, session }))).toEqual([
        { status: 503, retryAfter: '1', session: null },
        { status: 400, retryAfter: null, session: null },
      ]);
    }
    expect(kept.message).toMatchObject({ id: 'kept', result: { protocolVersion: '2025-11-25' } });
    // Still serving, on the session it kept.
    const served = await post(server.url, call(1, 'echo', { text: 'x' }), { 'mcp-session-id': kept.session! });
    const echoed = responseMode === 'sse' ? JSON.parse(parseSse(await served.text()).pop()!.data) : await served.json();
    expect(echoed).toMatchObject({ id: 1, result: { content: [{ text: 'x|session' }] } });
    const requestLines = lines.filter((line) => line.msg === 'request' && line.method === 'initialize');
    expect(requestLines.map(({ rpcId, outcome, code }) => ({ rpcId, outcome, code }))).toEqual([
      { rpcId: 'down', outcome: 'error -32603', code: -32603 },
      { rpcId: 'large', outcome: 'invalid', code: -32602 },
      { rpcId: 'kept', outcome: 'ok', code: undefined },
    ]);
    expect(lines.filter((line) => line.level === 40).map((line) => line.msg)).toEqual(['session store unavailable: initialize answered 503']);
  });

  it('answers notifications and responses with 202 and no body', async () => {
    const server = await start();
    const session = await openSession(server.url);
    const notification = await post(server.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': session });
    expect(notification.status).toBe(202);
    expect(await notification.text()).toBe('');
    const response = await post(server.url, { jsonrpc: '2.0', id: 'srv-1', result: {} }, { 'mcp-session-id': session });
    expect(response.status).toBe(202);
  });

  it('rejects requests without a session id (400) and with an unknown one (404), with the request id', async () => {
    const server = await start();
    const missing = await post(server.url, call(7, 'echo', { text: 'x' }));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32600, message: expect.stringContaining('Mcp-Session-Id') } });
    const unknown = await post(server.url, call(8, 'echo', { text: 'x' }), { 'mcp-session-id': 'nope' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ id: 8, error: { code: -32600 } });
  });

  it('ends a session on DELETE: later requests get 404, and nothing of it remains', async () => {
    const sessionStore = new MemorySessionStore();
    const eventStore = new MemoryEventStore();
    const server = await start({ sessionStore, eventStore });
    const session = await openSession(server.url);
    await post(server.url, call(1, 'steps', { steps: 2, delayMs: 1 }, { progressToken: 1 }), { 'mcp-session-id': session }).then((r) => r.text());
    expect(sessionStore.size).toBe(1);
    expect(eventStore.size).toBeGreaterThan(0);
    const deleted = await fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': session } });
    expect(deleted.status).toBe(200);
    expect((await post(server.url, call(2, 'echo', { text: 'x' }), { 'mcp-session-id': session })).status).toBe(404);
    expect((await fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': session } })).status).toBe(404);
    expect((await fetch(server.url, { method: 'DELETE' })).status).toBe(400);
    expect(sessionStore.size).toBe(0);
    expect(eventStore.size).toBe(0);
  });

  it('keeps no session state after SDK clients terminate their sessions', async () => {
    const sessionStore = new MemorySessionStore();
    const eventStore = new MemoryEventStore();
    const server = await start({ sessionStore, eventStore });
    for (let i = 0; i < 5; i++) {
      const client = new Client({ name: `c${i}`, version: '1' });
      const transport = new StreamableHTTPClientTransport(new URL(server.url));
      await client.connect(transport);
      await client.callTool({ name: 'steps', arguments: { steps: 1, delayMs: 1 } }, undefined, { onprogress: () => undefined });
      await transport.terminateSession();
      await client.close();
    }
    expect(sessionStore.size).toBe(0);
    expect(eventStore.size).toBe(0);
  });

  it('expires idle sessions (then 404)', async () => {
    const sessionStore = new MemorySessionStore();
    const server = await start({ sessionIdleTimeoutMs: 150, sessionStore });
    const session = await openSession(server.url);
    expect((await post(server.url, call(1, 'echo', { text: 'x' }), { 'mcp-session-id': session })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await post(server.url, call(2, 'echo', { text: 'x' }), { 'mcp-session-id': session })).status).toBe(404);
    expect(sessionStore.size).toBe(0);
  });

  it('caps sessions: the least recently used idle one makes room', async () => {
    const server = await start({ maxSessions: 3 });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await openSession(server.url));
    // Touch the first so the second is the least recently used.
    await post(server.url, call(1, 'echo', { text: 'x' }), { 'mcp-session-id': ids[0] }).then((r) => r.text());
    const fourth = await openSession(server.url);
    const statuses = await Promise.all(
      [...ids, fourth].map((id) => post(server.url, call(2, 'echo', { text: 'x' }), { 'mcp-session-id': id }).then((r) => r.status)),
    );
    expect(statuses).toEqual([200, 404, 200, 200]);
  });

  it('refuses a new session with 503 when every session at the cap is busy', async () => {
    const server = await start({ maxSessions: 1 });
    const busy = await openSession(server.url);
    const slow = post(server.url, call(1, 'steps', { steps: 1, delayMs: 300 }), { 'mcp-session-id': busy });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const refused = await post(server.url, INITIALIZE);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ id: 0, error: { code: -32600 } });
    expect((await slow).status).toBe(200);
  });

  it('bounds the event store per session', async () => {
    const eventStore = new MemoryEventStore({ maxEventsPerSession: 10 });
    const server = await start({ eventStore });
    const session = await openSession(server.url);
    await post(server.url, call(1, 'steps', { steps: 30, delayMs: 0 }, { progressToken: 1 }), { 'mcp-session-id': session }).then((r) => r.text());
    expect(eventStore.size).toBe(10);
  });

  it('opens a GET stream, allows one per session (409), and resumes a dropped POST stream from Last-Event-ID', async () => {
    const server = await start();
    const session = await openSession(server.url);
    const controller = new AbortController();
    const stream = await fetch(server.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session }, signal: controller.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const second = await fetch(server.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } });
    expect(second.status).toBe(409);
    controller.abort();

    // A POST stream whose connection drops after the first events …
    const dropped = new AbortController();
    const response = await post(server.url, call(9, 'steps', { steps: 4, delayMs: 60 }, { progressToken: 'p' }), { 'mcp-session-id': session });
    const reader = response.body!.getReader();
    let seen = '';
    while (!seen.includes('"progress":1')) seen += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    dropped.abort();
    const lastId = parseSse(seen)
      .filter((event) => event.id)
      .pop()!.id!;
    // … is picked up again with GET + Last-Event-ID: the rest, then the response.
    const resumed = await fetch(server.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': lastId } });
    expect(resumed.status).toBe(200);
    const rest = parseSse(await resumed.text()).map((event) => JSON.parse(event.data));
    expect(rest.map((message) => message.params?.progress ?? message.result?.content[0].text)).toEqual([2, 3, 4, 'done 4']);
    // Replaying from the same id again still works after the stream completed.
    const again = await fetch(server.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': lastId } });
    expect(parseSse(await again.text())).toHaveLength(4);
    const bad = await fetch(server.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': 'garbage' } });
    expect(bad.status).toBe(400);
  });

  it('lets a handler release the connection (SSE polling): the rest comes on GET with Last-Event-ID', async () => {
    const server = await start();
    const session = await openSession(server.url);
    const response = await post(server.url, call(31, 'polling', {}, { progressToken: 'poll' }), { 'mcp-session-id': session });
    const first = parseSse(await response.text());
    expect(first).toEqual([{ id: expect.any(String), retry: '1000', data: '' }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const resumed = await fetch(server.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': first[0].id! } });
    const rest = parseSse(await resumed.text()).map((event) => JSON.parse(event.data));
    expect(rest).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'poll', progress: 1, total: 1, message: 'after the break' } },
      { jsonrpc: '2.0', id: 31, result: { content: [{ type: 'text', text: 'released=true' }] } },
    ]);
    // The SDK client reconnects by itself.
    const client = new Client({ name: 'poller', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        reconnectionOptions: { initialReconnectionDelay: 50, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 5 },
      }),
    );
    expect(await client.callTool({ name: 'polling', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'released=true' }] });
    await client.close();
    // Stateless requests cannot be resumed, so there is nothing to release.
    const stateless = await start({ sessions: false });
    expect(await (await post(stateless.url, call(1, 'polling', {}), { 'mcp-protocol-version': '2025-11-25' })).json()).toMatchObject({
      result: { content: [{ text: 'released=false' }] },
    });
  });

  it('answers every bad-input row with the right status and a JSON-RPC body', async () => {
    const server = await start({ maxMessageBytes: 1024 });
    const session = await openSession(server.url);
    const host = new URL(server.url).host;
    const rows: Array<[string, Promise<{ status: number; body: string }>, number, number | null]> = [
      ['not JSON', post(server.url, '{oops', { 'mcp-session-id': session }).then(async (r) => ({ status: r.status, body: await r.text() })), 400, -32700],
      ['empty body', post(server.url, '', { 'mcp-session-id': session }).then(async (r) => ({ status: r.status, body: await r.text() })), 400, -32700],
      [
        'wrong jsonrpc',
        post(server.url, { jsonrpc: '1.0', id: 3, method: 'ping' }, { 'mcp-session-id': session }).then(async (r) => ({
          status: r.status,
          body: await r.text(),
        })),
        400,
        -32600,
      ],
      [
        'a batch on 2025-11-25',
        post(server.url, [{ jsonrpc: '2.0', id: 1, method: 'ping' }], { 'mcp-session-id': session }).then(async (r) => ({
          status: r.status,
          body: await r.text(),
        })),
        400,
        -32600,
      ],
      ['text/plain', raw(server.url, 'POST', { host, 'content-type': 'text/plain', accept: 'application/json, text/event-stream' }, '{}'), 415, -32600],
      ['no content type', raw(server.url, 'POST', { host, accept: 'application/json, text/event-stream' }, '{}'), 415, -32600],
      [
        'Accept without SSE',
        post(server.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { accept: 'application/json', 'mcp-session-id': session }).then(async (r) => ({
          status: r.status,
          body: await r.text(),
        })),
        406,
        -32600,
      ],
      ['GET without SSE in Accept', raw(server.url, 'GET', { host, accept: 'application/json', 'mcp-session-id': session }), 406, -32600],
      [
        'a body over the limit',
        post(server.url, { jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2048) } }, { 'mcp-session-id': session }).then(async (r) => ({
          status: r.status,
          body: await r.text(),
        })),
        413,
        -32600,
      ],
      [
        'an unsupported MCP-Protocol-Version',
        post(server.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-session-id': session, 'mcp-protocol-version': '1999-01-01' }).then(async (r) => ({
          status: r.status,
          body: await r.text(),
        })),
        400,
        -32022,
      ],
      [
        'a foreign Host',
        raw(server.url, 'POST', { host: 'evil.example.com', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, '{}'),
        403,
        -32600,
      ],
      [
        'a foreign Origin',
        post(server.url, INITIALIZE, { origin: 'http://evil.example.com' }).then(async (r) => ({ status: r.status, body: await r.text() })),
        403,
        -32600,
      ],
      ['PUT', raw(server.url, 'PUT', { host }), 405, -32600],
      ['PATCH', raw(server.url, 'PATCH', { host }), 405, -32600],
      ['HEAD', raw(server.url, 'HEAD', { host }), 405, null],
    ];
    for (const [name, pending, status, code] of rows) {
      const answer = await pending;
      expect({ name, status: answer.status }).toEqual({ name, status });
      if (code !== null) {
        const body = JSON.parse(answer.body) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
        expect({ name, jsonrpc: body.jsonrpc, code: body.error.code, idKnownOrNull: body.id === null || typeof body.id === 'number' }).toEqual({
          name,
          jsonrpc: '2.0',
          code,
          idKnownOrNull: true,
        });
      }
      expect(answer.body).not.toMatch(/at .*\.js|stack/);
    }
    // Loopback origins and hosts pass.
    expect((await post(server.url, INITIALIZE, { origin: `http://localhost:${server.port}` })).status).toBe(200);
    // The server still serves.
    expect((await post(server.url, call(5, 'echo', { text: 'ok' }), { 'mcp-session-id': session })).status).toBe(200);
  });

  it('accepts batches on a 2025-03-26 session', async () => {
    const server = await start();
    const session = await openSession(server.url, '2025-03-26');
    const answer = await post(
      server.url,
      [call(1, 'echo', { text: 'a' }), { jsonrpc: '2.0', method: 'notifications/initialized' }, call(2, 'echo', { text: 'b' })],
      {
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-03-26',
      },
    );
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'a|session' }] } },
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'b|session' }] } },
    ]);
  });

  it('survives clients that disconnect mid-stream, and keeps serving', async () => {
    const server = await start();
    const session = await openSession(server.url);
    for (let i = 0; i < 5; i++) {
      const controller = new AbortController();
      const response = await post(server.url, call(100 + i, 'steps', { steps: 3, delayMs: 20 }, { progressToken: i }), { 'mcp-session-id': session });
      const reader = response.body!.getReader();
      await reader.read();
      await reader.cancel();
      controller.abort();
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await (await post(server.url, call(200, 'echo', { text: 'alive' }), { 'mcp-session-id': session })).json()).toMatchObject({
      result: { content: [{ text: 'alive|session' }] },
    });
  });

  it('closes gracefully with open streams and sessions', async () => {
    const server = await serveHttp(fixtureApp(), { port: 0 });
    const session = await openSession(server.url);
    const stream = await fetch(server.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } });
    const body = stream.text();
    // A close that waited for the 60 s handler would overrun the test's time limit: no clock needed.
    const pending = post(server.url, call(1, 'steps', { steps: 1, delayMs: 60_000 }), { 'mcp-session-id': session })
      .then((r) => r.text())
      .catch(() => 'closed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await server.close();
    await body;
    await pending;
  });
});

describe('Streamable HTTP, stateless', () => {
  it('serves the SDK client without a session id, and answers GET and DELETE with 405', async () => {
    const server = await start({ sessions: false });
    const client = new Client({ name: 'sdk', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    await client.connect(transport);
    expect(transport.sessionId).toBeUndefined();
    expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({ content: [{ type: 'text', text: 'hi|stateless' }] });
    const progress: number[] = [];
    await client.callTool({ name: 'steps', arguments: { steps: 2, delayMs: 1, settleMs: 20 } }, undefined, { onprogress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2]);
    await client.close();
    const get = await fetch(server.url, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await fetch(server.url, { method: 'DELETE' })).status).toBe(405);
  });

  it('answers initialize without a session id and serves any request on its own', async () => {
    const server = await start({ sessions: false });
    const init = await post(server.url, INITIALIZE);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    expect(await init.json()).toMatchObject({ result: { capabilities: { tools: {}, resources: {}, prompts: {} } } });
    const answer = await post(server.url, call(1, 'echo', { text: 'solo' }), { 'mcp-protocol-version': '2025-11-25' });
    expect(await answer.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'solo|stateless' }] } });
  });

  it('cancels the work of a client that disconnects', async () => {
    const server = await start({ sessions: false });
    cancelled.length = 0;
    await new Promise<void>((resolve) => {
      const request = httpRequest(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      });
      request.on('error', () => undefined);
      request.end(JSON.stringify(call('gone', 'steps', { steps: 50, delayMs: 20 })));
      setTimeout(() => {
        request.destroy();
        resolve();
      }, 80);
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(cancelled).toEqual(['gone']);
  });
});

describe('2026-07-28 on the same endpoint', () => {
  const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const headers = (method: string, name?: string) => ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) });

  it('serves a modern call without a session, with resultType and server info', async () => {
    const server = await start();
    const response = await post(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'now' }, _meta: META } },
      headers('tools/call', 'echo'),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        content: [{ type: 'text', text: 'now|stateless' }],
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fixture', version: '1.0.0' } },
      },
    });
    const discover = await post(server.url, { jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: META } }, headers('server/discover'));
    expect(await discover.json()).toMatchObject({ result: { supportedVersions: expect.arrayContaining(['2026-07-28']), resultType: 'complete' } });
  });

  it('streams progress over SSE with resultType on the final result', async () => {
    const server = await start();
    const response = await post(
      server.url,
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'steps', arguments: { steps: 2, delayMs: 1 }, _meta: { ...META, progressToken: 'm' } } },
      headers('tools/call', 'steps'),
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await response.text()).map((event) => JSON.parse(event.data));
    expect(events[events.length - 1]).toMatchObject({ id: 3, result: { resultType: 'complete', content: [{ text: 'done 2' }] } });
  });

  it('checks the headers against the body (-32020), decoding base64 values and trimming spaces', async () => {
    const server = await start();
    const body = { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: META } };
    const mismatch = await post(server.url, body, headers('tools/call', 'steps'));
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32020, message: "Header mismatch: Mcp-Name header value 'steps' does not match body value 'echo'" },
    });
    expect((await post(server.url, body, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' })).status).toBe(400);
    // A name that is no string is the body's mistake (-32602), not a header mismatch.
    const numbered = await post(server.url, { ...body, params: { ...body.params, name: 5 } }, headers('tools/call', '5'));
    expect(numbered.status).toBe(400);
    expect(await numbered.json()).toMatchObject({ id: 4, error: { code: -32602 } });
    expect((await post(server.url, body, { ...headers('tools/list', 'echo') })).status).toBe(400);
    const encoded = await post(server.url, body, { ...headers('tools/call'), 'mcp-name': `=?base64?${Buffer.from('echo').toString('base64')}?=` });
    expect(encoded.status).toBe(200);
    const spaced = await post(server.url, body, { 'mcp-protocol-version': ' 2026-07-28 ', 'mcp-method': ' tools/call', 'mcp-name': 'echo ' });
    expect(spaced.status).toBe(200);
    // Every header takes the same strict decoding as Mcp-Param-*: a sentinel must hold canonical base64 of UTF-8.
    for (const [name, message] of [
      ['=?base64?ZWNobw?=', 'Invalid Base64 in Mcp-Name header'],
      ['=?base64?/w==?=', 'Invalid UTF-8 in Mcp-Name header'],
    ]) {
      const bad = await post(server.url, body, { ...headers('tools/call'), 'mcp-name': name });
      expect({ status: bad.status, body: await bad.json() }).toEqual({ status: 400, body: { jsonrpc: '2.0', id: 4, error: { code: -32020, message } } });
    }
    const badMethod = await post(server.url, body, { ...headers('tools/call', 'echo'), 'mcp-method': '=?base64?dG9vbHMvY2FsbA?=' });
    expect(await badMethod.json()).toMatchObject({ error: { code: -32020, message: 'Invalid Base64 in Mcp-Method header' } });
  });

  it('checks Mcp-Param-* headers against the arguments a tool marks with x-mcp-header', async () => {
    const server = await start();
    const call = async (args: Record<string, unknown>, params: Record<string, string>) => {
      const response = await post(
        server.url,
        { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'route', arguments: args, _meta: META } },
        { ...headers('tools/call', 'route'), ...params },
      );
      return {
        status: response.status,
        body: (await response.json()) as { result?: { content: { text: string }[] }; error?: { code: number; message: string } },
      };
    };
    const listed = await post(server.url, { jsonrpc: '2.0', id: 8, method: 'tools/list', params: { _meta: META } }, headers('tools/list'));
    const tools = ((await listed.json()) as { result: { tools: { name: string; inputSchema: { properties: Record<string, Record<string, unknown>> } }[] } })
      .result.tools;
    expect(tools.find((tool) => tool.name === 'route')?.inputSchema.properties.region).toEqual({ type: 'string', 'x-mcp-header': 'Region' });

    const ok = await call(
      { region: 'eu west', priority: 7, verbose: false },
      { 'mcp-param-region': 'eu west', 'Mcp-Param-Priority': ' 07 ', 'mcp-param-verbose': 'false' },
    );
    expect(ok).toMatchObject({ status: 200, body: { result: { content: [{ text: 'eu west/7/false' }] } } });
    // Absent values send no header; a base64 sentinel carries what plain ASCII cannot.
    const encoded = await call({ region: ' Zürich' }, { 'mcp-param-region': `=?base64?${Buffer.from(' Zürich').toString('base64')}?=` });
    expect(encoded).toMatchObject({ status: 200, body: { result: { content: [{ text: ' Zürich/undefined/undefined' }] } } });

    for (const [args, params, message] of [
      [{ region: 'eu' }, {}, 'Missing Mcp-Param-Region header for argument region'],
      [{ region: 'eu' }, { 'mcp-param-region': 'us' }, "Header mismatch: Mcp-Param-Region header value 'us' does not match body value 'eu'"],
      [{ region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVsbG8?=' }, 'Invalid Base64 in Mcp-Param-Region header'],
      [
        { region: 'eu', priority: 7 },
        { 'mcp-param-region': 'eu', 'mcp-param-priority': '7.0' },
        "Header mismatch: Mcp-Param-Priority header value '7.0' does not match body value '7'",
      ],
      [
        { region: 'eu', verbose: true },
        { 'mcp-param-region': 'eu', 'mcp-param-verbose': 'TRUE' },
        "Header mismatch: Mcp-Param-Verbose header value 'TRUE' does not match body value 'true'",
      ],
    ] as const) {
      expect(await call(args, params)).toEqual({ status: 400, body: { jsonrpc: '2.0', id: 9, error: { code: -32020, message } } });
    }
    const latin = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers('tools/call', 'route'),
        'mcp-param-region': Buffer.from('Zürich', 'latin1').toString('latin1'),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'route', arguments: { region: 'Zürich' }, _meta: META } }),
    });
    expect(await latin.json()).toMatchObject({ error: { code: -32020, message: 'Invalid characters in Mcp-Param-Region header' } });
  });

  it('answers the modern status table: 400 for missing _meta, 404 for removed methods, 405 for GET and DELETE', async () => {
    const server = await start();
    const missing = await post(server.url, { jsonrpc: '2.0', id: 5, method: 'tools/list', params: {} }, headers('tools/list'));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ id: 5, error: { code: -32602 } });
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe']) {
      const answer = await post(server.url, { jsonrpc: '2.0', id: 6, method, params: { _meta: META } }, headers(method));
      expect({ method, status: answer.status, code: ((await answer.json()) as { error: { code: number } }).error.code }).toEqual({
        method,
        status: 404,
        code: -32601,
      });
    }
    const get = await fetch(server.url, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' } });
    expect(get.status).toBe(405);
    expect((await fetch(server.url, { method: 'DELETE', headers: { 'mcp-protocol-version': '2026-07-28' } })).status).toBe(405);
    const unknown = await post(
      server.url,
      { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '1999-01-01' } } },
      { 'mcp-protocol-version': '1999-01-01', 'mcp-method': 'tools/list' },
    );
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { code: -32022, data: { requested: '1999-01-01' } } });
  });

  it('keeps serving the handshake era beside it', async () => {
    const server = await start();
    const session = await openSession(server.url);
    expect((await post(server.url, call(8, 'echo', { text: 'old' }), { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' })).status).toBe(200);
  });
});
