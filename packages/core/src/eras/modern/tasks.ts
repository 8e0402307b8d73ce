import { MethodNotFoundError, MissingRequiredClientCapabilityError } from '../../errors/mcp-error';
import { isObject } from '../../protocol/json-rpc';
import { METHOD } from '../../protocol/methods';
import type { StoredTask } from '../../app/task-store';
import type { ClientInfo } from '../../model/client-info';
import type { TaskDialect, TaskTool } from '../task-dialect';
import { TASKS_EXTENSION } from './meta';

// tasks/result and tasks/list are gone in the extension: the result is inlined on tasks/get.
const METHODS: ReadonlySet<string> = new Set([METHOD.TASKS_GET, METHOD.TASKS_UPDATE, METHOD.TASKS_CANCEL]);
const REQUIRED = { extensions: { [TASKS_EXTENSION]: {} } };

/** Whether this request's client declared the tasks extension. */
function declares(client: ClientInfo): boolean {
  const extensions = client.capabilities.extensions;
  return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]);
}

function missing(): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(TASKS_EXTENSION, REQUIRED);
}

/** The flat task fields of SEP-2663: ISO times, `ttlMs` and `pollIntervalMs`. */
function taskFields(task: StoredTask): Record<string, unknown> {
  const wire: Record<string, unknown> = {
    taskId: task.taskId,
    status: task.status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
  if (task.statusMessage !== undefined) wire.statusMessage = task.statusMessage;
  return wire;
}

/**
 * Tasks as the 2026-07-28 extension has them: the server decides per request (for clients that
 * declare the extension), answers `resultType: "task"`, inlines the outcome on `tasks/get`, and
 * parks questions in `inputRequests` until `tasks/update` answers them.
 */
export const modernTasks: TaskDialect = {
  parksQuestions: true,
  roundsBeforeTask: true,

  admit(method: string, client: ClientInfo): void {
    if (!METHODS.has(method)) throw new MethodNotFoundError(method, 'not in the tasks extension');
    if (!declares(client)) throw missing();
  },

  plan(tool: TaskTool, _params: Readonly<Record<string, unknown>>, client: ClientInfo): { ttlMs: number | undefined } | undefined {
    // A v1-style params.task is tolerated and ignored: the server alone decides.
    if (tool.taskSupport === undefined) return undefined;
    if (declares(client)) return { ttlMs: undefined };
    // SEP-2663 "Required Capabilities": a tool that cannot run without a task names the extension.
    if (tool.taskSupport === 'required') throw missing();
    return undefined;
  },

  created(task: StoredTask): Record<string, unknown> {
    return { resultType: 'task', ...taskFields(task) };
  },

  state(task: StoredTask): Record<string, unknown> {
    const wire = taskFields(task);
    if (task.status === 'completed' && task.result !== undefined) wire.result = task.result;
    else if (task.status === 'failed' && task.error !== undefined) wire.error = task.error;
    else if (task.status === 'input_required' && task.inputRequests !== undefined) wire.inputRequests = task.inputRequests;
    return wire;
  },

  cancelled(): Record<string, unknown> {
    // An empty ack, terminal or not: the client reads the status with tasks/get.
    return {};
  },

  statusNotification(): undefined {
    // notifications/tasks travel on subscriptions/listen streams, which this server does not offer for tasks yet.
    return undefined;
  },
};
