import Ajv2020 from 'ajv/dist/2020';
import { duplicateOf, linearUniqueItems } from './unique-items';

describe('duplicateOf', () => {
  it('compares as JSON Schema does: members in any order, arrays in order, no type meeting another', () => {
    expect(
      duplicateOf([
        { a: 1, b: [1, { c: 2, d: 3 }] },
        { b: [1, { d: 3, c: 2 }], a: 1 },
      ]),
    ).toEqual([0, 1]);
    expect(
      duplicateOf([
        [1, 2],
        [2, 1],
      ]),
    ).toBeUndefined();
    expect(duplicateOf(['1', 1, true, 'true', null, 'null', '{"a":1}', { a: 1 }, '[1]', [1], {}, [], '{}', '[]'])).toBeUndefined();
    expect(duplicateOf([1, 2, 1.0])).toEqual([0, 2]);
    expect(duplicateOf([0, -0])).toEqual([0, 1]);
    expect(duplicateOf([{ 'a"': 1 }, { a: '"1' }])).toBeUndefined();
    expect(duplicateOf([])).toBeUndefined();
    // Dates (a structured result before it is sent) compare as their JSON text, at any depth.
    expect(duplicateOf([new Date(1), new Date(2)])).toBeUndefined();
    expect(duplicateOf([new Date(1), new Date(1)])).toEqual([0, 1]);
    expect(duplicateOf([{ at: new Date(1) }, { at: new Date(2) }])).toBeUndefined();
    expect(duplicateOf([{ at: new Date(1) }, { at: '1970-01-01T00:00:00.001Z' }])).toEqual([0, 1]);
  });

  it('agrees with ajv’s own uniqueItems on random JSON', () => {
    const own = new Ajv2020({ allErrors: true, strict: false }).compile({ type: 'array', uniqueItems: true });
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const value = (depth: number): unknown => {
      const pick = random();
      if (depth > 2 || pick < 0.4) return [0, 1, 'a', 'b', true, null][Math.floor(random() * 6)];
      if (pick < 0.7) return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
      const record: Record<string, unknown> = {};
      for (const key of ['x', 'y', 'z']) if (random() < 0.5) record[key] = value(depth + 1);
      return record;
    };
    let duplicates = 0;
    for (let round = 0; round < 2_000; round++) {
      const items = Array.from({ length: 1 + Math.floor(random() * 5) }, () => value(0));
      const found = duplicateOf(items) !== undefined;
      if (found) duplicates++;
      expect([round, found]).toEqual([round, !own(items)]);
    }
    expect(duplicates).toBeGreaterThan(100);
  });

  it('takes apart an item nested 200 000 deep without a stack overflow', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = i % 2 === 0 ? [deep] : { k: deep };
    expect(duplicateOf([deep, { other: true }])).toBeUndefined();
  });
});

describe('linearUniqueItems', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  linearUniqueItems(ajv);
  const check = ajv.compile({
    type: 'object',
    properties: { tags: { type: 'array', uniqueItems: true }, free: { type: 'array', uniqueItems: false } },
  });

  it('reports the pair as ajv does, at the array’s path, and lets a `uniqueItems: false` array repeat', () => {
    expect(check({ tags: [{ a: 1 }, 2, { a: 1 }], free: [1, 1] })).toBe(false);
    expect(check.errors).toEqual([
      expect.objectContaining({
        instancePath: '/tags',
        keyword: 'uniqueItems',
        params: { i: 2, j: 0 },
        message: 'must NOT have duplicate items (items ## 0 and 2 are identical)',
      }),
    ]);
    expect(check({ tags: [1, 2], free: [1, 1] })).toBe(true);
  });

  it('checks 100 000 distinct objects at once, where comparing every pair takes minutes', () => {
    const items = Array.from({ length: 100_000 }, (_, n) => ({ n, tag: `t${n % 7}` }));
    // Counted, not timed: the canonical text of each item is made once.
    const sort = jest.spyOn(Array.prototype, 'sort');
    try {
      expect(check({ tags: items })).toBe(true);
      expect(sort.mock.calls.length).toBe(items.length);
    } finally {
      sort.mockRestore();
    }
    items.push({ tag: 't3', n: 3 });
    expect(check({ tags: items })).toBe(false);
    expect(check.errors?.[0]?.params).toEqual({ i: 100_000, j: 3 });
  });
});
