import type { CallToolResult } from '@mcpkit/core';
import type { TestClient } from '@mcpkit/testing';
import { CliError, EXIT } from '../cli-error';
import { err } from '../output';

/** The tasks extension of 2026-07-28: a client that declares it gets its task tools as tasks. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

type TaskState = Record<string, unknown> & { taskId: string; status: string; statusMessage?: string };

/** The task of a created-task answer, whichever revision shaped it (`{ task }`, or flat with `resultType: "task"`). */
function createdTask(answer: Record<string, unknown>): TaskState | undefined {
  if (answer.resultType === 'task') return answer as TaskState;
  const nested = answer.task;
  return typeof nested === 'object' && nested !== null ? (nested as TaskState) : undefined;
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * `mcpkit call --task`: calls `tool` as a task, prints each status change to stderr (so stdout
 * stays the result), and answers with the tool's result once the task ends. Ctrl-C cancels the
 * task. A tool that the server runs inline anyway (no task support) answers as a plain call.
 */
export async function callAsTask(client: TestClient, tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
  // The 2025-11-25 client asks with params.task; the 2026-07-28 one declared the extension, and the server decides.
  const answer = await client.request<Record<string, unknown>>('tools/call', { name: tool, arguments: args, ...(client.era === 'legacy' ? { task: {} } : {}) });
  const task = createdTask(answer);
  if (task === undefined) {
    err(`${tool} ran inline: the server did not make it a task`);
    return answer as unknown as CallToolResult;
  }
  const { taskId } = task;
  const cancel = () => void client.request('tasks/cancel', { taskId }).catch(() => undefined);
  process.once('SIGINT', cancel);
  try {
    let state: TaskState = task;
    let last = '';
    for (;;) {
      const line = `task ${taskId}: ${state.status}${state.statusMessage ? ` (${state.statusMessage})` : ''}`;
      if (line !== last) err((last = line));
      if (TERMINAL.has(state.status)) break;
      const every = Number(state.pollInterval ?? state.pollIntervalMs ?? 1000);
      await wait(Math.min(Math.max(every, 50), 1000));
      state = await client.request<TaskState>('tasks/get', { taskId });
    }
    if (state.status === 'cancelled') throw new CliError(`task ${taskId} was cancelled`, 'Run the command again to start a new task.', EXIT.FAILURE);
    // 2026-07-28 inlines the outcome; 2025-11-25 has tasks/result (which answers a failed task with its error).
    if (state.status === 'failed' && typeof state.error === 'object' && state.error !== null) {
      const { code, message } = state.error as { code: number; message: string };
      throw new CliError(`task ${taskId} failed: ${message} (JSON-RPC ${code})`, 'The server log says more.', EXIT.FAILURE);
    }
    if (state.result !== undefined) return state.result as CallToolResult;
    return await client.request<CallToolResult>('tasks/result', { taskId });
  } finally {
    process.off('SIGINT', cancel);
  }
}
