import { IsBoolean, IsInt, IsOptional } from 'class-validator';
import pino from 'pino';
import { createApp } from '../server/create-app';
import { Tool } from '../decorators/tool.decorator';
import { RequireRoles } from '../decorators/require-roles.decorator';
import { UseGuards } from '../decorators/use-guards.decorator';
import { InternalError } from '../errors/mcp-error';
import type { JsonRpcMessage } from '../protocol/json-rpc';
import type { Connection } from './connection';
import type { HandlerContext } from './handler-context';

class Wait {
  @IsOptional()
  @IsInt()
  ms?: number;
}

class Confirm {
  @IsBoolean()
  confirm: boolean;
}

const seen: { taskIds: Array<string | undefined>; aborted: boolean } = { taskIds: [], aborted: false };

class Jobs {
  @Tool({ task: 'optional' })
  async slow(input: Wait, ctx: HandlerContext) {
    seen.taskIds.push(ctx.task?.id);
    await ctx.task?.update('sleeping');
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, input.ms ?? 0);
      ctx.signal.addEventListener('abort', () => (clearTimeout(timer), (seen.aborted = true), reject(ctx.signal.reason)));
    });
    return `slept ${input.ms ?? 0}`;
  }

  @Tool({ task: 'required' })
  async must() {
    return 'done';
  }

  @Tool()
  plain() {
    return 'plain';
  }

  @Tool({ task: 'optional' })
  broken(): string {
    throw new InternalError('the job broke');
  }

  @Tool({ task: 'optional', input: null })
  async confirm(_input: unknown, ctx: HandlerContext) {
    const answer = await ctx.elicit('Sure?', Confirm, { key: 'confirm' });
    return answer.action === 'accept' && answer.content.confirm ? 'deleted' : 'kept';
  }

  @Tool({ task: 'optional', input: null })
  async steps(_input: unknown, ctx: HandlerContext) {
    ctx.progress(1, 2, 'half');
    const reply = await ctx.sample('Say hi', { maxTokens: 5, key: 'hi' });
    ctx.progress(2, 2, 'done');
    return `model: ${JSON.stringify(reply.content)}`;
  }

  @Tool({ task: 'required', input: null })
  async named(_input: unknown, ctx: HandlerContext) {
    const answer = await ctx.elicit('Your name?', { type: 'object', properties: { name: { type: 'string' } } }, { key: 'user_name', beforeTask: true });
    return `Hello, ${answer.action === 'accept' ? String(answer.content.name) : 'nobody'}!`;
  }
}

const silent = pino({ level: 'silent' });
const app = () => createApp({ name: 't', version: '1', providers: [Jobs], logger: silent });
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };

describe('tasks on the handshake era (2025-11-25)', () => {
  let connection: Connection;
  let outbound: JsonRpcMessage[];
  let nextId = 1;
  const call = (method: string, params: Record<string, unknown> = {}, send?: (message: JsonRpcMessage) => void) =>
    connection.receive({ jsonrpc: '2.0', id: nextId++, method, params }, send ? { send } : {}) as Promise<Answer>;

  async function open(version = '2025-11-25', capabilities: Record<string, unknown> = { elicitation: {} }): Promise<Answer> {
    connection = app().connect({ kind: 'memory' });
    outbound = [];
    connection.setOutbound((message) => outbound.push(message));
    return call('initialize', { protocolVersion: version, capabilities });
  }

  beforeEach(() => {
    seen.taskIds = [];
    seen.aborted = false;
  });

  it('declares the tasks capability and execution.taskSupport on 2025-11-25, and neither before', async () => {
    const init = await open();
    expect(init.result?.capabilities).toMatchObject({ tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } });
    const tools = ((await call('tools/list')).result?.tools ?? []) as Array<Record<string, unknown>>;
    expect(tools.find((tool) => tool.name === 'slow')?.execution).toEqual({ taskSupport: 'optional' });
    expect(tools.find((tool) => tool.name === 'plain')).not.toHaveProperty('execution');
    const old = await open('2025-06-18');
    expect(old.result?.capabilities).not.toHaveProperty('tasks');
    const oldTools = ((await call('tools/list')).result?.tools ?? []) as Array<Record<string, unknown>>;
    expect(oldTools.find((tool) => tool.name === 'slow')).not.toHaveProperty('execution');
    // A revision without tasks runs even a task-required tool inline, and has no tasks/* methods.
    expect((await call('tools/call', { name: 'must' })).result?.content).toEqual([{ type: 'text', text: 'done' }]);
    expect((await call('tasks/list')).error?.code).toBe(-32601);
  });

  it('runs a task-augmented call as a task: handle at once, tasks/get, tasks/result waits for the result', async () => {
    await open();
    const created = await call('tools/call', { name: 'slow', arguments: { ms: 30 }, task: { ttl: 60_000 } });
    const task = created.result?.task as Record<string, unknown>;
    expect(task).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: 1000 });
    expect(typeof task.createdAt).toBe('string');
    const taskId = task.taskId as string;
    expect((await call('tasks/get', { taskId })).result).toMatchObject({ taskId, status: 'working' });
    const result = await call('tasks/result', { taskId });
    expect(result.result).toMatchObject({ content: [{ type: 'text', text: 'slept 30' }], _meta: { 'io.modelcontextprotocol/related-task': { taskId } } });
    expect(seen.taskIds).toEqual([taskId]);
    expect((await call('tasks/get', { taskId })).result).toMatchObject({ status: 'completed', statusMessage: 'sleeping' });
    const statuses = outbound.filter((message) => 'method' in message && message.method === 'notifications/tasks/status');
    expect(statuses.map((message) => (message as unknown as { params: { status: string } }).params.status)).toContain('completed');
  });

  it('runs the same tool inline when the client asks for no task (ctx.task undefined)', async () => {
    await open();
    expect((await call('tools/call', { name: 'slow', arguments: { ms: 1 } })).result?.content).toEqual([{ type: 'text', text: 'slept 1' }]);
    expect(seen.taskIds).toEqual([undefined]);
  });

  it('cancels a running task through its signal; a second cancel is -32602; its result is an error', async () => {
    await open();
    const taskId = ((await call('tools/call', { name: 'slow', arguments: { ms: 10_000 }, task: {} })).result?.task as { taskId: string }).taskId;
    await tick();
    const cancelled = await call('tasks/cancel', { taskId });
    expect(cancelled.result).toMatchObject({ taskId, status: 'cancelled' });
    expect(seen.aborted).toBe(true);
    await tick();
    expect((await call('tasks/get', { taskId })).result?.status).toBe('cancelled');
    expect((await call('tasks/cancel', { taskId })).error?.code).toBe(-32602);
    expect((await call('tasks/result', { taskId })).error?.code).toBe(-32602);
  });

  it('reports a wire error of the handler as a failed task, and tasks/result answers with that error', async () => {
    await open();
    const taskId = ((await call('tools/call', { name: 'broken', task: {} })).result?.task as { taskId: string }).taskId;
    const result = await call('tasks/result', { taskId });
    expect(result.error).toMatchObject({ code: -32603 });
    expect((await call('tasks/get', { taskId })).result?.status).toBe('failed');
  });

  it('refuses a required tool without a task and a task for a tool that has none (-32601)', async () => {
    await open();
    expect((await call('tools/call', { name: 'must' })).error?.code).toBe(-32601);
    expect((await call('tools/call', { name: 'plain', task: {} })).error?.code).toBe(-32601);
    expect((await call('tools/call', { name: 'slow', task: 'soon' })).error?.code).toBe(-32602);
    expect((await call('tasks/update', { taskId: 'x', inputResponses: {} })).error?.code).toBe(-32601);
  });

  it('lists only the tasks of this session, in pages, and hides them from other sessions', async () => {
    await open();
    const mine = connection;
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push(((await call('tools/call', { name: 'must', task: {} })).result?.task as { taskId: string }).taskId);
    const listed = (await call('tasks/list')).result?.tasks as Array<{ taskId: string }>;
    expect(listed.map((task) => task.taskId)).toEqual([...ids].reverse());
    await open();
    expect((await call('tasks/list')).result?.tasks).toEqual([]);
    expect((await call('tasks/get', { taskId: ids[0] })).error?.code).toBe(-32602);
    connection = mine;
    expect((await call('tasks/get', { taskId: ids[0] })).result?.taskId).toBe(ids[0]);
    expect((await call('tasks/get', { taskId: 'unknown' })).error?.code).toBe(-32602);
  });

  it('asks the client inside a task: input_required, the request on the tasks/result stream with the related task', async () => {
    await open();
    const taskId = ((await call('tools/call', { name: 'confirm', task: {} })).result?.task as { taskId: string }).taskId;
    await tick();
    expect((await call('tasks/get', { taskId })).result?.status).toBe('input_required');
    const stream: JsonRpcMessage[] = [];
    const waiting = call('tasks/result', { taskId }, (message) => {
      stream.push(message);
      if ('id' in message && 'method' in message) {
        void connection.receive({ jsonrpc: '2.0', id: message.id, result: { action: 'accept', content: { confirm: true } } });
      }
    });
    const result = await waiting;
    expect(result.result?.content).toEqual([{ type: 'text', text: 'deleted' }]);
    const asked = stream.find((message) => 'method' in message && message.method === 'elicitation/create') as unknown as { params: Record<string, unknown> };
    expect(asked.params._meta).toMatchObject({ 'io.modelcontextprotocol/related-task': { taskId } });
  });

  it('sends progress of a task with its related-task _meta, and its sampling on the tasks/result stream', async () => {
    await open('2025-11-25', { sampling: {} });
    const taskId = ((await call('tools/call', { name: 'steps', task: {}, _meta: { progressToken: 'p1' } })).result?.task as { taskId: string }).taskId;
    const stream: JsonRpcMessage[] = [];
    const result = await call('tasks/result', { taskId }, (message) => {
      stream.push(message);
      if ('id' in message && 'method' in message) {
        void connection.receive({ jsonrpc: '2.0', id: message.id, result: { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' } });
      }
    });
    expect(result.result?.content).toEqual([{ type: 'text', text: 'model: {"type":"text","text":"hi"}' }]);
    const progress = [...outbound, ...stream].filter((message) => 'method' in message && message.method === 'notifications/progress') as unknown as Array<{
      params: Record<string, unknown>;
    }>;
    expect(progress.map((message) => message.params.progress)).toEqual([1, 2]);
    expect(progress[0].params._meta).toEqual({ 'io.modelcontextprotocol/related-task': { taskId } });
  });
});

describe('tasks and their limits', () => {
  it('answers a call with an error, and creates nothing, when the store is full of running tasks', async () => {
    const { MemoryTaskStore } = await import('../app/memory-task-store');
    const full = createApp({
      name: 't',
      version: '1',
      providers: [Jobs],
      logger: silent,
      tasks: { store: new MemoryTaskStore({ maxTasks: 2, maxTasksPerOwner: 1 }) },
    });
    const connection = full.connect({ kind: 'memory' });
    await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    const first = (await connection.receive({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'slow', arguments: { ms: 10_000 }, task: {} },
    })) as Answer;
    expect(first.result).toHaveProperty('task');
    const second = (await connection.receive({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'slow', arguments: { ms: 1 }, task: {} },
    })) as Answer;
    expect(second.error).toEqual({
      code: -31002,
      message: 'Too many tasks: this caller already has 1 task running; wait for one to end, or cancel one',
      data: { bound: 'owner', limit: 1 },
    });
    const taskId = (first.result?.task as { taskId: string }).taskId;
    await connection.receive({ jsonrpc: '2.0', id: 3, method: 'tasks/cancel', params: { taskId } });
  });

  it('stops a handler still running at its TTL, and wakes whoever waits for it', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const short = createApp({ name: 't', version: '1', providers: [Jobs], logger: silent, tasks: { defaultTtlMs: 2000 } });
      const connection = short.connect({ kind: 'memory' });
      await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
      const created = (await connection.receive({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'slow', arguments: { ms: 60_000 }, task: {} },
      })) as Answer;
      const taskId = (created.result?.task as { taskId: string }).taskId;
      const waiting = connection.receive({ jsonrpc: '2.0', id: 2, method: 'tasks/result', params: { taskId } }) as Promise<Answer>;
      seen.aborted = false;
      await jest.advanceTimersByTimeAsync(2001);
      expect(seen.aborted).toBe(true);
      expect((await waiting).error?.code).toBe(-32603);
      expect(short.settings.tasks?.size).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('leaves no TTL timer behind a task that ended before its TTL (it held the task until then)', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const hourly = createApp({ name: 't', version: '1', providers: [Jobs], logger: silent, tasks: { defaultTtlMs: 3_600_000 } });
      const connection = hourly.connect({ kind: 'memory' });
      await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
      const timers = jest.getTimerCount();
      for (const [id, name] of [
        [1, 'must'],
        [3, 'broken'],
      ] as const) {
        const created = (await connection.receive({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, task: {} } })) as Answer;
        const taskId = (created.result?.task as { taskId: string }).taskId;
        await connection.receive({ jsonrpc: '2.0', id: id + 1, method: 'tasks/result', params: { taskId } });
      }
      expect(jest.getTimerCount()).toBe(timers);
    } finally {
      jest.useRealTimers();
    }
  });

  it('stops a handler whose task another instance cancelled, at its next status change', async () => {
    const { MemoryTaskStore } = await import('../app/memory-task-store');
    const store = new MemoryTaskStore();
    const shared = createApp({ name: 't', version: '1', providers: [Jobs], logger: silent, tasks: { store } });
    const connection = shared.connect({ kind: 'memory' });
    await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    const created = (await connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'steps', task: {} } })) as Answer;
    const taskId = (created.result?.task as { taskId: string }).taskId;
    // The other instance writes to the shared store; this one learns it when its handler next changes the status.
    await store.update(taskId, { status: 'cancelled' });
    await tick();
    expect(shared.settings.tasks?.size).toBe(0);
    expect((await connection.receive({ jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { taskId } })) as Answer).toMatchObject({
      result: { status: 'cancelled' },
    });
  });

  it('makes no task for a caller from whom the tool is hidden: the answer of an unknown tool, nothing stored', async () => {
    class Admin {
      @RequireRoles('admin')
      @Tool({ task: 'optional', input: null })
      async purge() {
        return 'purged';
      }
    }
    const guarded = createApp({ name: 't', version: '1', providers: [Admin], logger: silent });
    const ask = async (roles: string[]) => {
      const connection = guarded.connect({ kind: 'memory', auth: { subject: roles.join() || 'anon', scopes: [], claims: { roles } } });
      await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
      const called = (await connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'purge', task: {} } })) as Answer;
      const unknown = (await connection.receive({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'nope', task: {} } })) as Answer;
      const listed = (await connection.receive({ jsonrpc: '2.0', id: 3, method: 'tasks/list', params: {} })) as Answer;
      return { called, unknown, listed: listed.result?.tasks as unknown[] };
    };
    const stranger = await ask([]);
    expect(stranger.called.error).toEqual({ ...stranger.unknown.error, message: stranger.unknown.error!.message.replace('nope', 'purge') });
    expect(stranger.listed).toEqual([]);
    const admin = await ask(['admin']);
    expect(admin.called.result?.task).toMatchObject({ status: 'working' });
  });

  it("runs a task tool's guards once per call, before the task exists", async () => {
    let asked = 0;
    class Counted {
      @UseGuards({ canActivate: () => (asked += 1) > 0 })
      @Tool({ task: 'optional', input: null })
      async work() {
        return 'worked';
      }
    }
    const counted = createApp({ name: 't', version: '1', providers: [Counted], logger: silent });
    const connection = counted.connect({ kind: 'memory' });
    await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    const created = (await connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'work', task: {} } })) as Answer;
    const taskId = (created.result?.task as { taskId: string }).taskId;
    await tick();
    expect(asked).toBe(1);
    // tasks/result asks again, for its own caller (who must still be let through to read it).
    const result = (await connection.receive({ jsonrpc: '2.0', id: 2, method: 'tasks/result', params: { taskId } })) as Answer;
    expect(result.result).toMatchObject({ content: [{ type: 'text', text: 'worked' }] });
    expect(asked).toBe(2);
  });

  it('rejects a task option that is not one of the three', () => {
    class Wrong {
      @Tool({ task: 'sometimes' as never })
      odd() {
        return 'x';
      }
    }
    expect(() => createApp({ name: 't', version: '1', providers: [Wrong], logger: silent })).toThrow(/task "sometimes"/);
  });

  it('builds no task runtime, capability or method for an app without task tools', async () => {
    class Plain {
      @Tool()
      hello() {
        return 'hi';
      }
    }
    const plain = createApp({ name: 't', version: '1', providers: [Plain], logger: silent });
    expect(plain.capabilities).not.toHaveProperty('tasks');
    expect(plain.settings.tasks).toBeUndefined();
    expect(plain.methods.has('tasks/get')).toBe(false);
  });
});

