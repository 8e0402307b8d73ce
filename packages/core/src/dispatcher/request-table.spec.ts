import { RequestTable } from './request-table';

describe('RequestTable', () => {
  it('keeps 1 and "1" apart, takes 0 and -0 as one key, and any string (even __proto__) as a key', () => {
    const table = new RequestTable<string>();
    table.set(1, 'number');
    table.set('1', 'string');
    table.set('__proto__', 'proto');
    table.set(-0, 'zero');
    expect([table.get(1), table.get('1'), table.get('__proto__'), table.get(0)]).toEqual(['number', 'string', 'proto', 'zero']);
    expect(table.size).toBe(4);
    table.set(1, 'again');
    expect(table.size).toBe(4);
    expect(table.delete('1')).toBe(true);
    expect(table.delete('1')).toBe(false);
    expect(table.has(1)).toBe(true);
    expect(table.has('1')).toBe(false);
    expect(table.get('constructor')).toBeUndefined();
    expect(table.size).toBe(3);
  });

  it('lists values in the order their keys were added; clear empties it', () => {
    const table = new RequestTable<number>();
    for (const key of ['b', 10, 'a', 2, 1.5, -3]) table.set(key, typeof key === 'number' ? key : key.charCodeAt(0));
    expect(table.values()).toEqual([98, 10, 97, 2, 1.5, -3]);
    table.delete(10);
    table.set(10, 11);
    expect(table.values()).toEqual([98, 97, 2, 1.5, -3, 11]);
    table.clear();
    expect(table.size).toBe(0);
    expect(table.values()).toEqual([]);
    expect(table.get(2)).toBeUndefined();
  });

  it('keeps its answers, order and kinds of key when it outgrows its arrays and when it empties again', () => {
    const table = new RequestTable<string>();
    const keys: Array<string | number> = Array.from({ length: 150 }, (_, i) => (i % 3 === 0 ? `s${i}` : i % 3 === 1 ? i : String(i)));
    for (let round = 0; round < 2; round++) {
      for (const key of keys) table.set(key, `v${String(key)}`);
      expect(table.size).toBe(150);
      // 1 and '1' stay apart on both sides of the move.
      expect([table.get(1), table.get('2'), table.get(2), table.get('s0')]).toEqual(['v1', 'v2', undefined, 'vs0']);
      for (const key of keys.filter((_, i) => i % 2 === 0)) expect(table.delete(key)).toBe(true);
      expect(table.delete('s0')).toBe(false);
      expect(table.size).toBe(75);
      table.set(0, 'again');
      expect(table.values()).toEqual([...keys.filter((_, i) => i % 2 === 1).map((key) => `v${String(key)}`), 'again']);
      for (const key of [...keys.filter((_, i) => i % 2 === 1), 0]) table.delete(key);
      expect(table.size).toBe(0);
      expect(table.values()).toEqual([]);
    }
    // Small again: a swap on delete keeps the order of what is left.
    for (const key of ['a', 'b', 'c', 'd']) table.set(key, key);
    table.delete('a');
    table.set('e', 'e');
    expect(table.values()).toEqual(['b', 'c', 'd', 'e']);
    expect(table.get('d')).toBe('d');
  });

  it('keeps every entry and its order across each widening of its arrays (4, 8 … 64), with deletes between', () => {
    const table = new RequestTable<number>();
    const live: number[] = [];
    for (let key = 0; key < 64; key++) {
      table.set(key, key * 10);
      live.push(key);
      // Every fifth key leaves again: a swap on delete across the boundaries too.
      if (key % 5 === 4) {
        const gone = live.splice(1, 1)[0];
        expect(table.delete(gone)).toBe(true);
      }
      expect(table.values()).toEqual(live.map((k) => k * 10));
      expect(table.size).toBe(live.length);
    }
    for (const key of live) expect(table.get(key)).toBe(key * 10);
    expect(table.get(64)).toBeUndefined();
  });

  it('starts with no dictionary of its own: a key named like an Object property is absent', () => {
    const table = new RequestTable<string>();
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(table.get(key)).toBeUndefined();
    expect(table.values()).toEqual([]);
  });
});
