import type { StoredTask } from '../app/task-store';
import type { ClientInfo } from '../model/client-info';

/** What deciding a `tools/call` needs of its tool. */
export interface TaskTool {
  readonly name: string;
  readonly taskSupport: 'optional' | 'required' | undefined;
}

/**
 * How one era speaks tasks: the 2025-11-25 core methods (`params.task`, `{ task }` results,
 * `tasks/result`, `tasks/list`) or the 2026-07-28 extension (negotiated per request, flat
 * `resultType: "task"` results, `tasks/update`). The task runtime is the same for both; it asks
 * its request's dialect for every decision and shape that differs.
 */
export interface TaskDialect {
  /** Throws the era's error when `method` (a `tasks/*` method) does not exist or was not negotiated for this client. */
  admit(method: string, client: ClientInfo): void;
  /**
   * Whether this `tools/call` runs as a task, and the TTL the client asked for: undefined runs it
   * inline. Throws when it can be neither (a task-required tool for a client that cannot take a task).
   */
  plan(tool: TaskTool, params: Readonly<Record<string, unknown>>, client: ClientInfo): { ttlMs: number | undefined } | undefined;
  /**
   * True where a question can reach the client while the task runs only through the task's own
   * status (`input_required` with `inputRequests`, answered by `tasks/update`); false where the
   * server sends the client a request (the task is `input_required` until it is answered).
   */
  readonly parksQuestions: boolean;
  /** True where questions asked with `beforeTask` are input-required rounds of the `tools/call` itself, before the task exists. */
  readonly roundsBeforeTask: boolean;
  /** The answer to the `tools/call` that created `task`. */
  created(task: StoredTask): Record<string, unknown>;
  /** The `tasks/get` result. */
  state(task: StoredTask): Record<string, unknown>;
  /** The `tasks/cancel` result, `task` as it is after the cancel; `wasTerminal` when it had already ended. Throws where the era refuses that. */
  cancelled(task: StoredTask, wasTerminal: boolean): Record<string, unknown>;
  /** The notification that tells the client of a status change, or undefined where the era sends none on its own. */
  statusNotification(task: StoredTask): { method: string; params: Record<string, unknown> } | undefined;
}
