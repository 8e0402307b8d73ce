import { MemoryEventBus, MemoryRateLimitStore, MemoryRequestStateStore, MemoryTaskStore } from '@mcpkit/core';
import { MemoryEventStore } from '../src/event-store';
import { MemoryRouterHub } from './support/memory-session-router';
import { MemorySessionStore } from '../src/session-store';
import { eventBusContract } from './contracts/event-bus.contract';
import { eventStoreContract } from './contracts/event-store.contract';
import { sessionRouterContract } from './contracts/session-router.contract';
import { sessionStoreContract } from './contracts/session-store.contract';
import { rateLimitStoreContract } from './contracts/rate-limit-store.contract';
import { requestStateStoreContract } from './contracts/request-state-store.contract';
import { taskStoreContract } from './contracts/task-store.contract';

// The in-memory defaults against the contracts @mcpkit/redis is held to (packages/redis/test/contracts.int.spec.ts).
sessionStoreContract('MemorySessionStore', () => ({ store: new MemorySessionStore() }));
eventStoreContract('MemoryEventStore', () => ({
  store: new MemoryEventStore({ maxEventsPerSession: 5, maxBytesPerSession: 3_000 }),
  maxEvents: 5,
  maxBytes: 3_000,
}));
eventBusContract('MemoryEventBus', () => {
  const bus = new MemoryEventBus();
  return { a: bus, b: bus };
});
sessionRouterContract('MemorySessionRouter', () => {
  const hub = new MemoryRouterHub(1_000, 5);
  return Promise.resolve({
    maxBroadcasts: 5,
    a: hub.router('a'),
    b: hub.router('b'),
    createSession: () => Promise.resolve(),
    broadcast: (list) => Promise.resolve(hub.recordListChange(list)),
    broadcastUpdate: (uri) => Promise.resolve(hub.recordResourceUpdate(uri)),
  });
});
rateLimitStoreContract('MemoryRateLimitStore', () => ({ store: new MemoryRateLimitStore() }));
requestStateStoreContract('MemoryRequestStateStore', () => ({ store: new MemoryRequestStateStore() }));
taskStoreContract('MemoryTaskStore', (setup) => ({ store: new MemoryTaskStore(setup) }));
