import { TaskStoreFullError } from '../errors/task-store-full-error';
import { isTerminalStatus, type StoredTask, type TaskChange, type TaskStore } from './task-store';
import { resolveTaskStoreBounds, type TaskStoreBounds } from './task-store-bounds';

/** Options of `MemoryTaskStore`: its bounds (default 1000 tasks, 100 per owner) and clock. */
export interface MemoryTaskStoreOptions extends Partial<TaskStoreBounds> {
  /** The clock (tests). */
  now?: () => number;
}

/**
 * The default task store: tasks of this process, in memory, forgotten after their TTL, at most
 * `maxTasks` of them and `maxTasksPerOwner` of one owner. Past a bound a new task makes room by
 * forgetting a finished task (its owner's own at its share; in a full store the owner holding the
 * most gives way, docs/tasks.md), else is refused (`TaskStoreFullError`). A restart loses them;
 * give `createApp({ tasks: { store } })` a durable store when outcomes must survive one.
 *
 * @example
 * const store = new MemoryTaskStore({ maxTasks: 200, maxTasksPerOwner: 20 });
 */
export class MemoryTaskStore implements TaskStore {
  // Insertion order is creation order: the first entries are the oldest.
  private readonly tasks = new Map<string, StoredTask>();
  // Each owner's task ids in creation order: its share and its list without reading the store.
  private readonly owners = new Map<string, Set<string>>();
  // The earliest expiry among the tasks held: before it, no sweep is needed.
  private nextExpiry = Infinity;
  private readonly maxTasks: number;
  private readonly maxTasksPerOwner: number;
  private readonly now: () => number;

  constructor(options: MemoryTaskStoreOptions = {}) {
    ({ maxTasks: this.maxTasks, maxTasksPerOwner: this.maxTasksPerOwner } = resolveTaskStoreBounds(options));
    this.now = options.now ?? Date.now;
  }

  /** Tasks held now (expired ones included until the next sweep). */
  get size(): number {
    return this.tasks.size;
  }

  create(task: StoredTask): Promise<void> {
    try {
      this.makeRoom(task.owner);
    } catch (error) {
      return Promise.reject(error);
    }
    this.tasks.set(task.taskId, { ...task });
    if (task.owner !== undefined) {
      const mine = this.owners.get(task.owner) ?? new Set<string>();
      this.owners.set(task.owner, mine.add(task.taskId));
    }
    if (task.ttlMs !== null) this.nextExpiry = Math.min(this.nextExpiry, task.createdAt + task.ttlMs);
    return Promise.resolve();
  }

  get(taskId: string): Promise<StoredTask | undefined> {
    const task = this.live(taskId);
    return Promise.resolve(task === undefined ? undefined : { ...task });
  }

  update(taskId: string, change: TaskChange): Promise<StoredTask | undefined> {
    const task = this.live(taskId);
    // Compare-and-set: a terminal task stays as it ended.
    if (task === undefined || isTerminalStatus(task.status)) return Promise.resolve(undefined);
    Object.assign(task, change, { lastUpdatedAt: this.now() });
    if ('inputRequests' in change && change.inputRequests === undefined) delete task.inputRequests;
    return Promise.resolve({ ...task });
  }

  list(owner: string, page: { cursor?: string; limit: number }): Promise<{ tasks: StoredTask[]; nextCursor?: string }> {
    const mine: StoredTask[] = [];
    // Ownerless tasks are in no list (a caller without a string owner is given none).
    for (const id of typeof owner === 'string' ? (this.owners.get(owner) ?? []) : []) {
      const task = this.tasks.get(id)!;
      if (!this.expired(task)) mine.push(task);
    }
    mine.reverse();
    const start = page.cursor === undefined ? 0 : mine.findIndex((task) => task.taskId === page.cursor) + 1;
    const slice = mine.slice(start, start + page.limit).map((task) => ({ ...task }));
    const more = start + page.limit < mine.length;
    return Promise.resolve(more ? { tasks: slice, nextCursor: slice[slice.length - 1].taskId } : { tasks: slice });
  }

  private expired(task: StoredTask): boolean {
    return task.ttlMs !== null && this.now() >= task.createdAt + task.ttlMs;
  }

  private live(taskId: string): StoredTask | undefined {
    const task = this.tasks.get(taskId);
    if (task !== undefined && this.expired(task)) {
      this.forget(task);
      return undefined;
    }
    return task;
  }

  private forget(task: StoredTask): void {
    this.tasks.delete(task.taskId);
    const mine = task.owner === undefined ? undefined : this.owners.get(task.owner);
    if (mine?.delete(task.taskId) === true && mine.size === 0) this.owners.delete(task.owner!);
  }

  /** Forgets the expired tasks: a pass over the store, only once the earliest expiry is past. */
  private sweep(): void {
    if (this.now() < this.nextExpiry) return;
    this.nextExpiry = Infinity;
    for (const task of this.tasks.values()) {
      if (this.expired(task)) this.forget(task);
      else if (task.ttlMs !== null) this.nextExpiry = Math.min(this.nextExpiry, task.createdAt + task.ttlMs);
    }
  }

  /**
   * Room for one more task of `owner`: expired tasks go first; at its share, its own oldest
   * finished task; in a full store, the finished task `giver` picks. Otherwise the task is refused.
   */
  private makeRoom(owner: string | undefined): void {
    this.sweep();
    const mine = owner === undefined ? undefined : this.owners.get(owner);
    if (mine !== undefined && mine.size >= this.maxTasksPerOwner) {
      const done = this.oldestFinished(mine);
      if (done === undefined) throw new TaskStoreFullError(this.maxTasksPerOwner, 'owner');
      this.forget(done);
    }
    if (this.tasks.size >= this.maxTasks) {
      const done = this.giver();
      if (done === undefined) throw new TaskStoreFullError(this.maxTasks, 'store');
      this.forget(done);
    }
  }

  private oldestFinished(ids: Iterable<string>): StoredTask | undefined {
    for (const id of ids) {
      const task = this.tasks.get(id)!;
      if (isTerminalStatus(task.status)) return task;
    }
    return undefined;
  }

  /**
   * The finished task a full store forgets: the oldest of the owner holding the most tasks, an
   * ownerless task counting as an owner of one that goes before an owner of one. One pass over
   * the store (at most `maxTasks`), run only when it is full.
   */
  private giver(): StoredTask | undefined {
    let chosen: StoredTask | undefined;
    let weight = 0;
    // In creation order: among equals, the first seen is the oldest and stays chosen.
    for (const task of this.tasks.values()) {
      if (!isTerminalStatus(task.status)) continue;
      // 2n for an owner of n tasks; 3 for an ownerless task: after an owner of two, before one of one.
      const held = task.owner === undefined ? 3 : 2 * this.owners.get(task.owner)!.size;
      if (held > weight) [chosen, weight] = [task, held];
    }
    return chosen;
  }
}
