import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpServerProcess, RawStdioClient } from '@mcpkit/testing';
import { startAuthenticatedNotes, type AuthenticatedNotes } from './support/authenticated-notes';

// Issue #26 item 10: every request, accepted or refused, has exactly one request line (caller,
// method, outcome, ms), whether a handler ran or not: initialize, server/discover, a listen when
// it ends, unknown methods, invalid requests, rejected and replayed requestStates, an id in use,
// and, over HTTP, what the endpoint refuses once it has read the body. The built notes app over
// stdio (every method of both eras on one connection) and over HTTP (authenticated: every line
// names its caller), at LOG_LEVEL=info; each request has an id of its own, and the test counts
// the lines per id. A batch refused as a whole has one line per id in it too (review of #26,
// finding 10), and a client's own cancels write nothing at error level (finding 11).
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'audit', version: '1' },
};
const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'audit', version: '1' } };

type Line = { msg?: string; rpcId?: unknown; method?: string; target?: string; subject?: string; outcome?: string; code?: number; ms?: number };
type Message = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };

/** The request lines in a process's output. */
function requestLines(output: string): Line[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line)
    .filter((line) => line.msg === 'request');
}

/** How many request lines each id has (ids as the client wrote them). */
function linesPerId(lines: readonly Line[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of lines) counts[String(line.rpcId)] = (counts[String(line.rpcId)] ?? 0) + 1;
  return counts;
}