describe('tasks on the stateless era (2026-07-28, the tasks extension)', () => {
  const EXT = 'io.modelcontextprotocol/tasks';
  let connection: Connection;
  let nextId = 1;
  const meta = (capabilities: Record<string, unknown>) => ({
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  });
  const withExt = { elicitation: {}, extensions: { [EXT]: {} } };
  const call = (method: string, params: Record<string, unknown> = {}, capabilities: Record<string, unknown> = withExt) =>
    connection.receive({ jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta(capabilities) } }) as Promise<Answer>;
  async function until(taskId: string, status: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 200; i += 1) {
      const state = (await call('tasks/get', { taskId })).result!;
      if (state.status === status) return state;
      await tick();
    }
    throw new Error(`task ${taskId} never became ${status}`);
  }

  beforeEach(() => {
    connection = app().connect({ kind: 'memory' });
  });

  it('binds a task to the authenticated caller: another subject gets -32602, the same one sees it from anywhere', async () => {
    const shared = app();
    connection = shared.connect({ kind: 'memory', auth: { subject: 'ada', scopes: [] } });
    const created = (await call('tools/call', { name: 'slow', arguments: { ms: 5 } })).result!;
    const taskId = created.taskId as string;
    connection = shared.connect({ kind: 'memory', auth: { subject: 'bob', scopes: [] } });
    expect((await call('tasks/get', { taskId })).error?.code).toBe(-32602);
    expect((await call('tasks/cancel', { taskId })).error?.code).toBe(-32602);
    connection = shared.connect({ kind: 'memory', auth: { subject: 'ada', scopes: [] } });
    expect((await until(taskId, 'completed')).status).toBe('completed');
  });

  it('offers the extension in server/discover instead of the tasks capability', async () => {
    const discovered = await call('server/discover');
    expect(discovered.result?.capabilities).toMatchObject({ extensions: { [EXT]: {} } });
    expect(discovered.result?.capabilities).not.toHaveProperty('tasks');
  });

  it('creates a flat resultType "task" for a client that declares the extension; tasks/get inlines the result', async () => {
    const created = (await call('tools/call', { name: 'slow', arguments: { ms: 20 } })).result!;
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 1000 });
    expect(created).not.toHaveProperty('task');
    const done = await until(created.taskId as string, 'completed');
    expect(done).toMatchObject({ resultType: 'complete', result: { content: [{ type: 'text', text: 'slept 20' }] } });
    expect((done.result as Record<string, unknown>)._meta).toBeUndefined();
  });

  it('runs inline for a client without the extension, refuses a required tool and the task methods with -32021', async () => {
    const inline = await call('tools/call', { name: 'slow', arguments: { ms: 0 } }, {});
    expect(inline.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'slept 0' }] });
    const refused = await call('tools/call', { name: 'must' }, {});
    expect(refused.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [EXT]: {} } } } });
    expect((await call('tasks/get', { taskId: 'x' }, {})).error?.code).toBe(-32021);
    expect((await call('tasks/cancel', { taskId: 'x' }, {})).error?.code).toBe(-32021);
  });

  it('answers unknown ids with -32602 and the removed methods with -32601', async () => {
    expect((await call('tasks/get', { taskId: 'nope' })).error?.code).toBe(-32602);
    expect((await call('tasks/result', { taskId: 'nope' })).error?.code).toBe(-32601);
    expect((await call('tasks/list')).error?.code).toBe(-32601);
  });

  it('cancels with an empty ack, also when the task already ended', async () => {
    const { taskId } = (await call('tools/call', { name: 'slow', arguments: { ms: 10_000 } })).result as { taskId: string };
    expect((await call('tasks/cancel', { taskId })).result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    expect((await until(taskId, 'cancelled')).status).toBe('cancelled');
    expect((await call('tasks/cancel', { taskId })).result?.resultType).toBe('complete');
  });

  it('fails a task on a wire error, with the error inlined', async () => {
    const { taskId } = (await call('tools/call', { name: 'broken' })).result as { taskId: string };
    const failed = await until(taskId, 'failed');
    expect(failed.error).toMatchObject({ code: -32603, message: 'the job broke' });
    expect(failed).not.toHaveProperty('result');
  });

  it('parks a question as inputRequests until tasks/update answers it', async () => {
    const { taskId } = (await call('tools/call', { name: 'confirm' })).result as { taskId: string };
    const waiting = await until(taskId, 'input_required');
    expect(waiting.inputRequests).toMatchObject({ confirm: { method: 'elicitation/create', params: { mode: 'form', message: 'Sure?' } } });
    expect((await call('tasks/update', { taskId, inputResponses: { other: { action: 'accept' } } })).result?.resultType).toBe('complete');
    expect((await call('tasks/get', { taskId })).result?.status).toBe('input_required');
    await call('tasks/update', { taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } });
    const done = await until(taskId, 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'deleted' }] });
    expect(done).not.toHaveProperty('inputRequests');
  });

  it('asks a beforeTask question as an input-required round of the call, then creates the task', async () => {
    const round = (await call('tools/call', { name: 'named' })).result!;
    expect(round).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: { method: 'elicitation/create' } } });
    expect(round).not.toHaveProperty('taskId');
    const created = (
      await call('tools/call', {
        name: 'named',
        requestState: round.requestState,
        inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
      })
    ).result!;
    expect(created).toMatchObject({ resultType: 'task' });
    expect(created).not.toHaveProperty('requestState');
    const done = await until(created.taskId as string, 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Alice!' }] });
  });

  it('parks a sampling request too, and continues with the answer', async () => {
    const { taskId } = (await call('tools/call', { name: 'steps' }, { sampling: {}, extensions: { [EXT]: {} } })).result as { taskId: string };
    const waiting = await until(taskId, 'input_required');
    expect(waiting.inputRequests).toMatchObject({ hi: { method: 'sampling/createMessage' } });
    await call('tasks/update', { taskId, inputResponses: { hi: { role: 'assistant', content: { type: 'text', text: 'yo' }, model: 'm' } } });
    expect((await until(taskId, 'completed')).result).toMatchObject({ content: [{ type: 'text', text: 'model: {"type":"text","text":"yo"}' }] });
  });

  it('sends notifications/tasks with the full state to a subscriptions/listen that names the task', async () => {
    const { taskId } = (await call('tools/call', { name: 'slow', arguments: { ms: 20 } })).result as { taskId: string };
    const stream: JsonRpcMessage[] = [];
    void connection.receive(
      { jsonrpc: '2.0', id: 'L', method: 'subscriptions/listen', params: { notifications: { taskIds: [taskId, 42] }, _meta: meta(withExt) } },
      { send: (message) => stream.push(message) },
    );
    await until(taskId, 'completed');
    const acknowledged = stream.find((message) => 'method' in message && message.method === 'notifications/subscriptions/acknowledged') as unknown as {
      params: { notifications: unknown };
    };
    expect(acknowledged.params.notifications).toEqual({ taskIds: [taskId] });
    const notes = stream.filter((message) => 'method' in message && message.method === 'notifications/tasks') as unknown as Array<{
      params: Record<string, unknown>;
    }>;
    const last = notes[notes.length - 1].params;
    expect(last).toMatchObject({ taskId, status: 'completed', result: { content: [{ type: 'text', text: 'slept 20' }] } });
    expect(last._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': 'L' });
    await connection.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'L' } });
  });
});

