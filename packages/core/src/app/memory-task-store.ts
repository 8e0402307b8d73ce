import { isTerminalStatus, type StoredTask, type TaskChange, type TaskStore } from './task-store';

/** Options of `MemoryTaskStore`. */
export interface MemoryTaskStoreOptions {
  /** Most tasks kept at once (default 1000): past it the oldest finished task goes first. */
  maxTasks?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** Thrown by `create` when the store is full of tasks that still run: nothing may be dropped. */
export class TaskStoreFullError extends Error {
  constructor(max: number) {
    super(`The task store is full: ${max} tasks are still running`);
    this.name = 'TaskStoreFullError';
  }
}

/**
 * The default task store: tasks of this process, in memory, forgotten after their TTL, at most
 * `maxTasks` of them. A restart loses them; give `createApp({ tasks: { store } })` a durable store
 * when outcomes must survive one.
 *
 * @example
 * const store = new MemoryTaskStore({ maxTasks: 200 });
 */
export class MemoryTaskStore implements TaskStore {
  // Insertion order is creation order: the first entries are the oldest.
  private readonly tasks = new Map<string, StoredTask>();
  private readonly maxTasks: number;
  private readonly now: () => number;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.maxTasks = options.maxTasks ?? 1000;
    if (!(Number.isInteger(this.maxTasks) && this.maxTasks > 0)) throw new RangeError(`maxTasks must be a positive integer, got ${String(options.maxTasks)}`);
    this.now = options.now ?? Date.now;
  }

  /** Tasks held now (expired ones included until the next sweep). */
  get size(): number {
    return this.tasks.size;
  }

  create(task: StoredTask): Promise<void> {
    try {
      if (this.tasks.size >= this.maxTasks) this.makeRoom();
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

  list(owner: string | undefined, page: { cursor?: string; limit: number }): Promise<{ tasks: StoredTask[]; nextCursor?: string }> {
    const mine: StoredTask[] = [];
    for (const task of this.tasks.values()) if (task.owner === owner && !this.expired(task)) mine.push(task);
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

  /** Drops every expired task; if none was, the oldest finished one; if all still run, refuses. */
  private makeRoom(): void {
    for (const [id, task] of this.tasks) if (this.expired(task)) this.tasks.delete(id);
    if (this.tasks.size < this.maxTasks) return;
    for (const [id, task] of this.tasks) {
      if (isTerminalStatus(task.status)) {
        this.tasks.delete(id);
        return;
      }
    }
    throw new TaskStoreFullError(this.maxTasks);
  }
}
