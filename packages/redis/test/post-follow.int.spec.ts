import pino from 'pino';
import { createClient } from 'redis';
import type { RedisClientLike } from '@mcpkit/redis';
import { initialize, openStream, rpc, send, parseEvents, SESSION_HEADERS, type OpenStream } from './support/http-client';
import { startRedisServer, type RedisServer } from './support/redis-server';
import { startInstance, unexpectedLines, type Instance } from './support/two-instances';

// A POST response stream (a tools/call still running on A) whose connection broke, resumed with
// GET + Last-Event-ID on B: B follows it to its answer as A stores it, or fails the request when
// A is gone first. Two instances in this process on a real redis-server; "A is gone" is A losing
// every Redis connection for good (its inbox subscription with them), which is what Redis sees
// of a killed process. The SIGKILL case with the official SDK client is apps/notes' e2e.
let redis: RedisServer;
let a: Instance;
let b: Instance;
let suite = 0;
let prefix: string;
const opened: OpenStream[] = [];
/** What the running test is bound to log at warn or above (it breaks Redis or an instance on purpose). */
let expectedLines: string[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});
beforeEach(async () => {
  prefix = `follow-${++suite}:`;
  a = await startInstance('a', { url: redis.url, prefix });
  b = await startInstance('b', { url: redis.url, prefix });
});
afterEach(async () => {
  for (const stream of opened.splice(0)) stream.close();
  await a?.close();
  await b?.close();
  // Their logs are kept, not printed: any line at warn or above the test did not expect fails it.
  expect(unexpectedLines([a, b], expectedLines.splice(0))).toEqual([]);
});

const GET = (session: string, lastEventId: string) => ({ ...SESSION_HEADERS(session), accept: 'text/event-stream', 'last-event-id': lastEventId });

/** A tools/call POSTed to `url` whose SSE answer is kept open. */
async function call(url: string, session: string, id: number, name: string, args: Record<string, unknown>): Promise<OpenStream> {
  const body = { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: { progressToken: `p${id}` } } };
  const stream = await openStream(url, 'POST', SESSION_HEADERS(session), JSON.stringify(body));
  opened.push(stream);
  return stream;
}

/** A GET resuming `lastEventId` on `url`, kept open. */
async function resume(url: string, session: string, lastEventId: string): Promise<OpenStream> {
  const stream = await openStream(url, 'GET', GET(session, lastEventId));
  opened.push(stream);
  return stream;
}

function lastId(stream: OpenStream): string {
  return stream.events.filter((event) => event.id !== undefined).pop()!.id!;
}

/** The sequence of a POST stream's event id (`<stream>_<n>`). */
function sequence(id: string): number {
  return Number(id.slice(id.lastIndexOf('_') + 1));
}

/** Starts instance `a` on a Redis client of its own whose connections `sever()` destroys for good (no reconnect). */
async function severableA(): Promise<{ instance: Instance; sever(): void }> {
  const client = createClient({ url: redis.url, disableOfflineQueue: true });
  const connections: Array<{ destroy(): unknown }> = [client];
  const duplicate = client.duplicate.bind(client);
  (client as unknown as { duplicate: typeof duplicate }).duplicate = ((overrides?: Parameters<typeof duplicate>[0]) => {
    const copy = duplicate(overrides);
    connections.push(copy);
    return copy;
  }) as typeof duplicate;
  const instance = await startInstance('a', { client: client as unknown as RedisClientLike, prefix });
  return {
    instance,
    sever: () => {
      for (const connection of connections) connection.destroy();
    },
  };
}

