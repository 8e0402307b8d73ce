import { TaskStoreFullError } from '../errors/task-store-full-error';
import { MemoryTaskStore } from './memory-task-store';
import type { StoredTask } from './task-store';

function task(taskId: string, overrides: Partial<StoredTask> = {}): StoredTask {
  return { taskId, owner: 'a', tool: 't', status: 'working', createdAt: 0, lastUpdatedAt: 0, ttlMs: 1000, pollIntervalMs: 100, ...overrides };
}

describe('MemoryTaskStore', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => (now = 0));

  it('keeps a task until its TTL from creation, then forgets it', async () => {
    const store = new MemoryTaskStore({ now: clock });
    await store.create(task('x'));
    now = 999;
    expect((await store.get('x'))?.status).toBe('working');
    now = 1000;
    expect(await store.get('x')).toBeUndefined();
  });

  it('never expires a task whose TTL is null', async () => {
    const store = new MemoryTaskStore({ now: clock });
    await store.create(task('x', { ttlMs: null }));
    now = 1e12;
    expect(await store.get('x')).toBeDefined();
  });

  it('changes a running task and stamps lastUpdatedAt, but leaves a terminal one as it ended (compare-and-set)', async () => {
    const store = new MemoryTaskStore({ now: clock });
    await store.create(task('x'));
    now = 5;
    expect(await store.update('x', { status: 'cancelled' })).toMatchObject({ status: 'cancelled', lastUpdatedAt: 5 });
    expect(await store.update('x', { status: 'completed', result: { content: [] } })).toBeUndefined();
    expect(await store.get('x')).toMatchObject({ status: 'cancelled' });
    expect((await store.get('x'))?.result).toBeUndefined();
    expect(await store.update('nope', { status: 'failed' })).toBeUndefined();
  });

  it('removes inputRequests when a change says undefined', async () => {
    const store = new MemoryTaskStore();
    await store.create(task('x', { ttlMs: null }));
    await store.update('x', { status: 'input_required', inputRequests: { k: { method: 'elicitation/create', params: {} } } });
    const after = await store.update('x', { status: 'working', inputRequests: undefined });
    expect(after).not.toHaveProperty('inputRequests');
  });

  it('hands out copies: changing one does not change the store', async () => {
    const store = new MemoryTaskStore();
    await store.create(task('x', { ttlMs: null }));
    const copy = await store.get('x');
    copy!.status = 'completed';
    expect((await store.get('x'))?.status).toBe('working');
  });

  it('lists the tasks of one owner, newest first, in pages', async () => {
    const store = new MemoryTaskStore();
    for (const id of ['1', '2', '3']) await store.create(task(id, { ttlMs: null }));
    await store.create(task('other', { owner: 'b', ttlMs: null }));
    const first = await store.list('a', { limit: 2 });
    expect(first.tasks.map((t) => t.taskId)).toEqual(['3', '2']);
    const second = await store.list('a', { limit: 2, cursor: first.nextCursor });
    expect(second.tasks.map((t) => t.taskId)).toEqual(['1']);
    expect(second.nextCursor).toBeUndefined();
    expect((await store.list('b', { limit: 10 })).tasks.map((t) => t.taskId)).toEqual(['other']);
  });

  it('makes room by dropping expired tasks, then the oldest finished one, and refuses when all still run', async () => {
    const store = new MemoryTaskStore({ maxTasks: 2, now: clock });
    await store.create(task('old', { ttlMs: 10 }));
    await store.create(task('done', { ttlMs: null }));
    await store.update('done', { status: 'completed', result: { content: [] } });
    now = 20;
    await store.create(task('a', { ttlMs: null }));
    expect(await store.get('old')).toBeUndefined();
    await store.create(task('b', { ttlMs: null }));
    expect(await store.get('done')).toBeUndefined();
    await expect(store.create(task('c', { ttlMs: null }))).rejects.toBeInstanceOf(TaskStoreFullError);
    expect(store.size).toBe(2);
  });

  it('rejects a maxTasks that is not a positive integer', () => {
    expect(() => new MemoryTaskStore({ maxTasks: 0 })).toThrow(RangeError);
  });
});
