import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RawStdioClient, type HttpServerProcess } from '@mcpkit/testing';
import { startAuthenticatedNotes, type AuthenticatedNotes } from './support/authenticated-notes';

// Issue #26 item 10: every request, accepted or refused, has exactly one request line (caller,
// method, outcome, ms), whether a handler ran or not: initialize, server/discover, a listen when
// it ends, unknown methods, invalid requests, rejected and replayed requestStates, an id in use,
// and, over HTTP, what the endpoint refuses once it has read the body. The built notes app over
// stdio (every method of both eras on one connection) and over HTTP (authenticated: every line
// names its caller), at LOG_LEVEL=info; each request has an id of its own, and the test counts
// the lines per id.
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
      'h-discover': 'ok',
      'h-mismatch': 'error -32020 (-32020)',
      'h-forged': 'invalid (-32602)',
      'h-m-no-method': 'error -32601 (-32601)',
      'h-listen': 'cancelled',
    });
    expect(server.output).not.toContain(token);
  });
});
