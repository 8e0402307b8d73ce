import type { JsonRpcMessage } from '@mcpkit/core';
import type { ChangedList, RoutedEvent, RouterPosition, RouterReader, SessionRouter } from '../../src/session-router';

/** Two instances' routers over one shared state, with a session both may use. */
export interface SessionRouterFixture {
  a: SessionRouter;
  b: SessionRouter;
  /** Makes session `id` exist (a router writes only to live sessions). */
  createSession(id: string): Promise<void>;
  /** Broadcasts a list change the way the shared bus does. */
  broadcast(list: ChangedList): Promise<void>;
  /** Broadcasts a resource update the way the shared bus does (resolves once it is in the log). */
  broadcastUpdate(uri: string): Promise<void>;
  /** Most broadcasts the log keeps (the fixture's router is made with this bound). */
  maxBroadcasts: number;
  cleanup?: () => Promise<void> | void;
}

const until = async (check: () => boolean, ms = 3_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
};

class Reader implements RouterReader {
  readonly seen: RoutedEvent[] = [];
  evictions = 0;
  /** The lists whose changes the session announces. */
  constructor(private readonly lists: readonly ChangedList[] = ['tools', 'resources', 'prompts']) {}
  events(events: readonly RoutedEvent[]): void {
    this.seen.push(...events);
  }
  evicted(): void {
    this.evictions += 1;
  }
  announces(list: ChangedList): boolean {
    return this.lists.includes(list);
  }
  get data(): string[] {
    return this.seen.map((event) => event.data);
  }
  /** The position after the last event seen. */
  get last(): RouterPosition {
    return this.seen[this.seen.length - 1].position;
  }
}

