import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResultSchema, ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { McpClient, type McpClientError } from '@mcpkit/client';
import { HttpServerProcess, RawStdioClient } from '@mcpkit/testing';

// Tasks end to end on the built everything app (#17), over a real child process (stdio) and
// loopback HTTP: the official SDK v1 client's experimental tasks API on 2025-11-25, and raw
// 2026-07-28 requests for the extension (the official v2 client 2.4.0 does not speak it yet:
// it rejects resultType "task"; what it can check, negotiation, is checked with it below), and
// the same cases through @mcpkit/client.
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const EXT = 'io.modelcontextprotocol/tasks';

type Target = { name: string; transport(): Transport };
let http: HttpServerProcess | undefined;

const stdio: Target = {
  name: 'stdio',
  transport: () =>
    new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'stdio'],
      env: { ...process.env, LOG_LEVEL: 'warn' } as Record<string, string>,
      stderr: 'pipe',
    }),
};
const streamable: Target = { name: 'Streamable HTTP', transport: () => new StreamableHTTPClientTransport(new URL(http!.url)) };

beforeAll(async () => {
  http = await HttpServerProcess.start(process.execPath, [MAIN], { LOG_LEVEL: 'warn' });
});

afterAll(async () => {
  await http?.stop();
});

describe.each([stdio, streamable])('tasks on 2025-11-25 over $name with the official SDK v1 client', (target) => {
  let client: Client;
  const asked: unknown[] = [];

  beforeAll(async () => {
    client = new Client({ name: 'tasks-e2e', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return { action: 'accept', content: { confirm: true } };
    });
    await client.connect(target.transport());
  });

  afterAll(async () => {
    await client.close();
  });

  it('declares tasks and taskSupport', async () => {
    expect(client.getServerCapabilities()?.tasks).toMatchObject({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'slow_compute')?.execution).toEqual({ taskSupport: 'optional' });
    expect(tools.find((tool) => tool.name === 'failing_job')?.execution).toEqual({ taskSupport: 'required' });
  });

  it('starts a task, polls it, and gets its result', async () => {
    const kinds: string[] = [];
    let result: CallToolResult | undefined;
    let taskId = '';
    for await (const message of client.experimental.tasks.callToolStream({ name: 'slow_compute', arguments: { seconds: 0.3, label: 'e2e' } }, undefined, {
      task: { ttl: 60_000 },
    })) {
      kinds.push(message.type);
      if (message.type === 'taskCreated') taskId = message.task.taskId;
      if (message.type === 'result') result = message.result as CallToolResult;
      if (message.type === 'error') throw message.error;
    }
    expect(kinds[0]).toBe('taskCreated');
    expect(kinds).toContain('taskStatus');
    expect(result?.content).toEqual([{ type: 'text', text: 'Computed e2e after 0.3s' }]);
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, status: 'completed', ttl: 60_000 });
    const again = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(again._meta).toMatchObject({ 'io.modelcontextprotocol/related-task': { taskId } });
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks.map((task) => task.taskId)).toContain(taskId);
  });

  it('cancels a running task', async () => {
    const stream = client.experimental.tasks.callToolStream({ name: 'slow_compute', arguments: { seconds: 60 } }, undefined, { task: {} });
    const first = await stream.next();
    const taskId = first.value && first.value.type === 'taskCreated' ? first.value.task.taskId : '';
    await stream.return(undefined);
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    expect(cancelled.status).toBe('cancelled');
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('cancelled');
    await expect(client.experimental.tasks.cancelTask(taskId)).rejects.toMatchObject({ code: -32602 });
  });

  it('answers an elicitation inside a task (input_required, delivered through tasks/result)', async () => {
    asked.length = 0;
    let result: CallToolResult | undefined;
    const statuses: string[] = [];
    for await (const message of client.experimental.tasks.callToolStream({ name: 'confirm_delete', arguments: { filename: 'a.txt' } }, undefined, {
      task: {},
    })) {
      if (message.type === 'taskStatus') statuses.push(message.task.status);
      if (message.type === 'result') result = message.result as CallToolResult;
      if (message.type === 'error') throw message.error;
    }
    expect(statuses).toContain('input_required');
    expect(asked).toHaveLength(1);
    expect(result?.content).toEqual([{ type: 'text', text: 'Deleted a.txt' }]);
  });

  it('refuses a task-required tool called without a task (-32601)', async () => {
    // client.callTool refuses it before sending (-32600): the raw request shows the server's answer.
    await expect(client.request({ method: 'tools/call', params: { name: 'failing_job', arguments: {} } }, CallToolResultSchema)).rejects.toMatchObject({
      code: -32601,
    });
  });
});

function modernMeta(capabilities: Record<string, unknown>) {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  };
}

type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };
type Rpc = (method: string, params: Record<string, unknown>, headers?: Record<string, string>) => Promise<Answer>;

