import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpServerProcess } from '@mcpkit/testing';
import { waitFor } from './support/waiting';

// Who may see and use a task, and how many a client may hold (#26 items 1, 5, 6, 8): the notes
// process over Streamable HTTP, raw requests, on both eras.
const MAIN = join(__dirname, '..', 'dist', 'main.js');

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

const BASE_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

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
  async exportTask(throttleMs = 0): Promise<{ taskId?: string; error?: Answer['error'] }> {
    const answer = await this.request('tools/call', { name: 'export_notes', arguments: { throttleMs }, task: {} });
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

  it('refuses a flooding session its third task with -31002, keeps everyone else served, and never drops their results', async () => {
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
        message: 'Too many tasks: this caller already has 2 tasks that still count; wait for one to end, cancel one, or let one expire',
        data: { bound: 'owner', limit: 2 },
      },
    });
    // Its own finished task makes room for its next one; another session's result stays.
    await flooder.request('tasks/cancel', { taskId: slow[0] });
    const third = (await flooder.exportTask(5_000)).taskId!;
    expect(await flooder.status(slow[0])).toBeUndefined();
    expect(await flooder.status(third)).toBe('working');
    expect(await other.request('tasks/get', { taskId: kept })).toMatchObject({ result: { status: 'completed' } });

    // The whole store: 2 + 1 kept + 1 = 4; a fifth is refused, nobody's finished task is dropped for it.
    const late = await HandshakeClient.connect(server.url);
    const fourth = (await late.exportTask()).taskId!;
    await late.until(fourth, 'completed');
    const newcomer = await HandshakeClient.connect(server.url);
    expect((await newcomer.exportTask()).error).toMatchObject({ code: -31002, data: { bound: 'store', limit: 4 } });
    expect(await other.status(kept)).toBe('completed');
    expect(await late.status(fourth)).toBe('completed');
    expect((await other.request('tasks/list')).result?.tasks).toEqual([expect.objectContaining({ taskId: kept })]);
    expect((await newcomer.request('tools/list')).result?.tools).toEqual(expect.any(Array));
    await server.waitForOutput('task refused: the task store is full');
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
