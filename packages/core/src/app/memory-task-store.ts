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
 * `maxTasks` of them and `maxTasksPerOwner` of one owner. Past a bound a new task makes room
 * from its owner's own finished tasks, oldest first, else is refused (`TaskStoreFullError`). A
 * restart loses them; give `createApp({ tasks: { store } })` a durable store when outcomes must
 * survive one.
 *
 * @example
 * const store = new MemoryTaskStore({ maxTasks: 200, maxTasksPerOwner: 20 });
 */
export class MemoryTaskStore implements TaskStore {
  // Insertion order is creation order: the first entries are the oldest.
  private readonly tasks = new Map<string, StoredTask>();
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
    if (typeof owner === 'string') for (const task of this.tasks.values()) if (task.owner === owner && !this.expired(task)) mine.push(task);
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
      this.tasks.delete(taskId);
      return undefined;
    }
    return task;
  }

  /**
   * Room for one more task of `owner`: expired tasks go first; past the owner's share or the
   * total, the owner's own oldest finished task; otherwise the task is refused. Another owner's
   * task, and an ownerless one, stays until its TTL.
   */
  private makeRoom(owner: string | undefined): void {
    let mine = 0;
    let oldestFinished: string | undefined;
    for (const [id, task] of this.tasks) {
      if (this.expired(task)) this.tasks.delete(id);
      else if (task.owner === owner) {
        mine += 1;
        if (oldestFinished === undefined && owner !== undefined && isTerminalStatus(task.status)) oldestFinished = id;
      }
    }
    const bound = mine >= this.maxTasksPerOwner ? 'owner' : this.tasks.size >= this.maxTasks ? 'store' : undefined;
    if (bound === undefined) return;
    if (oldestFinished === undefined) throw new TaskStoreFullError(bound === 'owner' ? this.maxTasksPerOwner : this.maxTasks, bound);
    this.tasks.delete(oldestFinished);
  }
}
