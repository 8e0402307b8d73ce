import type { StoredTask, TaskStore } from '@mcpkit/core';

/** A fresh task store. */
export interface TaskStoreFixture {
  store: TaskStore;
  cleanup?: () => Promise<void> | void;
}

/** What a store under the contract is made with: its clock, and its bounds. */
export interface TaskStoreSetup {
  /** The store's clock: the contract moves it; no test waits on the wall clock. */
  now: () => number;
  maxTasks: number;
  maxTasksPerOwner: number;
}

const MAX_TASKS = 8;
const MAX_PER_OWNER = 5;

/** A running task of `owner` made at `createdAt` (the stores' tests make theirs with it). */
export const task = (taskId: string, owner: string | undefined, createdAt: number, ttlMs: number | null = 60_000): StoredTask => ({
  taskId,
  owner,
  tool: 'slow',
  status: 'working',
  createdAt,
  lastUpdatedAt: createdAt,
  ttlMs,
  pollIntervalMs: 1000,
});

const DONE = { status: 'completed', result: { content: [], isError: false } } as const;

/**
 * The behaviour every TaskStore shares: round trips, compare-and-set that keeps terminal states,
 * owners' pages, expiry on the store's clock, and its bounds (a share per owner, a total; a
 * flooding owner makes room from its own finished tasks, never from anyone else's).
 */
