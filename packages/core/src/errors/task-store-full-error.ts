import { ErrorCode } from './error-codes';
import { McpError } from './mcp-error';

/** Which bound refused a task: the creator's share (`maxTasksPerOwner`) or the whole store (`maxTasks`). */
export type TaskStoreBound = 'owner' | 'store';

/**
 * Thrown by `TaskStore.create` when the task may not be stored: its owner already has
 * `maxTasksPerOwner` tasks that still count (running, or finished inside their TTL where none of
 * the owner's own may make room), or the store holds `maxTasks`. On the wire `-31002` with
 * `data: { bound, limit }`; the `tools/call` that asked is answered with it and no task exists.
 *
 * @example
 * if (count >= max) throw new TaskStoreFullError(max, 'owner');
 */
export class TaskStoreFullError extends McpError {
  declare readonly data: { readonly bound: TaskStoreBound; readonly limit: number };

  constructor(limit: number, bound: TaskStoreBound = 'store') {
    super(
      ErrorCode.TaskStoreFull,
      bound === 'owner'
        ? `Too many tasks: this caller already has ${limit} tasks that still count; wait for one to end, cancel one, or let one expire`
        : `The task store is full: ${limit} tasks still count; try again later`,
      { bound, limit },
    );
  }
}
