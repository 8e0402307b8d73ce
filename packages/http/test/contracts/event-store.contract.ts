import type { EventStore, StoredEvent } from '../../src/event-store';

/** A fresh store bounded to `maxEvents` events and `maxBytes` bytes for one stream of one session. */
export interface EventStoreFixture {
  store: EventStore;
  maxEvents: number;
  maxBytes: number;
  cleanup?: () => Promise<void> | void;
}

const event = (
  stream: string,
  n: number,
  data: string | null = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { n } }),
): StoredEvent => ({
  id: `${stream}_${n}`,
  data,
});

/** The behaviour every EventStore shares: replay after an id, in order, bounded in count and bytes. */
export function eventStoreContract(name: string, make: () => Promise<EventStoreFixture> | EventStoreFixture): void {
  describe(`EventStore contract: ${name}`, () => {
    let fixture: EventStoreFixture;
    beforeEach(async () => {
      fixture = await make();
    });
    afterEach(async () => {
      await fixture.cleanup?.();
    });

    it('replays what came after an event, oldest first, priming events included as null data', async () => {
      const { store } = fixture;
      await store.append('sess', 'x-s1', event('x-s1', 1, null), 20);
      for (let n = 2; n <= 5; n += 1) await store.append('sess', 'x-s1', event('x-s1', n), 80);
      expect(await store.after('sess', 'x-s1', 'x-s1_1')).toEqual([2, 3, 4, 5].map((n) => event('x-s1', n)));
      expect(await store.after('sess', 'x-s1', 'x-s1_5')).toEqual([]);
    });

    it('does not know an event it never kept, or one of another stream or session', async () => {
      const { store } = fixture;
      await store.append('sess', 'x-s1', event('x-s1', 1), 80);
      expect(await store.after('sess', 'x-s1', 'x-s1_9')).toBeUndefined();
      expect(await store.after('sess', 'x-s2', 'x-s2_1')).toBeUndefined();
      expect(await store.after('other', 'x-s1', 'x-s1_1')).toBeUndefined();
      // No stream mints a 0th event (the first is 1): "before the first" of any name is no position,
      // or a forged name would open a stream that never existed (and, scaled out, be followed).
      expect(await store.after('sess', 'x-s1', 'x-s1_0')).toBeUndefined();
      expect(await store.after('sess', 'never-s1', 'never-s1_0')).toBeUndefined();
      expect(await store.after('sess', 'x-s1', 'x-s1_01')).toBeUndefined();
    });

    it('keeps streams apart', async () => {
      const { store } = fixture;
      await store.append('sess', 'x-s1', event('x-s1', 1), 80);
      await store.append('sess', 'x-s2', event('x-s2', 1), 80);
      await store.append('sess', 'x-s1', event('x-s1', 2), 80);
      await store.append('sess', 'x-s2', event('x-s2', 2), 80);
      expect(await store.after('sess', 'x-s1', 'x-s1_1')).toEqual([event('x-s1', 2)]);
      expect(await store.after('sess', 'x-s2', 'x-s2_1')).toEqual([event('x-s2', 2)]);
    });

    it('drops the oldest events past the count bound', async () => {
      const { store, maxEvents } = fixture;
      for (let n = 1; n <= maxEvents + 3; n += 1) await store.append('sess', 'x-s1', event('x-s1', n), 10);
      expect(await store.after('sess', 'x-s1', 'x-s1_1')).toBeUndefined();
      const kept = await store.after('sess', 'x-s1', 'x-s1_4');
      expect(kept?.map((e) => e.id)).toEqual(Array.from({ length: maxEvents - 1 }, (_, i) => `x-s1_${i + 5}`));
    });

    it('drops the oldest events past the byte bound, and never keeps one bigger than it', async () => {
      const { store, maxBytes } = fixture;
      const third = Math.floor(maxBytes / 3);
      for (let n = 1; n <= 4; n += 1) await store.append('sess', 'x-s1', event('x-s1', n), third);
      expect(await store.after('sess', 'x-s1', 'x-s1_1')).toBeUndefined();
      expect((await store.after('sess', 'x-s1', 'x-s1_2'))?.map((e) => e.id)).toEqual(['x-s1_3', 'x-s1_4']);
      await store.append('sess', 'x-s1', event('x-s1', 5), maxBytes + 1);
      expect((await store.after('sess', 'x-s1', 'x-s1_3'))?.map((e) => e.id)).toEqual(['x-s1_4']);
    });

    it('forgets every stream of a deleted session', async () => {
      const { store } = fixture;
      await store.append('sess', 'x-s1', event('x-s1', 1), 80);
      await store.append('sess', 'x-s1', event('x-s1', 2), 80);
      await store.deleteSession('sess');
      expect(await store.after('sess', 'x-s1', 'x-s1_1')).toBeUndefined();
    });
  });
}
