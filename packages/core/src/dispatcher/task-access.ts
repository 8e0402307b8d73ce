import { InvalidParamsError } from '../errors/mcp-error';
import type { StoredTask } from '../app/task-store';
import type { AppModel } from './app-model';
import type { HandlerContext } from './handler-context';
import { unknownTask } from './unknown-task';
import { offersViews } from './view-tools';

/** What deciding who sees a task needs of the app: its current tools and their pipelines. */
export type TaskTools = Pick<AppModel, 'map' | 'pipelines'>;

/**
 * Whether the caller of `ctx` may still call `tool`, by its access rule and guards as
 * `tools/call` runs them: what seeing a task of that tool takes besides its owner (a token
 * without the tool's scope reads none of its results). A tool the app no longer has hides its tasks, and so
 * does one only a view may call from a client without MCP Apps.
 */
async function mayCallTool(app: TaskTools, tool: string, ctx: HandlerContext): Promise<boolean> {
  const definition = app.map.tools.get(tool);
  if (definition === undefined || (definition.appOnly && !offersViews(ctx.client))) return false;
  const pipeline = app.pipelines?.tools.byName.get(tool);
  if (pipeline === undefined) return true;
  try {
    return (await pipeline.authorize(ctx, 'call')) === undefined;
  } catch {
    // A denial (no scope, a guard said no or threw) hides the task as surely as a hidden tool.
    return false;
  }
}

/** The task belongs to the caller, or to nobody (its id is then the capability). */
function owns(task: StoredTask, ctx: HandlerContext): boolean {
  return task.owner === undefined || task.owner === ctx.taskOwner;
}

/**
 * Whether the caller of `ctx` may see `task` (every `tasks/*` method, a listen's
 * `notifications/tasks`): it owns the task, or the task has no owner; and it may still call the
 * task's tool now. Whoever may not see a task gets the answer of an unknown one.
 */
export async function maySeeTask(app: TaskTools, task: StoredTask, ctx: HandlerContext): Promise<boolean> {
  return owns(task, ctx) && (await mayCallTool(app, task.tool, ctx));
}

/** The task `taskId` names, if the caller of `ctx` may see it; else -32602, exactly as for an id that never existed. */
export async function visibleTask(
  app: TaskTools,
  store: { get(taskId: string): Promise<StoredTask | undefined> },
  taskId: unknown,
  ctx: HandlerContext,
): Promise<StoredTask> {
  if (typeof taskId !== 'string') throw new InvalidParamsError('params.taskId must be a string');
  const task = await store.get(taskId);
  if (task === undefined || !(await maySeeTask(app, task, ctx))) throw unknownTask(taskId);
  return task;
}

/** Of `tasks` (a page of the caller's own), those the caller may see: each tool's rule runs once. */
export async function visibleTasks(app: TaskTools, tasks: readonly StoredTask[], ctx: HandlerContext): Promise<StoredTask[]> {
  const verdicts = new Map<string, Promise<boolean>>();
  const seen = await Promise.all(
    tasks.map((task) => {
      if (!owns(task, ctx)) return false;
      let verdict = verdicts.get(task.tool);
      if (verdict === undefined) verdicts.set(task.tool, (verdict = mayCallTool(app, task.tool, ctx)));
      return verdict;
    }),
  );
  return tasks.filter((_task, index) => seen[index]);
}