const note = (n: number): string => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { n } });
const listChanged = (list: ChangedList): string => JSON.stringify({ jsonrpc: '2.0', method: `notifications/${list}/list_changed` });
const updated = (uri: string): string => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
const settle = (ms = 60): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** Orders stream ids as Redis does. */
const compareIds = (x: string, y: string): number => {
  const [xm, xs] = x.split('-').map(BigInt);
  const [ym, ys] = y.split('-').map(BigInt);
  return xm === ym ? Number(xs - ys) : xm < ym ? -1 : 1;
};

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
      const again = await fixture.a.attach('r2', first.seen[0].position, resumed);
      expect(again?.position).toEqual(first.seen[0].position);
      await until(() => resumed.seen.length >= 3);
      expect(resumed.data).toEqual([note(2), note(3), note(4)]);
      // Ids grow with the log.
      const ids = [...first.seen, ...resumed.seen.slice(1)].map((event) => event.position.log);
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
      expect(await fixture.a.attach('r4', { log: '999999999999999-0', broadcasts: '0-0' }, new Reader())).toBeUndefined();
      expect(await fixture.a.attach('r4', { log: 'not-a-position', broadcasts: '0-0' }, new Reader())).toBeUndefined();
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

    it('hands each broadcast to the held stream live, with both positions, filtered to what the session hears', async () => {
      await fixture.createSession('c1');
      await fixture.a.created('c1');
      await fixture.a.subscribe('c1', 'notes://1', true);
      const reader = new Reader(['tools']);
      const held = await fixture.b.attach('c1', undefined, reader);
      await settle();
      await fixture.a.send('c1', note(1));
      await until(() => reader.seen.length === 1);
      await fixture.broadcast('tools');
      await fixture.broadcast('prompts'); // not announced
      await fixture.broadcastUpdate('notes://2'); // not subscribed
      await fixture.broadcastUpdate('notes://1');
      await until(() => reader.seen.length === 3);
      await fixture.b.send('c1', note(2));
      await until(() => reader.seen.length === 4);
      await settle();
      expect(reader.data).toEqual([note(1), listChanged('tools'), updated('notes://1'), note(2)]);
      // Each event moves one position on and keeps the other: neither ever goes back.
      const [first, second, third, fourth] = reader.seen.map((event) => event.position);
      expect(second.log).toBe(first.log);
      expect(compareIds(second.broadcasts, first.broadcasts)).toBeGreaterThan(0);
      expect(compareIds(third.broadcasts, second.broadcasts)).toBeGreaterThan(0);
      expect(fourth.broadcasts).toBe(third.broadcasts);
      expect(compareIds(fourth.log, third.log)).toBeGreaterThan(0);
      held!.detach();
    });

    it('resumes from Last-Event-ID on any instance: the log after its log part and the broadcasts after its broadcast part, each once, also those raised while no stream was open', async () => {
      await fixture.createSession('c2');
      await fixture.a.created('c2');
      await fixture.a.subscribe('c2', 'notes://1', true);
      const reader = new Reader();
      const held = await fixture.a.attach('c2', undefined, reader);
      await settle();
      await fixture.broadcast('tools');
      await fixture.a.send('c2', note(1));
      await until(() => reader.seen.length === 2);
      held!.detach();
      // While no stream is open.
      await fixture.broadcast('prompts');
      await fixture.b.send('c2', note(2));
      await fixture.broadcastUpdate('notes://1');
      await fixture.broadcastUpdate('notes://2');
      const resumed = new Reader();
      const again = await fixture.b.attach('c2', reader.last, resumed);
      expect(again?.position).toEqual(reader.last);
      await until(() => resumed.seen.length >= 3);
      await settle();
      expect(resumed.data.filter((data) => data !== note(2))).toEqual([listChanged('prompts'), updated('notes://1')]);
      expect(resumed.data.filter((data) => data === note(2))).toHaveLength(1);
      again!.detach();
      // From the position of the first event: what came after it, the live ones included, once.
      const fromFirst = new Reader();
      const third = await fixture.a.attach('c2', reader.seen[0].position, fromFirst);
      await until(() => fromFirst.seen.length >= 4);
      await settle();
      expect(fromFirst.data.filter((data) => data.includes('notifications/message'))).toEqual([note(1), note(2)]);
      expect(fromFirst.data.filter((data) => !data.includes('notifications/message'))).toEqual([listChanged('prompts'), updated('notes://1')]);
      third!.detach();
    });

    it('resumes exactly after each event of a burst of log events and broadcasts (many within one millisecond)', async () => {
      await fixture.createSession('c3');
      await fixture.a.created('c3');
      const reader = new Reader();
      const held = await fixture.a.attach('c3', undefined, reader);
      await settle();
      const lists: ChangedList[] = ['tools', 'prompts', 'resources'];
      // Fewer broadcasts than the log keeps: every position stays resumable.
      for (let n = 0; n < 4; n += 1)
        await Promise.all([fixture.b.send('c3', note(2 * n)), fixture.broadcast(lists[n % 3]), fixture.a.send('c3', note(2 * n + 1))]);
      await until(() => reader.seen.length === 12);
      await settle();
      expect(reader.seen).toHaveLength(12);
      held!.detach();
      for (const k of [0, 3, 7, 10]) {
        const resumed = new Reader();
        const again = await fixture.b.attach('c3', reader.seen[k].position, resumed);
        expect(again).toBeDefined();
        await until(() => resumed.seen.length >= 11 - k);
        await settle(30);
        const rest = (events: readonly RoutedEvent[]) => events.map((event) => event.data).sort();
        expect([k, rest(resumed.seen)]).toEqual([k, rest(reader.seen.slice(k + 1))]);
        // Each log in its own order.
        const logs = (events: readonly RoutedEvent[]) => events.filter((event) => event.data.includes('notifications/message')).map((event) => event.data);
        const hints = (events: readonly RoutedEvent[]) => events.filter((event) => !event.data.includes('notifications/message')).map((event) => event.data);
        expect(logs(resumed.seen)).toEqual(logs(reader.seen.slice(k + 1)));
        expect(hints(resumed.seen)).toEqual(hints(reader.seen.slice(k + 1)));
        again!.detach();
      }
    });

    it('replays none of the broadcasts from before the session existed, from the priming position of an empty log', async () => {
      await fixture.broadcast('tools');
      await fixture.broadcast('prompts');
      await fixture.createSession('c4');
      await fixture.a.created('c4');
      const reader = new Reader();
      const held = await fixture.a.attach('c4', undefined, reader);
      await settle();
      expect(reader.seen).toEqual([]);
      held!.detach();
      await fixture.broadcast('resources');
      const resumed = new Reader();
      const again = await fixture.b.attach('c4', held!.position, resumed);
      await until(() => resumed.seen.length >= 1);
      await settle();
      expect(resumed.data).toEqual([listChanged('resources')]);
      again!.detach();
    });

    it('starts a session that never had a stream at the broadcast log as of its creation: what came after, before its first GET, is delivered', async () => {
      await fixture.broadcast('tools');
      await fixture.createSession('c5');
      await fixture.a.created('c5');
      await fixture.a.subscribe('c5', 'notes://1', true);
      await fixture.broadcast('prompts');
      await fixture.broadcastUpdate('notes://1');
      const reader = new Reader();
      const held = await fixture.b.attach('c5', undefined, reader);
      await until(() => reader.seen.length >= 2);
      await settle();
      expect(reader.data).toEqual([listChanged('prompts'), updated('notes://1')]);
      held!.detach();
    });

    it('starts a GET without Last-Event-ID after the broadcasts its last stream had, and delivers those raised since', async () => {
      await fixture.createSession('c6');
      await fixture.a.created('c6');
      const reader = new Reader();
      const held = await fixture.a.attach('c6', undefined, reader);
      await settle();
      await fixture.broadcast('tools');
      await until(() => reader.seen.length === 1);
      held!.detach();
      // Letting go stores where the stream stopped.
      await settle(100);
      await fixture.broadcast('prompts');
      const next = new Reader();
      const again = await fixture.b.attach('c6', undefined, next);
      await until(() => next.seen.length >= 1);
      await settle();
      expect(next.data).toEqual([listChanged('prompts')]);
      again!.detach();
    });

    it('accepts an id of a version that carried the log position only', async () => {
      await fixture.createSession('c7');
      await fixture.a.created('c7');
      await fixture.a.send('c7', note(1));
      const reader = new Reader();
      const held = await fixture.a.attach('c7', undefined, reader);
      await until(() => reader.seen.length === 1);
      held!.detach();
      await fixture.broadcast('tools');
      await fixture.a.send('c7', note(2));
      const resumed = new Reader();
      const again = await fixture.b.attach('c7', { log: reader.seen[0].position.log }, resumed);
      expect(again).toBeDefined();
      await until(() => resumed.seen.length >= 2);
      await settle();
      expect(resumed.data.sort()).toEqual([listChanged('tools'), note(2)].sort());
      again!.detach();
    });

    it('refuses a broadcast position ahead of the log or before what it still keeps', async () => {
      await fixture.createSession('c8');
      await fixture.a.created('c8');
      const reader = new Reader();
      const held = await fixture.a.attach('c8', undefined, reader);
      await settle();
      await fixture.broadcast('tools');
      await until(() => reader.seen.length === 1);
      held!.detach();
      const seen = reader.last;
      expect(await fixture.b.attach('c8', { log: seen.log, broadcasts: '99999999999999-0' }, new Reader())).toBeUndefined();
      // Still kept: resumable.
      const ok = await fixture.b.attach('c8', seen, new Reader());
      expect(ok).toBeDefined();
      ok!.detach();
      for (let n = 0; n <= fixture.maxBroadcasts; n += 1) await fixture.broadcast('prompts');
      expect(await fixture.b.attach('c8', seen, new Reader())).toBeUndefined();
    });

    it('keeps what a stream did not hear out of its position: a later resumption hears it no more than the stream did', async () => {
      await fixture.createSession('c9');
      await fixture.a.created('c9');
      const reader = new Reader(['tools']);
      const held = await fixture.a.attach('c9', undefined, reader);
      await settle();
      await fixture.broadcast('prompts');
      await fixture.broadcastUpdate('notes://1');
      await fixture.broadcast('tools');
      await until(() => reader.seen.length === 1);
      await settle();
      held!.detach();
      expect(reader.data).toEqual([listChanged('tools')]);
      const resumed = new Reader(['tools']);
      const again = await fixture.b.attach('c9', held!.position, resumed);
      await until(() => resumed.seen.length >= 1);
      await settle();
      expect(resumed.data).toEqual([listChanged('tools')]);
      again!.detach();
    });

    it('hears a resource update only if raised after the session subscribed, also when a stream resumes from before it', async () => {
      await fixture.createSession('c10');
      await fixture.a.created('c10');
      const reader = new Reader();
      const held = await fixture.a.attach('c10', undefined, reader);
      await settle();
      await fixture.broadcastUpdate('notes://1'); // raised before the subscription: passed over live
      await settle();
      held!.detach();
      await fixture.b.subscribe('c10', 'notes://1', true);
      await fixture.broadcastUpdate('notes://1');
      const resumed = new Reader();
      const again = await fixture.b.attach('c10', held!.position, resumed);
      await until(() => resumed.seen.length >= 1);
      await settle();
      expect(reader.seen).toEqual([]);
      expect(resumed.data).toEqual([updated('notes://1')]);
      again!.detach();
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
