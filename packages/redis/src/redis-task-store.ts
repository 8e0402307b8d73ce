import {
  isTerminalStatus,
  resolveTaskStoreBounds,
  TaskStoreFullError,
  type StoredTask,
  type TaskChange,
  type TaskStore,
  type TaskStoreBounds,
} from '@mcpkit/core';
import { Keys } from './keys';
import type { RedisLink } from './redis-link';
import { CREATE_TASK, UPDATE_TASK } from './scripts';

const MAX_CAS_ATTEMPTS = 8;

/** Whether `task` is past its TTL on `now`'s clock (Redis also drops its key then, on its own clock). */
function expired(task: StoredTask, now: number): boolean {
  return task.ttlMs !== null && now >= task.createdAt + task.ttlMs;
}

/**
 * Tasks in Redis, readable from every instance: a HASH per task (version, status, JSON) that
 * expires with the task's TTL; a ZSET of every task by expiry (the store's count) and one of
 * each owner's tasks by creation (its share, and its list), each expiring with its last task;
 * beside them each task's owner, each owner's finished tasks, and the owners holding a finished
 * one ranked by how many tasks they hold, so a full store finds what gives way in a few
 * commands. `create` prunes expired tasks, checks the bounds, makes room and writes in one
 * script, so instances racing for the last place cannot both take it. `update` is a
 * compare-and-set on the version in one script: a terminal task is never changed again, so a
 * cancel and a late result cannot both win.
 */
export class RedisTaskStore implements TaskStore {
  private readonly bounds: TaskStoreBounds;

  constructor(
    private readonly link: RedisLink,
    private readonly keys: Keys,
    bounds: Partial<TaskStoreBounds> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.bounds = resolveTaskStoreBounds(bounds);
  }

  async create(task: StoredTask): Promise<void> {
    const expiresAt = task.ttlMs === null ? '' : String(task.createdAt + task.ttlMs);
    const outcome = await this.link.send([
      'EVAL',
      CREATE_TASK,
      '6',
      this.keys.task(task.taskId),
      this.keys.allTasks,
      this.keys.tasksOf(task.owner),
      this.keys.taskOwners,
      this.keys.taskGivers,
      this.keys.finishedTasksOf(task.owner),
      String(this.now()),
      expiresAt,
      JSON.stringify(task),
      task.status,
      task.taskId,
      String(task.createdAt),
      String(this.bounds.maxTasks),
      String(this.bounds.maxTasksPerOwner),
      this.keys.task(''),
      Keys.taskOwner(task.owner),
      this.keys.taskIndexes,
    ]);
    if (outcome === 'owner') throw new TaskStoreFullError(this.bounds.maxTasksPerOwner, 'owner');
    if (outcome === 'store') throw new TaskStoreFullError(this.bounds.maxTasks, 'store');
  }

  async get(taskId: string): Promise<StoredTask | undefined> {
    const raw = await this.link.send(['HGET', this.keys.task(taskId), 'j']);
    if (typeof raw !== 'string') return undefined;
    const task = JSON.parse(raw) as StoredTask;
    return expired(task, this.now()) ? undefined : task;
  }

  async update(taskId: string, change: TaskChange): Promise<StoredTask | undefined> {
    const key = this.keys.task(taskId);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const [version, raw] = (await this.link.send(['HMGET', key, 'v', 'j'])) as [string | null, string | null];
      if (version === null || raw === null) return undefined;
      const task = JSON.parse(raw) as StoredTask;
      if (isTerminalStatus(task.status) || expired(task, this.now())) return undefined;
      Object.assign(task, change, { lastUpdatedAt: this.now() });
      if ('inputRequests' in change && change.inputRequests === undefined) delete task.inputRequests;
      const written = Number(
        await this.link.send([
          'EVAL',
          UPDATE_TASK,
          '5',
          key,
          this.keys.allTasks,
          this.keys.tasksOf(task.owner),
          this.keys.finishedTasksOf(task.owner),
          this.keys.taskGivers,
          version,
          task.status,
          JSON.stringify(task),
          Keys.taskOwner(task.owner),
          taskId,
          String(task.createdAt),
        ]),
      );
      if (written === 1) return task;
      if (written === -1) return undefined;
    }
    throw new Error(`RedisTaskStore: task ${taskId} changed ${MAX_CAS_ATTEMPTS} times while being updated`);
  }

  async list(owner: string, page: { cursor?: string; limit: number }): Promise<{ tasks: StoredTask[]; nextCursor?: string }> {
    // The ownerless tasks' index counts their share; it is no one's list.
    if (typeof owner !== 'string') return { tasks: [] };
    const index = this.keys.tasksOf(owner);
    let start = 0;
    if (page.cursor !== undefined) {
      const rank = await this.link.send(['ZREVRANK', index, page.cursor]);
      start = typeof rank === 'number' ? rank + 1 : 0;
    }
    const tasks: StoredTask[] = [];
    // Expired tasks leave their index entries behind: skip and prune them, a bounded number of pages.
    for (let round = 0; round < 10 && tasks.length < page.limit; round += 1) {
      const ids = (await this.link.send(['ZREVRANGE', index, String(start), String(start + page.limit - tasks.length)])) as string[];
      if (ids.length === 0) break;
      const found = await Promise.all(ids.map((id) => this.get(id)));
      const gone: string[] = [];
      for (let i = 0; i < ids.length; i += 1) {
        const task = found[i];
        if (task === undefined) gone.push(ids[i]);
        else if (tasks.length < page.limit) tasks.push(task);
        else return { tasks, nextCursor: tasks[tasks.length - 1].taskId };
      }
      if (gone.length > 0) await this.link.send(['ZREM', index, ...gone]);
      start += ids.length - gone.length;
      if (tasks.length === page.limit) {
        const more = (await this.link.send(['ZREVRANGE', index, String(start), String(start)])) as string[];
        return more.length > 0 ? { tasks, nextCursor: tasks[tasks.length - 1].taskId } : { tasks };
      }
    }
    return { tasks };
  }
}