/** Waits (bounded) until `output()` has a request line for every id: the log is written asynchronously. */
async function linesFor(output: () => string, ids: readonly string[]): Promise<Line[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const lines = requestLines(output());
    const seen = new Set(lines.map((line) => String(line.rpcId)));
    if (ids.every((id) => seen.has(id))) return lines;
    if (Date.now() > deadline) throw new Error(`no request line for ${ids.filter((id) => !seen.has(id)).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The lines at error level or above in a process's output (what a client must not be able to add to). */
function errorLines(output: string): Array<Record<string, unknown>> {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => typeof line.level === 'number' && line.level >= 50);
}

/** `[id, outcome]` of each line, sorted by id: what every request came to. */
const outcomes = (lines: readonly Line[]) =>
  Object.fromEntries(lines.map((line) => [String(line.rpcId), line.code === undefined ? line.outcome : `${line.outcome} (${line.code})`]));

describe('the request line of every request, over stdio (the built notes app)', () => {
  let dir: string;
  let server: RawStdioClient;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-notes-audit-'));
    server = RawStdioClient.spawn(process.execPath, [MAIN, '--stdio'], { ...process.env, LOG_LEVEL: 'info', NOTES_DB: join(dir, 'notes.db') });
  });

  afterAll(() => {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (id: string, method: string, params?: unknown): Promise<Message> => {
    server.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    return (await server.waitFor((message) => message.id === id)) as Message;
  };
  const modern = (id: string, method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = META) =>
    call(id, method, { ...params, _meta: meta });

  it('writes exactly one line per request, handled or refused, on both eras', async () => {
    // The handshake era: refused before initialize, then every method.
    expect((await call('pre', 'tools/list')).error?.code).toBe(-32600);
    await call('init', 'initialize', INIT);
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await call('ping', 'ping');
    await call('tools-list', 'tools/list');
    await call('create', 'tools/call', { name: 'create_note', arguments: { title: 'Audit', body: 'trail' } });
    await call('bad-arguments', 'tools/call', { name: 'create_note', arguments: {} });
    await call('unknown-tool', 'tools/call', { name: 'no_such_tool', arguments: {} });
    await call('resources-list', 'resources/list');
    await call('templates-list', 'resources/templates/list');
    await call('read', 'resources/read', { uri: 'notes://index' });
    await call('subscribe', 'resources/subscribe', { uri: 'notes://index' });
    await call('unsubscribe', 'resources/unsubscribe', { uri: 'notes://index' });
    await call('prompts-list', 'prompts/list');
    await call('prompt', 'prompts/get', { name: 'summarize_notes', arguments: {} });
    await call('complete', 'completion/complete', { ref: { type: 'ref/prompt', name: 'summarize_notes' }, argument: { name: 'topic', value: 'a' } });
    await call('set-level', 'logging/setLevel', { level: 'error' });
    // A batch on a revision without batching is refused as a whole (one error, id null), yet each
    // request in it whose id can be read has its line; an empty batch names no id.
    const refusedBatches = () => server.messages.filter((message) => message.id === null);
    server.send([
      { jsonrpc: '2.0', id: 'batch-a', method: 'ping' },
      { jsonrpc: '2.0', id: 'batch-b', method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'none', progress: 1 } },
      { jsonrpc: '2.0', id: { not: 'an id' }, method: 'ping' },
    ]);
    await server.waitFor(() => refusedBatches().length === 1);
    server.send([]);
    await server.waitFor(() => refusedBatches().length === 2);
    expect(refusedBatches()).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'JSON-RPC batches are only accepted after negotiating protocol revision 2025-03-26' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'JSON-RPC batches are only accepted after negotiating protocol revision 2025-03-26' } },
    ]);
    // The client cancels an export while it runs: its handler rejects, and no error line follows.
    server.send({
      jsonrpc: '2.0',
      id: 'cancelled-export',
      method: 'tools/call',
      params: { name: 'export_notes', arguments: { throttleMs: 5000 }, _meta: { progressToken: 'cancelled-export' } },
    });
    await server.waitFor((message) => message.method === 'notifications/progress' && (message.params as { progressToken?: unknown }).progressToken === 'cancelled-export');
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'cancelled-export' } });
    const slowTask = await call('slow-task', 'tools/call', { name: 'export_notes', arguments: { throttleMs: 5000 }, task: {} });
    expect((await call('slow-task-cancel', 'tasks/cancel', { taskId: (slowTask.result!.task as { taskId: string }).taskId })).result).toMatchObject({
      status: 'cancelled',
    });
    const task = await call('task', 'tools/call', { name: 'export_notes', arguments: {}, task: {} });
    const taskId = (task.result!.task as { taskId: string }).taskId;
    await call('tasks-list', 'tasks/list');
    await call('tasks-get', 'tasks/get', { taskId });
    await call('tasks-result', 'tasks/result', { taskId });
    await call('tasks-cancel', 'tasks/cancel', { taskId });
    expect((await call('no-method', 'no/such-method')).error?.code).toBe(-32601);
    expect((await call('params', 'tools/list', 5)).error?.code).toBe(-32602);
    server.writeLine('{"jsonrpc":"1.0","id":"jsonrpc","method":"ping"}');
    expect(((await server.waitFor((message) => message.id === 'jsonrpc')) as Message).error?.code).toBe(-32600);

    // 2026-07-28 on the same connection: discovery, refusals of the request itself, rounds.
    await modern('discover', 'server/discover');
    await modern('m-call', 'tools/call', { name: 'search_notes', arguments: { query: 'trail' } });
    expect((await modern('m-initialize', 'initialize', INIT)).error?.code).toBe(-32601);
    expect((await modern('m-no-capabilities', 'tools/list', {}, { 'io.modelcontextprotocol/protocolVersion': MODERN })).error?.code).toBe(-32602);
    expect((await modern('m-version', 'tools/list', {}, { ...META, 'io.modelcontextprotocol/protocolVersion': '1999-01-01' })).error?.code).toBe(-32022);
    expect((await modern('m-forged', 'tools/call', { name: 'draft_note', arguments: {}, requestState: 'forged.state' })).error?.code).toBe(-32602);
    const first = await modern('draft-1', 'tools/call', { name: 'draft_note', arguments: {} });
    const second = await modern('draft-2', 'tools/call', {
      name: 'draft_note',
      arguments: {},
      requestState: first.result!.requestState,
      inputResponses: { draft: { action: 'accept', content: { title: 'Drafted', body: 'trail' } } },
    });
    const final = { name: 'draft_note', arguments: {}, requestState: second.result!.requestState, inputResponses: { confirm: { action: 'decline' } } };
    await modern('draft-3', 'tools/call', final);
    expect((await modern('draft-replayed', 'tools/call', final)).error?.code).toBe(-32602);

    // A listen lasts until cancelled; a request with its id meanwhile is refused (id in use).
    server.send({ jsonrpc: '2.0', id: 'listen', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: META } });
    await server.waitFor((message) => (message as { method?: string }).method === 'notifications/subscriptions/acknowledged');
    expect((await call('listen', 'ping')).error?.code).toBe(-32600);
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen' } });
    await call('after', 'ping');

    const singles = [
      'pre',
      'init',
      'ping',
      'tools-list',
      'create',
      'bad-arguments',
      'unknown-tool',
      'resources-list',
      'templates-list',
      'read',
      'subscribe',
      'unsubscribe',
      'prompts-list',
      'prompt',
      'complete',
      'set-level',
      'batch-a',
      'batch-b',
      'cancelled-export',
      'slow-task',
      'slow-task-cancel',
      'task',
      'tasks-list',
      'tasks-get',
      'tasks-result',
      'tasks-cancel',
      'no-method',
      'params',
      'jsonrpc',
      'discover',
      'm-call',
      'm-initialize',
      'm-no-capabilities',
      'm-version',
      'm-forged',
      'draft-1',
      'draft-2',
      'draft-3',
      'draft-replayed',
      'after',
    ];
    await linesFor(() => server.stderr, [...singles, 'listen']);
    // Everything written by now is in: a line written twice would have come with the first.
    expect((await server.end()).code).toBe(0);
    const lines = requestLines(server.stderr);
    const expected: Record<string, number> = Object.fromEntries(singles.map((id) => [id, 1]));
    // Two requests had the id `listen`: the listen, and the ping refused while it was open.
    expected.listen = 2;
    expect(linesPerId(lines)).toEqual(expected);
    for (const line of lines) expect(line).toMatchObject({ method: expect.any(String), outcome: expect.any(String), ms: expect.any(Number) });
    expect(outcomes(lines.filter((line) => line.rpcId !== 'listen'))).toMatchObject({
      pre: 'error -32600 (-32600)',
      init: 'ok',
      'bad-arguments': 'tool_error',
      'unknown-tool': 'invalid (-32602)',
      'no-method': 'error -32601 (-32601)',
      params: 'invalid (-32602)',
      jsonrpc: 'error -32600 (-32600)',
      'batch-a': 'error -32600 (-32600)',
      'batch-b': 'error -32600 (-32600)',
      'cancelled-export': 'cancelled',
      'slow-task-cancel': 'ok',
      discover: 'ok',
      'm-initialize': 'error -32601 (-32601)',
      'm-no-capabilities': 'invalid (-32602)',
      'm-version': 'error -32022 (-32022)',
      'm-forged': 'invalid (-32602)',
      'draft-1': 'ok',
      'draft-3': 'ok',
      'draft-replayed': 'invalid (-32602)',
    });
    expect(lines.filter((line) => line.rpcId === 'listen').map((line) => `${line.method} ${line.outcome}`)).toEqual(
      expect.arrayContaining(['ping error -32600', 'subscriptions/listen cancelled']),
    );
    expect(lines.find((line) => line.rpcId === 'create')).toMatchObject({ method: 'tools/call', target: 'create_note', outcome: 'ok' });
    expect(lines.filter((line) => String(line.rpcId).startsWith('batch-')).map((line) => line.method)).toEqual(['ping', 'tools/list']);
    // Two cancels of running handlers (notifications/cancelled, tasks/cancel): nothing at error level.
    expect(errorLines(server.stderr)).toEqual([]);
    expect(server.stray).toEqual([]);
  });
});

describe('the request line of every request, over HTTP with tokens (the built notes app)', () => {
  let notes: AuthenticatedNotes;
  let server: HttpServerProcess;
  let token: string;

  beforeAll(async () => {
    notes = await startAuthenticatedNotes('audit', { LOG_LEVEL: 'info' });
    server = notes.server;
    token = await notes.as.mint({ aud: notes.resource, sub: 'auditor', scope: 'notes:write', claims: { client_id: 'audit-client' } });
  });

  afterAll(() => notes?.stop());

  /** One POST; its answer's status and JSON-RPC message(s) (JSON, or the data lines of an SSE answer). */
  async function post(
    body: unknown,
    headers: Record<string, string> = {},
    signal?: AbortSignal,
  ): Promise<{ status: number; session: string | null; messages: Message[] }> {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}`, ...headers },
      body: JSON.stringify(body),
      signal,
    });
    const text = await response.text();
    const messages = text.startsWith('{') || text.startsWith('[') ? ([] as Message[]).concat(JSON.parse(text) as Message) : [];
    for (const line of text.split('\n')) if (line.startsWith('data: {')) messages.push(JSON.parse(line.slice(6)) as Message);
    return { status: response.status, session: response.headers.get('mcp-session-id'), messages };
  }
  const modernHeaders = (method: string, name?: string): Record<string, string> => ({
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
  });

  it('writes exactly one line per request, with its caller, for what the endpoint refuses after reading the body too', async () => {
    const opened = await post({ jsonrpc: '2.0', id: 'h-init', method: 'initialize', params: INIT });
    const session = { 'mcp-session-id': opened.session!, 'mcp-protocol-version': '2025-11-25' };
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    expect(
      (await post({ jsonrpc: '2.0', id: 'h-call', method: 'tools/call', params: { name: 'search_notes', arguments: { query: 'x' } } }, session)).status,
    ).toBe(200);
    expect((await post({ jsonrpc: '2.0', id: 'h-no-session', method: 'tools/list' }, { 'mcp-protocol-version': '2025-11-25' })).status).toBe(400);
    expect((await post({ jsonrpc: '2.0', id: 'h-unknown-session', method: 'tools/list' }, { ...session, 'mcp-session-id': 'no-such-session' })).status).toBe(
      404,
    );
    expect((await post({ jsonrpc: '2.0', id: 'h-version', method: 'tools/list' }, { ...session, 'mcp-protocol-version': '1999-01-01' })).status).toBe(400);
    expect((await post({ jsonrpc: '2.0', id: 'h-no-method', method: 'no/such-method' }, session)).messages[0].error?.code).toBe(-32601);
    // A batch refused as a whole gets one error (JSON-RPC), and each request in it its line: on a
    // 2025-11-25 session (no batching), and on a 2025-03-26 one past maxBatchLength (100).
    const refusedBatch = { status: 400, messages: [{ id: null, error: { code: -32600 } }] };
    const batch = [
      { jsonrpc: '2.0', id: 'h-batch-a', method: 'ping' },
      { jsonrpc: '2.0', id: 'h-batch-b', method: 'tools/list' },
    ];
    expect(await post(batch, session)).toMatchObject(refusedBatch);
    const older = await post({ jsonrpc: '2.0', id: 'h-init-2025-03-26', method: 'initialize', params: { ...INIT, protocolVersion: '2025-03-26' } });
    const olderSession = { 'mcp-session-id': older.session!, 'mcp-protocol-version': '2025-03-26' };
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, olderSession);
    expect(await post([], olderSession)).toMatchObject(refusedBatch);
    const over = Array.from({ length: 101 }, (_, index) => ({ jsonrpc: '2.0', id: `h-over-${index}`, method: 'ping' }));
    expect(await post(over, olderSession)).toMatchObject({
      status: 400,
      messages: [{ id: null, error: { code: -32600, message: 'Batch too large: 101 messages, at most 100 are accepted per batch' } }],
    });
    const overIds = over.map((message) => message.id);

    const call = (id: string, method: string, params: Record<string, unknown>, headers = modernHeaders(method, params.name as string | undefined)) =>
      post({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }, headers);
    expect((await call('h-discover', 'server/discover', {})).status).toBe(200);
    expect(
      (await call('h-mismatch', 'tools/call', { name: 'search_notes', arguments: { query: 'x' } }, modernHeaders('tools/call', 'create_note'))).status,
    ).toBe(400);
    expect((await call('h-forged', 'tools/call', { name: 'draft_note', arguments: {}, requestState: 'forged.state' })).messages[0].error?.code).toBe(-32602);
    expect((await call('h-m-no-method', 'no/such-method', {})).status).toBe(404);
    // A listen over HTTP ends when its client closes the stream.
    const leaving = new AbortController();
    const listening = fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        ...modernHeaders('subscriptions/listen'),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'h-listen',
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true }, _meta: META },
      }),
      signal: leaving.signal,
    });
    const reader = (await listening).body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('notifications/subscriptions/acknowledged');
    leaving.abort();
    await reader.read().catch(() => undefined);

    const ids = [
      'h-init',
      'h-call',
      'h-no-session',
      'h-unknown-session',
      'h-version',
      'h-no-method',
      'h-batch-a',
      'h-batch-b',
      'h-init-2025-03-26',
      ...overIds,
      'h-discover',
      'h-mismatch',
      'h-forged',
      'h-m-no-method',
      'h-listen',
    ];
    await linesFor(() => server.output, ids);
    await post({ jsonrpc: '2.0', id: 'h-last', method: 'ping' }, session);
    const lines = (await linesFor(() => server.output, [...ids, 'h-last'])).filter((line) => line.rpcId !== 'h-last');
    expect(linesPerId(lines)).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
    for (const line of lines) expect(line).toMatchObject({ subject: 'auditor', clientId: 'audit-client', ms: expect.any(Number) });
    expect(outcomes(lines)).toEqual({
      'h-init': 'ok',
      'h-call': 'ok',
      'h-no-session': 'error -32600 (-32600)',
      'h-unknown-session': 'error -32600 (-32600)',
      'h-version': 'error -32022 (-32022)',
      'h-no-method': 'error -32601 (-32601)',
      'h-batch-a': 'error -32600 (-32600)',
      'h-batch-b': 'error -32600 (-32600)',
      'h-init-2025-03-26': 'ok',
      ...Object.fromEntries(overIds.map((id) => [id, 'error -32600 (-32600)'])),
      'h-discover': 'ok',
      'h-mismatch': 'error -32020 (-32020)',
      'h-forged': 'invalid (-32602)',
      'h-m-no-method': 'error -32601 (-32601)',
      'h-listen': 'cancelled',
    });
    // The batch's lines say which session it came on, as its other requests' lines do.
    const sessionOf = (id: string) => (lines.find((line) => line.rpcId === id) as { sessionId?: string }).sessionId;
    expect([sessionOf('h-batch-a'), sessionOf('h-batch-b')]).toEqual([opened.session, opened.session]);
    expect(new Set(overIds.map(sessionOf))).toEqual(new Set([older.session]));
    expect(server.output).not.toContain(token);
  });
});

