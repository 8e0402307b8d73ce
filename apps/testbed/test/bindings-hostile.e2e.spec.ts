import { readFileSync } from 'node:fs';
import { request, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createFetchHandler } from '@mcpkit/http';
import { HttpServerProcess } from '@mcpkit/testing';
import { bigBody, postHead, uploadWhole } from '../../../packages/http/test/support/whole-upload';
import { createTestbedApp } from '../src/app';

// A hostile client against both bindings of the HTTP core: Fastify (`http`) and the web-standard
// fetch handler on node:http (`fetch`). Whatever it sends, both answer alike and keep serving.
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const ACCEPT_BOTH = 'application/json, text/event-stream';
const JSON_BODY = { 'content-type': 'application/json', accept: ACCEPT_BOTH };
const INITIALIZE = (version: string, name = 'hostile-e2e') =>
  JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name, version: '1' } } });
const MODERN_META = (version = '2026-07-28') => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
});
const PING = '{"jsonrpc":"2.0","id":"p","method":"ping"}';
const MB = 1024 * 1024;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request over a fresh loopback connection, answered in full (bounded by `timeoutMs`); `headers` may repeat a name. */
function send(url: string, method: string, headers: Record<string, string> | string[], body?: string | Buffer, timeoutMs = 10_000): Promise<Answer> {
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

const parse = (answer: Answer): unknown => JSON.parse(answer.body);

/** Raw bytes on a socket: `head` then `body` pieces while no answer came; what came back within `timeoutMs`, and whether the server closed. */
async function raw(url: string, head: string, pieces: Iterable<string>, timeoutMs = 5_000): Promise<{ received: string; closed: boolean }> {
  const { hostname, port } = new URL(url);
  let received = '';
  let closed = false;
  const socket = connect(Number(port), hostname);
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  const deadline = Date.now() + timeoutMs;
  await new Promise((resolve) => socket.write(head, resolve));
  for (const piece of pieces) {
    if (received !== '' || closed || Date.now() > deadline) break;
    await new Promise((resolve) => socket.write(piece, resolve));
  }
  // Until the answer is complete.
  while (!closed && !/\r\n\r\n[\s\S]*\}$/.test(received) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  socket.destroy();
  return { received, closed };
}

/** A response whose body the client does not read (or reads later), and hanging up. */
class Unread {
  private constructor(
    private readonly req: ClientRequest,
    readonly res: IncomingMessage,
  ) {
    res.pause();
    res.on('error', () => undefined);
  }

  static open(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Unread> {
    return new Promise((resolve, reject) => {
      const req = request(url, { method, headers, agent: false }, (res) => resolve(new Unread(req, res)));
      req.on('error', reject);
      req.end(body);
    });
  }

  hangUp(): void {
    this.req.destroy();
  }
}

/** A handshake-era session opened by hand: the headers every later request carries. */
async function openSession(url: string, version = '2025-11-25'): Promise<Record<string, string>> {
  const answer = await send(url, 'POST', JSON_BODY, INITIALIZE(version));
  expect(answer.status).toBe(200);
  const headers = { ...JSON_BODY, 'mcp-session-id': String(answer.headers['mcp-session-id']), 'mcp-protocol-version': version };
  expect((await send(url, 'POST', headers, '{"jsonrpc":"2.0","method":"notifications/initialized"}')).status).toBe(202);
  return headers;
}

/** The server process's resident memory, in MB (Linux). */
function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

async function expectServes(url: string): Promise<void> {
  const answer = await send(url, 'POST', JSON_BODY, INITIALIZE('2025-11-25'));
  expect(answer.status).toBe(200);
  // A JSON body, or (responseMode sse) the same message as an event.
  expect(answer.body).toContain('{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"');
}

describe.each(['http', 'fetch'])('the %s binding against a hostile client (built testbed)', (binding) => {
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
    let server: HttpServerProcess;
    let url: string;

    beforeAll(async () => {
      server = await start();
      url = server.url;
    });

    it('refuses HEAD, OPTIONS, PUT and PATCH with 405 and Allow', async () => {
      for (const method of ['HEAD', 'OPTIONS', 'PUT', 'PATCH']) {
        // With its length: Node's client sends none for OPTIONS, and the bytes would read as a broken next request.
        const answer = method === 'HEAD' ? await send(url, method, JSON_BODY) : await send(url, method, { ...JSON_BODY, 'content-length': '2' }, '{}');
        expect({ method, status: answer.status, allow: answer.headers.allow }).toEqual({ method, status: 405, allow: 'GET, POST, DELETE' });
        if (method !== 'HEAD') expect(parse(answer)).toMatchObject({ id: null, error: { code: -32600, message: 'Method Not Allowed' } });
      }
      await expectServes(url);
    });

    it('reads the URL and header names as a router does: query, escapes, case, repeats', async () => {
      expect((await send(`${url}?a=1&a=2&b`, 'POST', JSON_BODY, INITIALIZE('2025-11-25'))).status).toBe(200);
      // An escaped unreserved character is the same path (Fastify's router decodes it; so must the fetch binding).
      expect((await send(url.replace(/\/mcp$/, '/mc%70'), 'POST', JSON_BODY, INITIALIZE('2025-11-25'))).status).toBe(200);
      expect((await send(`${url}/`, 'POST', JSON_BODY, INITIALIZE('2025-11-25'))).status).toBe(404);
      const cased = await send(
        url,
        'POST',
        ['HOST', new URL(url).host, 'Content-Type', 'Application/JSON; Charset=UTF-8', 'ACCEPT', 'text/event-stream, application/json'],
        INITIALIZE('2025-11-25'),
      );
      expect(cased.status).toBe(200);
      const session = await openSession(url);
      // Repeated headers are joined by Node: neither a session nor a version.
      const twoSessions = await send(
        url,
        'POST',
        [
          'host',
          new URL(url).host,
          'content-type',
          'application/json',
          'accept',
          ACCEPT_BOTH,
          'mcp-session-id',
          session['mcp-session-id'],
          'mcp-session-id',
          'x',
        ],
        PING,
      );
      expect(twoSessions.status).toBe(404);
      expect(parse(twoSessions)).toMatchObject({ id: 'p', error: { code: -32600, message: expect.stringContaining('Session not found') } });
      const twoVersions = await send(
        url,
        'POST',
        [
          'host',
          new URL(url).host,
          'content-type',
          'application/json',
          'accept',
          ACCEPT_BOTH,
          'mcp-session-id',
          session['mcp-session-id'],
          'mcp-protocol-version',
          '2025-11-25',
          'mcp-protocol-version',
          '2025-11-25',
        ],
        PING,
      );
      expect(twoVersions.status).toBe(400);
      expect(parse(twoVersions)).toMatchObject({ id: 'p', error: { code: -32022 } });
      expect(parse(await send(url, 'POST', session, PING))).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
    });

    it('answers bodies it cannot take alike: encodings, a byte order mark, bare JSON values, empty', async () => {
      const cases: Array<[Record<string, string>, string | Buffer, number, number, string]> = [
        [{ ...JSON_BODY, 'content-encoding': 'GZIP' }, INITIALIZE('2025-11-25'), 415, -32600, 'compressed body'],
        [{ ...JSON_BODY, 'content-encoding': 'identity, gzip' }, INITIALIZE('2025-11-25'), 415, -32600, 'compressed body'],
        [{ ...JSON_BODY, 'content-encoding': 'br' }, INITIALIZE('2025-11-25'), 415, -32600, 'compressed body'],
        // RFC 8259 lets a parser refuse a byte order mark; Node's string decoding keeps it, so JSON.parse does.
        [JSON_BODY, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(INITIALIZE('2025-11-25'))]), 400, -32700, 'Parse error'],
        [JSON_BODY, '   ', 400, -32700, 'Parse error'],
        [{ ...JSON_BODY, 'content-length': '0' }, '', 400, -32700, 'Parse error'],
        [{ ...JSON_BODY, 'mcp-protocol-version': '2026-07-28' }, '"hello"', 400, -32600, 'must be an object'],
        [{ ...JSON_BODY, 'mcp-protocol-version': '2026-07-28' }, '42', 400, -32600, 'must be an object'],
        [{ ...JSON_BODY, 'mcp-protocol-version': '2026-07-28' }, 'null', 400, -32600, 'must be an object'],
        [JSON_BODY, '"hello"', 400, -32600, 'Mcp-Session-Id'],
        [JSON_BODY, 'null', 400, -32600, 'Mcp-Session-Id'],
        [{ 'content-type': 'application/vnd.api+json', accept: ACCEPT_BOTH }, PING, 415, -32600, 'Unsupported Media Type'],
      ];
      for (const [headers, body, status, code, message] of cases) {
        const answer = await send(url, 'POST', headers, body);
        expect({ body: String(body).slice(0, 20), status: answer.status }).toEqual({ body: String(body).slice(0, 20), status });
        expect(parse(answer)).toMatchObject({ jsonrpc: '2.0', error: { code, message: expect.stringContaining(message) } });
      }
      // Bytes that are not UTF-8 are read as U+FFFD by both, not refused.
      const latin1 = Buffer.from(INITIALIZE('2025-11-25', 'caf\u00e9'), 'latin1');
      expect((await send(url, 'POST', JSON_BODY, latin1)).status).toBe(200);
      await expectServes(url);
    });

    it('refuses a chunked body over the limit with 413 while it is sent, and serves on', async () => {
      const { hostname, port } = new URL(url);
      const piece = 'x'.repeat(64 * 1024);
      const pieces = Array.from({ length: 80 }, () => `${piece.length.toString(16)}\r\n${piece}\r\n`);
      const head = `POST /mcp HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/json\r\naccept: ${ACCEPT_BOTH}\r\ntransfer-encoding: chunked\r\n\r\n`;
      // This client stops sending once it reads the answer: the server, still reading what comes, never resets it.
      const { received } = await raw(url, head, pieces, 5_000);
      expect(received).toMatch(/^HTTP\/1\.1 413 /);
      expect(received).toContain('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Payload Too Large: the limit is 4194304 bytes"}}');
      await expectServes(url);
    });

    // A client without Expect: 100-continue sends its whole body before it reads. Closed at
    // once, a connection that still holds unread bytes is reset, and the client got a broken
    // pipe instead of the 413: the server now reads the rest (up to maxDrainBytes) first.
    it('answers an oversize body sent whole before any read with 413, reads it to its end, then closes', async () => {
      for (const chunked of [false, true]) {
        const upload = await uploadWhole(url, postHead(url, chunked ? 'chunked' : 16 * MB), bigBody(16 * MB, chunked));
        expect({ chunked, written: upload.written, closed: upload.closed }).toEqual({ chunked, written: true, closed: true });
        expect(upload.received).toMatch(/^HTTP\/1\.1 413 /);
        expect(upload.received.toLowerCase()).toContain('\r\nconnection: close\r\n');
        expect(upload.received).toMatch(
          /\r\n\r\n\{"jsonrpc":"2\.0","id":null,"error":\{"code":-32600,"message":"Payload Too Large: the limit is 4194304 bytes"\}\}$/,
        );
      }
      await expectServes(url);
    });

    it('forgets uploads abandoned half-way, many at once, and serves on', async () => {
      const { hostname, port } = new URL(url);
      const before = rssMb(server.child.pid!);
      const sockets = Array.from({ length: 50 }, () => {
        const socket = connect(Number(port), hostname);
        socket.on('error', () => undefined);
        socket.write(
          `POST /mcp HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/json\r\naccept: ${ACCEPT_BOTH}\r\ncontent-length: ${MB}\r\n\r\n{"jsonrpc":"2.0",`,
        );
        socket.write('x'.repeat(256 * 1024));
        return socket;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expectServes(url);
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await expectServes(url);
      expect(rssMb(server.child.pid!) - before).toBeLessThan(150);
    });

    it('accepts a batch only on 2025-03-26, on every version', async () => {
      const batch = '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]';
      for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
        const answer = await send(url, 'POST', await openSession(url, version), batch);
        if (version === '2025-03-26') {
          expect({ version, status: answer.status }).toEqual({ version, status: 200 });
          expect(parse(answer)).toEqual([
            { jsonrpc: '2.0', id: 1, result: {} },
            { jsonrpc: '2.0', id: 2, result: {} },
          ]);
        } else {
          expect({ version, status: answer.status }).toEqual({ version, status: 400 });
          expect(parse(answer)).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('batches') } });
        }
      }
      const modern = await send(url, 'POST', { ...JSON_BODY, 'mcp-protocol-version': '2026-07-28' }, batch);
      expect(modern.status).toBe(400);
      expect(parse(modern)).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('no batches') } });
      // Initialize inside a batch opens nothing.
      expect((await send(url, 'POST', JSON_BODY, `[${INITIALIZE('2025-03-26')}]`)).status).toBe(400);
      await expectServes(url);
    });

    it('refuses a 2026-07-28 request whose headers disagree with its body, with -32020', async () => {
      const modern = { ...JSON_BODY, 'mcp-protocol-version': '2026-07-28' };
      const call = (meta: object) =>
        JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: meta } });
      const cases: Array<[Record<string, string>, string, string]> = [
        [{ ...modern, 'mcp-method': 'tools/call', 'mcp-name': 'add' }, call(MODERN_META()), 'Mcp-Name'],
        [{ ...modern, 'mcp-method': 'tools/list' }, call(MODERN_META()), 'Mcp-Method'],
        [{ ...modern, 'mcp-method': 'tools/call', 'mcp-name': 'echo' }, call(MODERN_META('2025-11-25')), 'MCP-Protocol-Version'],
        [{ ...JSON_BODY, 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/call', 'mcp-name': 'echo' }, call(MODERN_META()), 'MCP-Protocol-Version'],
        [{ ...JSON_BODY, 'mcp-method': 'tools/call', 'mcp-name': 'echo' }, call(MODERN_META()), 'Missing MCP-Protocol-Version'],
        [{ ...modern, 'mcp-name': 'echo' }, call(MODERN_META()), 'Missing Mcp-Method'],
      ];
      for (const [headers, body, message] of cases) {
        const answer = await send(url, 'POST', headers, body);
        expect({ message, status: answer.status }).toEqual({ message, status: 400 });
        expect(parse(answer)).toMatchObject({ id: 3, error: { code: -32020, message: expect.stringContaining(message) } });
      }
      const agreed = await send(url, 'POST', { ...modern, 'MCP-METHOD': 'tools/call', 'Mcp-Name': 'echo' }, call(MODERN_META()));
      expect(parse(agreed)).toMatchObject({ id: 3, result: { content: [{ text: 'x' }] } });
    });

    it('cancels every request of a client that hangs up, pipelined ones included', async () => {
      // Node 20 gives a response queued behind another on a keep-alive connection no socket yet:
      // its 'close' never comes when the client goes, so the binding must watch the socket.
      const { hostname, port } = new URL(url);
      const post = (id: string) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow', arguments: { ms: 20_000 }, _meta: MODERN_META() } });
        const headers = { ...JSON_BODY, host: `${hostname}:${port}`, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'slow' };
        const head = Object.entries({ ...headers, 'content-length': String(Buffer.byteLength(body)) }).map(([name, value]) => `${name}: ${value}\r\n`);
        return `POST ${new URL(url).pathname} HTTP/1.1\r\n${head.join('')}\r\n${body}`;
      };
      const ids = ['pipe-1', 'pipe-2', 'pipe-3'];
      const socket = connect(Number(port), hostname);
      socket.on('error', () => undefined);
      await new Promise((resolve) => socket.write(ids.map(post).join(''), resolve));
      await new Promise((resolve) => setTimeout(resolve, 300));
      socket.destroy();
      const cancelled = () => ids.filter((id) => new RegExp(`"rpcId":"${id}"[^\n]*"outcome":"cancelled"`).test(server.output));
      for (const deadline = Date.now() + 5_000; cancelled().length < ids.length && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(cancelled()).toEqual(ids);
      await expectServes(url);
    });

    it('refuses a forged Last-Event-ID, another session’s included, and still resumes the right one', async () => {
      const a = await openSession(url);
      const b = await openSession(url);
      const get = (session: Record<string, string>, lastEventId: string) =>
        send(url, 'GET', {
          accept: 'text/event-stream',
          'mcp-session-id': session['mcp-session-id'],
          'mcp-protocol-version': '2025-11-25',
          'last-event-id': lastEventId,
        });
      // Session a's stream: primed, then left.
      const opened = await Unread.open(url, 'GET', {
        accept: 'text/event-stream',
        'mcp-session-id': a['mcp-session-id'],
        'mcp-protocol-version': '2025-11-25',
      });
      expect(opened.res.statusCode).toBe(200);
      opened.hangUp();
      for (const forged of ['g1_1', 'g1_99999999999999999999', 'g1_-1', 'g1_1.5', 's999999_1', '../../etc', 'x'.repeat(4096)]) {
        const answer = await get(b, forged);
        expect({ forged: forged.slice(0, 30), status: answer.status }).toEqual({ forged: forged.slice(0, 30), status: 400 });
        expect(parse(answer)).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('Unknown Last-Event-ID') } });
      }
      expect(parse(await send(url, 'POST', a, PING))).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
    });

    it('keeps memory bounded under many unread GET streams and hang-ups mid-stream, and serves on', async () => {
      const before = rssMb(server.child.pid!);
      const sessions = await Promise.all(Array.from({ length: 60 }, () => openSession(url)));
      const streams = await Promise.all(
        sessions.map((session) =>
          Unread.open(url, 'GET', { accept: 'text/event-stream', 'mcp-session-id': session['mcp-session-id'], 'mcp-protocol-version': '2025-11-25' }),
        ),
      );
      expect(streams.every((stream) => stream.res.statusCode === 200)).toBe(true);
      // Half hang up mid-stream; their sessions take a new reader at once.
      for (const stream of streams.slice(0, 30)) stream.hangUp();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const again = await Unread.open(url, 'GET', {
        accept: 'text/event-stream',
        'mcp-session-id': sessions[0]['mcp-session-id'],
        'mcp-protocol-version': '2025-11-25',
      });
      expect(again.res.statusCode).toBe(200);
      again.hangUp();
      await expectServes(url);
      expect(rssMb(server.child.pid!) - before).toBeLessThan(100);
      for (const stream of streams.slice(30)) stream.hangUp();
      for (const session of sessions) expect((await send(url, 'DELETE', { 'mcp-session-id': session['mcp-session-id'] })).status).toBe(200);
    });
  });

  describe('SSE answers (responseMode sse)', () => {
    let server: HttpServerProcess;
    let url: string;

    beforeAll(async () => {
      server = await start({ MCP_RESPONSE_MODE: 'sse' });
      url = server.url;
    });

    it('keeps memory bounded when a client floods calls with large answers it never reads, aborts them, and serves on', async () => {
      const session = await openSession(url);
      const before = rssMb(server.child.pid!);
      const big = 'x'.repeat(MB);
      const calls: Unread[] = [];
      for (let i = 0; i < 60; i++) {
        calls.push(
          await Unread.open(
            url,
            'POST',
            session,
            JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo', arguments: { text: big } } }),
          ),
        );
      }
      expect(calls.every((call) => call.res.headers['content-type'] === 'text/event-stream')).toBe(true);
      const ping = await send(url, 'POST', session, PING);
      expect(ping.status).toBe(200);
      expect(ping.body).toContain('{"jsonrpc":"2.0","id":"p","result":{}}');
      expect(rssMb(server.child.pid!) - before).toBeLessThan(300);
      for (const call of calls) call.hangUp();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await expectServes(url);
    });
  });

  describe('JSON answers (responseMode json)', () => {
    let server: HttpServerProcess;

    beforeAll(async () => {
      server = await start({ MCP_RESPONSE_MODE: 'json' });
    });

    // A JSON answer has no stream to resume: once its client is gone nobody can ever receive it.
    // 3 000 such slow calls held 41 MB (14 KB each) and ran to their end.
    it('cancels each call whose client left before its JSON answer, so none piles up past maxRequestsInFlight, and serves on', async () => {
      const session = await openSession(server.url);
      const { hostname, port } = new URL(server.url);
      const head = Object.entries({ ...session, host: `${hostname}:${port}` })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      const count = 1_050;
      for (let i = 0; i < count; i++) {
        const body = JSON.stringify({ jsonrpc: '2.0', id: `gone${i}`, method: 'tools/call', params: { name: 'slow', arguments: { ms: 600_000 } } });
        const socket = connect(Number(port), hostname);
        socket.on('error', () => undefined);
        // Sent, then the connection closed at once, before any answer.
        await new Promise<void>((resolve) =>
          socket.end(`POST /mcp HTTP/1.1\r\n${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`, () => resolve()),
        );
        socket.resume();
      }
      const cancelled = () => server.output.split('\n').filter((line) => line.includes('"rpcId":"gone') && line.includes('"outcome":"cancelled"')).length;
      for (let waited = 0; cancelled() < count && waited < 300; waited++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(cancelled()).toBe(count);
      // None of them is still in flight on the session: it serves a call.
      const answer = await send(
        server.url,
        'POST',
        session,
        '{"jsonrpc":"2.0","id":"after","method":"tools/call","params":{"name":"echo","arguments":{"text":"still"}}}',
      );
      expect(parse(answer)).toEqual({ jsonrpc: '2.0', id: 'after', result: { content: [{ type: 'text', text: 'still' }] } });
    }, 60_000);
  });

  // A batch answers no more than a client may send (maxMessageBytes, 4 MiB): 50 lists of ~205 KB would
  // be ~10 MB. One long single answer keeps its own, larger bound (maxResponseBytes).
  describe('a 2025-03-26 batch of large lists (TOOLS=1000)', () => {
    let server: HttpServerProcess;

    beforeAll(async () => {
      server = await start({ TOOLS: '1000' });
    });

    it('answers every id once within maxMessageBytes: the lists that fit, then -32603 for the rest', async () => {
      const url = server.url;
      const single = await send(url, 'POST', await openSession(url, '2025-03-26'), '{"jsonrpc":"2.0","id":"one","method":"tools/list"}');
      const listBytes = Buffer.byteLength(single.body);
      expect(listBytes).toBeGreaterThan(200_000);
      const batch = JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' })));
      const answer = await send(url, 'POST', await openSession(url, '2025-03-26'), batch);
      expect(answer.status).toBe(200);
      // The lists that fit, and a short error for each of the others.
      expect(Buffer.byteLength(answer.body)).toBeLessThanOrEqual(4 * MB + 50 * 200);
      const answers = parse(answer) as Array<{ id: number; result?: { tools: unknown[] }; error?: { code: number; message: string } }>;
      expect(answers.map((each) => each.id)).toEqual(Array.from({ length: 50 }, (_, i) => i));
      const fitting = Math.floor((4 * MB) / (listBytes + 1));
      expect(answers.filter((each) => each.result?.tools.length === 1007)).toHaveLength(fitting);
      expect(answers.slice(fitting)).toEqual(
        Array.from({ length: 50 - fitting }, (_, i) => ({
          jsonrpc: '2.0',
          id: fitting + i,
          error: { code: -32603, message: 'The batch answer would exceed 4194304 bytes; send fewer requests per batch' },
        })),
      );
      await expectServes(url);
    });
  });
});

