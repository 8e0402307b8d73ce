import { request, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { HttpServerProcess } from '@mcpkit/testing';
import { text } from './support';

// One suite, two bindings of the same HTTP core: Fastify (`http`) and the web-standard fetch
// handler on node:http (`fetch`). Both must answer alike, byte for byte where it matters.
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const ACCEPT_BOTH = 'application/json, text/event-stream';
const JSON_BODY = { 'content-type': 'application/json', accept: ACCEPT_BOTH };
const INITIALIZE = (version: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'bindings-e2e', version: '1' } },
  });
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request over a fresh loopback connection, answered in full (bounded by `timeoutMs`). */
function send(url: string, method: string, headers: Record<string, string>, body?: string, timeoutMs = 10_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false, timeout: timeoutMs }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (data += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Raw bytes over a socket, for a request the server refuses before it is sent in full: the body
 * goes in chunks only while no answer has come (a server that closes early would otherwise reset
 * the connection under the answer). Returns what came back within `timeoutMs`.
 */
async function exchange(url: string, method: string, headers: Record<string, string>, body: string, timeoutMs = 5_000): Promise<string> {
  const { hostname, port, pathname } = new URL(url);
  let received = '';
  let closed = false;
  const socket = connect(Number(port), hostname);
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  const head = Object.entries({ host: `${hostname}:${port}`, 'content-length': String(Buffer.byteLength(body)), connection: 'close', ...headers }).map(
    ([name, value]) => `${name}: ${value}\r\n`,
  );
  socket.write(`${method} ${pathname} HTTP/1.1\r\n${head.join('')}\r\n`);
  const deadline = Date.now() + timeoutMs;
  const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
  for (let i = 0; i < 10 && received === ''; i++) await pause();
  for (let offset = 0; offset < body.length && received === '' && !closed && Date.now() < deadline; offset += 256 * 1024) {
    await new Promise((resolve) => socket.write(body.slice(offset, offset + 256 * 1024), resolve));
  }
  while (!closed && !/\r\n\r\n[\s\S]*\}$/.test(received) && Date.now() < deadline) await pause();
  socket.destroy();
  return received;
}

/** An event stream being read: what arrived so far, a bounded wait for more, and hanging up. */
class OpenStream {
  received = '';
  ended = false;

