import { redisScaleOut, type RedisScaleOut } from '@mcpkit/redis';
import { eventBusContract } from '../../http/test/contracts/event-bus.contract';
import { eventStoreContract } from '../../http/test/contracts/event-store.contract';
import { rateLimitStoreContract } from '../../http/test/contracts/rate-limit-store.contract';
import { sessionRouterContract } from '../../http/test/contracts/session-router.contract';
import { sessionStoreContract } from '../../http/test/contracts/session-store.contract';
import { taskStoreContract } from '../../http/test/contracts/task-store.contract';
import { startRedisServer, type RedisServer } from './support/redis-server';

// The Redis implementations against the same contracts as the in-memory defaults
// (packages/http/test/memory-contracts.int.spec.ts), on a real redis-server of this file's own.
let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

let tests = 0;
/** A fresh prefix per test: no test sees another's keys. */
async function scaleOut(
  options: { instanceId?: string; prefix?: string; maxEventsPerStream?: number; maxEventBytesPerStream?: number } = {},
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
  const a = await scaleOut({ prefix, instanceId: 'a' });
  const b = await scaleOut({ prefix, instanceId: 'b' });
  return {
    a: a.http.router,
    b: b.http.router,
    createSession: (id) => Promise.resolve(a.http.sessionStore.set({ id, client: { protocolVersion: '2025-11-25', capabilities: {} }, createdAt: Date.now() })),
    broadcast: async (list) => {
      a.bus.publish({ type: 'listChanged', list });
      // The bus records it without waiting: a command after it on the same connection lands after it.
      await a.http.sessionStore.get('-');
    },
    broadcastUpdate: async (uri) => {
      a.bus.publish({ type: 'resourceUpdated', uri });
      await a.http.sessionStore.get('-');
    },
    cleanup: async () => (await a.close(), await b.close()),
  };
});
rateLimitStoreContract('RedisRateLimitStore', async () => {
  const s = await scaleOut();
  return { store: s.rateLimitStore, cleanup: () => s.close() };
});
taskStoreContract('RedisTaskStore', async () => {
  const s = await scaleOut();
  return { store: s.taskStore, cleanup: () => s.close() };
});
