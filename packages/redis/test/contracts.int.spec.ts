import { createClient } from 'redis';
import { redisScaleOut, type RedisScaleOut } from '@mcpkit/redis';
import { eventBusContract } from '../../http/test/contracts/event-bus.contract';
import { eventStoreContract } from '../../http/test/contracts/event-store.contract';
import { rateLimitStoreContract } from '../../http/test/contracts/rate-limit-store.contract';
import { requestStateStoreContract } from '../../http/test/contracts/request-state-store.contract';
import { sessionRouterContract } from '../../http/test/contracts/session-router.contract';
import { sessionStoreContract } from '../../http/test/contracts/session-store.contract';
import { taskStoreContract } from '../../http/test/contracts/task-store.contract';
import { startRedisServer, type RedisServer } from './support/redis-server';
import { Keys } from '../src/keys';
import { RedisLink } from '../src/redis-link';
import { RedisTaskStore } from '../src/redis-task-store';

// The Redis implementations against the same contracts as the in-memory defaults
// (packages/http/test/memory-contracts.int.spec.ts), on a real redis-server of this file's own.
let redis: RedisServer;
/** A plain client of the test's own, to see when a broadcast is in the log. */
let probe: ReturnType<typeof createClient>;
beforeAll(async () => {
  redis = await startRedisServer();
  probe = createClient({ url: redis.url });
  await probe.connect();
});
afterAll(async () => {
  await probe?.close();
  await redis?.stop();
});

/** The id of the newest broadcast under `prefix`. */
async function lastBroadcast(prefix: string): Promise<string | undefined> {
  const last = (await probe.sendCommand(['XREVRANGE', `${prefix}bcast`, '+', '-', 'COUNT', '1'])) as Array<[string, unknown]>;
  return last[0]?.[0];
}

/** Publishes on `bus` and resolves once the broadcast is in the log (bounded in time). */
async function recorded(prefix: string, publish: () => void): Promise<void> {
  const before = await lastBroadcast(prefix);
  publish();
  const deadline = Date.now() + 3_000;
  while ((await lastBroadcast(prefix)) === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
}

let tests = 0;
/** A fresh prefix per test: no test sees another's keys. */
async function scaleOut(
  options: { instanceId?: string; prefix?: string; maxEventsPerStream?: number; maxEventBytesPerStream?: number; maxBroadcasts?: number } = {},
): Promise<RedisScaleOut> {
  const made = redisScaleOut({ url: redis.url, prefix: options.prefix ?? `contract-${++tests}:`, ...options });
  await made.ready();
  return made;
}

sessionStoreContract('RedisSessionStore', async () => {
  const s = await scaleOut();
  return { store: s.http.sessionStore, cleanup: () => s.close() };
});
eventStoreContract('RedisEventStore', async () => {
  const s = await scaleOut({ maxEventsPerStream: 5, maxEventBytesPerStream: 3_000 });
  return { store: s.http.eventStore, maxEvents: 5, maxBytes: 3_000, cleanup: () => s.close() };
});
eventBusContract('RedisEventBus', async () => {
  const prefix = `contract-${++tests}:`;
  const a = await scaleOut({ prefix, instanceId: 'a' });
  const b = await scaleOut({ prefix, instanceId: 'b' });
  return { a: a.bus, b: b.bus, cleanup: async () => (await a.close(), await b.close()) };
});
sessionRouterContract('RedisSessionRouter', async () => {
  const prefix = `contract-${++tests}:`;
  const a = await scaleOut({ prefix, instanceId: 'a', maxBroadcasts: 5 });
  const b = await scaleOut({ prefix, instanceId: 'b', maxBroadcasts: 5 });
  return {
    maxBroadcasts: 5,
    a: a.http.router,
    b: b.http.router,
    createSession: (id) => Promise.resolve(a.http.sessionStore.set({ id, client: { protocolVersion: '2025-11-25', capabilities: {} }, createdAt: Date.now() })),
    // The bus records it without waiting: the fixture waits until it is in the log.
    broadcast: (list) => recorded(prefix, () => a.bus.publish({ type: 'listChanged', list })),
    broadcastUpdate: (uri) => recorded(prefix, () => a.bus.publish({ type: 'resourceUpdated', uri })),
    cleanup: async () => (await a.close(), await b.close()),
  };
});
rateLimitStoreContract('RedisRateLimitStore', async () => {
  const s = await scaleOut();
  return { store: s.rateLimitStore, cleanup: () => s.close() };
});
requestStateStoreContract('RedisRequestStateStore', async () => {
  const prefix = `contract-${++tests}:`;
  const [a, b] = [await scaleOut({ prefix }), await scaleOut({ prefix })];
  return { store: a.requestStateStore, other: b.requestStateStore, cleanup: async () => (await a.close(), await b.close()) };
});
taskStoreContract('RedisTaskStore', async ({ now, maxTasks, maxTasksPerOwner }) => {
  // Made directly, for the contract's clock: redisScaleOut's store reads the wall clock.
  const link = new RedisLink({ url: redis.url }, 2_000, undefined);
  await link.ready();
  return { store: new RedisTaskStore(link, new Keys(`contract-${++tests}:`), { maxTasks, maxTasksPerOwner }, now), cleanup: () => link.close() };
});