describe('a POST stream resumed on another instance follows the request to its end', () => {
  it('delivers the later events on B as A stores them, in order and once each, and ends right after the answer', async () => {
    const session = await initialize(a.url);
    const post = await call(a.url, session, 7, 'steps', { steps: 6, delayMs: 150 });
    await post.until((s) => s.messages().some((m) => m.method === 'notifications/progress'));
    post.close();
    const from = lastId(post);
    const resumed = await resume(b.url, session, from);
    expect(resumed.status).toBe(200);
    // Open while A still runs the request (it takes about 900 ms): no answer, no end yet.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(resumed.ended).toBe(false);
    await resumed.until((s) => s.ended, 8_000);

    const messages = [...post.messages(), ...resumed.messages()];
    const progress = messages.filter((m) => m.method === 'notifications/progress').map((m) => (m.params as { progress: number }).progress);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
    expect(messages[messages.length - 1]).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'a:6' }] } });
    expect(messages.filter((m) => m.id === 7)).toHaveLength(1);
    const ids = resumed.events.filter((e) => e.id !== undefined).map((e) => sequence(e.id!));
    expect(ids[0]).toBeGreaterThan(sequence(from));
    for (let i = 1; i < ids.length; i += 1) expect(ids[i]).toBe(ids[i - 1] + 1);

    // Answered: a later resumption anywhere replays up to the answer and ends at once.
    const again = await send(b.url, 'GET', GET(session, from), undefined, 3_000);
    const replayed = parseEvents(again.body).filter((e) => e.data !== '');
    expect(replayed.map((e) => e.id)).toEqual(resumed.events.filter((e) => e.data !== '').map((e) => e.id));
  });

  it('follows from the priming event: the stored events first, then the rest, through an elicitation answered on B', async () => {
    const session = await initialize(b.url);
    const post = await call(a.url, session, 3, 'ask', { question: 'colour?' });
    await post.until((s) => s.messages().some((m) => m.method === 'elicitation/create'));
    post.close();
    const request = post.messages().find((m) => m.method === 'elicitation/create')!;
    const resumed = await resume(b.url, session, post.events[0].id!);
    await resumed.until((s) => s.messages().length >= 1);
    expect(resumed.messages()).toEqual([request]);
    expect((await rpc(b.url, session, { id: request.id, result: { action: 'accept', content: { reply: 'blue' } } })).status).toBe(202);
    await resumed.until((s) => s.ended, 5_000);
    expect(resumed.messages()).toEqual([request, { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'a:accept:{"reply":"blue"}' }] } }]);
  });

  it('fails the request with -32603 as the last event when the instance running it is gone, and keeps that answer for later resumptions', async () => {
    await a.close();
    const victim = await severableA();
    a = victim.instance;
    // A, cut off from Redis, cannot keep its stream's events.
    expectedLines = ['event store failed: an event of this stream cannot be resumed', 'scale-out: could not store a stream fallback'];
    const session = await initialize(b.url);
    const post = await call(a.url, session, 4, 'ask', { question: 'still there?' });
    await post.until((s) => s.messages().some((m) => m.method === 'elicitation/create'));
    post.close();
    const from = lastId(post);
    victim.sever();
    const started = Date.now();
    const resumed = await resume(b.url, session, from);
    expect(resumed.status).toBe(200);
    await resumed.until((s) => s.ended, 8_000);
    // Not at the first silent look (a writer that reconnects to Redis is back within a second):
    // only after `writerGraceMs`. A lower bound, so a busy machine cannot make it fail.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    const failure = {
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32603, message: 'The server instance serving this request ended before answering; send the request again' },
    };
    expect(resumed.messages()).toEqual([failure]);
    expect(sequence(resumed.events[resumed.events.length - 1].id!)).toBe(sequence(from) + 1);
    // Stored: the next resumption gets it at once, and ends.
    const again = await send(b.url, 'GET', GET(session, from), undefined, 1_500);
    expect(parseEvents(again.body).map((e) => JSON.parse(e.data) as unknown)).toEqual([failure]);
  });

  it('fails the request with -32603 when the instance running it is gone and comes back at once under the same instanceId (a restart)', async () => {
    await a.close();
    const victim = await severableA();
    const session = await initialize(b.url);
    const post = await call(victim.instance.url, session, 13, 'ask', { question: 'restarted?' });
    await post.until((s) => s.messages().some((m) => m.method === 'elicitation/create'));
    post.close();
    const from = lastId(post);
    // Killed a while into the call: what it stores as the stream opens is in Redis by then.
    await new Promise((resolve) => setTimeout(resolve, 200));
    victim.sever();
    // The supervisor restarts it under the same name before the follower's grace is out: that
    // run's inbox has a subscriber again, but not the run that holds the request.
    a = await startInstance('a', { url: redis.url, prefix });
    const resumed = await resume(b.url, session, from);
    try {
      await resumed.until((s) => s.ended, 8_000);
      expect(resumed.messages()).toEqual([
        { jsonrpc: '2.0', id: 13, error: { code: -32603, message: 'The server instance serving this request ended before answering; send the request again' } },
      ]);
    } finally {
      await victim.instance.close().catch(() => undefined);
    }
  });

  it('logs one line per followed stream while Redis is unreachable, not one per poll', async () => {
    const lines: string[] = [];
    const quiet = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    await b.close();
    b = await startInstance('b', { url: redis.url, prefix, logger: quiet });
    // A loses Redis too while its stream runs.
    expectedLines = ['Redis connection error', 'event store failed: an event of this stream cannot be resumed'];
    const session = await initialize(a.url);
    const post = await call(a.url, session, 9, 'steps', { steps: 40, delayMs: 100 });
    await post.until((s) => s.messages().some((m) => m.method === 'notifications/progress'));
    post.close();
    const resumed = await resume(b.url, session, lastId(post));
    expect(resumed.status).toBe(200);
    // Gone: every poll (every 250 ms) fails at once, a dozen of them in this time.
    await redis.kill();
    try {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    } finally {
      await redis.restart();
    }
    expect(lines.filter((line) => line.includes('could not follow a stream'))).toHaveLength(1);
  }, 20_000);

  it('fails the request with -32603 at once when A shuts down (close) while running it: its copy of the session marks it lost', async () => {
    // A follower that would wait a minute for a silent writer: only A's own mark can end the stream in time.
    await b.close();
    b = await startInstance('b', { url: redis.url, prefix, writerGraceMs: 60_000 });
    const session = await initialize(b.url);
    const post = await call(a.url, session, 11, 'wait', { tag: 'shutdown' });
    await post.until((s) => s.messages().length >= 1);
    post.close();
    const resumed = await resume(b.url, session, lastId(post));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(resumed.ended).toBe(false);
    await a.close();
    // No grace to wait out: A said so itself before it went.
    await resumed.until((s) => s.ended, 10_000);
    expect(resumed.messages()).toEqual([
      { jsonrpc: '2.0', id: 11, error: { code: -32603, message: 'The server instance serving this request ended before answering; send the request again' } },
    ]);
  });

  it('ends without an answer when the request was cancelled on A (nothing more will come)', async () => {
    const session = await initialize(a.url);
    const post = await call(a.url, session, 5, 'wait', { tag: 'w' });
    await post.until((s) => s.messages().length >= 1);
    post.close();
    const resumed = await resume(b.url, session, lastId(post));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(resumed.ended).toBe(false);
    expect((await rpc(b.url, session, { method: 'notifications/cancelled', params: { requestId: 5 } })).status).toBe(202);
    await resumed.until((s) => s.ended, 5_000);
    expect(resumed.messages()).toEqual([]);
    expect(a.log.cancelled).toEqual(['w']);
  });

  it('ends the followed stream when its session is deleted through A', async () => {
    const session = await initialize(a.url);
    const post = await call(a.url, session, 6, 'wait', { tag: 'd' });
    await post.until((s) => s.messages().length >= 1);
    post.close();
    const resumed = await resume(b.url, session, lastId(post));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(resumed.ended).toBe(false);
    expect((await send(a.url, 'DELETE', SESSION_HEADERS(session))).status).toBe(200);
    await resumed.until((s) => s.ended, 5_000);
    expect(resumed.messages()).toEqual([]);
  });

  it('ends a followed stream whose answer was too big to keep with a -32603 for its request, not never', async () => {
    await a.close();
    a = await startInstance('a', { url: redis.url, prefix, maxEventBytesPerStream: 2_000 });
    const session = await initialize(b.url);
    const post = await call(a.url, session, 14, 'ask', { question: 'a long one?' });
    await post.until((s) => s.messages().some((m) => m.method === 'elicitation/create'));
    post.close();
    const request = post.messages().find((m) => m.method === 'elicitation/create')!;
    const resumed = await resume(b.url, session, lastId(post));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(resumed.ended).toBe(false);
    // A answers with some 3 kB: sent to whoever reads A's stream, but not kept (2 000 bytes at most).
    expect((await rpc(b.url, session, { id: request.id, result: { action: 'accept', content: { reply: 'x'.repeat(3_000) } } })).status).toBe(202);
    await resumed.until((s) => s.ended, 5_000);
    expect(resumed.messages()).toEqual([
      {
        jsonrpc: '2.0',
        id: 14,
        error: { code: -32603, message: 'The answer was too big to keep for a resumption (maxEventBytesPerStream); send the request again' },
      },
    ]);
  });

  it('answers 400 to a POST stream position that was never minted, even one naming a live instance (never followed)', async () => {
    const session = await initialize(b.url);
    const post = await call(a.url, session, 12, 'wait', { tag: 'real' });
    await post.until((s) => s.messages().length >= 1);
    post.close();
    const real = lastId(post);
    const name = real.slice(0, real.lastIndexOf('_'));
    // A's stream names, but positions no stream mints (events count from 1), and names A never used.
    for (const forged of [`${name}_0`, `${name}_01`, `a-000000000000-s1_0`, `a-000000000000-s1_1`]) {
      const answer = await send(b.url, 'GET', GET(session, forged), undefined, 2_000);
      expect([forged, answer.status]).toEqual([forged, 400]);
    }
    await rpc(a.url, session, { method: 'notifications/cancelled', params: { requestId: 12 } });
  });

  it('follows at most maxFollowedStreams at once (past it: replay and end, the client polls), with keep-alive comments', async () => {
    await b.close();
    b = await startInstance('b', { url: redis.url, prefix, maxFollowedStreams: 1 }, { streamKeepAliveMs: 100 });
    const session = await initialize(a.url);
    const first = await call(a.url, session, 8, 'wait', { tag: 'one' });
    const second = await call(a.url, session, 9, 'wait', { tag: 'two' });
    await first.until((s) => s.messages().length >= 1);
    await second.until((s) => s.messages().length >= 1);
    first.close();
    second.close();
    const followed = await resume(b.url, session, lastId(first));
    const polled = await resume(b.url, session, lastId(second));
    await polled.until((s) => s.ended, 3_000);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(followed.ended).toBe(false);
    expect(followed.text).toContain(': keepalive\n\n');
    // The slot is free again once the first ends: the second now follows too.
    await rpc(a.url, session, { method: 'notifications/cancelled', params: { requestId: 8 } });
    await followed.until((s) => s.ended, 5_000);
    const later = await resume(b.url, session, lastId(second));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(later.ended).toBe(false);
    await rpc(a.url, session, { method: 'notifications/cancelled', params: { requestId: 9 } });
    await later.until((s) => s.ended, 5_000);
    expect(a.log.cancelled.sort()).toEqual(['one', 'two']);
  });
});
