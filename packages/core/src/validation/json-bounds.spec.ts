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
    const wide = Array.from({ length: 1_000_000 }, () => 0);
    const started = performance.now();
    expect(exceedsJsonBounds(wide, bounds)).toEqual({ kind: 'size' });
    expect(performance.now() - started).toBeLessThan(500);
    const manyKeys = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`key${i}`, true]));
    expect(exceedsJsonBounds(manyKeys, bounds)).toEqual({ kind: 'size' });
  });
});
