import type { TaskStatus } from '../model/task-status';

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** Whether a task in `status` is over (its status, result and error are final). */
export function isTerminalStatus(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/** A JSON-RPC error object, as a failed task keeps it. */
export interface TaskErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * One task as a store keeps it: plain JSON, so a durable store can write it as it is. Times are
 * epoch milliseconds; each era formats them for its wire.
 */
export interface StoredTask {
  taskId: string;
  /**
   * Who may see it: the principal (an authenticated caller) or else the session (legacy era)
   * that created it; undefined for a caller with neither (a stateless request without a token):
   * then whoever holds the id, and no list shows it.
   */
  owner: string | undefined;
  /** The tool it runs. */
  tool: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  /** How long after `createdAt` the task may be forgotten; null keeps it until the store is full. */
  ttlMs: number | null;
  pollIntervalMs: number;
  /** The tool's result, once `completed` (a tool error is a completed task whose result has `isError`). */
  result?: Record<string, unknown>;
  /** The JSON-RPC error, once `failed`. */
  error?: TaskErrorObject;
  /** What the task asks its client while `input_required`, by key. */
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
  /** The process that runs it: a durable store reports the tasks of a dead one as failed. */
  worker?: string;
}

/** What `TaskStore.update` may change; `inputRequests: undefined` removes them. */
export type TaskChange = Partial<Pick<StoredTask, 'status' | 'statusMessage' | 'result' | 'error' | 'inputRequests'>>;

/**
 * Keeps tasks: their status while they run, their result or error after. The in-memory default
 * (`MemoryTaskStore`) serves one process; a durable one lets a task's outcome outlive a restart.
 * `update` is a compare-and-set: a terminal task is never changed again, so a cancel and a late
 * result cannot both win.
 *
 * A store is bounded (packages/http/test/contracts/task-store.contract.ts holds every store to
 * it): a task is forgotten at `createdAt + ttlMs`; each owner has a share (`maxTasksPerOwner`;
 * an ownerless task is in no share) and the store a total (`maxTasks`). At its share, `create`
 * forgets the creator's own oldest finished task. In a full store it forgets one finished task:
 * the oldest of the owner holding the most tasks among those holding a finished one, an ownerless
 * task counting as an owner of one (and going first among those of one, oldest first). So a
 * client that fills the store, from one owner or from many, loses its own results first. A
 * running task is never forgotten before its TTL: `create` rejects with `TaskStoreFullError`
 * only when the creator's share, or the whole store, holds no finished task.
 *
 * @example
 * const app = createApp({ name: 'jobs', version: '1.0.0', providers: [Jobs], tasks: { store: new MemoryTaskStore({ maxTasks: 500 }) } });
 */
export interface TaskStore {
  /** Stores a new task; resolves once a `get` of its id (from any instance) would find it. Rejects with `TaskStoreFullError` past a bound. */
  create(task: StoredTask): Promise<void>;
  /** The task, or undefined when unknown or expired. */
  get(taskId: string): Promise<StoredTask | undefined>;
  /** Applies `change` unless the task is terminal (or unknown); resolves to the task after it, or undefined when refused. */
  update(taskId: string, change: TaskChange): Promise<StoredTask | undefined>;
  /** The tasks of `owner`, newest first, a page at a time (`cursor` is the last page's `nextCursor`); ownerless tasks are in no list. */
  list(owner: string, page: { cursor?: string; limit: number }): Promise<{ tasks: StoredTask[]; nextCursor?: string }>;
}