describe('who sees a task (#26)', () => {
  it("answers every tasks/* method as for an unknown task once the tool's guard no longer lets the caller in, and lists it no more", async () => {
    let open = true;
    class Gated {
      @UseGuards({ canActivate: () => open })
      @Tool({ task: 'optional', input: null })
      async gated() {
        return 'gated';
      }
    }
    const gatedApp = createApp({ name: 't', version: '1', providers: [Gated], logger: silent });
    const connection = gatedApp.connect({ kind: 'memory' });
    await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    const ask = (id: number, method: string, params: Record<string, unknown> = {}) =>
      connection.receive({ jsonrpc: '2.0', id, method, params }) as Promise<Answer>;
    const taskId = ((await ask(1, 'tools/call', { name: 'gated', task: {} })).result?.task as { taskId: string }).taskId;
    expect((await ask(2, 'tasks/result', { taskId })).result?.content).toEqual([{ type: 'text', text: 'gated' }]);
    expect((await ask(3, 'tasks/list')).result?.tasks).toEqual([expect.objectContaining({ taskId })]);
    open = false;
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      expect({ method, answer: await ask(4, method, { taskId }) }).toEqual({
        method,
        answer: { jsonrpc: '2.0', id: 4, error: { code: -32602, message: `Unknown task: ${taskId}` } },
      });
    }
    expect((await ask(5, 'tasks/list')).result?.tasks).toEqual([]);
    open = true;
    expect((await ask(6, 'tasks/get', { taskId })).result).toMatchObject({ taskId, status: 'completed' });
  });

  it('lists nothing to a stateless caller without a principal, and offers it no tasks.list; a principal lists its own', async () => {
    const stateless = app();
    const anonymous = stateless.connect({ kind: 'memory' }, { sessionless: true });
    const init = (await anonymous.receive({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {} },
    })) as Answer;
    expect(init.result?.capabilities).toMatchObject({ tasks: { cancel: {}, requests: { tools: { call: {} } } } });
    expect((init.result?.capabilities as { tasks: object }).tasks).not.toHaveProperty('list');
    const created = (await anonymous.receive({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'slow', arguments: { ms: 0 }, task: {} },
    })) as Answer;
    const taskId = (created.result?.task as { taskId: string }).taskId;
    expect(((await anonymous.receive({ jsonrpc: '2.0', id: 2, method: 'tasks/list', params: {} })) as Answer).result).toEqual({ tasks: [] });
    expect(((await anonymous.receive({ jsonrpc: '2.0', id: 3, method: 'tasks/get', params: { taskId } })) as Answer).result).toMatchObject({ taskId });

    const signedIn = stateless.connect({ kind: 'memory', auth: { subject: 'ada', scopes: [] } }, { sessionless: true });
    const initSigned = (await signedIn.receive({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {} },
    })) as Answer;
    expect(initSigned.result?.capabilities).toMatchObject({ tasks: { list: {} } });
    const mine = (await signedIn.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: { ms: 0 }, task: {} } })) as Answer;
    const listed = (await signedIn.receive({ jsonrpc: '2.0', id: 2, method: 'tasks/list', params: {} })) as Answer;
    expect(listed.result?.tasks).toEqual([expect.objectContaining({ taskId: (mine.result?.task as { taskId: string }).taskId })]);
  });
});
