import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpServerProcess, StubAuthorizationServer } from '@mcpkit/testing';
import { freePort } from '../../../packages/redis/test/support/redis-server';
import { waitFor } from './support/waiting';

// Who may see and use a task, and how many a client may hold (#26 items 1, 5, 6, 8): the notes
// process over Streamable HTTP, raw requests, on both eras.
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Answer = { jsonrpc: '2.0'; id: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };

/** The JSON-RPC answer of a POST, whether it came as JSON or as the last event of an SSE stream. */
async function answerOf(response: Response): Promise<Answer> {
  const body = await response.text();
  if (body.startsWith('{')) return JSON.parse(body) as Answer;
  const data = body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)) as Answer)
    .filter((message) => 'result' in message || 'error' in message);
  return data[data.length - 1];
}

function modernMeta(): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  };
}

const BASE_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A 2026-07-28 request: every one stands alone (`Mcp-Name` for the methods that route on it). */
async function modern(
  url: string,
  method: string,
  params: Record<string, unknown>,
  token?: string,
  name?: string,
): Promise<{ status: number; answer: Answer }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      ...BASE_HEADERS,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: modernMeta() } }),
  });
  return { status: response.status, answer: await answerOf(response) };
}

/** A 2025-11-25 client over raw HTTP: its session (when the server keeps them), its token, its requests. */
class HandshakeClient {
  private sessionId: string | undefined;
  private next = 0;
  capabilities: Record<string, unknown> = {};

  private constructor(
    private readonly url: string,
    private readonly token: string | undefined,
  ) {}

  static async connect(url: string, token?: string): Promise<HandshakeClient> {
    const client = new HandshakeClient(url, token);
    const init = await client.post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    client.sessionId = init.headers.get('mcp-session-id') ?? undefined;
    client.capabilities = (await answerOf(init)).result!.capabilities as Record<string, unknown>;
    await client.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return client;
  }

  private post(message: Record<string, unknown>): Promise<Response> {
    return fetch(this.url, {
      method: 'POST',
      headers: {
        ...BASE_HEADERS,
        'mcp-protocol-version': '2025-11-25',
        ...(this.token === undefined ? {} : { authorization: `Bearer ${this.token}` }),
        ...(this.sessionId === undefined ? {} : { 'mcp-session-id': this.sessionId }),
      },
      body: JSON.stringify(message),
    });
  }

  async request(method: string, params: Record<string, unknown> = {}): Promise<Answer> {
    return answerOf(await this.post({ jsonrpc: '2.0', id: ++this.next, method, params }));
  }

  /** `export_notes` as a task: its id, or the error that refused it. */
  async exportTask(throttleMs = 0, task: { ttl?: number } = {}): Promise<{ taskId?: string; error?: Answer['error'] }> {
    const answer = await this.request('tools/call', { name: 'export_notes', arguments: { throttleMs }, task });
    return answer.error ? { error: answer.error } : { taskId: (answer.result!.task as { taskId: string }).taskId };
  }

  async status(taskId: string): Promise<string | undefined> {
    return (await this.request('tasks/get', { taskId })).result?.status as string | undefined;
  }

  async until(taskId: string, status: string): Promise<void> {
    await waitFor(`task ${taskId} ${status}`, async () => (await this.status(taskId)) === status);
  }
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A server's environment, with a folder of its own for notes, tasks and exports. */
function serverEnv(extra: Record<string, string> = {}): { env: NodeJS.ProcessEnv; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'notes-task-access-'));
  dirs.push(dir);
  return { dir, env: { LOG_LEVEL: 'warn', NOTES_DB: join(dir, 'notes.db'), NOTES_EXPORT_DIR: join(dir, 'exports'), ...extra } };
}

describe('a stateless server without auth (#26 item 1)', () => {
  it("lists no one's task to anyone, offers no tasks.list, and reaches a task by its id alone", async () => {
    const server = await HttpServerProcess.start(process.execPath, [MAIN, '--stateless'], serverEnv().env);
    try {
      const a = await HandshakeClient.connect(server.url);
      const { taskId } = await a.exportTask();
      // The id is the capability: 122 random bits (a v4 UUID from node:crypto), not a counter.
      expect(taskId).toMatch(UUID_V4);
      const b = await HandshakeClient.connect(server.url);
      expect(b.capabilities.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } });
      expect(await b.request('tasks/list')).toEqual({ jsonrpc: '2.0', id: 1, result: { tasks: [] } });
      expect(await a.request('tasks/list')).toMatchObject({ result: { tasks: [] } });
      // Whoever holds the id still reaches the task, on both eras.
      await b.until(taskId!, 'completed');
      const got = await modern(server.url, 'tasks/get', { taskId }, undefined, taskId);
      expect(got.answer.result).toMatchObject({ taskId, status: 'completed' });
      // 2026-07-28 has no tasks/list at all: discovery offers the extension only.
      const discovered = await modern(server.url, 'server/discover', {});
      expect(discovered.answer.result?.capabilities).toMatchObject({ extensions: { 'io.modelcontextprotocol/tasks': {} } });
      expect(discovered.answer.result?.capabilities).not.toHaveProperty('tasks');
      expect((await b.request('tools/list')).result?.tools).toEqual(expect.any(Array));
    } finally {
      await server.stop();
    }
  });
});

