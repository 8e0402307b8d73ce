import { InvalidParamsError, McpError } from '../errors/mcp-error';
import { isObject } from '../protocol/json-rpc';
import { METHOD, RELATED_TASK_META } from '../protocol/methods';
import { isTerminalStatus } from '../app/task-store';
import type { ToolDefinition } from '../scanner/definitions';
import { admitCall, callTool, toolOf } from './handle-tools';
import type { MethodHandler } from './method-handler';
import type { HandlerContext } from './handler-context';
import type { TaskRuntime } from './task-runtime';
import type { Pipeline } from '../pipeline/compile-pipeline';
import { visibleTask, visibleTasks, type TaskTools } from './task-access';

/**
 * `tools/call` for an app with task tools: the request's dialect decides whether this call runs as
 * a task; the handler and its result are the same either way.
 */
export function callToolOrTask(
  runtime: TaskRuntime,
  tools: () => ReadonlyMap<string, ToolDefinition>,
  timeoutMs: number | undefined,
  pipelines: () => ReadonlyMap<string, Pipeline> | undefined,
): MethodHandler {
  return (params, ctx) => {
    const map = tools();
    const piped = pipelines();
    const tool = typeof params.name === 'string' ? map.get(params.name) : undefined;
    // A tool that never runs as a task, asked for none: the plain call. Asked for one, the era says what that means.
    if (tool === undefined || (tool.taskSupport === undefined && params.task === undefined)) return callTool(map, params, ctx, timeoutMs, piped);
    return callPlanned(runtime, map, params, ctx, timeoutMs, piped);
  };
}

/**
 * A call whose tool runs as a task, or whose client asked for one. Access rules and guards come
 * first (a hidden tool is an unknown tool, a denial its error), then the argument headers, then
 * the era's task rules: what a tool is to tasks (`does not run as a task`, `must be called as a
 * task`, the tasks extension it needs) is told only to a caller who may see it. Nothing is stored
 * for a caller who may not call the tool.
 */
function callPlanned(
  runtime: TaskRuntime,
  map: ReadonlyMap<string, ToolDefinition>,
  params: Record<string, unknown>,
  ctx: HandlerContext,
  timeoutMs: number | undefined,
  piped: ReadonlyMap<string, Pipeline> | undefined,
): unknown {
  const { tool, args } = toolOf(map, params, ctx);
  const planned = (): Promise<unknown> => {
    const plan = ctx.taskDialect.plan(tool, params, ctx.client);
    if (plan === undefined) return callTool(map, params, ctx, timeoutMs, piped, true);
    return runtime.start(
      tool,
      ctx,
      plan.ttlMs,
      (taskCtx) => callTool(map, params, taskCtx, timeoutMs, piped, true) as unknown as Promise<Record<string, unknown>>,
    );
  };
  const admitted = admitCall(tool, piped?.get(tool.name), args, ctx);
  return admitted instanceof Promise ? admitted.then(planned) : planned();
}

function admitted(ctx: HandlerContext, method: string): void {
  ctx.taskDialect.admit(method, ctx.client);
}

/**
 * The `tasks/*` methods, by name. Each answers only about tasks its caller may see
 * (`maySeeTask`: the owner, and the tool's rules); any other id is an unknown task.
 */
export function taskMethods(runtime: TaskRuntime, app: TaskTools): Array<[string, MethodHandler]> {
  const { store } = runtime.settings;
  return [
    [
      METHOD.TASKS_GET,
      async (params, ctx) => {
        admitted(ctx, METHOD.TASKS_GET);
        return ctx.taskDialect.state(await visibleTask(app, store, params.taskId, ctx));
      },
    ],
    [
      METHOD.TASKS_RESULT,
      async (params, ctx) => {
        admitted(ctx, METHOD.TASKS_RESULT);
        const task = await runtime.outcome(await visibleTask(app, store, params.taskId, ctx), ctx);
        const related = { [RELATED_TASK_META]: { taskId: task.taskId } };
        if (task.status === 'completed' && task.result !== undefined) {
          const meta = isObject(task.result._meta) ? task.result._meta : {};
          return { ...task.result, _meta: { ...meta, ...related } };
        }
        if (task.status === 'failed' && task.error !== undefined) throw new McpError(task.error.code, task.error.message, task.error.data);
        throw new InvalidParamsError(`Task ${task.taskId} was ${task.status}: it has no result`, related);
      },
    ],
    [
      METHOD.TASKS_LIST,
      async (params, ctx) => {
        admitted(ctx, METHOD.TASKS_LIST);
        const { cursor } = params;
        if (cursor !== undefined && typeof cursor !== 'string') throw new InvalidParamsError('Invalid cursor');
        const owner = ctx.taskOwner;
        // Without a principal or a session nothing is the caller's: ownerless tasks are reached by id alone.
        if (owner === undefined) return { tasks: [] };
        const page = await store.list(owner, { cursor, limit: runtime.settings.pageSize });
        const result: Record<string, unknown> = { tasks: (await visibleTasks(app, page.tasks, ctx)).map((task) => ctx.taskDialect.state(task)) };
        if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
        return result;
      },
    ],
    [
      METHOD.TASKS_CANCEL,
      async (params, ctx) => {
        admitted(ctx, METHOD.TASKS_CANCEL);
        const task = await visibleTask(app, store, params.taskId, ctx);
        const wasTerminal = isTerminalStatus(task.status);
        return ctx.taskDialect.cancelled(wasTerminal ? task : await runtime.cancel(task), wasTerminal);
      },
    ],
    [
      METHOD.TASKS_UPDATE,
      async (params, ctx) => {
        admitted(ctx, METHOD.TASKS_UPDATE);
        const task = await visibleTask(app, store, params.taskId, ctx);
        const { inputResponses } = params;
        if (!isObject(inputResponses)) throw new InvalidParamsError('tasks/update needs params.inputResponses, an object of answers by key');
        await runtime.answer(task, inputResponses);
        return {};
      },
    ],
  ];
}
