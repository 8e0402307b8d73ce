import { PassThrough } from 'node:stream';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { createApp, RequireScopes, Tool, type RequestContext } from '@mcpkit/core';
import { serveHttp, type HttpServer } from '@mcpkit/fastify';
import { createFetchHandler, jwtVerifier } from '@mcpkit/http';
import { serveStdio } from '@mcpkit/stdio';
import { IsString } from 'class-validator';
import pino from 'pino';
import { otel, type Telemetry } from '../src';
import { StubAuthorizationServer } from '@mcpkit/testing';
import { record, type Recorder } from './recorder';

// The spans and metrics of real transports, in this process so the in-memory exporter sees them:
// stdio over in-memory streams, Streamable HTTP on loopback with the official SDK clients.

class EchoArgs {
  @IsString()
  text: string;
}

class Tools {
  @Tool()
  echo(args: EchoArgs): string {
    return args.text;
  }

  @Tool({ input: null })
  note(_: unknown, ctx: RequestContext): string {
    ctx.logger.info('noted');
    return 'ok';
  }

  @Tool({ input: null })
  async ask(_: unknown, ctx: RequestContext): Promise<string> {
    return `${(await ctx.roots()).length} roots`;
  }
}

class Private {
  @Tool({ input: null })
  @RequireScopes('notes:read')
  whoami(_: unknown, ctx: RequestContext): string {
    return ctx.auth?.subject ?? 'nobody';
  }
}

const app = () => createApp({ name: 'otel-int', version: '1', providers: [Tools], logger: pino({ level: 'silent' }) });
const MODERN = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

let recorder: Recorder;
let telemetry: Telemetry;
beforeAll(() => {
  recorder = record();
  telemetry = otel();
});
afterAll(async () => {
  telemetry.disable();
  await recorder.stop();
});
beforeEach(() => recorder.reset());

describe('over stdio', () => {
  async function exchange(messages: unknown[]): Promise<Array<Record<string, unknown>>> {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const server = serveStdio(app(), { stdin, stdout, exitProcess: false });
    for (const message of messages) stdin.write(JSON.stringify(message) + '\n');
    stdin.end();
    await server.closed;
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  it.each([
    ['handshake era', [{ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } }], {}, '2025-11-25'],
    ['2026-07-28', [], MODERN, '2026-07-28'],
  ])('%s: a SERVER span per request, parent from _meta, network.transport pipe', async (_, opening, meta, version) => {
    const answers = await exchange([
      ...opening,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' }, _meta: { ...meta, traceparent: TRACEPARENT } } },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta } },
    ]);
    expect(answers.map((answer) => answer.id)).toEqual(expect.arrayContaining([1, 2]));
    const span = recorder.span('tools/call echo');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(span.attributes).toMatchObject({ 'network.transport': 'pipe', 'mcp.protocol.version': version, 'jsonrpc.request.id': '1' });
    expect(span.attributes['mcp.session.id']).toBeUndefined();
    // Not applicable to a pipe: no peer address, no application protocol under JSON-RPC.
    for (const name of ['client.address', 'client.port', 'network.protocol.name', 'network.protocol.version']) expect(span.attributes[name]).toBeUndefined();
    expect(recorder.span('tools/list').attributes['mcp.method.name']).toBe('tools/list');
  });
});

