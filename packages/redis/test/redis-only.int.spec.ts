import { createClient } from 'redis';
import { redisScaleOut, type RedisScaleOut } from '@mcpkit/redis';
import type { RoutedEvent } from '@mcpkit/http/scale-out';
import { task } from '../../http/test/contracts/task-store.contract';
import { Keys } from '../src/keys';
import { RedisLink } from '../src/redis-link';
import { RedisTaskStore } from '../src/redis-task-store';
import { freePort, startRedisServer, type RedisServer } from './support/redis-server';

// What only a shared store has to get right: lifetimes across instances, and many writers on one log.
let redis: RedisServer;
let raw: ReturnType<typeof createClient>;
let opened: RedisScaleOut[] = [];
let tests = 0;

beforeAll(async () => {
  redis = await startRedisServer();
  raw = createClient({ url: redis.url });
  await raw.connect();
});
afterAll(async () => {
  await raw?.close();
  await redis?.stop();
});
afterEach(async () => {
  for (const s of opened) await s.close();
  opened = [];
});

async function scaleOut(prefix: string, instanceId: string, sessionIdleTtlMs?: number): Promise<RedisScaleOut> {
  const made = redisScaleOut({ url: redis.url, prefix, instanceId, sessionIdleTtlMs });
  opened.push(made);
  await made.ready();
  return made;
}

const record = (id: string) => ({ id, client: { protocolVersion: '2025-11-25', capabilities: {} }, createdAt: Date.now() });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('RedisSessionStore lifetimes', () => {
  it('slides the idle TTL with every get, on any instance, and forgets the session once it is idle that long', async () => {
    const prefix = `ttl-${++tests}:`;
    const a = await scaleOut(prefix, 'a', 400);
    const b = await scaleOut(prefix, 'b', 400);
    await a.http.sessionStore.set(record('slide'));
    // 1.2 s of use, three TTLs, a get every 150 ms alternating instances: never expires.
    for (let i = 0; i < 8; i += 1) {
      await sleep(150);
      expect((await (i % 2 === 0 ? b : a).http.sessionStore.get('slide'))?.id).toBe('slide');
    }
    await sleep(600);
    expect(await a.http.sessionStore.get('slide')).toBeUndefined();
    expect(await b.http.sessionStore.get('slide')).toBeUndefined();
  });

  it('never resurrects an expired session: sends, subscriptions and gets after expiry write nothing', async () => {
    const prefix = `ttl-${++tests}:`;
    const a = await scaleOut(prefix, 'a', 200);
    await a.http.sessionStore.set(record('gone'));
    await a.http.router.subscribe('gone', 'notes://1', true);
    await a.http.router.send('gone', '{"jsonrpc":"2.0","method":"notifications/message"}');
    expect(await raw.keys(`${prefix}*`)).not.toEqual([]);
    await sleep(400);
    expect(await raw.keys(`${prefix}*`)).toEqual([]);
    await a.http.router.send('gone', '{"jsonrpc":"2.0","method":"notifications/message"}');
    await a.http.router.subscribe('gone', 'notes://2', true);
    expect(await a.http.sessionStore.get('gone')).toBeUndefined();
    expect(await raw.keys(`${prefix}*`)).toEqual([]);
  });

  it('gives every key of a session a TTL (nothing outlives an idle session)', async () => {
    const prefix = `ttl-${++tests}:`;
    const a = await scaleOut(prefix, 'a', 60_000);
    await a.http.sessionStore.set(record('keys'));
    await a.http.router.subscribe('keys', 'notes://1', true);
    await a.http.router.send('keys', '{"jsonrpc":"2.0","method":"notifications/message"}');
    await a.http.eventStore.append('keys', 'a-s1', { id: 'a-s1_1', data: '{}' }, 10);
    const keys = await raw.keys(`${prefix}s:*`);
    expect(keys.length).toBeGreaterThanOrEqual(5);
    for (const key of keys) {
      const ttl = await raw.pTTL(key);
      expect({ key, expires: ttl > 0 && ttl <= 60_000 }).toEqual({ key, expires: true });
    }
  });
});

