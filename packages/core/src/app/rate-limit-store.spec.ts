import { MemoryRateLimitStore } from './rate-limit-store';

describe('MemoryRateLimitStore', () => {
  describe('take', () => {
    it('allows limit calls at once, then says how long until the next token', () => {
      let now = 0;
      const store = new MemoryRateLimitStore({ now: () => now });
      for (let i = 0; i < 5; i++) expect(store.take('a', 5, 10_000)).toBe(0);
      expect(store.take('a', 5, 10_000)).toBe(2_000);
      now = 2_000;
      expect(store.take('a', 5, 10_000)).toBe(0);
      expect(store.take('b', 5, 10_000)).toBe(0);
    });

    it('keeps at most maxKeys buckets, dropping the least recently used', () => {
      const now = 0;
      const store = new MemoryRateLimitStore({ maxKeys: 2, now: () => now });
      expect(store.take('a', 1, 1000)).toBe(0);
      expect(store.take('b', 1, 1000)).toBe(0);
      expect(store.take('c', 1, 1000)).toBe(0);
      // 'a' was dropped: it starts full again; 'c' is still spent.
      expect(store.take('a', 1, 1000)).toBe(0);
      expect(store.take('c', 1, 1000)).toBe(1000);
    });
  });
});