describe('a server with sessions and small task bounds (#26 item 5)', () => {
  let server: HttpServerProcess;
  let dir: string;
  beforeEach(async () => {
    const setup = serverEnv({ NOTES_MAX_TASKS: '4', NOTES_MAX_TASKS_PER_OWNER: '2', NOTES_MAX_EXPORTS: '2' });
    dir = setup.dir;
    server = await HttpServerProcess.start(process.execPath, [MAIN], setup.env);
  });
  afterEach(async () => {
    await server.stop();
  });

  it('refuses a flooding session its third task while its tasks run, makes room from a finished task, and refuses a task only when every task runs', async () => {
    const flooder = await HandshakeClient.connect(server.url);
    // Each session lists its own tasks: listing is offered where it can show something.
    expect(flooder.capabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    await flooder.request('tools/call', { name: 'create_note', arguments: { title: 'Slow', body: 'one note, exported slowly' } });
    const other = await HandshakeClient.connect(server.url);
    const kept = (await other.exportTask()).taskId!;
    await other.until(kept, 'completed');

    const slow = [(await flooder.exportTask(5_000)).taskId!, (await flooder.exportTask(5_000)).taskId!];
    expect(await flooder.exportTask(5_000)).toEqual({
      error: {
        code: -31002,
        message: 'Too many tasks: this caller already has 2 tasks running; wait for one to end, or cancel one',
        data: { bound: 'owner', limit: 2 },
      },
    });
    // Its own finished task makes room for its next one; another session's result stays.
    await flooder.request('tasks/cancel', { taskId: slow[0] });
    const third = (await flooder.exportTask(5_000)).taskId!;
    expect(await flooder.status(slow[0])).toBeUndefined();
    expect(await flooder.status(third)).toBe('working');
    expect(await other.request('tasks/get', { taskId: kept })).toMatchObject({ result: { status: 'completed' } });

    // The whole store: 2 + 1 kept + 1 = 4. The only finished task, whoever's, makes room for a fifth.
    const late = await HandshakeClient.connect(server.url);
    expect((await late.exportTask(5_000)).taskId).toBeDefined();
    const newcomer = await HandshakeClient.connect(server.url);
    expect((await newcomer.exportTask(5_000)).taskId).toBeDefined();
    expect(await other.status(kept)).toBeUndefined();
    // Now all four run: refused, and the message says so.
    const last = await HandshakeClient.connect(server.url);
    expect((await last.exportTask()).error).toEqual({
      code: -31002,
      message: 'The task store is full: all 4 of its tasks are still running; try again when one ends',
      data: { bound: 'store', limit: 4 },
    });
    expect((await last.request('tools/list')).result?.tools).toEqual(expect.any(Array));
    await server.waitForOutput('task refused: the task store is full');
  });

  it('serves a fresh session after one client filled the store over many sessions: the session holding the most gives its oldest result (review of #26, finding 2)', async () => {
    const day = { ttl: 86_400_000 };
    const victim = await HandshakeClient.connect(server.url);
    const mine = (await victim.exportTask(0, day)).taskId!;
    await victim.until(mine, 'completed');
    // One client, two sessions, day-long results: 2 + 1 + the victim's 1 fill the 4 places.
    const [a, b] = [await HandshakeClient.connect(server.url), await HandshakeClient.connect(server.url)];
    const flood: string[] = [];
    for (const [client, count] of [
      [a, 2],
      [b, 1],
    ] as const) {
      for (let i = 0; i < count; i += 1) {
        const { taskId } = await client.exportTask(0, day);
        await client.until(taskId!, 'completed');
        flood.push(taskId!);
      }
    }
    const fresh = await HandshakeClient.connect(server.url);
    const served = (await fresh.exportTask(0, day)).taskId!;
    await fresh.until(served, 'completed');
    expect(await a.status(flood[0])).toBeUndefined();
    expect(await a.status(flood[1])).toBe('completed');
    expect(await victim.status(mine)).toBe('completed');
    expect(await fresh.request('ping')).toMatchObject({ result: {} });
    expect((await fresh.request('tools/list')).result?.tools).toEqual(expect.any(Array));
  });

  it('serves another 2026-07-28 client after one made more ownerless tasks than a share: the oldest ownerless result gives way (review of #26, finding 3)', async () => {
    const exportTask = async (): Promise<Answer> =>
      (await modern(server.url, 'tools/call', { name: 'export_notes', arguments: {} }, undefined, 'export_notes')).answer;
    const status = async (taskId: string): Promise<unknown> => (await modern(server.url, 'tasks/get', { taskId }, undefined, taskId)).answer.result?.status;
    const made: string[] = [];
    // Twice the share of one owner (2): ownerless tasks are in no share, only in the store.
    for (let i = 0; i < 4; i += 1) {
      const answer = await exportTask();
      expect(answer.result).toMatchObject({ resultType: 'task' });
      made.push(answer.result!.taskId as string);
      await waitFor('the export ends', async () => (await status(made[i])) === 'completed');
    }
    const other = await exportTask();
    expect(other.result).toMatchObject({ resultType: 'task' });
    expect(await status(made[0])).toBeUndefined();
    expect(await status(made[1])).toBe('completed');
    // 2026-07-28 has no ping: discovery and a list are served.
    expect((await modern(server.url, 'server/discover', {})).answer.result?.capabilities).toEqual(expect.any(Object));
    expect((await modern(server.url, 'tools/list', {})).answer.result?.tools).toEqual(expect.any(Array));
  });
  it('keeps at most NOTES_MAX_EXPORTS archives, the newest', async () => {
    const client = await HandshakeClient.connect(server.url);
    const paths: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const answer = await client.request('tools/call', { name: 'export_notes', arguments: {} });
      paths.push((answer.result!.content as Array<{ text: string }>)[0].text.replace(/^Exported 0 notes to /, ''));
    }
    const kept = readdirSync(join(dir, 'exports'));
    expect(kept).toHaveLength(2);
    expect(kept).toContain(paths[2].split('/').pop());
    expect(kept).not.toContain(paths[0].split('/').pop());
  });
});