describe('over Streamable HTTP with the official SDK clients', () => {
  let server: HttpServer;
  beforeAll(async () => {
    server = await serveHttp(app(), { port: 0 });
  });
  afterAll(() => server.close());

  it('handshake era: spans with the session id, and a CLIENT span whose traceparent reaches the client', async () => {
    const client = new Client({ name: 'sdk', version: '1' }, { capabilities: { roots: {} } });
    let rootsMeta: Record<string, unknown> | undefined;
    client.setRequestHandler(ListRootsRequestSchema, (request) => {
      rootsMeta = request.params?._meta as Record<string, unknown> | undefined;
      return { roots: [] };
    });
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    await client.connect(transport);
    try {
      await client.callTool({ name: 'echo', arguments: { text: 'hi' }, _meta: { traceparent: TRACEPARENT } });
      await client.callTool({ name: 'ask', arguments: {}, _meta: { traceparent: TRACEPARENT } });
    } finally {
      await client.close();
    }
    const echo = recorder.span('tools/call echo');
    expect(echo.spanContext().traceId).toBe(TRACE_ID);
    expect(echo.attributes).toMatchObject({
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'network.protocol.version': '1.1',
      'client.address': '127.0.0.1',
      'client.port': expect.any(Number),
      'mcp.session.id': transport.sessionId,
      'mcp.protocol.version': '2025-11-25',
    });
    // The client's ephemeral port, not the server's.
    expect(echo.attributes['client.port']).not.toBe(Number(new URL(server.url).port));
    expect(recorder.span('initialize').kind).toBe(SpanKind.SERVER);
    const roots = recorder.span('roots/list');
    expect(roots.kind).toBe(SpanKind.CLIENT);
    expect(roots.parentSpanContext?.spanId).toBe(recorder.span('tools/call ask').spanContext().spanId);
    expect(rootsMeta?.traceparent).toBe(`00-${TRACE_ID}-${roots.spanContext().spanId}-01`);
  });

  it('2026-07-28: spans with the request revision and no session', async () => {
    const client = new ModernClient({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new ModernHttpTransport(new URL(server.url)));
    try {
      await client.callTool({ name: 'echo', arguments: { text: 'hi' }, _meta: { traceparent: TRACEPARENT } });
    } finally {
      await client.close();
    }
    const echo = recorder.span('tools/call echo');
    expect(echo.spanContext().traceId).toBe(TRACE_ID);
    expect(echo.attributes).toMatchObject({
      'network.transport': 'tcp',
      'network.protocol.version': '1.1',
      'client.address': '127.0.0.1',
      'client.port': expect.any(Number),
      'mcp.protocol.version': '2026-07-28',
    });
    expect(echo.attributes['mcp.session.id']).toBeUndefined();
  });

  it.each([
    [
      'handshake era',
      async (url: URL) => {
        const client = new Client({ name: 'sdk', version: '1' });
        await client.connect(new StreamableHTTPClientTransport(url));
        return client;
      },
    ],
    [
      '2026-07-28',
      async (url: URL) => {
        const client = new ModernClient({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
        await client.connect(new ModernHttpTransport(url));
        return client;
      },
    ],
  ] as const)('%s: under Fastify, ctx.logger lines are children of the request logger and carry the span ids', async (_, open) => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    const logged = await serveHttp(createApp({ name: 'otel-log', version: '1', providers: [Tools], logger }), { port: 0 });
    const client = await open(new URL(logged.url));
    try {
      await client.callTool({ name: 'note', arguments: {}, _meta: { traceparent: TRACEPARENT } });
    } finally {
      await client.close();
      await logged.close();
    }
    const span = recorder.span('tools/call note');
    const noted = lines.find((line) => line.msg === 'noted');
    // reqId is bound by Fastify's request logger: ctx.logger is its child.
    expect(noted).toMatchObject({ reqId: expect.anything(), trace_id: TRACE_ID, span_id: span.spanContext().spanId });
    expect(lines.find((line) => line.msg === 'request' && line.method === 'tools/call')).toMatchObject({
      reqId: noted!.reqId,
      trace_id: TRACE_ID,
      span_id: span.spanContext().spanId,
    });
  });
});

describe('under an HTTP span of another trace (the fetch binding inside an instrumented host)', () => {
  it.each([
    ['handshake era', {}, '2025-11-25'],
    ['2026-07-28', MODERN, '2026-07-28'],
  ])('%s: the MCP span is parented by _meta.traceparent and linked to the HTTP span', async (_, meta, version) => {
    const handler = createFetchHandler(app(), { sessions: false, responseMode: 'json' });
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': version,
      ...(version === '2026-07-28' ? { 'mcp-method': 'tools/call', 'mcp-name': 'echo' } : {}),
    };
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'hi' }, _meta: { ...meta, traceparent: TRACEPARENT } },
    });
    const http = trace.getTracer('http').startSpan('POST /mcp', { kind: SpanKind.SERVER });
    try {
      const response = await context.with(trace.setSpan(context.active(), http), () =>
        handler(new Request('http://localhost/mcp', { method: 'POST', headers, body })),
      );
      expect(await response.json()).toMatchObject({ id: 1, result: { content: [{ text: 'hi' }] } });
    } finally {
      http.end();
      await handler.close();
    }
    const span = recorder.span('tools/call echo');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(span.links.map((link) => link.context.spanId)).toEqual([http.spanContext().spanId]);
    expect(span.attributes).toMatchObject({ 'network.transport': 'tcp', 'mcp.protocol.version': version });
  });
});