describe('RedisSessionRouter with many writers', () => {
  it('keeps 500 concurrent sends to one session from two instances in one strictly increasing order, none lost', async () => {
    const prefix = `race-${++tests}:`;
    const a = await scaleOut(prefix, 'a');
    const b = await scaleOut(prefix, 'b');
    await a.http.sessionStore.set(record('busy'));
    const seen: RoutedEvent[] = [];
    const held = await a.http.router.attach('busy', undefined, {
      events: (events) => void seen.push(...events),
      evicted: () => undefined,
      announces: () => true,
    });
    await Promise.all(
      Array.from({ length: 500 }, (_, n) =>
        (n % 2 === 0 ? a : b).http.router.send('busy', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { n } })),
      ),
    );
    const deadline = Date.now() + 10_000;
    while (seen.length < 500 && Date.now() < deadline) await sleep(10);
    expect(seen).toHaveLength(500);
    const ids = seen.map((event) => event.position.log.split('-').map(Number));
    for (let i = 1; i < ids.length; i += 1) {
      const [pm, ps] = ids[i - 1];
      const [m, s] = ids[i];
      expect(m > pm || (m === pm && s > ps)).toBe(true);
    }
    const numbers = seen.map((event) => (JSON.parse(event.data) as { params: { n: number } }).params.n).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 500 }, (_, n) => n));
    held!.detach();
    // A reader that resumes from the first event gets the other 499, in the same order.
    const again: RoutedEvent[] = [];
    const resumed = await b.http.router.attach('busy', seen[0].position, {
      events: (events) => void again.push(...events),
      evicted: () => undefined,
      announces: () => true,
    });
    while (again.length < 499 && Date.now() < deadline) await sleep(10);
    expect(again.map((event) => event.position)).toEqual(seen.slice(1).map((event) => event.position));
    resumed!.detach();
  });
});

describe('redisScaleOut({ client })', () => {
  it('uses a node-redis client the application made, and leaves it open on close', async () => {
    const client = createClient({ url: redis.url, disableOfflineQueue: true });
    const made = redisScaleOut({ client, prefix: `client-${++tests}:`, instanceId: 'own' });
    await made.ready();
    await made.http.sessionStore.set(record('mine'));
    expect((await made.http.sessionStore.get('mine'))?.id).toBe('mine');
    await made.close();
    expect(client.isOpen).toBe(true);
    expect(await client.ping()).toBe('PONG');
    await client.close();
  });

  it('rejects ready() once startTimeoutMs passed without reaching Redis (a closed port), and closes', async () => {
    const port = await freePort();
    const unreachable = redisScaleOut({ url: `redis://127.0.0.1:${port}`, prefix: `down-${++tests}:`, startTimeoutMs: 300 });
    // The message says startTimeoutMs ended the wait; the test's time limit bounds it.
    await expect(unreachable.ready()).rejects.toThrow(/could not be reached within 300 ms/);
    await unreachable.close();
  });

  it('refuses options it cannot work with', () => {
    expect(() => redisScaleOut({} as never)).toThrow(TypeError);
    expect(() => redisScaleOut({ url: redis.url, client: createClient() })).toThrow(/exactly one/);
    expect(() => redisScaleOut({ url: redis.url, instanceId: 'has space' })).toThrow(/instanceId/);
    expect(() => redisScaleOut({ url: redis.url, sessionIdleTtlMs: 0 })).toThrow(/sessionIdleTtlMs/);
    expect(() => redisScaleOut({ url: redis.url, startTimeoutMs: -1 })).toThrow(/startTimeoutMs/);
    expect(() => redisScaleOut({ url: redis.url, maxTasks: 0 })).toThrow(/maxTasks/);
    expect(() => redisScaleOut({ url: redis.url, maxTasksPerOwner: 1.5 })).toThrow(/maxTasksPerOwner/);
  });
});

