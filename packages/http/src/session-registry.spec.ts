import pino from 'pino';
import { createApp } from '@mcpkit/core';
import { MemoryEventStore } from './event-store';
import { LiveSession, SessionRegistry } from './session-registry';
import { MemorySessionStore } from './session-store';

/** A store other instances would share: the registry must read it on every request and never delete its records on its own account. */
class SharedStore extends MemorySessionStore {
  readonly shared = true;
}

function registry(maxSessions: number, idleTimeoutMs = 60_000, sessionStore: MemorySessionStore = new MemorySessionStore()): SessionRegistry {
  const logger = pino({ level: 'silent' });
  const app = createApp({ name: 'registry', version: '1', providers: [], logger });
  const stream = { priming: false, retryMs: 1_000, keepAliveMs: 0, limits: { maxMessageBytes: 1 << 20, maxBatchBytes: 1 << 20 }, maxBufferedBytes: 1 << 20 };
  return new SessionRegistry(app, { maxSessions, idleTimeoutMs, sessionStore, eventStore: new MemoryEventStore(), stream, logger });
}

describe('SessionRegistry', () => {
  const registries: SessionRegistry[] = [];
  afterEach(async () => Promise.all(registries.splice(0).map((r) => r.closeAll())));

  it('starts no timer until its first session (a Worker builds it in global scope, where timers are refused), then one', async () => {
    const setInterval = jest.spyOn(globalThis, 'setInterval');
    try {
      const sessions = registry(3);
      registries.push(sessions);
      expect(setInterval).not.toHaveBeenCalled();
      sessions.create({})!.leave();
      sessions.create({})!.leave();
      expect(setInterval).toHaveBeenCalledTimes(1);
    } finally {
      setInterval.mockRestore();
    }
  });

  it('stops its sweeper once no session is left, and starts it again with the next one', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const sessions = registry(3, 1_000);
      registries.push(sessions);
      const timers = jest.getTimerCount();
      const session = sessions.create({})!;
      session.leave();
      expect(jest.getTimerCount()).toBe(timers + 1);
      // Expired at the first sweep past its idle timeout; the sweep after finds nothing left to watch.
      await jest.advanceTimersByTimeAsync(3_000);
      expect(sessions.has(session)).toBe(false);
      expect(jest.getTimerCount()).toBe(timers);
      sessions.create({})!.leave();
      expect(jest.getTimerCount()).toBe(timers + 1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('evicts the least recently used idle session; busy ones stay', async () => {
    const sessions = registry(3);
    registries.push(sessions);
    const [a, b, c] = [sessions.create({})!, sessions.create({})!, sessions.create({})!];
    for (const session of [a, b, c]) session.leave();
    // a is busy (a client is there), b was used after c.
    await sessions.acquire(a.id);
    ((await sessions.acquire(b.id)) as LiveSession).leave();
    const d = sessions.create({})!;
    expect(sessions.has(c)).toBe(false);
    expect([a, b, d].every((session) => sessions.has(session))).toBe(true);
    d.leave();
    sessions.create({});
    expect(sessions.has(b)).toBe(false);
    expect([a, d].every((session) => sessions.has(session))).toBe(true);
    // d is the last idle one; then everything is busy: no room.
    expect(sessions.create({})).toBeDefined();
    expect(sessions.has(d)).toBe(false);
    expect(sessions.create({})).toBeUndefined();
  });

  it('evicts in O(1): at a cap full of busy sessions, creating one inspects no other', () => {
    const cap = 5_000;
    const sessions = registry(cap);
    registries.push(sessions);
    // All busy but the last 1 000, so a scan for an idle one would walk 4 000 sessions each time.
    for (let i = 0; i < cap; i++) {
      const session = sessions.create({})!;
      if (i >= cap - 1_000) session.leave();
    }
    // Count the idle sessions looked at: every step of every walk over the idle set.
    const idle = (sessions as unknown as { idle: Map<string, LiveSession> }).idle;
    let inspected = 0;
    const counted = <T>(walk: IterableIterator<T>): IterableIterator<T> => {
      const next = walk.next.bind(walk);
      walk.next = () => {
        inspected += 1;
        return next();
      };
      return walk;
    };
    for (const method of ['values', 'keys', 'entries', Symbol.iterator] as const) {
      const original = idle[method].bind(idle) as () => IterableIterator<unknown>;
      (idle as unknown as Record<PropertyKey, unknown>)[method] = () => counted(original());
    }
    for (let i = 0; i < 1_000; i++) sessions.create({})!.leave();
    // One look per eviction: the oldest idle session, never a scan past the 4 000 busy ones.
    expect(inspected).toBe(1_000);
    expect(sessions.size).toBe(cap);
    expect(sessions.idleCount).toBe(1_000);
  });

  describe('with a shared store', () => {
    it('reads the record on every use: a session ended elsewhere ends here too', async () => {
      const store = new SharedStore();
      const sessions = registry(10, 60_000, store);
      registries.push(sessions);
      const session = sessions.create({})!;
      await sessions.activate(session);
      session.leave();
      const get = jest.spyOn(store, 'get');
      ((await sessions.acquire(session.id)) as LiveSession).leave();
      expect(get).toHaveBeenCalledTimes(1);
      store.delete(session.id);
      expect(await sessions.acquire(session.id)).toBeUndefined();
      expect(sessions.has(session)).toBe(false);
    });

    it('lets idle expiry, the cap and shutdown drop only its own copy, never the shared record', async () => {
      const store = new SharedStore();
      const sessions = registry(1, 20, store);
      const first = sessions.create({})!;
      await sessions.activate(first);
      first.leave();
      // The cap: a new session takes the idle one's place here, its record stays for the others.
      const second = sessions.create({})!;
      await sessions.activate(second);
      second.leave();
      expect(sessions.has(first)).toBe(false);
      expect(store.get(first.id)).toBeDefined();
      // Idle expiry.
      const deadline = Date.now() + 2_000;
      while (sessions.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(sessions.size).toBe(0);
      expect(store.get(second.id)).toBeDefined();
      // Shutdown.
      ((await sessions.acquire(second.id)) as LiveSession).leave();
      await sessions.closeAll();
      expect(store.size).toBe(2);
    });

    it('without one, the same expiry deletes the record (a single instance)', async () => {
      const store = new MemorySessionStore();
      const sessions = registry(10, 20, store);
      registries.push(sessions);
      const session = sessions.create({})!;
      await sessions.activate(session);
      session.leave();
      const deadline = Date.now() + 2_000;
      while (store.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(store.size).toBe(0);
    });
  });
});
