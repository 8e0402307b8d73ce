import { createClient } from 'redis';
import pino from 'pino';
import { createApp, Tool } from '@mcpkit/core';
import { serveHttp } from '@mcpkit/fastify';
import { redisScaleOut } from '@mcpkit/redis';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { INIT, initialize, openStream, parseEvents, rpc, send, SESSION_HEADERS } from './support/http-client';
import { startRedisServer, type RedisServer } from './support/redis-server';
import { startInstance, takeLogged, unexpectedLines, type Instance } from './support/two-instances';

// Two instances (two apps, two HTTP servers, two Redis scale-outs with their own instance ids) in
// this process, on a real redis-server of this file's own: what crosses instances, over real
// loopback sockets. Killing an instance for real is the multi-process suite's (apps/notes).
let redis: RedisServer;
let a: Instance;
let b: Instance;
let suite = 0;
let prefix: string;

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});
beforeEach(async () => {
  prefix = `scale-${++suite}:`;
  a = await startInstance('a', { url: redis.url, prefix });
  b = await startInstance('b', { url: redis.url, prefix });
});
afterEach(async () => {
  await a?.close();
  await b?.close();
  // The instances' logs are kept, not printed: a test takes out what it expects, and anything
  // else at warn or above fails it here.
  expect(unexpectedLines([a, b])).toEqual([]);
});

/** The ids of the client answers A and B dropped because nothing waits for them (each a warn line). */
const droppedAnswers = () =>
  [a, b]
    .flatMap((instance) => takeLogged(instance, 'dropped a client answer: the request it answers is gone (timed out, or its instance ended)'))
    .map((line) => line.rpcId);
const callTool = (id: number, name: string, args: Record<string, unknown> = {}) => ({ id, method: 'tools/call', params: { name, arguments: args } });
const textOf = (answer: { json?: Record<string, unknown> }) => ((answer.json?.result as { content: Array<{ text: string }> }).content[0] ?? {}).text;

