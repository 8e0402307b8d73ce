import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { connect } from 'node:net';
import pino from 'pino';
import { InvalidTokenError } from '@mcpkit/http';
import { serveHttp, type HttpServer, type ServeHttpOptions } from '../src';
import { fixtureApp } from './fixture-app';

// `serveHttp` serves its MCP endpoint through @mcpkit/http's `node:http` binding, ahead of
// Fastify's router, unless Fastify's request logging is on: then through the plugin, inside
// Fastify. Every answer below must be the same bytes from both (but the Date header and the
// session ids each server makes), so the direct path is the plugin's behaviour, not a second one.

const servers: HttpServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function pair(extra: ServeHttpOptions = {}): Promise<{ direct: HttpServer; plugin: HttpServer }> {
  // `warn`: request logging on writes nothing, so the two differ only in how they route.
  const options = { port: 0, maxMessageBytes: 4_096, drainTimeoutMs: 500, ...extra };
  const direct = await serveHttp(fixtureApp(pino({ level: 'warn' })), options);
  const plugin = await serveHttp(fixtureApp(pino({ level: 'warn' })), { ...options, requestLogging: true });
  servers.push(direct, plugin);
  return { direct, plugin };
}

/** Whether `data` holds a whole answer with a `Content-Length`. */
function complete(data: string): boolean {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return false;
  // No body follows a 204 or a 304 (nor, below, the answer to a HEAD): the head is the answer.
  if (/^HTTP\/1\.1 (204|304) /.test(data)) return true;
  const length = /^content-length: (\d+)\r$/im.exec(data.slice(0, end));
  return length !== null && Buffer.byteLength(data.slice(end + 4)) >= Number(length[1]);
}

/** One request on its own connection, as bytes; the whole answer as received, until the server closes or `until` matches. */
function exchange(port: number, request: string, until?: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    let settled = false;
    const done = (): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(data);
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
      if (until?.test(data) || complete(data)) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(request);
    // Every answer ends by its length, its head (204, 304, HEAD), `until` or the server closing:
    // this only keeps a stuck one from hanging the suite (what came so far then fails the compare).
    setTimeout(done, 10_000).unref();
  });
}

function request(port: number, method: string, path: string, headers: Record<string, string>, body?: string): string {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body !== undefined && headers['Transfer-Encoding'] === undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
}

const JSON_POST = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});
const CALL = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });

/** The answer with what legitimately differs between two servers made alike taken out. */
function normal(answer: string, port: number, session?: string): string {
  let text = answer.replace(/^Date: .*\r\n/im, '').replaceAll(String(port), '<port>');
  text = text.replace(/^mcp-session-id: .*$/im, 'mcp-session-id: <session>');
  if (session !== undefined) text = text.replaceAll(session, '<session>');
  return text;
}

async function sessionOf(port: number): Promise<string> {
  const answer = await exchange(port, request(port, 'POST', '/mcp', JSON_POST, INIT), /"result"/);
  return /^mcp-session-id: (.*)\r$/im.exec(answer)![1];
}

// Rows as objects: jest hands a test of more parameters than a row's columns its `done` callback.
interface Case {
  name: string;
  make: (port: number, session: string) => string;
  until?: RegExp;
}

