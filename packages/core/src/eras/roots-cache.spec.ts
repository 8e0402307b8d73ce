import { ConnectionClosedError, RequestTimeoutError, SilentClientError } from '../errors/client-errors';
import type { Root } from '../model/client-questions';
import { RootsCache, rootsOf } from './roots-cache';

/** A fake client: counts the questions, answers each with what `answer` says at the time. */
function fakeClient(answer: (timeoutMs: number) => Promise<Root[]>) {
  const asked: number[] = [];
  return {
    asked,
    fetch: (timeoutMs: number) => {
      asked.push(timeoutMs);
      return answer(timeoutMs);
    },
  };
}

describe('RootsCache', () => {
  it('asks once and keeps the roots until invalidated', async () => {
    let current = [{ uri: 'file:///a' }];
    const client = fakeClient(async () => current);
    const cache = new RootsCache(5_000);
    expect(await cache.get(client.fetch)).toEqual([{ uri: 'file:///a' }]);
    current = [{ uri: 'file:///b' }];
    expect(await cache.get(client.fetch)).toEqual([{ uri: 'file:///a' }]);
    expect(client.asked).toEqual([5_000]);
    cache.invalidate();
    expect(await cache.get(client.fetch)).toEqual([{ uri: 'file:///b' }]);
    expect(client.asked).toEqual([5_000, 5_000]);
  });

  it('shares one question between concurrent askers, and gives each its own array', async () => {
    const client = fakeClient(async () => [{ uri: 'file:///a' }]);
    const cache = new RootsCache(5_000);
    const [one, two] = await Promise.all([cache.get(client.fetch), cache.get(client.fetch)]);
    expect(client.asked).toHaveLength(1);
    expect(one).toEqual(two);
    expect(one).not.toBe(two);
    one.push({ uri: 'file:///mine' });
    expect(await cache.get(client.fetch)).toEqual([{ uri: 'file:///a' }]);
  });

  it('lets a caller that joined a question its asker gave up (cancelled) ask once for itself', async () => {
    let first = true;
    const client = fakeClient(async () => {
      if (!first) return [{ uri: 'file:///a' }];
      first = false;
      throw new ConnectionClosedError('roots/list');
    });
    const cache = new RootsCache(5_000);
    const [asker, joiner] = await Promise.allSettled([cache.get(client.fetch), cache.get(client.fetch)]);
    expect(asker).toMatchObject({ status: 'rejected', reason: expect.any(ConnectionClosedError) });
    expect(joiner).toEqual({ status: 'fulfilled', value: [{ uri: 'file:///a' }] });
    expect(client.asked).toHaveLength(2);
  });

  it('does not keep an answer to a question asked before a change', async () => {
    let release: (roots: Root[]) => void = () => undefined;
    const client = fakeClient(() => new Promise((resolve) => (release = resolve)));
    const cache = new RootsCache(5_000);
    const before = cache.get(client.fetch);
    cache.invalidate();
    release([{ uri: 'file:///old' }]);
    expect(await before).toEqual([{ uri: 'file:///old' }]);
    expect(cache.cached).toBe(false);
  });

  it('after a timeout, fails at once without asking until the client shows life', async () => {
    let silent = true;
    const client = fakeClient(async (timeoutMs) => {
      if (silent) throw new RequestTimeoutError('roots/list', timeoutMs);
      return [{ uri: 'file:///a' }];
    });
    const cache = new RootsCache(5_000);
    await expect(cache.get(client.fetch)).rejects.toThrow(new RequestTimeoutError('roots/list', 5_000).message);
    const later = cache.get(client.fetch);
    await expect(later).rejects.toBeInstanceOf(SilentClientError);
    await expect(later).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(client.asked).toEqual([5_000]);
    silent = false;
    cache.revive();
    expect(await cache.get(client.fetch)).toEqual([{ uri: 'file:///a' }]);
    expect(client.asked).toEqual([5_000, 5_000]);
  });

  it('a change also ends the silence; other failures do not start one', async () => {
    const closed = fakeClient(async () => {
      throw new ConnectionClosedError('roots/list');
    });
    const cache = new RootsCache(5_000);
    await expect(cache.get(closed.fetch)).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(cache.get(closed.fetch)).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(closed.asked).toHaveLength(2);
    const silent = fakeClient(async (timeoutMs) => {
      throw new RequestTimeoutError('roots/list', timeoutMs);
    });
    await expect(cache.get(silent.fetch, 250)).rejects.not.toBeInstanceOf(SilentClientError);
    await expect(cache.get(silent.fetch)).rejects.toThrow('within 250 ms earlier in this session');
    cache.invalidate();
    await expect(cache.get(silent.fetch)).rejects.not.toBeInstanceOf(SilentClientError);
    expect(silent.asked).toEqual([250, 5_000]);
  });

  it("keeps its own frozen copy, nested fields too: one caller cannot change another's roots", async () => {
    const answered = [{ uri: 'file:///a', _meta: { tag: 'kept' } }];
    const cache = new RootsCache(5_000);
    const first = (await cache.get(async () => answered)) as unknown as Array<{ _meta: Record<string, unknown> }>;
    expect(() => {
      first[0]._meta.tag = 'changed';
    }).toThrow(TypeError);
    answered[0]._meta.tag = 'changed by the answer';
    expect(await cache.get(async () => [])).toEqual([{ uri: 'file:///a', _meta: { tag: 'kept' } }]);
  });

  it('reads only roots with a string uri from an answer', () => {
    expect(rootsOf({ roots: [{ uri: 'file:///a', name: 'A' }, { name: 'no uri' }, 'x', null] })).toEqual([{ uri: 'file:///a', name: 'A' }]);
  });

  it('refuses an answer without a roots array, and keeps nothing from it', async () => {
    expect(() => rootsOf({ roots: 'nope' })).toThrow("The client's roots/list answer is malformed: it has no roots array");
    expect(() => rootsOf({})).toThrow(/malformed/);
    const cache = new RootsCache(5_000);
    const answers: Record<string, unknown>[] = [{ roots: { uri: 'file:///not-a-list' } }, { roots: [{ uri: 'file:///a' }] }];
    const fetch = async () => rootsOf(answers.shift() ?? {});
    await expect(cache.get(fetch)).rejects.toThrow(/malformed/);
    expect(cache.cached).toBe(false);
    await expect(cache.get(fetch)).resolves.toEqual([{ uri: 'file:///a' }]);
  });
});