  private constructor(
    private readonly req: ClientRequest,
    readonly res: IncomingMessage,
  ) {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (this.received += chunk));
    res.on('end', () => (this.ended = true));
    res.on('error', () => (this.ended = true));
  }

  static open(url: string, method: string, headers: Record<string, string>, body?: string): Promise<OpenStream> {
    return new Promise((resolve, reject) => {
      const req = request(url, { method, headers, agent: false }, (res) => resolve(new OpenStream(req, res)));
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Waits (at most `timeoutMs`) until what arrived satisfies `done`. */
  async until(done: (received: string) => boolean, timeoutMs = 5_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this.received)) {
      if (Date.now() > deadline) throw new Error(`stream: not there within ${timeoutMs} ms; got ${JSON.stringify(this.received)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return this.received;
  }

  /** Waits (at most `timeoutMs`) for the server to end the stream. */
  async end(timeoutMs = 5_000): Promise<string> {
    await this.until(() => this.ended, timeoutMs);
    return this.received;
  }

  /** The client goes away. */
  hangUp(): void {
    this.req.destroy();
  }
}

/** A handshake-era session opened by hand: its id and the headers every later request carries. */
async function openSession(url: string, version: string): Promise<Record<string, string>> {
  const answer = await send(url, 'POST', JSON_BODY, INITIALIZE(version));
  expect(answer.status).toBe(200);
  const headers = { ...JSON_BODY, 'mcp-session-id': String(answer.headers['mcp-session-id']), 'mcp-protocol-version': version };
  expect((await send(url, 'POST', headers, '{"jsonrpc":"2.0","method":"notifications/initialized"}')).status).toBe(202);
  return headers;
}

const parse = (answer: Answer): unknown => JSON.parse(answer.body);

describe.each(['http', 'fetch'])('the %s binding of the Streamable HTTP core, against the built testbed', (binding) => {
  const servers: HttpServerProcess[] = [];
  const start = async (env: Record<string, string> = {}): Promise<HttpServerProcess> => {
    const server = await HttpServerProcess.start(process.execPath, [MAIN, binding], { LOG_LEVEL: 'info', ...env });
    servers.push(server);
    return server;
  };

  afterAll(async () => {
    for (const server of servers.splice(0)) expect(await server.stop()).toEqual({ code: 0, signal: null });
  });

  describe('sessions (default options)', () => {
    let url: string;

    beforeAll(async () => {
      url = (await start()).url;
    });

    it('serves the official v1 client over a session, and DELETE ends it (then 404)', async () => {
      const client = new Client({ name: 'bindings-e2e', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(url));
      await client.connect(transport);
      try {
        const session = transport.sessionId!;
        expect(session).toMatch(/^[A-Za-z0-9_-]{32}$/);
        expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'add', 'validate', 'fail', 'slow', 'shapes', 'limited']);
        expect(text(await client.callTool({ name: 'echo', arguments: { text: 'über' } }))).toBe('über');
        await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
        await transport.terminateSession();
        const after = await send(url, 'POST', { ...JSON_BODY, 'mcp-session-id': session }, '{"jsonrpc":"2.0","id":9,"method":"ping"}');
        expect(after.status).toBe(404);
        expect(parse(after)).toMatchObject({ id: 9, error: { code: -32600, message: expect.stringContaining('Session not found') } });
      } finally {
        await client.close();
      }
    });

    it('refuses a foreign Host or Origin with 403 and a JSON-RPC body, then serves', async () => {
      const host = await send(url, 'POST', { ...JSON_BODY, host: 'evil.example' }, INITIALIZE('2025-11-25'));
      expect(host.status).toBe(403);
      expect(parse(host)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Forbidden: this Host is not allowed' } });
      const origin = await send(url, 'POST', { ...JSON_BODY, origin: 'https://evil.example' }, INITIALIZE('2025-11-25'));
      expect(origin.status).toBe(403);
      expect(parse(origin)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Forbidden: this Origin is not allowed' } });
      expect((await send(url, 'POST', { ...JSON_BODY, origin: 'http://localhost:5173' }, INITIALIZE('2025-11-25'))).status).toBe(200);
    });

    it('answers transport errors with the same statuses and bodies', async () => {
      const cases: Array<[string, Record<string, string>, string | undefined, number, number | null, string]> = [
        ['POST', { 'content-type': 'application/json', accept: 'application/json' }, INITIALIZE('2025-11-25'), 406, -32600, 'Not Acceptable'],
        ['POST', { 'content-type': 'text/plain', accept: ACCEPT_BOTH }, 'hello', 415, -32600, 'Unsupported Media Type'],
        ['POST', { ...JSON_BODY, 'content-encoding': 'gzip' }, '{}', 415, -32600, 'compressed body'],
        ['POST', JSON_BODY, '{"jsonrpc":', 400, -32700, ''],
        [
          'POST',
          { ...JSON_BODY, 'mcp-protocol-version': '1999-01-01' },
          '{"jsonrpc":"2.0","id":4,"method":"ping"}',
          400,
          -32022,
          'Unsupported protocol version',
        ],
        ['POST', JSON_BODY, '{"jsonrpc":"2.0","id":5,"method":"ping"}', 400, -32600, 'Missing Mcp-Session-Id'],
        ['POST', { ...JSON_BODY, 'mcp-session-id': 'no-such-session' }, '{"jsonrpc":"2.0","id":6,"method":"ping"}', 404, -32600, 'Session not found'],
        ['PUT', JSON_BODY, '{}', 405, -32600, 'Method Not Allowed'],
        ['GET', { accept: 'application/json' }, undefined, 406, -32600, 'Not Acceptable'],
        ['DELETE', {}, undefined, 400, -32600, 'Missing Mcp-Session-Id'],
      ];
      for (const [method, headers, body, status, code, message] of cases) {
        const answer = await send(url, method, headers, body);
        expect({ method, status: answer.status, type: answer.headers['content-type'] }).toEqual({ method, status, type: 'application/json; charset=utf-8' });
        expect(parse(answer)).toMatchObject({ jsonrpc: '2.0', error: { code, message: expect.stringContaining(message) } });
        if (status === 405) expect(answer.headers.allow).toBe('GET, POST, DELETE');
      }
      // Refused while the client still sends (the server may close before it is done writing).
      const tooLarge = await exchange(url, 'POST', JSON_BODY, 'x'.repeat(4 * 1024 * 1024 + 1));
      expect(tooLarge).toMatch(/^HTTP\/1\.1 413 /);
      expect(tooLarge).toContain('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Payload Too Large: the limit is 4194304 bytes"}}');
      expect((await send(url, 'POST', JSON_BODY, INITIALIZE('2025-03-26'))).status).toBe(200);
    });

    it('opens the GET stream with a priming event, refuses a second reader, and resumes it with Last-Event-ID', async () => {
      const session = await openSession(url, '2025-11-25');
      const get = { accept: 'text/event-stream', 'mcp-session-id': session['mcp-session-id'], 'mcp-protocol-version': '2025-11-25' };
      const first = await OpenStream.open(url, 'GET', get);
      expect(first.res.statusCode).toBe(200);
      expect(first.res.headers).toMatchObject({
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        'mcp-session-id': get['mcp-session-id'],
      });
      const priming = /^id: (g1_1)\nretry: 1000\ndata: \n\n/.exec(await first.until((received) => received.includes('\n\n')));
      expect(priming).not.toBeNull();
      const second = await send(url, 'GET', get);
      expect(second.status).toBe(409);
      first.hangUp();

      // The reader is gone, so the stream may be picked up again where it was left, its head at
      // once although nothing was missed (not at the next keep-alive, 25 s on).
      // Retried while the server has not yet seen the hang-up, for at most 10 s: well before that
      // keep-alive, which is the property (how fast the retries succeed is not).
      const deadline = Date.now() + 10_000;
      let resumed: OpenStream | undefined;
      while (!resumed && Date.now() < deadline) {
        const attempt = await OpenStream.open(url, 'GET', { ...get, 'last-event-id': priming![1] });
        if (attempt.res.statusCode === 200) resumed = attempt;
        else attempt.hangUp();
      }
      expect(resumed).toBeDefined();
      expect((await send(url, 'GET', get)).status).toBe(409);
      resumed!.hangUp();

      const unknown = await send(url, 'GET', { ...get, 'last-event-id': 'x9_1' });
      expect(unknown.status).toBe(400);
      expect(parse(unknown)).toMatchObject({ error: { code: -32600, message: expect.stringContaining('Unknown Last-Event-ID') } });
      expect((await send(url, 'DELETE', { 'mcp-session-id': get['mcp-session-id'] })).status).toBe(200);
    });

    it('ends a POST whose request was cancelled with an empty event stream, and serves on', async () => {
      const session = await openSession(url, '2025-11-25');
      // Its head comes only with its answer (JSON) or its first event: cancel before waiting for it.
      const opening = OpenStream.open(
        url,
        'POST',
        session,
        JSON.stringify({ jsonrpc: '2.0', id: 'slow-1', method: 'tools/call', params: { name: 'slow', arguments: { ms: 10_000 } } }),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(
        (await send(url, 'POST', session, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'slow-1' } }))).status,
      ).toBe(202);
      const call = await opening;
      expect(await call.end()).toBe('');
      expect(call.res.statusCode).toBe(200);
      expect(call.res.headers['content-type']).toBe('text/event-stream');
      const ping = await send(url, 'POST', session, '{"jsonrpc":"2.0","id":7,"method":"ping"}');
      expect(parse(ping)).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    });

    it('serves the official v2 client pinned to 2026-07-28, with the modern status table', async () => {
      const client = new ModernClient({ name: 'bindings-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new ModernTransport(new URL(url)));
      try {
        expect(client.getProtocolEra()).toBe('modern');
        expect(text(await client.callTool({ name: 'add', arguments: { a: 40, b: 2 } }))).toBe('42');
      } finally {
        await client.close();
      }
      const modern = { ...JSON_BODY, 'mcp-protocol-version': '2026-07-28' };
      const unknown = await send(
        url,
        'POST',
        { ...modern, 'mcp-method': 'nope/nothing' },
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'nope/nothing', params: { _meta: MODERN_META } }),
      );
      expect(unknown.status).toBe(404);
      expect(parse(unknown)).toMatchObject({ id: 1, error: { code: -32601 } });
      const mismatch = await send(
        url,
        'POST',
        { ...modern, 'mcp-method': 'tools/list' },
        JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: MODERN_META } }),
      );
      expect(mismatch.status).toBe(400);
      expect(parse(mismatch)).toMatchObject({ id: 2, error: { code: -32020, message: expect.stringContaining('Mcp-Method') } });
      expect((await send(url, 'GET', { ...modern, accept: 'text/event-stream' })).status).toBe(405);
    });
  });

  describe('SSE answers (responseMode sse)', () => {
    let url: string;

    beforeAll(async () => {
      url = (await start({ MCP_RESPONSE_MODE: 'sse' })).url;
    });

    it('serves the official v1 client with every answer on an event stream', async () => {
      const client = new Client({ name: 'bindings-e2e', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        const results = await Promise.all(Array.from({ length: 5 }, (_, i) => client.callTool({ name: 'add', arguments: { a: i, b: 1 } })));
        expect(results.map(text)).toEqual(['1', '2', '3', '4', '5']);
      } finally {
        await client.close();
      }
    });

    it('delivers the result of a call whose client left, on GET with Last-Event-ID', async () => {
      const session = await openSession(url, '2025-11-25');
      const call = await OpenStream.open(
        url,
        'POST',
        session,
        JSON.stringify({ jsonrpc: '2.0', id: 'r1', method: 'tools/call', params: { name: 'slow', arguments: { ms: 400 } } }),
      );
      expect(call.res.headers['content-type']).toBe('text/event-stream');
      const primed = /^id: (s\d+_1)\nretry: 1000\ndata: \n\n/.exec(await call.until((received) => received.includes('\n\n')));
      expect(primed).not.toBeNull();
      call.hangUp();

      const resumed = await OpenStream.open(url, 'GET', {
        accept: 'text/event-stream',
        'mcp-session-id': session['mcp-session-id'],
        'mcp-protocol-version': '2025-11-25',
        'last-event-id': primed![1],
      });
      expect(resumed.res.statusCode).toBe(200);
      const events = await resumed.end();
      const data = /^id: s\d+_2\nevent: message\ndata: (.*)\n\n$/.exec(events);
      expect(data).not.toBeNull();
      expect(JSON.parse(data![1])).toEqual({ jsonrpc: '2.0', id: 'r1', result: { content: [{ type: 'text', text: 'slept 400' }] } });
    });
  });

  describe('stateless (sessions: false)', () => {
    let url: string;

    beforeAll(async () => {
      url = (await start({ MCP_HTTP_MODE: 'stateless' })).url;
    });

    it('serves the official v1 client without a session; GET and DELETE are 405', async () => {
      const client = new Client({ name: 'bindings-e2e', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(url));
      await client.connect(transport);
      try {
        expect(transport.sessionId).toBeUndefined();
        expect(text(await client.callTool({ name: 'echo', arguments: { text: 'stateless' } }))).toBe('stateless');
      } finally {
        await client.close();
      }
      for (const method of ['GET', 'DELETE']) {
        const answer = await send(url, method, { accept: 'text/event-stream' });
        expect(answer.status).toBe(405);
        expect(answer.headers.allow).toBe('POST');
      }
    });
  });
});
