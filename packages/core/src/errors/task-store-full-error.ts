import { ErrorCode } from './error-codes';
import { McpError } from './mcp-error';

/** Which bound refused a task: the creator's share (`maxTasksPerOwner`) or the whole store (`maxTasks`), each full of running tasks. */
export type TaskStoreBound = 'owner' | 'store';

/**
 * Thrown by `TaskStore.create` when the task may not be stored, and only then: its owner already
 * holds `maxTasksPerOwner` tasks and none of them has finished (`bound: 'owner'`), or the store
 * holds `maxTasks` and not one of them, anyone's, has finished (`bound: 'store'`); a finished task
 * would have made room. On the wire `-31002` with `data: { bound, limit }`; the `tools/call` that
 * asked is answered with it and no task exists.
 *
 * @example
 * if (running >= max) throw new TaskStoreFullError(max, 'owner');
 */
export class TaskStoreFullError extends McpError {
  declare readonly data: { readonly bound: TaskStoreBound; readonly limit: number };

  constructor(limit: number, bound: TaskStoreBound = 'store') {
    const tasks = limit === 1 ? 'task' : 'tasks';
    super(
      ErrorCode.TaskStoreFull,
      bound === 'owner'
        ? `Too many tasks: this caller already has ${limit} ${tasks} running; wait for one to end, or cancel one`
        : `The task store is full: all ${limit} of its ${tasks} are still running; try again when one ends`,
      { bound, limit },
    );
  }
}
