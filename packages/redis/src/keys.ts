/**
 * The Redis keys and channels of one prefix. A session's keys share the hash tag `{sid}`, so on a
 * Cluster they live in one slot and a MULTI or a script over them stays legal.
 */
export class Keys {
  constructor(readonly prefix: string) {}

  /** HASH: the session's record (field `r`, JSON) and GET-stream delivery cursor (`gc`). */
  session(sid: string): string {
    return `${this.prefix}s:{${sid}}`;
  }

  /** STREAM: one SSE stream's events (field `m`: JSON text, `b`: bytes); `g` is the GET stream. */
  events(sid: string, stream: string): string {
    return `${this.prefix}s:{${sid}}:ev:${stream}`;
  }

  /** Its byte count (STRING, INCRBY), for the byte bound. */
  eventBytes(sid: string, stream: string): string {
    return `${this.prefix}s:{${sid}}:evb:${stream}`;
  }

  /** HASH of a POST stream: its fallback answer (`f`) and whether it ended without an answer (`e`). */
  eventMeta(sid: string, stream: string): string {
    return `${this.prefix}s:{${sid}}:evm:${stream}`;
  }

  /** SET: the streams the session has in the store (for deletion). */
  streams(sid: string): string {
    return `${this.prefix}s:{${sid}}:streams`;
  }

  /** STRING: the instance holding the session's GET stream (a lease). */
  owner(sid: string): string {
    return `${this.prefix}s:{${sid}}:owner`;
  }

  /** SET: URIs the session subscribed to. */
  subscriptions(sid: string): string {
    return `${this.prefix}s:{${sid}}:subs`;
  }

  /** HASH: URI → the broadcast log's tail when the session subscribed to it (it hears later updates only). */
  subscribedSince(sid: string): string {
    return `${this.prefix}s:{${sid}}:subsince`;
  }

  /** STRING: the name of the app whose state the prefix holds (the first instance to start claims it). */
  get app(): string {
    return `${this.prefix}app`;
  }

  /** STREAM: broadcasts (field `l`: a changed list, or `u`: an updated resource's URI). */
  get broadcasts(): string {
    return `${this.prefix}bcast`;
  }

  /** Channel: app events of every instance. */
  get bus(): string {
    return `${this.prefix}bus`;
  }

  /** Channel: what is for one instance (wake-ups, forwarded answers, evictions). */
  inbox(instanceId: string): string {
    return `${this.prefix}inst:${instanceId}`;
  }

  /**
   * Channel: one run of one instance (`<instanceId>.<hex>`, new at every start), subscribed while
   * it lives: whether a POST stream's writer still runs. The inbox cannot tell, since a restart
   * under the same `instanceId` subscribes it again at once.
   */
  run(run: string): string {
    return `${this.prefix}run:${run}`;
  }

  /** STRING: a rate-limit bucket (`tokens at`). */
  rateLimit(key: string): string {
    return `${this.prefix}rl:${key}`;
  }

  /** STRING: a 2026-07-28 input-required exchange that completed (or runs a round), until its states expire. */
  requestState(exchange: string): string {
    return `${this.prefix}rs:${exchange}`;
  }

  /** STRING: one task (JSON). */
  task(taskId: string): string {
    return `${this.prefix}task:${taskId}`;
  }

  /** ZSET: every task by when it expires (`+inf`: never), for the store's bound; expires with its last task. */
  get allTasks(): string {
    return `${this.prefix}tasks:all`;
  }

  /** ZSET: an owner's tasks by creation time (`tasks:-`: the ownerless ones, listed to nobody); expires with its last task. */
  tasksOf(owner: string | undefined): string {
    return `${this.taskIndexes}${Keys.taskOwner(owner)}`;
  }

  /** ZSET: an owner's finished tasks by creation time, the first what makes room; lives as long as `tasksOf`. */
  finishedTasksOf(owner: string | undefined): string {
    return `${this.taskIndexes}f:${Keys.taskOwner(owner)}`;
  }

  /** HASH: each task's owner as `tasksOf` names it (`-`, `o:<owner>`), to prune the indexes as tasks expire; lives as long as `allTasks`. */
  get taskOwners(): string {
    return `${this.taskIndexes}who`;
  }

  /** ZSET: the owners holding a finished task, by how many tasks they hold, for a full store; lives as long as `allTasks`. */
  get taskGivers(): string {
    return `${this.taskIndexes}givers`;
  }

  /** What the task indexes' names start with; a task script names an owner's indexes from it. */
  get taskIndexes(): string {
    return `${this.prefix}tasks:`;
  }

  /** An owner as the task indexes name it: `-` for none, `o:<owner>`. */
  static taskOwner(owner: string | undefined): string {
    return owner === undefined ? '-' : `o:${owner}`;
  }
}
