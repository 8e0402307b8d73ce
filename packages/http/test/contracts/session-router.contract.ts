import type { JsonRpcMessage } from '@mcpkit/core';
import type { ChangedList, RoutedEvent, RouterReader, SessionRouter } from '../../src/session-router';

/** Two instances' routers over one shared state, with a session both may use. */
export interface SessionRouterFixture {
  a: SessionRouter;
  b: SessionRouter;
  /** Makes session `id` exist (a router writes only to live sessions). */
  createSession(id: string): Promise<void>;
  /** Broadcasts a list change the way the shared bus does. */
  broadcast(list: ChangedList): Promise<void>;
  /** Broadcasts a resource update the way the shared bus does. */
  broadcastUpdate(uri: string): Promise<void>;
  cleanup?: () => Promise<void> | void;
}

const until = async (check: () => boolean, ms = 3_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
};

class Reader implements RouterReader {
  readonly seen: RoutedEvent[] = [];
  evictions = 0;
  events(events: readonly RoutedEvent[]): void {
    this.seen.push(...events);
  }
  evicted(): void {
    this.evictions += 1;
  }
  get data(): string[] {
    return this.seen.map((event) => event.data);
  }
}

const note = (n: number): string => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { n } });

/** The behaviour every SessionRouter shares: one ordered log per session, readable on any instance. */
export function sessionRouterContract(name: string, make: () => Promise<SessionRouterFixture>): void {
  describe(`SessionRouter contract: ${name}`, () => {
    let fixture: SessionRouterFixture;
    const delivered: Record<'a' | 'b', Array<{ sessionId: string; message: JsonRpcMessage }>> = { a: [], b: [] };
    const ended: Record<'a' | 'b', string[]> = { a: [], b: [] };
    beforeEach(async () => {
      fixture = await make();
      delivered.a = [];
      delivered.b = [];
      ended.a = [];
      ended.b = [];
      fixture.a.start({ deliver: (sessionId, message) => (delivered.a.push({ sessionId, message }), true), ended: (id) => void ended.a.push(id) });
      fixture.b.start({ deliver: (sessionId, message) => (delivered.b.push({ sessionId, message }), true), ended: (id) => void ended.b.push(id) });
    });
    afterEach(async () => {
      await fixture.a.close();
      await fixture.b.close();
      await fixture.cleanup?.();
    });

    it('delivers what any instance sends to the reader on another, in order, each once', async () => {
      await fixture.createSession('r1');
      const reader = new Reader();
      const held = await fixture.a.attach('r1', undefined, reader);
      expect(held).toBeDefined();
      for (let n = 1; n <= 10; n += 1) await (n % 2 === 0 ? fixture.a : fixture.b).send('r1', note(n));
      await until(() => reader.seen.length >= 10);
      expect(reader.data).toEqual(Array.from({ length: 10 }, (_, i) => note(i + 1)));
      held!.detach();
    });

    it('keeps what is sent while nobody reads, for the next reader, and resumes after a position on any instance', async () => {
      await fixture.createSession('r2');
      await fixture.b.send('r2', note(1));
      await fixture.a.send('r2', note(2));
      const first = new Reader();
      const held = await fixture.b.attach('r2', undefined, first);
      await until(() => first.seen.length >= 2);
      expect(first.data).toEqual([note(1), note(2)]);
      held!.detach();
      await fixture.b.send('r2', note(3));
      await fixture.a.send('r2', note(4));
      const resumed = new Reader();
      const again = await fixture.a.attach('r2', first.seen[0].id, resumed);
      expect(again?.position).toBe(first.seen[0].id);
      await until(() => resumed.seen.length >= 3);
      expect(resumed.data).toEqual([note(2), note(3), note(4)]);
      // Ids grow with the log.
      const ids = [...first.seen, ...resumed.seen.slice(1)].map((event) => event.id);
      expect(new Set(ids).size).toBe(ids.length);
      again!.detach();
    });

    it('starts a fresh reader after what was already delivered', async () => {
      await fixture.createSession('r3');
      const first = new Reader();
      const held = await fixture.a.attach('r3', undefined, first);
      await fixture.a.send('r3', note(1));
      await until(() => first.seen.length >= 1);
      // The delivery cursor is written just after the delivery: a fresh GET a moment later starts past it.
      await new Promise((resolve) => setTimeout(resolve, 50));
      held!.detach();
      await fixture.b.send('r3', note(2));
      const next = new Reader();
      const again = await fixture.b.attach('r3', undefined, next);
      await until(() => next.seen.length >= 1);
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(next.data).toEqual([note(2)]);
      again!.detach();
    });

    it('refuses a position that is not in the log', async () => {
      await fixture.createSession('r4');
      expect(await fixture.a.attach('r4', '999999999999999-0', new Reader())).toBeUndefined();
      expect(await fixture.a.attach('r4', 'not-a-position', new Reader())).toBeUndefined();
    });

    it('hands the stream to the newest reader, on any instance, and evicts the old one', async () => {
      await fixture.createSession('r5');
      const old = new Reader();
      await fixture.a.attach('r5', undefined, old);
      const newer = new Reader();
      const held = await fixture.b.attach('r5', undefined, newer);
      await until(() => old.evictions === 1);
      expect(old.evictions).toBe(1);
      await fixture.a.send('r5', note(1));
      await until(() => newer.seen.length >= 1);
      expect(newer.data).toEqual([note(1)]);
      expect(old.seen).toEqual([]);
      held!.detach();
    });

    it('forwards a message to the instance named, and says when nobody is there', async () => {
      const answer: JsonRpcMessage = { jsonrpc: '2.0', id: 'mcpkit.a.1', result: { action: 'accept' } };
      expect(await fixture.b.forward('f1', answer, { instance: fixture.a.instanceId })).toBe(true);
      await until(() => delivered.a.length === 1);
      expect(delivered.a).toEqual([{ sessionId: 'f1', message: answer }]);
      expect(delivered.b).toEqual([]);
      expect(await fixture.b.forward('f1', answer, { instance: 'nobody-here' })).toBe(false);
    });

    it('tells every other instance of a session deleted through one (they end their copies)', async () => {
      await fixture.createSession('e1');
      await fixture.a.deleteSession('e1');
      await until(() => ended.b.length === 1);
      expect(ended.b).toEqual(['e1']);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(ended.a).toEqual([]);
    });

    it('forwards a cancellation to every instance', async () => {
      const cancel: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } };
      expect(await fixture.a.forward('f2', cancel, 'all')).toBe(true);
      await until(() => delivered.a.length === 1 && delivered.b.length === 1);
      expect(delivered.b).toEqual([{ sessionId: 'f2', message: cancel }]);
    });

    it('keeps resource subscriptions per session', async () => {
      await fixture.createSession('u1');
      await fixture.createSession('u2');
      await fixture.a.subscribe('u1', 'notes://1', true);
      await fixture.b.subscribe('u2', 'notes://2', true);
      await fixture.b.subscribe('u1', 'notes://2', true);
      await fixture.a.subscribe('u1', 'notes://2', false);
      expect(await fixture.b.subscribed(['u1', 'u2', 'u3'], 'notes://1')).toEqual([true, false, false]);
      expect(await fixture.a.subscribed(['u1', 'u2'], 'notes://2')).toEqual([false, true]);
    });

    it('tells a resuming stream which lists changed and which of its resources were updated since its position', async () => {
      await fixture.createSession('c1');
      await fixture.a.subscribe('c1', 'notes://1', true);
      await fixture.a.send('c1', note(1));
      const reader = new Reader();
      const held = await fixture.a.attach('c1', undefined, reader);
      await until(() => reader.seen.length === 1);
      held!.detach();
      expect(await fixture.b.missedSince('c1', reader.seen[0].id)).toEqual({ lists: [], resources: [] });
      await fixture.broadcast('tools');
      await fixture.broadcastUpdate('notes://1');
      await fixture.broadcast('prompts');
      await fixture.broadcastUpdate('notes://2');
      await fixture.broadcast('tools');
      await fixture.broadcastUpdate('notes://1');
      const missed = await fixture.b.missedSince('c1', reader.seen[0].id);
      expect({ lists: missed.lists.sort(), resources: missed.resources }).toEqual({ lists: ['prompts', 'tools'], resources: ['notes://1'] });
    });

    it('evicts the reader of a deleted session', async () => {
      await fixture.createSession('d1');
      const reader = new Reader();
      await fixture.a.attach('d1', undefined, reader);
      await fixture.b.deleteSession('d1');
      await until(() => reader.evictions === 1);
      expect(reader.evictions).toBe(1);
    });
  });
}