describe('RedisSessionRouter when the stream owner is gone', () => {
  it("drops a dead owner's claim on the first send (nobody listens on its inbox) and keeps the event for the next reader", async () => {
    const prefix = `dead-${++tests}:`;
    const b = await scaleOut(prefix, 'b');
    await b.http.sessionStore.set(record('orphan'));
    // What a killed instance leaves behind: its claim, with the lease still running.
    await raw.set(`${prefix}s:{orphan}:owner`, 'killed', { PX: 30_000 });
    await b.http.router.send('orphan', '{"jsonrpc":"2.0","method":"notifications/message","params":{"n":1}}');
    expect(await raw.get(`${prefix}s:{orphan}:owner`)).toBeNull();
    const seen: RoutedEvent[] = [];
    const held = await b.http.router.attach('orphan', undefined, {
      events: (events) => void seen.push(...events),
      evicted: () => undefined,
      announces: () => true,
    });
    const deadline = Date.now() + 3_000;
    while (seen.length < 1 && Date.now() < deadline) await sleep(10);
    expect(seen.map((event) => JSON.parse(event.data))).toEqual([{ jsonrpc: '2.0', method: 'notifications/message', params: { n: 1 } }]);
    expect(await raw.get(`${prefix}s:{orphan}:owner`)).toBe('b');
    held!.detach();
  });
});

describe('RedisTaskStore keys', () => {
  const expiresAt = async (key: string): Promise<number> => Number(await raw.sendCommand(['PEXPIRETIME', key]));

  it('gives every key a lifetime: a task its TTL, each index that of its last task (issue #26 item 12)', async () => {
    const prefix = `tasks-${++tests}:`;
    const a = await scaleOut(prefix, 'a');
    const at = Date.now();
    await a.taskStore.create(task('t-long', 'principal p', at, 60_000));
    await a.taskStore.create(task('t-short', 'principal p', at, 30_000));
    await a.taskStore.create(task('t-anon', undefined, at, 45_000));
    await a.taskStore.update('t-short', { status: 'completed', result: {} });
    const keys = (await raw.keys(`${prefix}task*`)).sort();
    expect(keys).toEqual([
      `${prefix}task:t-anon`,
      `${prefix}task:t-long`,
      `${prefix}task:t-short`,
      `${prefix}tasks:-`,
      `${prefix}tasks:all`,
      `${prefix}tasks:f:o:principal p`,
      `${prefix}tasks:givers`,
      `${prefix}tasks:o:principal p`,
      `${prefix}tasks:who`,
    ]);
    expect(await expiresAt(`${prefix}task:t-short`)).toBe(at + 30_000);
    expect(await expiresAt(`${prefix}tasks:o:principal p`)).toBe(at + 60_000);
    expect(await expiresAt(`${prefix}tasks:f:o:principal p`)).toBe(at + 60_000);
    expect(await expiresAt(`${prefix}tasks:-`)).toBe(at + 45_000);
    for (const shared of ['all', 'who', 'givers']) expect(await expiresAt(`${prefix}tasks:${shared}`)).toBe(at + 60_000);
  });

  it('drops expired ids from the indexes as tasks are created, on the store clock', async () => {
    const prefix = `tasks-${++tests}:`;
    const link = new RedisLink({ url: redis.url }, 2_000, undefined);
    await link.ready();
    // An hour ahead: the keys expire (PEXPIREAT, on the store clock) long after the test, so only
    // the store's own pruning can drop them; at the real time a loaded machine let Redis expire them first.
    let now = Date.now() + 3_600_000;
    const store = new RedisTaskStore(link, new Keys(prefix), {}, () => now);
    try {
      await store.create(task('old', 'o', now, 100));
      await store.create(task('old-anon', undefined, now, 100));
      await store.update('old', { status: 'completed', result: {} });
      expect(await raw.zRange(`${prefix}tasks:givers`, 0, -1)).toEqual(['o:o']);
      now += 100;
      await store.create(task('new', 'o', now, 60_000));
      await store.create(task('new-anon', undefined, now, 60_000));
      expect(await raw.zRange(`${prefix}tasks:o:o`, 0, -1)).toEqual(['new']);
      expect(await raw.zRange(`${prefix}tasks:-`, 0, -1)).toEqual(['new-anon']);
      expect((await raw.zRange(`${prefix}tasks:all`, 0, -1)).sort()).toEqual(['new', 'new-anon']);
      // What a full store reads is pruned with them: the tasks' owners, the finished ones, the givers.
      expect(await raw.hGetAll(`${prefix}tasks:who`)).toEqual({ new: 'o:o', 'new-anon': '-' });
      expect(await raw.exists([`${prefix}tasks:f:o:o`, `${prefix}tasks:givers`])).toBe(0);
    } finally {
      await link.close();
    }
  });
});
