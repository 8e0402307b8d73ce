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
 * owners' pages, expiry on the store's clock, and its bounds (a share per owner, made room in
 * from its own finished tasks; a total where the owner holding the most gives a finished task,
 * an ownerless task counting as an owner of one; running tasks never).
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

    it('in a full store forgets the oldest finished task of the owner holding the most: one client over many owners cannot lock out a newcomer', async () => {
      const done = async (id: string, owner: string, at: number): Promise<void> => {
        await fixture.store.create(task(id, owner, at, 86_400_000));
        await fixture.store.update(id, DONE);
      };
      await done('v0', 'victim', now);
      // One client as two owners (sessions are free), each with day-long results: the store is full.
      for (let i = 0; i < MAX_PER_OWNER; i += 1) await done(`f1-${i}`, 'flood-1', now + i);
      for (let i = 0; i < MAX_TASKS - MAX_PER_OWNER - 1; i += 1) await done(`f2-${i}`, 'flood-2', now + i);
      await fixture.store.create(task('n0', 'newcomer', now + 10));
      expect(await fixture.store.get('f1-0')).toBeUndefined();
      await fixture.store.create(task('n1', 'newcomer', now + 11));
      await fixture.store.create(task('v1', 'victim', now + 12));
      expect(await ids('flood-1')).toEqual(['f1-4', 'f1-3']);
      expect(await ids('flood-2')).toEqual(['f2-1', 'f2-0']);
      expect(await ids('newcomer')).toEqual(['n1', 'n0']);
      // The caller who held few kept its result.
      expect(await ids('victim')).toEqual(['v1', 'v0']);
      expect((await fixture.store.get('v0'))?.result).toEqual(DONE.result);
    });

    it('refuses only when no finished task is left, the share or the store full of running tasks, and says which', async () => {
      for (let i = 0; i < MAX_PER_OWNER; i += 1) await fixture.store.create(task(`r${i}`, 'runner', now + i));
      for (let i = 0; i < MAX_TASKS - MAX_PER_OWNER; i += 1) await fixture.store.create(task(`s${i}`, 'sam', now + i));
      const store = fixture.store.create(task('d0', 'dan', now + 10));
      await expect(store).rejects.toMatchObject(full('store', MAX_TASKS));
      await expect(store).rejects.toThrow(`The task store is full: all ${MAX_TASKS} of its tasks are still running; try again when one ends`);
      const share = fixture.store.create(task('r5', 'runner', now + 10));
      await expect(share).rejects.toMatchObject(full('owner', MAX_PER_OWNER));
      await expect(share).rejects.toThrow(`Too many tasks: this caller already has ${MAX_PER_OWNER} tasks running; wait for one to end, or cancel one`);
      // One finished task anywhere makes room, whoever holds it.
      await fixture.store.update('s1', DONE);
      await fixture.store.create(task('d0', 'dan', now + 11));
      expect(await ids('sam')).toEqual(['s2', 's0']);
      expect(await ids('runner')).toHaveLength(MAX_PER_OWNER);
      await expect(fixture.store.create(task('d1', 'dan', now + 12))).rejects.toMatchObject(full('store', MAX_TASKS));
    });

    it('holds ownerless tasks in no share: each counts as an owner of one task, and goes before an owner of one, oldest first', async () => {
      // More ownerless tasks than one owner's share: no anonymous caller exhausts a share for the others.
      for (let i = 0; i < MAX_TASKS - 2; i += 1) {
        await fixture.store.create(task(`a${i}`, undefined, now + i));
        await fixture.store.update(`a${i}`, DONE);
      }
      await fixture.store.create(task('f0', 'frank', now + 10));
      await fixture.store.update('f0', DONE);
      await fixture.store.create(task('f1', 'frank', now + 11));
      // Full. Frank holds two tasks, more than any ownerless one: his result goes first.
      await fixture.store.create(task('y0', undefined, now + 20));
      expect(await ids('frank')).toEqual(['f1']);
      // Then the oldest anonymous result, never a running task.
      await fixture.store.create(task('g0', 'gina', now + 21));
      expect(await fixture.store.get('a0')).toBeUndefined();
      await fixture.store.update('g0', DONE);
      await fixture.store.create(task('y1', undefined, now + 22));
      expect(await fixture.store.get('a1')).toBeUndefined();
      expect((await fixture.store.get('a2'))?.status).toBe('completed');
      expect((await fixture.store.get('g0'))?.status).toBe('completed');
      expect((await fixture.store.get('f1'))?.status).toBe('working');
    });
  });
}