describe('a resource server (bearer tokens from a stub authorization server) over Streamable HTTP', () => {
  const RESOURCE = 'http://127.0.0.1/mcp';
  let as: StubAuthorizationServer;
  let server: HttpServer;
  let token: string;
  beforeAll(async () => {
    as = await StubAuthorizationServer.start();
    token = await as.mint({ aud: RESOURCE, sub: 'user-7', scope: 'notes:read', claims: { client_id: 'cli' } });
    server = await serveHttp(createApp({ name: 'otel-auth', version: '1', providers: [Private], logger: pino({ level: 'silent' }) }), {
      port: 0,
      auth: { resource: RESOURCE, authorizationServers: [as.issuer], verifier: jwtVerifier({ issuer: as.issuer }) },
    });
  });
  afterAll(async () => {
    await server.close();
    await as.close();
  });

  /** Everything a span carries that an exporter would send, as one string to search. */
  const exported = () =>
    JSON.stringify(
      recorder.spans().map((span) => [span.name, span.attributes, span.events, span.status, span.links, span.parentSpanContext?.traceState?.serialize()]),
    );
  // Any piece of the JWT would do: its header, its payload and its signature each on their own.
  const pieces = () => token.split('.');

  it.each([
    [
      'handshake era',
      () => new Client({ name: 'sdk', version: '1' }),
      (url: URL, init: RequestInit) => new StreamableHTTPClientTransport(url, { requestInit: init }),
    ],
    [
      '2026-07-28',
      () => new ModernClient({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }),
      (url: URL, init: RequestInit) => new ModernHttpTransport(url, { requestInit: init }),
    ],
  ] as const)(
    '%s: an authenticated call records no part of its token; the decision is allow; enduser.id only when asked',
    async (_, makeClient, makeTransport) => {
      const run = async () => {
        const client = makeClient();
        await client.connect(makeTransport(new URL(server.url), { headers: { authorization: `Bearer ${token}` } }));
        try {
          expect(await client.callTool({ name: 'whoami', arguments: {}, _meta: { traceparent: TRACEPARENT } })).toMatchObject({
            content: [{ text: 'user-7' }],
          });
        } finally {
          await client.close();
        }
      };
      await run();
      const span = recorder.span('tools/call whoami');
      expect(span.attributes).toMatchObject({ 'mcpkit.auth.decision': 'allow', 'mcpkit.request.outcome': 'ok', 'client.address': '127.0.0.1' });
      expect(span.attributes['enduser.id']).toBeUndefined();
      for (const piece of pieces()) expect(exported()).not.toContain(piece);
      expect(exported()).not.toContain('user-7');

      telemetry.disable();
      telemetry = otel({ captureEndUser: true });
      recorder.reset();
      try {
        await run();
      } finally {
        telemetry.disable();
        telemetry = otel();
      }
      expect(recorder.span('tools/call whoami').attributes['enduser.id']).toBe('user-7');
      for (const piece of pieces()) expect(exported()).not.toContain(piece);
    },
  );
});
