import { isTerminalStatus, type StoredTask, type TaskChange } from '../app/task-store';
import type { TaskStatus } from '../model/task-status';
import { isObject, type JsonRpcMessage } from '../protocol/json-rpc';
import { RELATED_TASK_META } from '../protocol/methods';
import type { ClientLink, Question } from '../eras/client-link';
import type { TaskDialect } from '../eras/task-dialect';
import type { HandlerContext } from './handler-context';
import type { TaskHandle } from '../model/task-handle';
import type { TaskQuestions } from './task-link';

// Requests of a task wait for a tasks/result stream to carry them; past this many, the oldest go.
const MAX_QUEUED = 64;

/** How a live task changes its stored state (the runtime: the store, then the client). */
export interface TaskChanges {
  change(task: LiveTask, change: TaskChange): Promise<StoredTask | undefined>;
}

interface Parked {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly usable: Question['usable'];
  readonly resolve: (answer: Record<string, unknown>) => void;
}

/** A copy of `message` whose params say which task it belongs to. */
function withRelatedTask(message: JsonRpcMessage, taskId: string): JsonRpcMessage {
  if (!('method' in message)) return message;
  const params = isObject(message.params) ? message.params : {};
  const meta = isObject(params._meta) ? params._meta : {};
  return { ...message, params: { ...params, _meta: { ...meta, [RELATED_TASK_META]: { taskId } } } } as JsonRpcMessage;
}

/**
 * A task this process runs: its handle (`ctx.task`), the questions it waits on, the streams of the
 * `tasks/result` requests waiting for it, and who hears when it ends. The store holds its state;
 * this holds what cannot be stored (promises, streams, the handler's signal).
 */
export class LiveTask implements TaskHandle, TaskQuestions {
  status: TaskStatus = 'working';
  /** The task's own context, set once made. */
  ctx: HandlerContext | undefined = undefined;
  beforeCreation: boolean;
  /** Resolves when the task must be created now (a question inside it, or the handler's first turn is over). */
  readonly creationDue: Promise<void>;
  private dueNow!: () => void;
  private storedNow!: () => void;
  private readonly stored: Promise<void>;
  private readonly parked = new Map<string, Parked>();
  private asked = 0;
  private asking = 0;
  private readonly streams: Array<(message: JsonRpcMessage) => void> = [];
  private readonly queued: JsonRpcMessage[] = [];
  private readonly waiters: Array<(task: StoredTask) => void> = [];

  constructor(
    private readonly changes: TaskChanges,
    readonly record: StoredTask,
    readonly dialect: TaskDialect,
    private readonly inner: ClientLink,
    beforeCreation: boolean,
  ) {
    this.beforeCreation = beforeCreation;
    this.creationDue = new Promise((resolve) => (this.dueNow = resolve));
    this.stored = new Promise((resolve) => (this.storedNow = resolve));
  }

  get id(): string {
    return this.record.taskId;
  }

  /** @internal The task is in the store: questions may change its status now. */
  markStored(): void {
    this.beforeCreation = false;
    this.storedNow();
  }

  createNow(): Promise<void> {
    this.dueNow();
    return this.stored;
  }

  async update(statusMessage: string): Promise<void> {
    if (this.beforeCreation) this.record.statusMessage = statusMessage;
    else await this.changes.change(this, { statusMessage });
  }

  /** Related messages of the task: on a waiting `tasks/result` stream, else notifications on the connection and requests queued for the next one. */
  readonly send = (message: JsonRpcMessage): void => {
    const tagged = withRelatedTask(message, this.record.taskId);
    const stream = this.streams[this.streams.length - 1];
    if (stream) return stream(tagged);
    if ('id' in tagged) {
      if (this.queued.length >= MAX_QUEUED) this.queued.shift();
      this.queued.push(tagged);
      return;
    }
    if ('method' in tagged) this.inner.notify(tagged.method, tagged.params as Record<string, unknown> | undefined);
  };

  notify(method: string, params?: Record<string, unknown>): void {
    this.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  park(
    key: string | undefined,
    kind: string,
    method: string,
    params: Record<string, unknown>,
    usable: Question['usable'],
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    this.asked += 1;
    const id = key ?? `${kind}-${this.asked}`;
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      this.parked.set(id, { method, params, usable, resolve });
      signal.addEventListener('abort', () => (this.parked.delete(id), reject(signal.reason)), { once: true });
      void this.changes.change(this, { status: 'input_required', inputRequests: this.inputRequests() });
    });
  }

  /** `tasks/update`: answers what it can (unknown keys and unusable answers are ignored); resolves once the status says so. */
  async answer(responses: Record<string, unknown>): Promise<void> {
    const answered: Array<[Parked, Record<string, unknown>]> = [];
    for (const [key, question] of this.parked) {
      const answer = responses[key];
      if (isObject(answer) && question.usable(answer)) {
        answered.push([question, answer]);
        this.parked.delete(key);
      }
    }
    if (answered.length === 0) return;
    await this.changes.change(this, this.parked.size === 0 ? { status: 'working', inputRequests: undefined } : { inputRequests: this.inputRequests() });
    for (const [question, answer] of answered) question.resolve(answer);
  }

  async whileAsking<T>(ask: () => Promise<T>): Promise<T> {
    this.asking += 1;
    if (this.asking === 1) await this.changes.change(this, { status: 'input_required' });
    try {
      return await ask();
    } finally {
      this.asking -= 1;
      if (this.asking === 0 && !isTerminalStatus(this.status)) await this.changes.change(this, { status: 'working' });
    }
  }

  /** Waits until the task ends; meanwhile its related messages travel on `ctx`'s stream (`tasks/result`). */
  async outcome(ctx: HandlerContext): Promise<StoredTask> {
    const send = ctx.send;
    if (send) {
      this.streams.push(send);
      for (const message of this.queued.splice(0)) send(message);
    }
    try {
      return await new Promise<StoredTask>((resolve, reject) => {
        const signal = ctx.signal;
        if (signal.aborted) return reject(signal.reason);
        this.waiters.push(resolve);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    } finally {
      if (send) this.streams.splice(this.streams.indexOf(send), 1);
    }
  }

  /** @internal The timer that stops the task at its TTL; cleared when it ends sooner. */
  expiry: ReturnType<typeof setTimeout> | undefined = undefined;

  /** @internal The task ended: whoever waits learns how. */
  settled(task: StoredTask): void {
    this.status = task.status;
    // Left running, it would hold this task (its context, its result) until the TTL, hours maybe.
    clearTimeout(this.expiry);
    this.expiry = undefined;
    for (const resolve of this.waiters.splice(0)) resolve(task);
  }

  private inputRequests(): Record<string, { method: string; params: Record<string, unknown> }> {
    const requests: Record<string, { method: string; params: Record<string, unknown> }> = {};
    for (const [key, { method, params }] of this.parked) requests[key] = { method, params };
    return requests;
  }
}