describe('createFetchHandler in process, against a hostile Request', () => {
  const handler = createFetchHandler(createTestbedApp({}), { path: '/mcp' });
  const post = (body: string | Buffer | ReadableStream<Uint8Array>, path = '/mcp') =>
    handler(new Request(`http://localhost${path}`, { method: 'POST', headers: JSON_BODY, body, duplex: 'half' } as RequestInit));

  afterAll(() => handler.close());

  it('keeps a byte order mark (-32700, as Fastify does)', async () => {
    const answer = await post(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(PING)]));
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ id: null, error: { code: -32700 } });
  });

  it('answers 400 (does not reject) when the body breaks off, and serves on', async () => {
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ < 2) controller.enqueue(new TextEncoder().encode('{"jsonrpc":'));
        else controller.error(new Error('the client went away'));
      },
    });
    const answer = await post(body);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('could not be read') } });
    expect((await post(INITIALIZE('2025-11-25'))).status).toBe(200);
  });

  it('refuses an endless body without a length with 413 after maxMessageBytes bytes, then reads at most maxDrainBytes more', async () => {
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++;
        controller.enqueue(new Uint8Array(MB).fill(32));
      },
    });
    const answer = await post(body);
    expect(answer.status).toBe(413);
    expect(answer.headers.get('connection')).toBe('close');
    // The answer's body ends once the request's rest is drained: 4 MiB read, 64 MiB discarded, then no more.
    expect(JSON.parse(await answer.text())).toMatchObject({ error: { code: -32600, message: 'Payload Too Large: the limit is 4194304 bytes' } });
    const read = pulls;
    expect(read).toBeGreaterThan(4 + 64);
    expect(read).toBeLessThanOrEqual(4 + 64 + 4);
    await new Promise((resolve) => setImmediate(resolve));
    expect(pulls).toBe(read);
  });

  it('routes an escaped path like a router does', async () => {
    expect((await post(INITIALIZE('2025-11-25'), '/mc%70')).status).toBe(200);
    expect((await post(INITIALIZE('2025-11-25'), '/mc%zz')).status).toBe(404);
  });
});
