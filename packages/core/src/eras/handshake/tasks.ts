import { InvalidParamsError, MethodNotFoundError } from '../../errors/mcp-error';
import { isObject } from '../../protocol/json-rpc';
import { METHOD } from '../../protocol/methods';
import type { StoredTask } from '../../app/task-store';
import type { ClientInfo } from '../../model/client-info';
import type { TaskDialect, TaskTool } from '../task-dialect';
import { hasFeature } from './features';

// What the 2025-11-25 core has: tasks/update belongs to the 2026-07-28 extension.
const METHODS: ReadonlySet<string> = new Set([METHOD.TASKS_GET, METHOD.TASKS_RESULT, METHOD.TASKS_LIST, METHOD.TASKS_CANCEL]);

/** The `Task` object of 2025-11-25: ISO times, `ttl` and `pollInterval` in milliseconds. */
function taskObject(task: StoredTask): Record<string, unknown> {
  const wire: Record<string, unknown> = {
    taskId: task.taskId,
    status: task.status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttl: task.ttlMs,
    pollInterval: task.pollIntervalMs,
  };
  if (task.statusMessage !== undefined) wire.statusMessage = task.statusMessage;
  return wire;
}

/**
 * Tasks as the 2025-11-25 core has them: the client asks for one with `params.task`, gets
 * `{ task }`, and reads the outcome with `tasks/result`; questions inside a task are requests to
 * the client, delivered on the stream of its `tasks/result`.
 */
export const handshakeTasks: TaskDialect = {
  parksQuestions: false,
  roundsBeforeTask: false,

  admit(method: string, client: ClientInfo): void {
    if (!METHODS.has(method)) throw new MethodNotFoundError(method);
    if (!hasFeature(client.protocolVersion, 'tasks')) throw new MethodNotFoundError(method, `not in ${client.protocolVersion}`);
  },

  plan(tool: TaskTool, params: Readonly<Record<string, unknown>>, client: ClientInfo): { ttlMs: number | undefined } | undefined {
    // Revisions before tasks know nothing of them: the call runs inline, whatever the tool says.
    if (!hasFeature(client.protocolVersion, 'tasks')) return undefined;
    const asked = params.task;
    if (asked === undefined) {
      // basic/utilities/tasks: a required tool called without a task SHOULD get -32601.
      if (tool.taskSupport === 'required') throw new MethodNotFoundError(METHOD.TOOLS_CALL, `tool ${tool.name} must be called as a task (params.task)`);
      return undefined;
    }
    if (!isObject(asked)) throw new InvalidParamsError('params.task must be an object ({ ttl? })');
    if (tool.taskSupport === undefined) throw new MethodNotFoundError(METHOD.TOOLS_CALL, `tool ${tool.name} does not run as a task`);
    const { ttl } = asked;
    if (ttl !== undefined && ttl !== null && !(typeof ttl === 'number' && Number.isFinite(ttl) && ttl >= 0)) {
      throw new InvalidParamsError('params.task.ttl must be a number of milliseconds');
    }
    return { ttlMs: typeof ttl === 'number' ? Math.floor(ttl) : undefined };
  },

  created(task: StoredTask): Record<string, unknown> {
    return { task: taskObject(task) };
  },

  state: taskObject,

  cancelled(task: StoredTask, wasTerminal: boolean): Record<string, unknown> {
    if (wasTerminal) throw new InvalidParamsError(`Cannot cancel task ${task.taskId}: it is already ${task.status}`);
    return taskObject(task);
  },

  statusNotification(task: StoredTask): { method: string; params: Record<string, unknown> } {
    return { method: METHOD.TASKS_STATUS, params: taskObject(task) };
  },
};
