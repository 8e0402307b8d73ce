import { MemoryRequestStateStore } from './request-state-store';

describe('MemoryRequestStateStore', () => {
  it('takes an exchange once until it expires or is released', () => {
    let now = 0;
    const store = new MemoryRequestStateStore({ now: () => now });
    expect(store.claim('a', 1_000)).toBe(true);
    expect(store.claim('a', 1_000)).toBe(false);
    store.release('a');
    expect(store.claim('a', 1_000)).toBe(true);
    now = 1_000;
    expect(store.claim('a', 2_000)).toBe(true);
  });

  it('holds at most maxEntries unexpired exchanges, refusing (never forgetting) beyond, and makes room as they expire', () => {
    let now = 0;
    const store = new MemoryRequestStateStore({ maxEntries: 2, now: () => now });
    expect(store.claim('a', 100)).toBe(true);
    expect(store.claim('b', 200)).toBe(true);
    expect(() => store.claim('c', 300)).toThrow('the request-state store holds 2 unexpired exchanges (maxEntries)');
    expect(store.claim('a', 100)).toBe(false);
    now = 100;
    expect(store.claim('c', 300)).toBe(true);
    expect(store.claim('b', 200)).toBe(false);
  });

  it('refuses a maxEntries that is no positive integer', () => {
    expect(() => new MemoryRequestStateStore({ maxEntries: 0 })).toThrow(TypeError);
  });
});