describe('scale-out over Redis: two instances', () => {
  it('serves a session made on A on B, and answers 404 for an unknown one', async () => {
    const session = await initialize(a.url);
    const onB = await rpc(b.url, session, callTool(1, 'where'));
    expect(onB.status).toBe(200);
    expect(textOf(onB)).toBe('b');
    expect((await rpc(a.url, session, callTool(2, 'where'))).status).toBe(200);
    expect((await rpc(b.url, 'no-such-session', callTool(3, 'where'))).status).toBe(404);
  });

  it('keeps another app off a prefix in use: its instance answers 503 and says why, and neither sees the other', async () => {
    class Other {
      @Tool({ description: 'Another app', input: null })
      where(): string {
        return 'other';
      }
    }
    const errors: string[] = [];
    const logger = { error: (_: unknown, message: string) => errors.push(message), warn: () => undefined, info: () => undefined, debug: () => undefined };
    // Both on one prefix (as two apps left on the default `mcpkit:` would be): 'scale-out' started first.
    const scaleOut = redisScaleOut({ url: redis.url, prefix, instanceId: 'other', logger: logger as never });
    const warnings: string[] = [];
    const appLogger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push((JSON.parse(line) as { msg: string }).msg) });
    const app = createApp({ name: 'other-app', version: '1.0.0', providers: [Other], bus: scaleOut.bus, logger: appLogger });
    await scaleOut.ready();
    const server = await serveHttp(app, { port: 0, ...scaleOut.http, streamKeepAliveMs: 0 });
    try {
      const session = await initialize(a.url);
      const deadline = Date.now() + 3_000;
      while (errors.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(errors).toEqual([expect.stringContaining(`the prefix "${prefix}" holds the state of the app "scale-out", not of "other-app"`)]);
      expect((await send(server.url, 'POST', {}, INIT)).status).toBe(503);
      expect((await rpc(server.url, session, callTool(1, 'where'))).status).toBe(503);
      expect(warnings).toEqual(['session store unavailable: initialize answered 503', 'session store unavailable: answered 503']);
      // The app that owns the prefix is unaffected.
      expect(textOf(await rpc(b.url, session, callTool(2, 'where')))).toBe('b');
    } finally {
      await server.close();
      await scaleOut.close();
    }
  });

  it('answers 503 + Retry-After, not 404, for a session that exists when every slot of the instance is busy', async () => {
    const c = await startInstance('c', { url: redis.url, prefix }, { maxSessions: 1 });
    try {
      const victim = await initialize(b.url);
      const holder = await initialize(c.url);
      const held = await openStream(c.url, 'GET', { ...SESSION_HEADERS(holder), accept: 'text/event-stream' });
      await held.until((s) => s.events.length >= 1);
      const full = await rpc(c.url, victim, callTool(1, 'where'));
      expect(full.status).toBe(503);
      expect(full.headers['retry-after']).toBeDefined();
      expect((await send(c.url, 'GET', { ...SESSION_HEADERS(victim), accept: 'text/event-stream' })).status).toBe(503);
      // A session the store does not have is still not found.
      expect((await rpc(c.url, 'no-such-session', callTool(2, 'where'))).status).toBe(404);
      held.close();
      const deadline = Date.now() + 5_000;
      let served = await rpc(c.url, victim, callTool(3, 'where'));
      while (served.status !== 200 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        served = await rpc(c.url, victim, callTool(3, 'where'));
      }
      expect(textOf(served)).toBe('c');
    } finally {
      await c.close();
    }
  });

  it('refuses an initialize whose session record would exceed maxSessionRecordBytes (-32602, 400), keeping nothing in Redis', async () => {
    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      const before = (await raw.keys(`${prefix}s:*`)).length;
      const huge = JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'big', version: '1', description: 'x'.repeat(1_900_000) } },
      });
      const refused = await send(a.url, 'POST', {}, huge);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body)).toMatchObject({ id: 0, error: { code: -32602, message: expect.stringContaining('16384 bytes') } });
      expect(refused.headers['mcp-session-id']).toBeUndefined();
      expect((await raw.keys(`${prefix}s:*`)).length).toBe(before);
      // A usual client's record is far below it.
      const session = await initialize(a.url);
      const record = await raw.hGet(`${prefix}s:{${session}}`, 'r');
      expect(Buffer.byteLength(record!)).toBeLessThan(1_024);
      expect((await rpc(b.url, session, callTool(1, 'where'))).status).toBe(200);
    } finally {
      await raw.quit();
    }
  });

  it('ends a session deleted on B on A too', async () => {
    const session = await initialize(a.url);
    expect((await rpc(a.url, session, callTool(1, 'where'))).status).toBe(200);
    expect((await send(b.url, 'DELETE', SESSION_HEADERS(session))).status).toBe(200);
    expect((await rpc(a.url, session, callTool(2, 'where'))).status).toBe(404);
  });

  it('cancels the requests a session runs on A when it is deleted on B, and ends their streams', async () => {
    const session = await initialize(a.url);
    const running = rpc(a.url, session, callTool(5, 'wait', { tag: 'deleted-on-b' }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await send(b.url, 'DELETE', SESSION_HEADERS(session))).status).toBe(200);
    // Its POST ends (well before the tool's own 10 s), with no result.
    const ended = await running.catch(() => undefined);
    expect(ended?.json?.result).toBeUndefined();
    const deadline = Date.now() + 5_000;
    while (a.log.cancelled.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(a.log.cancelled).toEqual(['deleted-on-b']);
    expect((await rpc(a.url, session, callTool(6, 'where'))).status).toBe(404);
  });

  it('carries a list change raised on B to the GET stream held by A', async () => {
    const session = await initialize(a.url);
    const stream = await openStream(a.url, 'GET', { ...SESSION_HEADERS(session), accept: 'text/event-stream' });
    expect(stream.status).toBe(200);
    await stream.until((s) => s.events.length >= 1);
    b.app.disable('tool', 'where');
    await stream.until((s) => s.messages().some((m) => m.method === 'notifications/tools/list_changed'));
    expect(stream.messages().filter((m) => m.method === 'notifications/tools/list_changed')).toHaveLength(1);
    stream.close();
  });

  it('sends resources/updated raised on B only to the sessions subscribed, on the instance holding their stream', async () => {
    const subscriber = await initialize(a.url);
    const bystander = await initialize(b.url);
    expect((await rpc(b.url, subscriber, { id: 1, method: 'resources/subscribe', params: { uri: 'notes://1' } })).status).toBe(200);
    const subscribed = await openStream(a.url, 'GET', { ...SESSION_HEADERS(subscriber), accept: 'text/event-stream' });
    const other = await openStream(b.url, 'GET', { ...SESSION_HEADERS(bystander), accept: 'text/event-stream' });
    await subscribed.until((s) => s.events.length >= 1);
    await other.until((s) => s.events.length >= 1);
    b.app.resourceUpdated('notes://2');
    b.app.resourceUpdated('notes://1');
    await subscribed.until((s) => s.messages().some((m) => m.method === 'notifications/resources/updated'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(subscribed.messages().filter((m) => m.method === 'notifications/resources/updated')).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'notes://1' } },
    ]);
    expect(other.messages()).toEqual([]);
    subscribed.close();
    other.close();
  });

  it('resumes the GET stream on another instance from Last-Event-ID: missed events in order, once, and the broadcasts raised meanwhile', async () => {
    const session = await initialize(a.url);
    expect((await rpc(a.url, session, { id: 1, method: 'resources/subscribe', params: { uri: 'notes://1' } })).status).toBe(200);
    const first = await openStream(a.url, 'GET', { ...SESSION_HEADERS(session), accept: 'text/event-stream' });
    await first.until((s) => s.events.length >= 1);
    const router = b.scaleOut.http.router;
    await router.send(session, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 1 } }));
    await first.until((s) => s.messages().length === 1);
    const lastSeen = first.events[first.events.length - 1].id!;
    first.close();
    // While no stream is open: two messages from B, one from A, and a list change broadcast by A.
    await router.send(session, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 2 } }));
    await a.scaleOut.http.router.send(session, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 3 } }));
    a.app.disable('tool', 'where');
    b.app.resourceUpdated('notes://1');
    b.app.resourceUpdated('notes://2');
    await router.send(session, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 4 } }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const resumed = await openStream(b.url, 'GET', { ...SESSION_HEADERS(session), accept: 'text/event-stream', 'last-event-id': lastSeen });
    expect(resumed.status).toBe(200);
    await resumed.until((s) => s.messages().filter((m) => m.method === 'notifications/message').length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const messages = resumed.messages();
    expect(messages.filter((m) => m.method === 'notifications/message').map((m) => (m.params as { data: number }).data)).toEqual([2, 3, 4]);
    expect(messages.filter((m) => m.method === 'notifications/tools/list_changed')).toHaveLength(1);
    expect(messages.filter((m) => m.method === 'notifications/resources/updated')).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'notes://1' } },
    ]);
    // Every event carries an id, the broadcast hints too; neither position ever goes back.
    const ids = resumed.events.filter((e) => e.data !== '').map((e) => e.id);
    expect(ids).toHaveLength(5);
    const positions = ids.map((id) => /^g_(\d+-\d+)_(\d+-\d+)$/.exec(id ?? '')!.slice(1));
    for (const part of [0, 1]) {
      const column = positions.map((position) => position[part]);
      expect([...column].sort(compareEventIds)).toEqual(column);
    }
    resumed.close();
    // A broadcast position ahead of the log, or no position at all: 400.
    const logPart = positions[4][0];
    for (const id of [`g_${logPart}_99999999999999-0`, `g_${logPart}_x`, `g_${logPart}_1-0_1-0`]) {
      const refused = await send(b.url, 'GET', { ...SESSION_HEADERS(session), accept: 'text/event-stream', 'last-event-id': id });
      expect([id, refused.status]).toEqual([id, 400]);
    }
    // An id that was never in the log: nothing can be replayed.
    const unknown = await send(b.url, 'GET', { ...SESSION_HEADERS(session), accept: 'text/event-stream', 'last-event-id': 'g_99999999999999-0' });
    expect(unknown.status).toBe(400);
    // Parts past 2^64 - 1 are no Redis id: unknown too (400), not a store failure (503).
    for (const id of ['g_18446744073709551616-0', 'g_0-18446744073709551616', 'g_99999999999999999999999-1']) {
      const invalid = await send(b.url, 'GET', { ...SESSION_HEADERS(session), accept: 'text/event-stream', 'last-event-id': id });
      expect([id, invalid.status]).toEqual([id, 400]);
    }
  });

  it('hands the GET stream to the newest GET, on whichever instance (no 409)', async () => {
    const session = await initialize(a.url);
    const old = await openStream(a.url, 'GET', { ...SESSION_HEADERS(session), accept: 'text/event-stream' });
    await old.until((s) => s.events.length >= 1);
    const newer = await openStream(b.url, 'GET', { ...SESSION_HEADERS(session), accept: 'text/event-stream' });
    expect(newer.status).toBe(200);
    await old.until((s) => s.ended);
    await a.scaleOut.http.router.send(session, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }));
    await newer.until((s) => s.messages().length === 1);
    newer.close();
  });

  it('routes the answer to an elicitation sent from a handler on B, POSTed to A, back to B (official SDK client, round robin)', async () => {
    const origins = [new URL(a.url), new URL(b.url)];
    let turn = 0;
    // A round-robin balancer without a proxy: every request of the client goes to the next instance.
    const balancer: typeof fetch = (input, init) => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      const target = origins[turn++ % origins.length];
      url.host = target.host;
      return fetch(url, init);
    };
    const client = new Client({ name: 'round-robin', version: '1' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { reply: 'yes' } }));
    const changes: unknown[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, (notification) => void changes.push(notification));
    await client.connect(new StreamableHTTPClientTransport(new URL(a.url), { fetch: balancer }));
    const answers = await Promise.all([0, 1, 2, 3].map(() => client.callTool({ name: 'ask', arguments: { question: 'ok?' } })));
    const texts = answers.map((answer) => (answer.content as Array<{ text: string }>)[0].text);
    // Both instances asked, and each got its own answer back wherever the client POSTed it.
    expect(new Set(texts.map((text) => text.split(':')[0]))).toEqual(new Set(['a', 'b']));
    for (const text of texts) expect(text).toMatch(/^[ab]:accept:\{"reply":"yes"\}$/);
    await client.close();
  });

  it('routes the answer to an elicitation from a handler on B, POSTed to A, to B; an answer nobody waits for gets 202 and is dropped', async () => {
    const session = await initialize(a.url);
    const call = await openStream(b.url, 'POST', SESSION_HEADERS(session), JSON.stringify({ jsonrpc: '2.0', ...callTool(7, 'ask', { question: 'ok?' }) }));
    await call.until((s) => s.messages().some((m) => m.method === 'elicitation/create'));
    const request = call.messages().find((m) => m.method === 'elicitation/create')!;
    // The id names the instance that waits for it.
    expect(request.id).toMatch(/^mcpkit\.b\.[0-9a-f]{12}\.\d+$/);
    const reply = await rpc(a.url, session, { id: request.id, result: { action: 'accept', content: { reply: 'from A' } } });
    expect(reply.status).toBe(202);
    await call.until((s) => s.messages().some((m) => m.id === 7));
    expect(call.messages().find((m) => m.id === 7)).toMatchObject({ result: { content: [{ type: 'text', text: 'b:accept:{"reply":"from A"}' }] } });
    // Late, unknown, or for an instance that is gone: accepted and dropped, the session serves on.
    const unanswerable = [request.id, `${String(request.id)}9`, 'mcpkit.gone.0123456789ab.1', 'client-made'];
    for (const id of unanswerable) {
      expect((await rpc(a.url, session, { id, result: { action: 'accept', content: {} } })).status).toBe(202);
    }
    expect((await rpc(a.url, session, callTool(8, 'where'))).status).toBe(200);
    // Each drop is a warn line of its own.
    expect(droppedAnswers().sort()).toEqual([...unanswerable].sort());
  });

  it('names the streams and requests of a restarted instance (same instance id) anew: nothing lost, no old answer replayed or accepted', async () => {
    const session = await initialize(a.url);
    const ask = async (id: number, question: string) => {
      const call = await openStream(a.url, 'POST', SESSION_HEADERS(session), JSON.stringify({ jsonrpc: '2.0', ...callTool(id, 'ask', { question }) }));
      await call.until((s) => s.messages().some((m) => m.method === 'elicitation/create'));
      return { call, request: call.messages().find((m) => m.method === 'elicitation/create')! };
    };
    const first = await ask(1, 'first?');
    expect((await rpc(b.url, session, { id: first.request.id, result: { action: 'accept', content: { reply: 'one' } } })).status).toBe(202);
    await first.call.until((s) => s.messages().some((m) => m.id === 1));
    first.call.close();
    await a.close();
    a = await startInstance('a', { url: redis.url, prefix });
    const second = await ask(2, 'second?');
    expect(second.request.id).not.toBe(first.request.id);
    expect(second.call.events[0].id).not.toBe(first.call.events[0].id);
    // A late answer to the first request must not resolve the second.
    expect((await rpc(b.url, session, { id: first.request.id, result: { action: 'accept', content: { reply: 'stale' } } })).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(second.call.messages().some((m) => m.id === 2)).toBe(false);
    expect(droppedAnswers()).toEqual([first.request.id]);
    // Its events were kept: a resumption on B from its priming event replays its own elicitation.
    second.call.close();
    const resumed = await openStream(b.url, 'GET', { ...SESSION_HEADERS(session), accept: 'text/event-stream', 'last-event-id': second.call.events[0].id! });
    expect(resumed.status).toBe(200);
    await resumed.until((s) => s.messages().length >= 1);
    expect(resumed.messages()[0]).toMatchObject({ id: second.request.id, method: 'elicitation/create', params: { message: 'second?' } });
    resumed.close();
    expect((await rpc(b.url, session, { id: second.request.id, result: { action: 'accept', content: { reply: 'two' } } })).status).toBe(202);
    // The answer, kept after the elicitation: replayed from there (the stream lives on A).
    const elicitationEvent = resumed.events.find((e) => e.data !== '')!.id!;
    let replay: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 50 && !replay.some((m) => m.id === 2); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const again = await send(a.url, 'GET', { ...SESSION_HEADERS(session), accept: 'text/event-stream', 'last-event-id': elicitationEvent });
      replay = parseEvents(again.body)
        .filter((e) => e.data !== '')
        .map((e) => JSON.parse(e.data) as Record<string, unknown>);
    }
    expect(replay).toEqual([
      expect.objectContaining({ id: 2, result: expect.objectContaining({ content: [{ type: 'text', text: 'a:accept:{"reply":"two"}' }] }) }),
    ]);
  });

  it('fails a request whose stream events Redis cannot keep (OOM) instead of losing them silently', async () => {
    const session = await initialize(a.url);
    const raw = createClient({ url: redis.url });
    await raw.connect();
    await raw.configSet('maxmemory', '1');
    try {
      const call = await openStream(a.url, 'POST', SESSION_HEADERS(session), JSON.stringify({ jsonrpc: '2.0', ...callTool(3, 'ask', { question: 'kept?' }) }));
      await call.until((s) => s.messages().some((m) => m.id === 3));
      expect(call.messages().find((m) => m.id === 3)).toMatchObject({ error: { code: -32603, message: expect.stringContaining('event store') } });
      call.close();
    } finally {
      await raw.configSet('maxmemory', '0');
      await raw.quit();
    }
    expect((await rpc(b.url, session, callTool(4, 'where'))).status).toBe(200);
    // The operator hears of it: A's lines name Redis's refusal.
    const failures = [
      ...takeLogged(a, 'event store failed: an event of this stream cannot be resumed'),
      ...takeLogged(a, 'scale-out: could not store a stream fallback'),
    ];
    expect(failures.some((line) => line.level === 50)).toBe(true);
    for (const line of failures) expect(line).toMatchObject({ err: { message: expect.stringContaining('OOM command not allowed') } });
  });

  it('honours a log level set on A in what a handler on B logs to the client', async () => {
    const session = await initialize(a.url);
    const before = await rpc(b.url, session, callTool(1, 'speak'));
    expect(before.body).not.toContain('from b');
    expect((await rpc(a.url, session, { id: 2, method: 'logging/setLevel', params: { level: 'info' } })).status).toBe(200);
    const after = await rpc(b.url, session, callTool(3, 'speak'));
    expect(after.body).toContain('info from b');
    expect(after.body).not.toContain('debug from b');
  });

  it('cancels a request running on B from a notifications/cancelled POSTed to A', async () => {
    const session = await initialize(a.url);
    const running = rpc(b.url, session, callTool(41, 'wait', { tag: 'w1' }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const cancel = await rpc(a.url, session, { method: 'notifications/cancelled', params: { requestId: 41, reason: 'test' } });
    expect(cancel.status).toBe(202);
    const deadline = Date.now() + 5_000;
    while (b.log.cancelled.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(b.log.cancelled).toEqual(['w1']);
    await running.catch(() => undefined);
  });

  it('fans a change on B out to a 2026-07-28 subscriptions/listen stream on A', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'listen', version: '1' },
    };
    const listen = await openStream(
      a.url,
      'POST',
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
      JSON.stringify({ jsonrpc: '2.0', id: 'l1', method: 'subscriptions/listen', params: { _meta: meta, notifications: { toolsListChanged: true } } }),
    );
    expect(listen.status).toBe(200);
    await listen.until((s) => s.messages().some((m) => m.method === 'notifications/subscriptions/acknowledged'));
    b.app.disable('tool', 'where');
    await listen.until((s) => s.messages().some((m) => m.method === 'notifications/tools/list_changed'));
    listen.close();
  });
});

/** Orders `<ms>-<n>` stream ids as Redis does. */
function compareEventIds(x: string, y: string): number {
  const [xm, xs] = x.split('-').map(Number);
  const [ym, ys] = y.split('-').map(Number);
  return xm - ym || xs - ys;
}