describe('a stateless server without auth and small task bounds (review of #26, finding 3)', () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await HttpServerProcess.start(process.execPath, [MAIN, '--stateless'], serverEnv({ NOTES_MAX_TASKS: '4', NOTES_MAX_TASKS_PER_OWNER: '2' }).env);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lets one token-less client make more tasks than a share without locking out the next: the oldest ownerless result gives way', async () => {
    const attacker = await HandshakeClient.connect(server.url);
    const made: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const { taskId, error } = await attacker.exportTask(0, { ttl: 86_400_000 });
      expect(error).toBeUndefined();
      await attacker.until(taskId!, 'completed');
      made.push(taskId!);
    }
    const victim = await HandshakeClient.connect(server.url);
    const served = await victim.exportTask();
    expect(served.error).toBeUndefined();
    await victim.until(served.taskId!, 'completed');
    expect(await victim.status(made[0])).toBeUndefined();
    expect(await victim.status(made[1])).toBe('completed');
    expect(await victim.request('ping')).toMatchObject({ result: {} });
    expect((await victim.request('tools/list')).result?.tools).toEqual(expect.any(Array));
  });
});

/** A 2026-07-28 `subscriptions/listen` over HTTP: every message of its stream, until closed. */
async function listen(url: string, token: string, notifications: Record<string, unknown>) {
  const messages: Array<{ method?: string; params?: Record<string, unknown> }> = [];
  const stop = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    signal: stop.signal,
    headers: { ...BASE_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen', authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'listen', method: 'subscriptions/listen', params: { notifications, _meta: modernMeta() } }),
  });
  expect(response.status).toBe(200);
  const reading = (async () => {
    const decoder = new TextDecoder();
    let pending = '';
    try {
      for await (const chunk of response.body!) {
        pending += decoder.decode(chunk, { stream: true });
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) if (line.startsWith('data:')) messages.push(JSON.parse(line.slice(5)) as (typeof messages)[number]);
      }
    } catch {
      // Closed by the test.
    }
  })();
  await waitFor('the listen is acknowledged', () => messages.some((message) => message.method === 'notifications/subscriptions/acknowledged'));
  return {
    messages,
    of: (method: string) => messages.filter((message) => message.method === method),
    close: async () => (stop.abort(), await reading),
  };
}

