import { exceedsJsonBounds } from './json-bounds';

function nested(depth: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

describe('exceedsJsonBounds', () => {
  const bounds = { maxDepth: 64, maxChars: 65_536 };

  it('accepts what fits, to the exact depth', () => {
    expect(exceedsJsonBounds({ action: 'accept', content: { a: 'b', n: [1, 2, { c: null }] } }, bounds)).toBeUndefined();
    expect(exceedsJsonBounds(nested(64), bounds)).toBeUndefined();
    expect(exceedsJsonBounds('scalar', bounds)).toBeUndefined();
  });

  it('refuses one level too deep, and 20 000 levels without a stack overflow', () => {
    expect(exceedsJsonBounds(nested(65), bounds)).toEqual({ kind: 'depth' });
    expect(exceedsJsonBounds({ a: nested(20_000) }, bounds)).toEqual({ kind: 'depth' });
  });

  it('refuses what is too large, stopping early', () => {
    expect(exceedsJsonBounds({ text: 'x'.repeat(70_000) }, bounds)).toEqual({ kind: 'size' });
    // Stopping early, counted: the items read, not the time taken.
    let itemsRead = 0;
    const wide = new Proxy(
      Array.from({ length: 1_000_000 }, () => 0),
      { get: (target, key, receiver) => (typeof key === 'string' && /^\d+$/.test(key) && itemsRead++, Reflect.get(target, key, receiver)) },
    );
    expect(exceedsJsonBounds(wide, bounds)).toEqual({ kind: 'size' });
    expect(itemsRead).toBeGreaterThan(0);
    expect(itemsRead).toBeLessThanOrEqual(bounds.maxChars);
    const manyKeys = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`key${i}`, true]));
    expect(exceedsJsonBounds(manyKeys, bounds)).toEqual({ kind: 'size' });
  });
});
