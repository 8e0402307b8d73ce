import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ClientErrorCode, McpClient, type McpClientError } from '../src';

// What the client does when the server fails it: every call ends, with a clear error, and
// nothing crashes or hangs. stdio against a rogue child, HTTP against a scripted node:http server.
const ROGUE = join(__dirname, 'fixtures', 'rogue-server.js');
const EVERYTHING = join(__dirname, '..', '..', '..', 'apps', 'everything', 'dist', 'main.js');
const rogue = (...args: string[]) => ({ command: process.execPath, args: [ROGUE, ...args] });

describe('stdio faults', () => {
  it('fails the call and the connection when the server is killed mid-call', async () => {
    const client = await McpClient.connect(
      { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { ...process.env, LOG_LEVEL: 'warn' } },
      { era: 'legacy' },
    );
    const closed: McpClientError[] = [];
    client.onClose((error) => void closed.push(error));
    const call = client.callTool(
      'test_tool_with_progress',
      {},
      { onProgress: () => process.kill((client.transport as unknown as { pid: number }).pid, 'SIGKILL') },
    );
    await expect(call).rejects.toMatchObject({ code: ClientErrorCode.ConnectionClosed, message: 'the server process exited on SIGKILL' });
    expect(closed.map((error) => error.message)).toEqual(['the server process exited on SIGKILL']);
    await expect(client.listTools()).rejects.toMatchObject({ code: ClientErrorCode.ConnectionClosed });
  });

  it('survives callbacks of its caller that throw: a listener, onProgress, onClose, and onError itself', async () => {
    const reported: string[] = [];
    const client = await McpClient.connect(
      { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { ...process.env, LOG_LEVEL: 'warn' } },
      {
        era: 'legacy',
        onError: (error) => {
          reported.push(error.message);
          throw new Error('a bug in the reporter');
        },
      },
    );
    client.on('notifications/progress', () => {
      throw new Error('a bug in a listener');
    });
    client.onClose(() => {
      throw new Error('a bug in a close listener');
    });
    const result = await client.callTool(
      'test_tool_with_progress',
      {},
      {
        onProgress: () => {
          throw new Error('a bug in onProgress');
        },
      },
    );
    expect(result.content).toBeDefined();
    expect((await client.callTool('test_simple_text')).isError).toBeFalsy();
    await client.close();
    expect(reported).toEqual(
      expect.arrayContaining(['the onProgress callback of a tools/call threw', 'a listener of notifications/progress threw', 'an onClose listener threw']),
    );
  });

  it('reconnects after the server died: a new child, the same listeners, the subscriptions renewed', async () => {
    const client = await McpClient.connect(
      { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { ...process.env, LOG_LEVEL: 'warn' } },
      { era: 'legacy' },
    );
    const updates: unknown[] = [];
    client.on('notifications/resources/updated', (params) => void updates.push(params.uri));
    await client.subscribe('test://watched-resource');
    const first = (client.transport as unknown as { pid: number }).pid;
    const closed = new Promise<McpClientError>((resolve) => client.onClose(resolve));
    process.kill(first, 'SIGKILL');
    expect((await closed).message).toBe('the server process exited on SIGKILL');
    await client.reconnect();
    expect((client.transport as unknown as { pid: number }).pid).not.toBe(first);
    expect(client.closed).toBeUndefined();
    expect((await client.callTool('test_simple_text')).content).toEqual([{ type: 'text', text: 'This is a simple text response for testing.' }]);
    // The new server was never asked to subscribe by the caller: reconnect() did it.
    for (let waited = 0; waited < 80 && updates.length === 0; waited++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(updates).toContain('test://watched-resource');
    await client.close();
  });

  it('fails every waiting call when the child exits, with its exit code', async () => {
    const client = await McpClient.connect({ ...rogue('exit'), stderr: 'pipe' }, { era: 'legacy' });
    const calls = [client.callTool('a'), client.listTools()];
    await expect(Promise.all(calls)).rejects.toMatchObject({
      message: 'the server process exited with code 3',
      data: { code: 3, stderr: 'fatal: the database is gone\n' },
    });
    await expect(calls[1]).rejects.toMatchObject({ code: ClientErrorCode.ConnectionClosed });
  });

  it('says the child exited, not that it wrote garbage, when it dies in the middle of a line', async () => {
    const client = await McpClient.connect(rogue('partial'), { era: 'legacy' });
    await expect(client.callTool('a')).rejects.toMatchObject({ code: ClientErrorCode.ConnectionClosed, message: 'the server process exited with code 4' });
  });

  it('breaks the connection on a line that is not JSON', async () => {
    const client = await McpClient.connect(rogue('garbage'), { era: 'legacy' });
    await expect(client.callTool('a')).rejects.toMatchObject({
      code: ClientErrorCode.InvalidResponse,
      message: 'the server wrote a line that is not JSON on stdout: "this is not json"',
    });
    expect(client.closed).toBeDefined();
  });

  it('breaks the connection on a line over maxMessageBytes, holding no more of it', async () => {
    const client = await McpClient.connect(rogue('oversized', String(300_000)), { era: 'legacy', maxMessageBytes: 100_000 });
    await expect(client.callTool('a')).rejects.toMatchObject({
      code: ClientErrorCode.InvalidResponse,
      message: 'the server wrote a line over 100000 bytes (maxMessageBytes)',
    });
  });

  it('fails a call whose error answer is malformed, and reports a stray answer without failing anything', async () => {
    const malformed = await McpClient.connect(rogue('malformed'), { era: 'legacy' });
    await expect(malformed.callTool('a')).rejects.toMatchObject({
      code: ClientErrorCode.InvalidResponse,
      message: 'Invalid answer to tools/call: its error is not an object',
    });
    await malformed.close();
    const strays: McpClientError[] = [];
    const stray = await McpClient.connect(rogue('stray'), { era: 'legacy', onError: (error) => void strays.push(error) });
    expect(await stray.callTool('a')).toEqual({ content: [] });
    expect(strays.map((error) => error.message)).toEqual(['Invalid answer to the connection: an answer to no request waiting (id 9999)']);
    await stray.close();
  });

  it('refuses a request over maxMessageBytes without sending it, and bounds the waiting requests', async () => {
    const client = await McpClient.connect(rogue('silent'), { era: 'legacy', maxMessageBytes: 1_000, maxPendingRequests: 2, timeoutMs: 60_000 });
    await expect(client.callTool('a', { text: 'x'.repeat(2_000) })).rejects.toMatchObject({
      code: ClientErrorCode.MessageTooLarge,
      message: 'tools/call is over 1000 bytes (maxMessageBytes) and was not sent',
    });
    const waiting = [client.listTools(), client.listPrompts()].map((call) =>
      expect(call).rejects.toMatchObject({ code: ClientErrorCode.ConnectionClosed, message: 'the client closed the connection' }),
    );
    await expect(client.listResources()).rejects.toMatchObject({ code: ClientErrorCode.TooManyPendingRequests, data: { limit: 2 } });
    await client.close();
    await Promise.all(waiting);
  });

  it('stops queueing for a child that no longer reads its stdin: past maxMessageBytes waiting, a call fails at once', async () => {
    const client = await McpClient.connect(rogue('deaf'), { era: 'legacy', maxMessageBytes: 4_096, timeoutMs: 60_000 });
    const waiting: Array<Promise<unknown>> = [];
    let refused: unknown;
    // The pipe takes some 64 KiB first; then what waits in this process is what is bounded.
    for (let sent = 0; sent < 500 && refused === undefined; sent++) {
      const call = client.callTool('a', { text: 'x'.repeat(2_000) });
      waiting.push(call.catch((error: unknown) => error));
      refused = await Promise.race([
        call.then(
          () => undefined,
          (error: unknown) => error,
        ),
        new Promise((resolve) => setImmediate(resolve, undefined)),
      ]);
    }
    expect(refused).toMatchObject({
      code: ClientErrorCode.TooManyPendingRequests,
      message: expect.stringMatching(/^the server reads nothing: \d+ bytes already wait for its stdin/),
    });
    await client.close();
    await Promise.all(waiting);
  });

  it('falls back to initialize when server/discover is refused (-32601) or gets no answer within openTimeoutMs', async () => {
    const refused = await McpClient.connect(rogue('stray'));
    expect(refused.era).toBe('legacy');
    await refused.close();
    // The same limit bounds the initialize that follows: long enough for a child on a loaded
    // machine to answer it (at 300 ms this failed under a load of 20), and the discover's wait.
    const silent = await McpClient.connect(rogue('silent'), { openTimeoutMs: 2_000 });
    expect(silent.era).toBe('legacy');
    await silent.close();
  });
});

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

describe('HTTP faults', () => {
  let server: Server;
  let url: string;
  let handler: Handler;
  const seen: Array<{ method?: string; headers: IncomingMessage['headers']; body: string }> = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen.push({ method: request.method, headers: request.headers, body });
        handler(request, body, response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });

  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => (seen.length = 0));

  /** A legacy server: initialize opens session s1; `onCall` answers everything else. */
  const legacy =
    (onCall: Handler): Handler =>
    (request, body, response) => {
      const message = body ? (JSON.parse(body) as { id?: number; method?: string }) : {};
      if (request.method === 'GET' || request.method === 'DELETE') return void response.writeHead(405).end();
      if (message.method === 'server/discover')
        return void response
          .writeHead(400, { 'content-type': 'application/json' })
          .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"No session"}}');
      if (message.method === 'initialize') {
        return void response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'h', version: '1' } },
          }),
        );
      }
      if (message.id === undefined) return void response.writeHead(202).end();
      onCall(request, body, response);
    };

  it('sends the token from the provider, asks again once on 401, and fails on a second 401 with the challenge', async () => {
    const asked: boolean[] = [];
    handler = legacy((request, body, response) => {
      if (request.headers.authorization === 'Bearer fresh') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(body).id, result: { tools: [] } }));
      } else response.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' }).end();
    });
    let token = 'stale';
    const client = await McpClient.connect({ url, token: ({ refused }) => (asked.push(refused), refused ? 'fresh' : token) });
    expect(await client.listTools()).toEqual({ tools: [] });
    expect(asked.slice(-2)).toEqual([false, true]);
    token = 'fresh';
    expect(await client.listTools()).toEqual({ tools: [] });
    handler = legacy((_request, _body, response) => void response.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' }).end());
    await expect(client.listTools()).rejects.toMatchObject({
      code: ClientErrorCode.HttpStatus,
      message: 'tools/list was refused with HTTP 401',
      data: { status: 401, wwwAuthenticate: 'Bearer error="invalid_token"' },
    });
    await client.close();
  });

  it('sends a fixed token and the session on every request, and DELETEs the session on close', async () => {
    handler = legacy((_request, body, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(body).id, result: { tools: [] } })),
    );
    const client = await McpClient.connect({ url, token: 'secret', headers: { 'x-team': 'kit' } }, { era: 'legacy' });
    await client.listTools();
    await client.close();
    const call = seen.find((entry) => entry.body.includes('tools/list'))!;
    expect(call.headers).toMatchObject({ authorization: 'Bearer secret', 'x-team': 'kit', 'mcp-session-id': 's1', 'mcp-protocol-version': '2025-11-25' });
    expect(seen[seen.length - 1]).toMatchObject({ method: 'DELETE', headers: { 'mcp-session-id': 's1' } });
  });

  it('fails the call and closes the connection when the session is gone (404)', async () => {
    handler = legacy((_request, _body, response) => void response.writeHead(404).end('no such session'));
    const client = await McpClient.connect({ url }, { era: 'legacy' });
    const closed: string[] = [];
    client.onClose((error) => void closed.push(error.message));
    await expect(client.listTools()).rejects.toMatchObject({ code: ClientErrorCode.HttpStatus, data: { status: 404, sessionId: 's1' } });
    expect(closed).toEqual(['the server no longer knows session s1 (404): connect again']);
  });

  it('fails a call whose answer is over maxMessageBytes or not JSON, and goes on', async () => {
    let answer = 'x'.repeat(5_000);
    handler = legacy((_request, _body, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end(answer));
    const client = await McpClient.connect({ url }, { era: 'legacy', maxMessageBytes: 2_000 });
    await expect(client.listTools()).rejects.toMatchObject({
      code: ClientErrorCode.InvalidResponse,
      message: 'Invalid answer to tools/list: the answer is over 2000 bytes (maxMessageBytes)',
    });
    answer = 'not json';
    await expect(client.listTools()).rejects.toMatchObject({
      code: ClientErrorCode.InvalidResponse,
      message: `Invalid answer to tools/list: the HTTP answer (application/json) is not JSON: is ${url} the MCP endpoint?`,
    });
    expect(client.closed).toBeUndefined();
    await client.close();
  });

  it('resumes a POST stream that ended before its answer with a GET and Last-Event-ID, waiting the retry the server named', async () => {
    handler = legacy((request, body, response) => {
      if (request.method !== 'POST') return;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      // A priming event with an id and a retry, then the connection ends: the answer comes on the resumed stream.
      response.end('id: stream-1:0\nretry: 10\ndata:\n\n');
    });
    const original = handler;
    handler = (request, body, response) => {
      if (request.method === 'GET' && request.headers['last-event-id'] === 'stream-1:0') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(`id: stream-1:1\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'late' }] } })}\n\n`);
        return;
      }
      original(request, body, response);
    };
    const client = await McpClient.connect({ url }, { era: 'legacy' });
    expect(await client.listTools()).toEqual({ tools: [{ name: 'late' }] });
    expect(seen.filter((entry) => entry.method === 'GET').map((entry) => entry.headers['last-event-id'])).toContain('stream-1:0');
    await client.close();
  });

  it('fails a call whose stream ended before its answer and gave no event id to resume from', async () => {
    handler = legacy((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(': nothing\n\n');
    });
    const client = await McpClient.connect({ url }, { era: 'legacy' });
    await expect(client.listTools()).rejects.toMatchObject({ code: ClientErrorCode.ConnectionClosed, message: 'the response stream ended before the answer' });
    await client.close();
  });

  it('cancels a 2026-07-28 request over HTTP by closing its stream, and posts no notification', async () => {
    let closedByClient = false;
    handler = (request, body, response) => {
      const message = JSON.parse(body) as { id: number; method: string };
      if (message.method === 'server/discover') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} } },
          }),
        );
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: message.id, progress: 1 } })}\n\n`);
      response.on('close', () => (closedByClient = !response.writableFinished));
    };
    const client = await McpClient.connect({ url });
    expect(client.era).toBe('modern');
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal, onProgress: () => controller.abort() });
    await expect(call).rejects.toMatchObject({ code: ClientErrorCode.RequestCancelled });
    for (let waited = 0; waited < 100 && !closedByClient; waited++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closedByClient).toBe(true);
    expect(seen.map((entry) => JSON.parse(entry.body || '{}').method)).not.toContain('notifications/cancelled');
    expect(seen.find((entry) => entry.body.includes('tools/call'))?.headers).toMatchObject({
      'mcp-method': 'tools/call',
      'mcp-name': 'slow',
      'mcp-protocol-version': '2026-07-28',
    });
    await client.close();
  });

  it('names why the endpoint cannot be reached, not only that fetch failed', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(McpClient.connect({ url: `http://127.0.0.1:${port}/mcp` })).rejects.toMatchObject({
      code: ClientErrorCode.ConnectionClosed,
      message: `server/discover could not be sent: fetch failed (connect ECONNREFUSED 127.0.0.1:${port})`,
    });
  });

  it('follows no redirect: the headers given and the session never reach another address', async () => {
    const elsewhere: string[] = [];
    const other = createServer((request, response) => void (elsewhere.push(request.method ?? ''), response.writeHead(200).end('{}')));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const location = `http://127.0.0.1:${(other.address() as AddressInfo).port}/mcp`;
    handler = legacy((_request, _body, response) => void response.writeHead(307, { location }).end());
    const client = await McpClient.connect({ url, headers: { 'x-api-key': 'secret' } }, { era: 'legacy' });
    await expect(client.listTools()).rejects.toMatchObject({
      code: ClientErrorCode.HttpStatus,
      message: `tools/list was redirected to ${location} (HTTP 307), which the client does not follow: connect to that URL`,
      data: { status: 307, location },
    });
    await client.close();
    other.closeAllConnections();
    await new Promise<void>((resolve) => other.close(() => resolve()));
    expect(elsewhere).toEqual([]);
  });

  it('fails a call whose SSE event is over maxMessageBytes', async () => {
    handler = legacy((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${'y'.repeat(5_000)}\n\n`);
    });
    const client = await McpClient.connect({ url }, { era: 'legacy', maxMessageBytes: 2_000 });
    await expect(client.listTools()).rejects.toMatchObject({
      code: ClientErrorCode.InvalidResponse,
      message: 'Invalid answer to the request: an event over 2000 bytes (maxMessageBytes)',
    });
    await client.close();
  });
});