describe('an authenticated server: tasks follow their owner and their tool (#26 items 6 and 8)', () => {
  let server: HttpServerProcess;
  let as: StubAuthorizationServer;
  let resource: string;
  const token = (sub: string, scope: string) => as.mint({ aud: resource, sub, scope, claims: { client_id: 'notes-e2e' } });

  beforeAll(async () => {
    as = await StubAuthorizationServer.start();
    const port = await freePort();
    resource = `http://127.0.0.1:${port}/mcp`;
    server = await HttpServerProcess.start(
      process.execPath,
      [MAIN],
      serverEnv({ PORT: String(port), NOTES_AUTH_ISSUER: as.issuer, NOTES_AUTH_RESOURCE: resource }).env,
    );
  });
  afterAll(async () => {
    await server?.stop();
    await as?.close();
  });

  it("answers every tasks/* method of a token without the tool's scope exactly as for an unknown task, on both eras", async () => {
    const writer = await token('alice', 'notes:write');
    const created = await modern(server.url, 'tools/call', { name: 'export_notes', arguments: {} }, writer, 'export_notes');
    const taskId = created.answer.result?.taskId as string;
    expect(created.answer.result).toMatchObject({ resultType: 'task' });
    await waitFor('the export ends', async () => (await modern(server.url, 'tasks/get', { taskId }, writer, taskId)).answer.result?.status === 'completed');
    const made = '00000000-0000-4000-8000-000000000000';
    // Same subject, fewer rights: no scope at all, or only notes:read (export_notes needs notes:write).
    for (const scope of ['', 'notes:read']) {
      const weaker = await token('alice', scope);
      for (const [method, extra] of [
        ['tasks/get', {}],
        ['tasks/cancel', {}],
        ['tasks/update', { inputResponses: {} }],
      ] as const) {
        const real = await modern(server.url, method, { taskId, ...extra }, weaker, taskId);
        const unknown = await modern(server.url, method, { taskId: made, ...extra }, weaker, made);
        expect({ scope, method, status: real.status, answer: JSON.stringify(real.answer).split(taskId).join('<id>') }).toEqual({
          scope,
          method,
          status: unknown.status,
          answer: JSON.stringify(unknown.answer).split(made).join('<id>'),
        });
        expect(real.answer.error).toMatchObject({ code: -32602, message: `Unknown task: ${taskId}` });
      }
    }
    // The handshake era's tasks/result and tasks/list, over a session of the same subject.
    const reader = await HandshakeClient.connect(server.url, await token('alice', 'notes:read'));
    expect(await reader.request('tasks/result', { taskId })).toMatchObject({ error: { code: -32602, message: `Unknown task: ${taskId}` } });
    expect(await reader.request('tasks/list')).toMatchObject({ result: { tasks: [] } });
    const full = await HandshakeClient.connect(server.url, writer);
    expect((await full.request('tasks/list')).result?.tasks).toEqual([expect.objectContaining({ taskId, status: 'completed' })]);
    expect(await full.request('tasks/result', { taskId })).toMatchObject({ result: { content: [{ type: 'text', text: expect.stringMatching(/^Exported/) }] } });
  });

  it("streams a task's states on subscriptions/listen to those who may see it, and to no one else", async () => {
    const writer = await token('carol', 'notes:write');
    for (const title of ['One', 'Two']) await modern(server.url, 'tools/call', { name: 'create_note', arguments: { title, body: 'x' } }, writer, 'create_note');
    const created = await modern(server.url, 'tools/call', { name: 'export_notes', arguments: { throttleMs: 300 } }, writer, 'export_notes');
    const taskId = created.answer.result?.taskId as string;
    const filter = { taskIds: [taskId], resourceSubscriptions: ['notes://index'] };
    const owner = await listen(server.url, writer, filter);
    // Another principal, and the same one with notes:read only: both name the id, neither may see it.
    const stranger = await listen(server.url, await token('mallory', 'notes:write'), filter);
    const reader = await listen(server.url, await token('carol', 'notes:read'), filter);
    await waitFor('the owner hears the task end', () => owner.of('notifications/tasks').some((message) => message.params?.status === 'completed'));
    // A later change every listen hears: anything about the task would have come before it.
    await modern(server.url, 'tools/call', { name: 'create_note', arguments: { title: 'Marker', body: 'x' } }, writer, 'create_note');
    for (const listener of [owner, stranger, reader]) await waitFor('the marker', () => listener.of('notifications/resources/updated').length > 0);
    await Promise.all([owner.close(), stranger.close(), reader.close()]);
    expect(owner.of('notifications/tasks').at(-1)?.params).toMatchObject({ taskId, status: 'completed', result: { content: [expect.any(Object)] } });
    expect(stranger.of('notifications/tasks')).toEqual([]);
    expect(reader.of('notifications/tasks')).toEqual([]);
    expect((await modern(server.url, 'tasks/get', { taskId }, writer, taskId)).answer.result?.status).toBe('completed');
  });
});
