import { unrefTimer } from '../types/unref-timer';
import { toJsonRpcError } from '../errors/to-json-rpc-error';
import { ErrorCode } from '../errors/error-codes';
import { McpError } from '../errors/mcp-error';
import { isTerminalStatus, type StoredTask, type TaskChange, type TaskStore } from '../app/task-store';
import { nodeCrypto } from '../eras/lazy-crypto';
import { InputRequiredSignal } from '../model/input-required-signal';
import type { TaskTool } from '../eras/task-dialect';
import type { Logger } from '../logging/logger';
import type { EventBus } from '../app/event-bus';
import { LiveTask, type TaskChanges } from './live-task';
import type { HandlerContext } from './handler-context';
import { TaskLink } from './task-link';
import { unknownTask } from './unknown-task';

/** How an app keeps and times its tasks (`createApp({ tasks })`, with defaults applied). */
export interface TaskSettings {
  readonly store: TaskStore;
  /** TTL of a task whose client asked for none. */
  readonly defaultTtlMs: number;
  /** Longest TTL a client may ask for. */
  readonly maxTtlMs: number;
  /** How often clients should poll. */
  readonly pollIntervalMs: number;
  /** Items per `tasks/list` page. */
  readonly pageSize: number;
}

/** Why a task's handler is stopped when its client cancels it. */
class TaskCancelled extends Error {
  constructor(taskId: string) {
    super(`Task ${taskId} was cancelled by the client`);
    this.name = 'TaskCancelled';
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

/**
 * The tasks of one app in this process: starts them, keeps their state in the store, and holds
 * what cannot be stored (the running handlers, their questions and waiters). Era-neutral: each
 * request's dialect decides and shapes.
 */
export class TaskRuntime implements TaskChanges {
  /** This process, as the store records who runs a task. */
  readonly worker: string = nodeCrypto().randomUUID();
  private readonly running = new Map<string, LiveTask>();

  constructor(
    readonly settings: TaskSettings,
    private readonly logger: Logger,
    /** Where status changes are announced (subscriptions/listen streams hear them there). */
    private readonly bus?: EventBus,
  ) {}

  /** Tasks running here now. */
  get size(): number {
    return this.running.size;
  }

  /**
   * Runs `body` as a task of `tool` and answers the `tools/call` that asked: stored before the answer
   * goes. Where the era allows rounds before the task, the handler starts first and the task is
   * created once it asks something it must ask inside the task, or after its first turn;
   * an input-required round it ends with instead is the request's answer, and no task exists.
   */
  async start(
    tool: TaskTool,
    requestCtx: HandlerContext,
    ttlMs: number | undefined,
    body: (ctx: HandlerContext) => Promise<Record<string, unknown>>,
  ): Promise<Record<string, unknown>> {
    const dialect = requestCtx.taskDialect;
    const { defaultTtlMs, maxTtlMs, pollIntervalMs } = this.settings;
    const now = Date.now();
    const record: StoredTask = {
      taskId: nodeCrypto().randomUUID(),
      owner: requestCtx.taskOwner,
      tool: tool.name,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: ttlMs === undefined ? defaultTtlMs : Math.min(Math.max(ttlMs, 1000), maxTtlMs),
      pollIntervalMs,
      worker: this.worker,
    };
    const live = new LiveTask(this, record, dialect, requestCtx.clientLink, dialect.roundsBeforeTask);
    const ctx = requestCtx.forTask(live, new TaskLink(requestCtx.clientLink, live), live.send);
    live.ctx = ctx;
    let running: Promise<Record<string, unknown>> | undefined;
    if (dialect.roundsBeforeTask) {
      running = body(ctx);
      // The handler's first turn: answered questions resolve at once, an unanswered one ends it.
      setImmediate(() => void live.createNow());
      const early = await Promise.race([
        running.then(
          () => undefined,
          (error: unknown) => error ?? new Error('rejected'),
        ),
        live.creationDue,
      ]);
      // Nothing was created: the round answers the call itself. Anything else the task reports.
      if (InputRequiredSignal.is(early)) throw early;
    }
    try {
      await this.settings.store.create(record);
    } catch (error) {
      // No task to report to: a handler that already started stops here.
      ctx.cancel(error instanceof Error ? error : new Error('the task could not be stored'));
      if (McpError.isMcpError(error) && error.code === ErrorCode.TaskStoreFull) {
        this.logger.warn({ tool: tool.name, ...(error.data as object) }, 'task refused: the task store is full');
      }
      throw error;
    }
    this.running.set(record.taskId, live);
    live.markStored();
    // The store forgets the task at its TTL: its handler must not run on for nobody.
    if (record.ttlMs !== null) live.expiry = unrefTimer(setTimeout(() => this.expire(live), record.ttlMs));
    running ??= body(ctx);
    running.then(
      (result) => this.change(live, { status: 'completed', result }),
      (error: unknown) => this.failed(live, error),
    );
    return dialect.created(record);
  }

  async change(live: LiveTask, change: TaskChange): Promise<StoredTask | undefined> {
    let after: StoredTask | undefined;
    try {
      after = await this.settings.store.update(live.id, change);
    } catch (error) {
      this.logger.error({ err: error, taskId: live.id }, 'the task store refused an update');
      return undefined;
    }
    if (after === undefined) {
      await this.endedElsewhere(live);
      return undefined;
    }
    live.status = after.status;
    this.bus?.publish({ type: 'taskStatus', task: after });
    const note = live.dialect.statusNotification(after);
    if (note) live.notify(note.method, note.params);
    if (isTerminalStatus(after.status)) {
      this.running.delete(live.id);
      live.settled(after);
    }
    return after;
  }

  /** Cancels `task`: stored as cancelled (unless it ended first), then its handler's signal aborts. */
  async cancel(task: StoredTask): Promise<StoredTask> {
    const live = this.running.get(task.taskId);
    const change: TaskChange = { status: 'cancelled', statusMessage: 'Cancelled by the client', inputRequests: undefined };
    let after: StoredTask | undefined;
    if (live) after = await this.change(live, change);
    else {
      after = await this.settings.store.update(task.taskId, change);
      if (after) this.bus?.publish({ type: 'taskStatus', task: after });
    }
    live?.ctx?.cancel(new TaskCancelled(task.taskId));
    return after ?? (await this.settings.store.get(task.taskId)) ?? task;
  }

  /** `tasks/update`: hands the answers to the running task (answers for a task not running here are dropped). */
  async answer(task: StoredTask, responses: Record<string, unknown>): Promise<void> {
    await this.running.get(task.taskId)?.answer(responses);
  }

  /** Waits until `task` ends: on its live handle here, else by polling the store (another instance runs it). */
  async outcome(task: StoredTask, ctx: HandlerContext): Promise<StoredTask> {
    if (isTerminalStatus(task.status)) return task;
    const live = this.running.get(task.taskId);
    if (live) return live.outcome(ctx);
    for (;;) {
      await delay(task.pollIntervalMs, ctx.signal);
      const now = await this.settings.store.get(task.taskId);
      if (now === undefined) throw unknownTask(task.taskId);
      if (isTerminalStatus(now.status)) return now;
    }
  }

  /**
   * The store refused a change: the task ended under this process's feet (cancelled through
   * another instance, or forgotten). Its handler stops at this, its next status change.
   */
  private async endedElsewhere(live: LiveTask): Promise<void> {
    if (!this.running.has(live.id)) return;
    const now = await this.settings.store.get(live.id).catch(() => undefined);
    if (now !== undefined && !isTerminalStatus(now.status)) return;
    this.running.delete(live.id);
    live.ctx?.cancel(new TaskCancelled(live.id));
    live.settled(now ?? { ...live.record, status: 'failed', error: { code: -32603, message: 'The task is gone from the store' } });
  }

  /** A task still running at its TTL: stopped, and nobody waits for it any more. */
  private expire(live: LiveTask): void {
    if (!this.running.delete(live.id)) return;
    live.ctx?.cancel(new Error(`Task ${live.id} ran past its TTL`));
    live.settled({ ...live.record, status: 'failed', error: { code: -32603, message: 'The task ran past its TTL' }, lastUpdatedAt: Date.now() });
  }

  private async failed(live: LiveTask, error: unknown): Promise<void> {
    // A cancelled task's handler ends however it likes: the task is cancelled already.
    if (live.ctx?.isCancelled) return;
    if (InputRequiredSignal.is(error)) {
      await this.change(live, {
        status: 'failed',
        error: { code: -32603, message: 'The tool asked a question inside its task that this client cannot answer' },
      });
      return;
    }
    const wire = toJsonRpcError(error);
    await this.change(live, { status: 'failed', error: wire, statusMessage: wire.message });
  }
}
