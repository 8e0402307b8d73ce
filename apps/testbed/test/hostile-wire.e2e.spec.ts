import { join } from 'node:path';
import { HttpServerProcess, RawStdioClient } from '@mcpkit/testing';

// Hostile bytes against the built testbed (`pnpm test` builds first): each case sends what a
// hostile or buggy client sent to main before the fix, then checks the server still serves.
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const ENV = { ...process.env, LOG_LEVEL: 'warn' } as Record<string, string>;
const TOOLS_LIST = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const BIG_IDS = ['9223372036854775807', '123456789012345678901234567890', '-9007199254740993'];

function batchOf(count: number): string {
  return `[${Array.from({ length: count }, () => TOOLS_LIST).join(',')}]`;
}

describe('hostile bytes over stdio', () => {
  let server: RawStdioClient;

  beforeEach(async () => {
    server = RawStdioClient.spawn(process.execPath, [MAIN, 'stdio'], ENV);
    await server.initialize('2025-03-26');
    await server.next(); // the initialize answer
  });

  afterEach(async () => {
    server.kill();
    await server.exited;
  });

  it('refuses an 18.8 MB batch of 400 000 tools/list with one -32600 and serves on', async () => {
    const line = batchOf(400_000);
    expect(line.length).toBeGreaterThan(18_000_000);
    server.writeLine(line);
    expect(await server.next(30_000)).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('Batch too large') } });
    expect(await server.request('ping')).toMatchObject({ result: {} });
    expect(server.stray).toEqual([]);
  }, 60_000);

  it('answers a batch at the default bound (100) in full', async () => {
    server.writeLine(batchOf(100));
    const answer = (await server.next(20_000)) as unknown as Array<{ result: { tools: unknown[] } }>;
    expect(answer).toHaveLength(100);
    expect(answer.every((element) => element.result.tools.length === 7)).toBe(true);
    server.writeLine(batchOf(101));
    expect(await server.next()).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('never serves a 2026-07-28 request inside a batch, and the id is free afterwards', async () => {
    server.send([
      { jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { _meta: MODERN_META } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: MODERN_META } },
    ]);
    expect(await server.next()).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32600, message: expect.stringContaining('batch') } },
      { jsonrpc: '2.0', id: 2, error: { code: -32600, message: expect.stringContaining('batch') } },
    ]);
    server.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(await server.next()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it.each(BIG_IDS)('answers id %s with the same digits', async (digits) => {
    const before = server.lines.length;
    server.writeLine(`{"jsonrpc":"2.0","id":${digits},"method":"ping"}`);
    await server.next();
    expect(server.lines[before]).toBe(`{"id":${digits},"jsonrpc":"2.0","result":{}}`);
    server.writeLine(`{"jsonrpc":"2.0","id":${digits},"method":"tools/call","params":{"name":"no_such_tool"}}`);
    await server.next();
    expect(server.lines[before + 1]).toMatch(new RegExp(`^\\{"id":${digits},"jsonrpc":"2.0","(result|error)"`));
  });

  it('keeps big ids exact inside a batch', async () => {
    const before = server.lines.length;
    server.writeLine(`[{"jsonrpc":"2.0","id":${BIG_IDS[0]},"method":"ping"},{"jsonrpc":"2.0","id":7,"method":"ping"}]`);
    await server.next();
    expect(server.lines[before]).toBe(`[{"id":${BIG_IDS[0]},"jsonrpc":"2.0","result":{}},{"jsonrpc":"2.0","id":7,"result":{}}]`);
  });
});

describe('hostile bytes over Streamable HTTP', () => {
  let server: HttpServerProcess;
  let session: string;

  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-03-26',
        ...headers,
      },
      body,
    });

  beforeAll(async () => {
    server = await HttpServerProcess.start(process.execPath, [MAIN, 'http'], { LOG_LEVEL: 'info' });
  });

  afterAll(async () => {
    await server.stop();
  });

  beforeEach(async () => {
    const response = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'hostile', version: '1' } },
      }),
    );
    expect(response.status).toBe(200);
    session = response.headers.get('mcp-session-id')!;
    await response.text();
  });

  it('refuses a 4 MiB batch of tools/list on a 2025-03-26 session and serves on', async () => {
    const count = Math.floor((4 * 1024 * 1024 - 2) / (TOOLS_LIST.length + 1));
    const response = await post(batchOf(count));
    expect(await response.json()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('Batch too large') } });
    const ping = await post('{"jsonrpc":"2.0","id":2,"method":"ping"}');
    expect(await ping.json()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  it('never serves a 2026-07-28 listen inside a batch, so the session stays reclaimable', async () => {
    const body = JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { _meta: MODERN_META } }]);
    const response = await post(body);
    expect(await response.json()).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32600, message: expect.stringContaining('batch') } }]);
    const end = await fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-03-26' } });
    expect(end.status).toBe(200);
  });

  it.each(BIG_IDS)('answers id %s with the same digits', async (digits) => {
    const response = await post(`{"jsonrpc":"2.0","id":${digits},"method":"ping"}`);
    expect(await response.text()).toContain(`"id":${digits},`);
  });
});
