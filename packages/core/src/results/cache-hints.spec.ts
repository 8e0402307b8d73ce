import { DefinitionError } from '../errors/definition-error';
import { cacheHintTable, checkCacheHint, resolveCacheHint, UNCACHEABLE } from './cache-hints';

describe('cache hints', () => {
  it('defaults to ttlMs 0: lists public, reads private', () => {
    const table = cacheHintTable(undefined);
    for (const method of ['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
      expect(table.get(method)).toEqual({ ttlMs: 0, cacheScope: 'public' });
    }
    expect(table.get('resources/read')).toEqual({ ttlMs: 0, cacheScope: 'private' });
    expect(table.has('tools/call')).toBe(false);
  });

  it('takes app-level hints for lists and reads, filling in what they leave out', () => {
    const table = cacheHintTable({ lists: { ttlMs: 60_000 }, reads: { ttlMs: 5_000, scope: 'public' } });
    expect(table.get('tools/list')).toEqual({ ttlMs: 60_000, cacheScope: 'public' });
    expect(table.get('server/discover')).toBe(table.get('tools/list'));
    expect(table.get('resources/read')).toEqual({ ttlMs: 5_000, cacheScope: 'public' });
  });

  it('resolves a partial hint over a fallback, keeping the fallback object when there is none', () => {
    const fallback = { ttlMs: 10, cacheScope: 'public' as const };
    expect(resolveCacheHint(undefined, fallback)).toBe(fallback);
    expect(resolveCacheHint({ scope: 'private' }, fallback)).toEqual({ ttlMs: 10, cacheScope: 'private' });
    expect(Object.isFrozen(resolveCacheHint({ ttlMs: 1 }, fallback))).toBe(true);
    expect(UNCACHEABLE).toEqual({ ttlMs: 0, cacheScope: 'private' });
  });

  it.each([
    [{ ttlMs: -1 }, /ttlMs -1 is not a whole number/],
    [{ ttlMs: 1.5 }, /ttlMs 1.5/],
    [{ ttlMs: Number.POSITIVE_INFINITY }, /ttlMs Infinity/],
    [{ ttlMs: '10' }, /ttlMs 10 is not/],
    [{ scope: 'shared' }, /scope "shared" is neither/],
    [{ ttl: 5 }, /ttl is not a cache hint option/],
    [5, /5 is not an object/],
    [{ a: 1, b: 2 }, /a, b are not cache hint options/],
  ])('rejects %j at start-up with a fix', (hint, message) => {
    expect(() => checkCacheHint(hint, '@Resource on X.y')).toThrow(message);
    expect(() => checkCacheHint(hint, '@Resource on X.y')).toThrow(DefinitionError);
  });
});
