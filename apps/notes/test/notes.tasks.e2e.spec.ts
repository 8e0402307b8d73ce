import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { HttpServerProcess, RawStdioClient } from '@mcpkit/testing';

// export_notes as a task (#17), and the SQLite task store across restarts of the real server:
// a finished export's result is still readable, a running one is reported failed.
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const LOST = 'The server stopped while this task ran; its work was lost. Run it again.';

function meta() {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  };
}

type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string } };

let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'notes-tasks-'));
  env = { ...process.env, LOG_LEVEL: 'warn', NOTES_DB: join(dir, 'notes.db'), NOTES_EXPORT_DIR: join(dir, 'exports') };
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('export_notes with the official SDK v1 client over stdio (2025-11-25)', () => {
  it('runs as a task and writes the archive', async () => {
    const client = new Client({ name: 'notes-tasks', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN, '--stdio'], env: env as Record<string, string>, stderr: 'pipe' }));
    await client.callTool({ name: 'create_note', arguments: { title: 'One', body: 'first', tags: ['a'] } });
    await client.callTool({ name: 'create_note', arguments: { title: 'Two', body: 'second' } });
    let result: CallToolResult | undefined;
    const statuses: string[] = [];
    for await (const message of client.experimental.tasks.callToolStream({ name: 'export_notes', arguments: { throttleMs: 50 } }, undefined, { task: {} })) {
      if (message.type === 'taskStatus') statuses.push(message.task.statusMessage ?? message.task.status);
      if (message.type === 'result') result = message.result as CallToolResult;
      if (message.type === 'error') throw message.error;
    }
    const text = (result?.content[0] as { text: string }).text;
    expect(text).toMatch(/^Exported 2 notes to /);
    const path = text.replace(/^Exported 2 notes to /, '');
    expect(readFileSync(path, 'utf8')).toContain('## One');
    expect(statuses.length).toBeGreaterThan(0);
    await client.close();
  });
});

describe('the task store across restarts (2026-07-28, raw requests)', () => {
  async function call(server: RawStdioClient, method: string, params: Record<string, unknown>): Promise<Answer> {
    return (await server.request(method, { ...params, _meta: meta() })) as Answer;
  }

  async function until(server: RawStdioClient, taskId: string, status: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 100; i += 1) {
      const state = (await call(server, 'tasks/get', { taskId })).result!;
      if (state.status === status) return state;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`task ${taskId} never became ${status}`);
  }

  it('over stdio: a finished task stays readable, one cut short by a killed server is failed', async () => {
    const first = RawStdioClient.spawn(process.execPath, [MAIN, '--stdio'], env);
    await call(first, 'tools/call', { name: 'create_note', arguments: { title: 'Kept', body: 'x' } });
    const done = (await call(first, 'tools/call', { name: 'export_notes', arguments: {} })).result as { taskId: string; resultType: string };
    expect(done.resultType).toBe('task');
    await until(first, done.taskId, 'completed');
    const running = (await call(first, 'tools/call', { name: 'export_notes', arguments: { throttleMs: 5000 } })).result as { taskId: string };
    expect((await call(first, 'tasks/get', { taskId: running.taskId })).result?.status).toBe('working');
    first.kill('SIGKILL');
    await first.exited;

    const second = RawStdioClient.spawn(process.execPath, [MAIN, '--stdio'], env);
    try {
      const after = (await call(second, 'tasks/get', { taskId: done.taskId })).result!;
      expect(after.status).toBe('completed');
      expect(JSON.stringify(after.result)).toContain('Exported 1 note to');
      const lost = (await call(second, 'tasks/get', { taskId: running.taskId })).result!;
      expect(lost).toMatchObject({ status: 'failed', statusMessage: LOST, error: { code: -32603, message: LOST } });
      expect(existsSync(join(dir, 'exports'))).toBe(true);
    } finally {
      second.kill();
      await second.exited;
    }
  });

  it('over Streamable HTTP: a task running when the server stops is failed after it restarts', async () => {
    let server = await HttpServerProcess.start(process.execPath, [MAIN], env);
    const post = async (method: string, params: Record<string, unknown>, name?: string): Promise<Answer> => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          ...(name === undefined ? {} : { 'mcp-name': name }),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta() } }),
      });
      const body = await response.text();
      const json = body.startsWith('{')
        ? body
        : (
            body
              .split('\n')
              .filter((line) => line.startsWith('data:'))
              .pop() ?? 'data:{}'
          ).slice(5);
      return JSON.parse(json) as Answer;
    };
    await post('tools/call', { name: 'create_note', arguments: { title: 'A', body: 'a' } }, 'create_note');
    const running = (await post('tools/call', { name: 'export_notes', arguments: { throttleMs: 5000 } }, 'export_notes')).result as { taskId: string };
    expect((await post('tasks/get', { taskId: running.taskId }, running.taskId)).result?.status).toBe('working');
    await server.stop();
    server = await HttpServerProcess.start(process.execPath, [MAIN], env);
    try {
      expect((await post('tasks/get', { taskId: running.taskId }, running.taskId)).result).toMatchObject({ status: 'failed', statusMessage: LOST });
    } finally {
      await server.stop();
    }
  });
});
