import { MemoryEventStore } from './event-store';

const event = (id: string, size: number) => ({ id, data: 'd'.repeat(size) });

describe('MemoryEventStore', () => {
  describe('append', () => {
    it('keeps a session under its byte budget, evicting its oldest events first', () => {
      const store = new MemoryEventStore({ maxBytesPerSession: 100, maxBytes: 10_000 });
      for (let i = 1; i <= 5; i++) store.append('a', 's1', event(`s1_${i}`, 30), 30);
      expect(store.bytes).toBe(90);
      expect(store.after('a', 's1', 's1_1')).toBeUndefined();
      expect(store.after('a', 's1', 's1_3')?.map((e) => e.id)).toEqual(['s1_4', 's1_5']);
    });

    it('evicts across streams in arrival order', () => {
      const store = new MemoryEventStore({ maxBytesPerSession: 60, maxBytes: 10_000 });
      store.append('a', 's1', event('s1_1', 20), 20);
      store.append('a', 's2', event('s2_1', 20), 20);
      store.append('a', 's1', event('s1_2', 20), 20);
      store.append('a', 's2', event('s2_2', 20), 20);
      expect(store.after('a', 's1', 's1_1')).toBeUndefined();
      expect(store.after('a', 's2', 's2_1')?.map((e) => e.id)).toEqual(['s2_2']);
      expect(store.size).toBe(3);
    });

    it('holds the process budget over all sessions, the oldest anywhere going first', () => {
      const store = new MemoryEventStore({ maxBytesPerSession: 100, maxBytes: 150 });
      for (let i = 1; i <= 3; i++) store.append('a', 's1', event(`s1_${i}`, 25), 25);
      for (let i = 1; i <= 4; i++) store.append('b', 's1', event(`s1_${i}`, 25), 25);
      expect(store.bytes).toBe(150);
      expect(store.after('a', 's1', 's1_1')).toBeUndefined();
      expect(store.after('a', 's1', 's1_2')?.map((e) => e.id)).toEqual(['s1_3']);
      expect(store.after('b', 's1', 's1_1')?.map((e) => e.id)).toEqual(['s1_2', 's1_3', 's1_4']);
    });

    it('does not keep an event bigger than the session budget, and keeps the rest', () => {
      const store = new MemoryEventStore({ maxBytesPerSession: 100 });
      store.append('a', 's1', event('s1_1', 10), 10);
      store.append('a', 's1', event('s1_2', 101), 101);
      store.append('a', 's1', event('s1_3', 10), 10);
      expect(store.after('a', 's1', 's1_1')?.map((e) => e.id)).toEqual(['s1_3']);
      expect(store.bytes).toBe(20);
    });

    it('also bounds the event count per session', () => {
      const store = new MemoryEventStore({ maxEventsPerSession: 3 });
      for (let i = 1; i <= 5; i++) store.append('a', 's1', event(`s1_${i}`, 1), 1);
      expect(store.size).toBe(3);
    });
  });

  describe('deleteSession', () => {
    it('forgets the session and its bytes; evicted slots do not pile up', () => {
      const store = new MemoryEventStore({ maxBytesPerSession: 1_000, maxBytes: 1_000_000 });
      for (let round = 0; round < 200; round++) {
        for (let i = 1; i <= 20; i++) store.append(`s${round}`, 'g1', event(`g1_${i}`, 10), 10);
        store.deleteSession(`s${round}`);
      }
      expect(store.size).toBe(0);
      expect(store.bytes).toBe(0);
      expect((store as unknown as { all: { size: number } }).all.size).toBeLessThan(4_000);
    });
  });

  it('refuses budgets that are not positive integers', () => {
    expect(() => new MemoryEventStore({ maxBytes: 0 })).toThrow(TypeError);
    expect(() => new MemoryEventStore({ maxBytesPerSession: 1.5 })).toThrow(TypeError);
  });
});
