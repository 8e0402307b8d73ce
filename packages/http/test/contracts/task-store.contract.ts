import type { StoredTask, TaskStore } from '@mcpkit/core';

/** A fresh task store. */
export interface TaskStoreFixture {
  store: TaskStore;
  cleanup?: () => Promise<void> | void;
}

const task = (taskId: string, owner: string | undefined, createdAt: number, ttlMs: number | null = 60_000): StoredTask => ({
  taskId,
  owner,
  tool: 'slow',
  status: 'working',
  createdAt,
  lastUpdatedAt: createdAt,
  ttlMs,
  pollIntervalMs: 1000,
});

/** The behaviour every TaskStore shares: round trips, compare-and-set that keeps terminal states, owners' pages. */
export function taskStoreContract(name: string, make: () => Promise<TaskStoreFixture> | TaskStoreFixture): void {
  describe(`TaskStore contract: ${name}`, () => {
    let fixture: TaskStoreFixture;
    beforeEach(async () => {
      fixture = await make();
    });
    afterEach(async () => {
      await fixture.cleanup?.();
    });

    it('gives back a task as it was created, and nothing for an unknown id', async () => {
      const now = Date.now();
      await fixture.store.create(task('t1', 'alice', now));
      expect(await fixture.store.get('t1')).toEqual(task('t1', 'alice', now));
      expect(await fixture.store.get('nope')).toBeUndefined();
    });

    it('applies changes until the task is terminal, then refuses every change', async () => {
      const now = Date.now();
      await fixture.store.create(task('t2', 'alice', now));
      const asking = await fixture.store.update('t2', { status: 'input_required', inputRequests: { a: { method: 'elicitation/create', params: {} } } });
      expect(asking?.status).toBe('input_required');
      const back = await fixture.store.update('t2', { status: 'working', inputRequests: undefined });
      expect(back?.inputRequests).toBeUndefined();
      const done = await fixture.store.update('t2', { status: 'completed', result: { content: [], isError: false } });
      expect(done?.result).toEqual({ content: [], isError: false });
      expect(await fixture.store.update('t2', { status: 'cancelled' })).toBeUndefined();
      const kept = await fixture.store.get('t2');
      expect(kept?.status).toBe('completed');
      expect(kept?.result).toEqual({ content: [], isError: false });
      expect(await fixture.store.update('unknown', { status: 'failed' })).toBeUndefined();
    });

    it('lets exactly one of two racing terminal changes win', async () => {
      await fixture.store.create(task('t3', undefined, Date.now()));
      const [a, b] = await Promise.all([fixture.store.update('t3', { status: 'cancelled' }), fixture.store.update('t3', { status: 'completed', result: {} })]);
      expect([a, b].filter((x) => x !== undefined)).toHaveLength(1);
    });

    it("lists an owner's tasks newest first, a page at a time", async () => {
      const base = Date.now();
      for (let i = 0; i < 5; i += 1) await fixture.store.create(task(`p${i}`, 'bob', base + i));
      await fixture.store.create(task('other', 'carol', base + 10));
      const first = await fixture.store.list('bob', { limit: 2 });
      expect(first.tasks.map((t) => t.taskId)).toEqual(['p4', 'p3']);
      const second = await fixture.store.list('bob', { cursor: first.nextCursor, limit: 2 });
      expect(second.tasks.map((t) => t.taskId)).toEqual(['p2', 'p1']);
      const last = await fixture.store.list('bob', { cursor: second.nextCursor, limit: 2 });
      expect(last.tasks.map((t) => t.taskId)).toEqual(['p0']);
      expect(last.nextCursor).toBeUndefined();
    });

    it('forgets a task after its TTL', async () => {
      await fixture.store.create(task('short', 'dan', Date.now(), 100));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await fixture.store.get('short')).toBeUndefined();
      expect((await fixture.store.list('dan', { limit: 10 })).tasks).toEqual([]);
    });
  });
}