export function taskStoreContract(name: string, make: (setup: TaskStoreSetup) => Promise<TaskStoreFixture> | TaskStoreFixture): void {
  describe(`TaskStore contract: ${name}`, () => {
    let fixture: TaskStoreFixture;
    // Starts at the wall clock (a Redis key's own expiry is set on it) and only moves forward.
    let now = 0;
    beforeEach(async () => {
      now = Date.now();
      fixture = await make({ now: () => now, maxTasks: MAX_TASKS, maxTasksPerOwner: MAX_PER_OWNER });
    });
    afterEach(async () => {
      await fixture.cleanup?.();
    });

    const ids = async (owner: string): Promise<string[]> => (await fixture.store.list(owner, { limit: 50 })).tasks.map((t) => t.taskId);
    const full = (bound: 'owner' | 'store', limit: number) => ({ name: 'TaskStoreFullError', code: -31002, data: { bound, limit } });

    it('gives back a task as it was created, and nothing for an unknown id', async () => {
      await fixture.store.create(task('t1', 'alice', now));
      expect(await fixture.store.get('t1')).toEqual(task('t1', 'alice', now));
      expect(await fixture.store.get('nope')).toBeUndefined();
    });

    it('applies changes until the task is terminal, then refuses every change', async () => {
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
      await fixture.store.create(task('t3', undefined, now));
      const [a, b] = await Promise.all([fixture.store.update('t3', { status: 'cancelled' }), fixture.store.update('t3', { status: 'completed', result: {} })]);
      expect([a, b].filter((x) => x !== undefined)).toHaveLength(1);
    });

    it("lists an owner's tasks newest first, a page at a time", async () => {
      for (let i = 0; i < 5; i += 1) await fixture.store.create(task(`p${i}`, 'bob', now + i));
      await fixture.store.create(task('other', 'carol', now + 10));
      const first = await fixture.store.list('bob', { limit: 2 });
      expect(first.tasks.map((t) => t.taskId)).toEqual(['p4', 'p3']);
      const second = await fixture.store.list('bob', { cursor: first.nextCursor, limit: 2 });
      expect(second.tasks.map((t) => t.taskId)).toEqual(['p2', 'p1']);
      const last = await fixture.store.list('bob', { cursor: second.nextCursor, limit: 2 });
      expect(last.tasks.map((t) => t.taskId)).toEqual(['p0']);
      expect(last.nextCursor).toBeUndefined();
    });

    it('lists an ownerless task to nobody, though its id still reaches it', async () => {
      await fixture.store.create(task('anon', undefined, now));
      await fixture.store.create(task('mine', 'erin', now));
      expect(await ids('erin')).toEqual(['mine']);
      expect(await ids('-')).toEqual([]);
      expect(await ids('')).toEqual([]);
      expect((await fixture.store.get('anon'))?.taskId).toBe('anon');
    });

    it("forgets a task at its TTL, on the store's clock: get, update and list no longer see it", async () => {
      await fixture.store.create(task('short', 'dan', now, 100));
      now += 99;
      expect((await fixture.store.get('short'))?.status).toBe('working');
      now += 1;
      expect(await fixture.store.get('short')).toBeUndefined();
      expect(await fixture.store.update('short', { status: 'cancelled' })).toBeUndefined();
      expect(await ids('dan')).toEqual([]);
    });

    it("refuses a flooding owner at its share; it makes room from its own finished tasks, never another's", async () => {
      await fixture.store.create(task('carol-done', 'carol', now));
      await fixture.store.update('carol-done', DONE);
      for (let i = 0; i < MAX_PER_OWNER; i += 1) await fixture.store.create(task(`m${i}`, 'mallory', now + i));
      await expect(fixture.store.create(task('m-over', 'mallory', now + 10))).rejects.toMatchObject(full('owner', MAX_PER_OWNER));
      expect(await fixture.store.get('m-over')).toBeUndefined();
      // Its own finished task is what gives way, the oldest first.
      await fixture.store.update('m2', DONE);
      await fixture.store.update('m3', DONE);
      await fixture.store.create(task('m5', 'mallory', now + 11));
      expect(await fixture.store.get('m2')).toBeUndefined();
      expect((await fixture.store.get('m3'))?.status).toBe('completed');
      expect(await ids('mallory')).toEqual(['m5', 'm4', 'm3', 'm1', 'm0']);
      // Everyone else is untouched, and still served.
      expect((await fixture.store.get('carol-done'))?.result).toEqual(DONE.result);
      await fixture.store.create(task('carol-2', 'carol', now + 12));
      expect(await ids('carol')).toEqual(['carol-2', 'carol-done']);
    });

    it("refuses a task when the store is full rather than drop another owner's, until tasks expire", async () => {
      for (let i = 0; i < 4; i += 1) await fixture.store.create(task(`a${i}`, 'alice', now + i));
      for (let i = 0; i < 4; i += 1) {
        await fixture.store.create(task(`b${i}`, 'bob', now + i, 10_000));
        await fixture.store.update(`b${i}`, DONE);
      }
      await expect(fixture.store.create(task('d0', 'dan', now + 5))).rejects.toMatchObject(full('store', MAX_TASKS));
      expect(await ids('bob')).toEqual(['b3', 'b2', 'b1', 'b0']);
      // Bob has finished tasks of his own to give up; Alice, whose all still run, has none.
      await fixture.store.create(task('b4', 'bob', now + 6));
      expect(await ids('bob')).toEqual(['b4', 'b3', 'b2', 'b1']);
      await expect(fixture.store.create(task('a4', 'alice', now + 7))).rejects.toMatchObject(full('store', MAX_TASKS));
      now += 10_010;
      await fixture.store.create(task('d0', 'dan', now));
      await fixture.store.create(task('a4', 'alice', now));
      expect(await ids('dan')).toEqual(['d0']);
      expect(await ids('bob')).toEqual(['b4']);
    });

    it('counts the ownerless tasks as one owner, and drops none of them inside its TTL', async () => {
      for (let i = 0; i < MAX_PER_OWNER; i += 1) {
        await fixture.store.create(task(`x${i}`, undefined, now + i, 1_000));
        await fixture.store.update(`x${i}`, DONE);
      }
      await expect(fixture.store.create(task('x-over', undefined, now + 10))).rejects.toMatchObject(full('owner', MAX_PER_OWNER));
      for (let i = 0; i < MAX_PER_OWNER; i += 1) expect((await fixture.store.get(`x${i}`))?.status).toBe('completed');
      await fixture.store.create(task('owned', 'frank', now + 10));
      now += 1_000 + MAX_PER_OWNER;
      await fixture.store.create(task('x-later', undefined, now));
      expect((await fixture.store.get('x-later'))?.status).toBe('working');
    });
  });
}