const CASES: Case[] = [
  { name: 'initialize', make: (port) => request(port, 'POST', '/mcp', JSON_POST, INIT), until: /"result"/ },
  { name: 'a call in a session', make: (port, session) => request(port, 'POST', '/mcp', { ...JSON_POST, 'Mcp-Session-Id': session }, CALL), until: /"result"/ },
  {
    name: 'a notification',
    make: (port, session) =>
      request(port, 'POST', '/mcp', { ...JSON_POST, 'Mcp-Session-Id': session }, '{"jsonrpc":"2.0","method":"notifications/initialized"}'),
  },
  { name: 'a body that is not JSON', make: (port, session) => request(port, 'POST', '/mcp', { ...JSON_POST, 'Mcp-Session-Id': session }, '{nope') },
  { name: 'a call without a session', make: (port) => request(port, 'POST', '/mcp', JSON_POST, CALL) },
  { name: 'an unknown session', make: (port) => request(port, 'POST', '/mcp', { ...JSON_POST, 'Mcp-Session-Id': 'nope' }, CALL) },
  { name: 'a text body', make: (port) => request(port, 'POST', '/mcp', { 'Content-Type': 'text/plain', Accept: 'application/json, text/event-stream' }, CALL) },
  { name: 'a body without a type', make: (port) => request(port, 'POST', '/mcp', { Accept: 'application/json, text/event-stream' }, CALL) },
  { name: 'a compressed body', make: (port) => request(port, 'POST', '/mcp', { ...JSON_POST, 'Content-Encoding': 'gzip' }, CALL) },
  { name: 'an empty JSON body', make: (port) => request(port, 'POST', '/mcp', JSON_POST, '') },
  { name: 'a body declared too large', make: (port) => request(port, 'POST', '/mcp', JSON_POST, 'x'.repeat(5_000)) },
  {
    name: 'a chunked body too large',
    make: (port) => request(port, 'POST', '/mcp', { ...JSON_POST, 'Transfer-Encoding': 'chunked' }, `1388\r\n${'x'.repeat(5_000)}\r\n0\r\n\r\n`),
  },
  {
    name: 'a chunked call',
    make: (port) => request(port, 'POST', '/mcp', { ...JSON_POST, 'Transfer-Encoding': 'chunked' }, `${INIT.length.toString(16)}\r\n${INIT}\r\n0\r\n\r\n`),
    until: /"result"/,
  },
  { name: 'a GET that does not accept SSE', make: (port, session) => request(port, 'GET', '/mcp', { Accept: 'application/json', 'Mcp-Session-Id': session }) },
  {
    name: 'a GET stream',
    make: (port, session) => request(port, 'GET', '/mcp', { Accept: 'text/event-stream', 'Mcp-Session-Id': session }),
    until: /\r\n\r\n/,
  },
  { name: 'another path', make: (port) => request(port, 'POST', '/other', JSON_POST, CALL) },
  { name: 'the path with a trailing slash', make: (port) => request(port, 'POST', '/mcp/', JSON_POST, CALL) },
  { name: 'the path percent-encoded', make: (port) => request(port, 'POST', '/mc%70', JSON_POST, INIT), until: /"result"/ },
  // Node passes a fragment on; Fastify's router ends the path there (and reads what follows as the query).
  { name: 'a fragment in the target', make: (port) => request(port, 'POST', '/mcp#x', JSON_POST, INIT), until: /"result"/ },
  { name: 'a fragment before the query', make: (port) => request(port, 'POST', '/mcp#x?y=1', JSON_POST, INIT), until: /"result"/ },
  // The absolute form a client sends through a proxy: the router reads its path.
  { name: 'an absolute-form target', make: (port) => request(port, 'POST', `http://127.0.0.1:${port}/mcp?x=1`, JSON_POST, INIT), until: /"result"/ },
  { name: 'an absolute-form target without a path', make: (port) => request(port, 'POST', `HTTP://127.0.0.1:${port}`, JSON_POST, INIT) },
  { name: 'an absolute-form target of another scheme', make: (port) => request(port, 'POST', `ftp://127.0.0.1:${port}/mcp`, JSON_POST, INIT) },
  { name: 'OPTIONS *', make: (port) => request(port, 'OPTIONS', '*', {}) },
  { name: 'a query string', make: (port) => request(port, 'POST', '/mcp?x=1&x=2', JSON_POST, INIT), until: /"result"/ },
  { name: 'a token in the query', make: (port) => request(port, 'POST', '/mcp?access_token=abc', JSON_POST, INIT) },
  { name: 'PUT', make: (port) => request(port, 'PUT', '/mcp', JSON_POST, CALL) },
  { name: 'PATCH without a body', make: (port) => request(port, 'PATCH', '/mcp', {}) },
  { name: 'HEAD', make: (port) => request(port, 'HEAD', '/mcp', {}), until: /\r\n\r\n/ },
  {
    name: 'a DELETE with a text body',
    make: (port, session) => request(port, 'DELETE', '/mcp', { 'Content-Type': 'text/plain', 'Mcp-Session-Id': session }, 'x'),
  },
  {
    name: 'an OPTIONS preflight',
    make: (port) => request(port, 'OPTIONS', '/mcp', { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' }),
  },
  { name: 'a foreign Origin', make: (port) => request(port, 'POST', '/mcp', { ...JSON_POST, Origin: 'https://evil.example' }, INIT) },
  { name: 'a foreign Host', make: (port) => request(port, 'POST', '/mcp', JSON_POST, INIT).replace(/^Host: .*$/m, 'Host: evil.example') },
  {
    name: 'a bad protocol version',
    make: (port, session) => request(port, 'POST', '/mcp', { ...JSON_POST, 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '1999-01-01' }, CALL),
  },
  { name: 'a DELETE of the session', make: (port, session) => request(port, 'DELETE', '/mcp', { 'Mcp-Session-Id': session }) },
];

describe("serveHttp's direct endpoint answers as the plugin inside Fastify", () => {
  let direct: HttpServer;
  let plugin: HttpServer;
  beforeAll(async () => {
    ({ direct, plugin } = await pair());
  });

  it.each(CASES)('$name', async ({ make, until }) => {
    const [directSession, pluginSession] = await Promise.all([sessionOf(direct.port), sessionOf(plugin.port)]);
    const [fromDirect, fromPlugin] = await Promise.all([
      exchange(direct.port, make(direct.port, directSession), until),
      exchange(plugin.port, make(plugin.port, pluginSession), until),
    ]);
    expect(fromDirect).toMatch(/^HTTP\/1\.1 \d{3} /);
    expect(normal(fromDirect, direct.port, directSession)).toBe(normal(fromPlugin, plugin.port, pluginSession));
  });
});

// With a token to check, the body is read only once `admit` settles: by then a body sent with its
// head has arrived whole (Node has parsed it into the request's buffer, unread). A body refused
// then is still answered as Fastify answers it, closing the connection.
const AUTH: ServeHttpOptions = {
  auth: {
    resource: 'http://127.0.0.1/mcp',
    authorizationServers: ['https://as.example'],
    verifier: {
      // A check that takes a few turns (a JWKS fetch, an introspection call): the body is in by then.
      verify: async (token) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (token !== 'good') throw new InvalidTokenError('unknown token');
        return { subject: 'ann', scopes: [] };
      },
    },
  },
};
const WITH_TOKEN = { ...JSON_POST, Authorization: 'Bearer good' };

const AUTH_CASES: Case[] = [
  { name: 'initialize with a token', make: (port) => request(port, 'POST', '/mcp', WITH_TOKEN, INIT), until: /"result"/ },
  { name: 'an unknown token', make: (port) => request(port, 'POST', '/mcp', { ...JSON_POST, Authorization: 'Bearer bad' }, INIT) },
  { name: 'a body declared too large, arrived whole', make: (port) => request(port, 'POST', '/mcp', WITH_TOKEN, 'x'.repeat(5_000)) },
  {
    name: 'a chunked body too large, arrived whole',
    make: (port) => request(port, 'POST', '/mcp', { ...WITH_TOKEN, 'Transfer-Encoding': 'chunked' }, `1388\r\n${'x'.repeat(5_000)}\r\n0\r\n\r\n`),
  },
  { name: 'a compressed body, arrived whole', make: (port) => request(port, 'POST', '/mcp', { ...WITH_TOKEN, 'Content-Encoding': 'gzip' }, CALL) },
  { name: 'a text body, arrived whole', make: (port) => request(port, 'POST', '/mcp', { ...WITH_TOKEN, 'Content-Type': 'text/plain' }, CALL) },
];

describe('with a token verifier, the direct endpoint answers as the plugin', () => {
  let direct: HttpServer;
  let plugin: HttpServer;
  beforeAll(async () => {
    ({ direct, plugin } = await pair(AUTH));
  });

  it.each(AUTH_CASES)('$name', async ({ make, until }) => {
    const [fromDirect, fromPlugin] = await Promise.all([
      exchange(direct.port, make(direct.port, ''), until),
      exchange(plugin.port, make(plugin.port, ''), until),
    ]);
    expect(fromDirect).toMatch(/^HTTP\/1\.1 \d{3} /);
    expect(normal(fromDirect, direct.port)).toBe(normal(fromPlugin, plugin.port));
  });
});

describe('which path serveHttp takes', () => {
  const route = { method: 'POST' as const, url: '/mcp' };

  it('serves MCP ahead of Fastify by default, and inside it with request logging', async () => {
    const { direct, plugin } = await pair();
    expect(direct.fastify.hasRoute(route)).toBe(false);
    expect(plugin.fastify.hasRoute(route)).toBe(true);
  });

  it('serves MCP inside Fastify when something instruments Fastify (@fastify/otel, APM agents)', async () => {
    const seen: unknown[] = [];
    const onInstance = (message: unknown): void => void seen.push(message);
    subscribe('fastify.initialization', onInstance);
    try {
      const server = await serveHttp(fixtureApp(pino({ level: 'warn' })), { port: 0 });
      servers.push(server);
      expect(seen).toHaveLength(1);
      expect(server.fastify.hasRoute(route)).toBe(true);
      const answer = await exchange(server.port, request(server.port, 'POST', '/mcp', JSON_POST, INIT), /"result"/);
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      unsubscribe('fastify.initialization', onInstance);
    }
  });
});