const WITH_EXT = { elicitation: { form: {} }, extensions: { [EXT]: {} } };
let rawServer: RawStdioClient | undefined;
const rawStdio: { name: string; rpc: Rpc } = {
  name: 'stdio',
  rpc: async (method, params) => (await rawServer!.request(method, { ...params, _meta: modernMeta(WITH_EXT) })) as Answer,
};
let nextId = 1;
const rawHttp: { name: string; rpc: Rpc } = {
  name: 'Streamable HTTP',
  async rpc(method, params, headers = {}) {
    const taskId = typeof params.taskId === 'string' ? params.taskId : typeof params.name === 'string' ? params.name : undefined;
    const response = await fetch(http!.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(taskId === undefined ? {} : { 'mcp-name': taskId }),
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: modernMeta(WITH_EXT) } }),
    });
    const body = await response.text();
    // SSE or JSON: the answer is the last JSON-RPC message with an id.
    const lines = body.startsWith('{')
      ? [body]
      : body
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim());
    return JSON.parse(lines.filter((line) => line.startsWith('{')).pop() ?? '{}') as Answer;
  },
};

// The same cases through @mcpkit/client (modern era, declaring the extension): its request()
// carries the _meta and headers itself and gives the result or the error the server answered.
let mcpkitClients: McpClient[] = [];
function mcpkitTarget(name: string, connect: () => Promise<McpClient>): { name: string; rpc: Rpc } {
  let client: Promise<McpClient> | undefined;
  return {
    name,
    async rpc(method, params) {
      client ??= connect().then((opened) => (mcpkitClients.push(opened), opened));
      return (await client).request(method, params).then(
        (result) => ({ result }),
        (error: McpClientError) => ({ error: { code: error.code, message: error.message, data: error.data as Record<string, unknown> } }),
      );
    },
  };
}
const clientOptions = { era: 'modern' as const, capabilities: { extensions: { [EXT]: {} } }, handlers: { 'elicitation/create': () => ({ action: 'cancel' }) } };
const mcpkitStdio = mcpkitTarget('stdio with @mcpkit/client', () =>
  McpClient.connect({ command: process.execPath, args: [MAIN, 'stdio'], env: { ...process.env, LOG_LEVEL: 'warn' }, stderr: 'pipe' }, clientOptions),
);
const mcpkitHttp = mcpkitTarget('Streamable HTTP with @mcpkit/client', () => McpClient.connect({ url: http!.url }, clientOptions));

afterAll(async () => {
  await Promise.all(mcpkitClients.map((client) => client.close()));
  mcpkitClients = [];
});

describe.each([rawStdio, rawHttp, mcpkitStdio, mcpkitHttp])('tasks on 2026-07-28 (the tasks extension) over $name', (target) => {
  const rpc: Rpc = (method, params, headers) => target.rpc(method, params, headers);
  async function until(taskId: string, status: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 100; i += 1) {
      const state = (await rpc('tasks/get', { taskId })).result!;
      if (state.status === status) return state;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`task ${taskId} never became ${status}`);
  }

  beforeAll(() => {
    if (target === rawStdio) rawServer = RawStdioClient.spawn(process.execPath, [MAIN, 'stdio'], { ...process.env, LOG_LEVEL: 'warn' });
  });

  afterAll(async () => {
    if (target === rawStdio) {
      rawServer?.kill();
      await rawServer?.exited;
    }
  });

  it('starts a task, polls it until its result is inlined', async () => {
    const created = (await rpc('tools/call', { name: 'slow_compute', arguments: { seconds: 0.2 } })).result!;
    expect(created).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 1000 });
    const done = await until(created.taskId as string, 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'Computed result after 0.2s' }] });
  });

  it('cancels one, and answers an unknown id with -32602', async () => {
    const { taskId } = (await rpc('tools/call', { name: 'slow_compute', arguments: { seconds: 60 } })).result as { taskId: string };
    expect((await rpc('tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
    expect((await until(taskId, 'cancelled')).status).toBe('cancelled');
    expect((await rpc('tasks/get', { taskId: 'no-such-task' })).error?.code).toBe(-32602);
  });

  it('answers an elicitation inside a task with tasks/update', async () => {
    const { taskId } = (await rpc('tools/call', { name: 'confirm_delete', arguments: { filename: 'b.txt' } })).result as { taskId: string };
    const waiting = await until(taskId, 'input_required');
    expect(Object.keys(waiting.inputRequests as object)).toEqual(['confirm']);
    await rpc('tasks/update', { taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } });
    expect((await until(taskId, 'completed')).result).toMatchObject({ content: [{ type: 'text', text: 'Deleted b.txt' }] });
  });

  if (target === rawHttp) {
    it('checks Mcp-Name against the task id (-32020)', async () => {
      const { taskId } = (await rpc('tools/call', { name: 'slow_compute', arguments: { seconds: 0 } })).result as { taskId: string };
      expect((await rpc('tasks/get', { taskId }, { 'mcp-name': 'another-task' })).error?.code).toBe(-32020);
    });
  }
});

describe('the official v2 client pinned to 2026-07-28, without the extension', () => {
  it('gets a task-optional tool inline and -32021 for a task-required one', async () => {
    const client = new ModernClient({ name: 'no-tasks', version: '1' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(
      new ModernStdio({
        command: process.execPath,
        args: [MAIN, 'stdio'],
        env: { ...process.env, LOG_LEVEL: 'warn' } as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    const inline = await client.callTool({ name: 'slow_compute', arguments: { seconds: 0 } });
    expect(inline.content).toEqual([{ type: 'text', text: 'Computed result after 0s' }]);
    await expect(client.callTool({ name: 'failing_job', arguments: {} })).rejects.toMatchObject({ code: -32021 });
    await client.close();
  });
});
