import type { TaskStatus } from './task-status';

/**
 * The task a handler runs as (`ctx.task`), when the client asked for one: its id, its status, and
 * a way to tell the client how far it got.
 *
 * @example
 * @Tool({ task: 'optional' })
 * async reindex(_input: Empty, ctx: RequestContext) {
 *   for (const [i, shard] of shards.entries()) {
 *     await ctx.task?.update(`shard ${i + 1} of ${shards.length}`);
 *     await reindexShard(shard, ctx.signal);
 *   }
 * }
 */
export interface TaskHandle {
  /** The task id the client polls. */
  readonly id: string;
  /** The status as this process last saw it. */
  readonly status: TaskStatus;
  /** Sets the status message clients see on `tasks/get` (and in status notifications). */
  update(statusMessage: string): Promise<void>;
}