describe('error lines over HTTP: a client cancelling its own work writes none, a failing tool one (the built notes app)', () => {
  let dir: string;
  let server: HttpServerProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-notes-cancel-'));
    // The export folder cannot be made (a file is in its way): an export that gets that far fails for real.
    writeFileSync(join(dir, 'blocker'), '');
    server = await HttpServerProcess.start(process.execPath, [MAIN], {
      LOG_LEVEL: 'debug',
      NOTES_DB: join(dir, 'notes.db'),
      NOTES_EXPORT_DIR: join(dir, 'blocker', 'exports'),
    });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const post = (body: unknown, headers: Record<string, string> = {}) => fetch(server.url, { method: 'POST', headers: { ...HEADERS, ...headers }, body: JSON.stringify(body) });
  const open = async (): Promise<Record<string, string>> => {
    const opened = await post({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: INIT });
    const session = { 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    return session;
  };
  /** A slow export whose answer streams (it asked for progress), read until its handler has reported once. */
  const runningExport = async (id: string, session: Record<string, string>) => {
    const response = await post(
      { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'export_notes', arguments: { throttleMs: 5000 }, _meta: { progressToken: id } } },
      session,
    );
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('notifications/progress')) text += new TextDecoder().decode((await reader.read()).value);
    /** The rest of the stream, once it ends. */
    const rest = async (): Promise<string> => {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
      return text;
    };
    return { rest };
  };
  const exportLines = () =>
    server.output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.tool === 'export_notes' && line.msg !== 'request');

  it('logs the three ways a client stops its export at debug, and the export that fails at error', async () => {
    const session = await open();
    await post({ jsonrpc: '2.0', id: 'note', method: 'tools/call', params: { name: 'create_note', arguments: { title: 'One', body: 'x' } } }, session);

    // notifications/cancelled while the handler waits: the stream ends with no answer.
    const cancelled = await runningExport('cancelled', session);
    expect((await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'cancelled' } }, session)).status).toBe(202);
    expect(await cancelled.rest()).not.toContain('"id":"cancelled"');
    // tasks/cancel of a running export task.
    const task = (await (
      await post({ jsonrpc: '2.0', id: 'task', method: 'tools/call', params: { name: 'export_notes', arguments: { throttleMs: 5000 }, task: {} } }, session)
    ).json()) as { result: { task: { taskId: string } } };
    const taskCancel = await post({ jsonrpc: '2.0', id: 'task-cancel', method: 'tasks/cancel', params: { taskId: task.result.task.taskId } }, session);
    expect(((await taskCancel.json()) as { result: { status: string } }).result.status).toBe('cancelled');
    // A client that leaves: it ends its session (DELETE) while its export runs.
    const leaving = await open();
    const left = await runningExport('left', leaving);
    expect((await fetch(server.url, { method: 'DELETE', headers: leaving })).status).toBe(200);
    await left.rest();
    // An export that fails on its own: the client gets the masked text, the log the error.
    const failing = await post({ jsonrpc: '2.0', id: 'fails', method: 'tools/call', params: { name: 'export_notes', arguments: {} } }, session);
    expect(await failing.json()).toMatchObject({
      id: 'fails',
      result: { isError: true, content: [{ type: 'text', text: 'Tool export_notes failed with an internal error; details are in the server log.' }] },
    });
    // Still serving.
    expect(await (await post({ jsonrpc: '2.0', id: 'after', method: 'ping' }, session)).json()).toMatchObject({ id: 'after', result: {} });

    // Every handler that ended has said so (a task's handler ends after its tasks/cancel is answered).
    const deadline = Date.now() + 10_000;
    while (exportLines().length < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const lines = exportLines().map((line) => ({ level: line.level, msg: line.msg, rpcId: line.rpcId }));
    expect(lines).toEqual(
      expect.arrayContaining([
        { level: 20, msg: 'tool handler ended by the cancellation of its request', rpcId: 'cancelled' },
        { level: 20, msg: 'tool handler ended by the cancellation of its request', rpcId: 'task' },
        { level: 20, msg: 'tool handler ended by the cancellation of its request', rpcId: 'left' },
        { level: 50, msg: 'tool handler threw', rpcId: 'fails' },
      ]),
    );
    expect(lines).toHaveLength(4);
    expect(errorLines(server.output)).toEqual([
      expect.objectContaining({ msg: 'tool handler threw', rpcId: 'fails', err: expect.objectContaining({ message: expect.stringContaining('ENOTDIR') }) }),
    ]);
  });
});
