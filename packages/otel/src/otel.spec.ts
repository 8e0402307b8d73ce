import { AsyncLocalStorage } from 'node:async_hooks';
import { tracingChannel } from 'node:diagnostics_channel';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { createApp, Prompt, REQUEST_CHANNEL, Tool, ToolError, type RequestContext, type RequestTrace } from '@mcpkit/core';
import type { Connection } from '@mcpkit/core/transport';
import { IsString } from 'class-validator';
import pino from 'pino';
import { record, type Recorder } from '../test/recorder';
import { DURATION_BUCKETS, METRIC } from './attributes';
import { otel, type Telemetry } from './otel';

class EchoArgs {
  @IsString()
  text: string;
}

const tenant = new AsyncLocalStorage<string>();
let seen: Array<[string | undefined, boolean]> = [];

class Tools {
  @Tool()
  echo(args: EchoArgs) {
    seen.push([tenant.getStore(), trace.getActiveSpan() !== undefined]);
    // A span the handler makes belongs to the request's.
    trace.getTracer('handler').startSpan('inside').end();
    return args.text;
  }

  @Tool({ input: null })
  note(_: unknown, ctx: RequestContext): string {
    ctx.logger.warn('noted');
    return 'ok';
  }

  @Tool({ input: null })
  broken(): string {
    throw new ToolError('the disk is offline');
  }

  @Tool()
  lookup(args: EchoArgs): string {
    // A tool's error text may quote its arguments.
    throw new ToolError(`no note named ${args.text}`);
  }

  @Tool({ input: null })
  async ask(_: unknown, ctx: RequestContext) {
    return `${(await ctx.roots()).length} roots`;
  }

  @Tool({ input: null })
  async summarise(_: unknown, ctx: RequestContext) {
    const reply = await ctx.sample('Summarise the notes', { maxTokens: 50 });
    return !Array.isArray(reply.content) && reply.content.type === 'text' ? reply.content.text : '';
  }

  @Tool({ input: null })
  async confirm(_: unknown, ctx: RequestContext) {
    const answer = await ctx.elicit('Go on?', { type: 'object', properties: { ok: { type: 'boolean' } } });
    return answer.action;
  }
}

class Prompts {
  @Prompt({ input: null })
  greet(): string {
    return 'hello';
  }

  @Prompt({ input: null })
  broken(): string {
    throw new Error('secret detail at /srv/prompts.js:3');
  }
}

const MODERN = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT = 'b7ad6b7169203331';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT}-01`;
const SECRET = 'Bearer s3cr3t-t0ken';

let recorder: Recorder;
let telemetry: Telemetry;
let lines: Array<Record<string, unknown>>;
let sent: Array<Record<string, unknown>>;

beforeAll(() => {
  recorder = record();
});
afterAll(() => recorder.stop());
beforeEach(() => {
  recorder.reset();
  telemetry = otel();
});
afterEach(() => telemetry.disable());

async function connect(era: 'legacy' | 'modern'): Promise<Connection> {
  lines = [];
  sent = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  const app = createApp({ name: 'otel', version: '1', providers: [Tools, Prompts], logger });
  const connection = app.connect({ kind: 'http', headers: { authorization: SECRET } }, { sessionId: era === 'legacy' ? 'sess-1' : undefined });
  connection.setOutbound((message) => sent.push(message as unknown as Record<string, unknown>));
  if (era === 'legacy') {
    await connection.receive({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: { roots: {}, sampling: {}, elicitation: {} } },
    });
  }
  return connection;
}

let nextId = 1;
function call(connection: Connection, extra: Record<string, unknown>, name: string, args: Record<string, unknown>, meta: Record<string, unknown> = {}) {
  const params: Record<string, unknown> = { name, arguments: args };
  const _meta = { ...((extra._meta as Record<string, unknown>) ?? {}), ...meta };
  if (Object.keys(_meta).length > 0) params._meta = _meta;
  return connection.receive({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params });
}

function allValues(): string {
  return JSON.stringify(recorder.spans().map((span) => [span.name, span.attributes, span.status, span.events]));
}

describe.each([
  ['legacy era', 'legacy' as const, {}, '2025-11-25'],
  ['2026-07-28', 'modern' as const, { _meta: MODERN }, '2026-07-28'],
])('otel() (%s)', (_, era, extra: Record<string, unknown>, version) => {
  it('makes a SERVER span named "tools/call echo" under _meta.traceparent, with the convention attributes', async () => {
    const connection = await connect(era);
    recorder.reset();
    await call(connection, extra, 'echo', { text: 'hi' }, { traceparent: TRACEPARENT, tracestate: 'vendor=1' });
    const span = recorder.span('tools/call echo');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(PARENT);
    expect(span.parentSpanContext?.traceState?.get('vendor')).toBe('1');
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'gen_ai.operation.name': 'execute_tool',
      'jsonrpc.request.id': String(nextId - 1),
      'mcp.protocol.version': version,
      ...(era === 'legacy' ? { 'mcp.session.id': 'sess-1' } : {}),
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'mcpkit.request.outcome': 'ok',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    // The handler's own span is a child of the request's.
    const inside = recorder.span('inside');
    expect(inside.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    expect(inside.spanContext().traceId).toBe(TRACE_ID);
  });

  it('records no arguments, results or tokens unless asked', async () => {
    const connection = await connect(era);
    await call(connection, extra, 'echo', { text: 'classified' });
    expect(allValues()).not.toContain('classified');
    expect(allValues()).not.toContain('s3cr3t');
    telemetry = otel({ captureArguments: true, captureResults: true });
    recorder.reset();
    await call(connection, extra, 'echo', { text: 'shared' });
    const span = recorder.span('tools/call echo');
    expect(span.attributes['gen_ai.tool.call.arguments']).toBe('{"text":"shared"}');
    expect(JSON.parse(span.attributes['gen_ai.tool.call.result'] as string)).toMatchObject({ content: [{ type: 'text', text: 'shared' }] });
    expect(allValues()).not.toContain('s3cr3t');
  });

  it('says error.type tool_error for isError, with status ERROR; its text is the message only with captureResults', async () => {
    const connection = await connect(era);
    await call(connection, extra, 'broken', {});
    const span = recorder.span('tools/call broken');
    expect(span.attributes['error.type']).toBe('tool_error');
    // The result's text may quote the client's arguments (an invalid-arguments result does).
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'tool_error' });
    const echoed = await call(connection, extra, 'lookup', { text: 'sk_SECRET_ARG' });
    expect(JSON.stringify(echoed)).toContain('sk_SECRET_ARG');
    expect(recorder.span('tools/call lookup').status.message).toBe('tool_error');
    expect(allValues()).not.toContain('sk_SECRET_ARG');
    telemetry.disable();
    telemetry = otel({ captureResults: true });
    recorder.reset();
    await call(connection, extra, 'broken', {});
    expect(recorder.span('tools/call broken').status).toEqual({ code: SpanStatusCode.ERROR, message: 'the disk is offline' });
  });

  it('says error.type and rpc.response.status_code with the JSON-RPC code for errors', async () => {
    const connection = await connect(era);
    await call(connection, extra, 'missing', {});
    const unknownTool = recorder.span('tools/call missing');
    expect(unknownTool.attributes['error.type']).toBe('-32602');
    expect(unknownTool.attributes['rpc.response.status_code']).toBe('-32602');
    expect(unknownTool.status.code).toBe(SpanStatusCode.ERROR);
    expect(unknownTool.status.message).toMatch(/missing/);
    await connection.receive({ jsonrpc: '2.0', id: nextId++, method: 'nope/nope', params: { ...extra } });
    expect(recorder.span('nope/nope').attributes['error.type']).toBe('-32601');
  });

  it('names prompt spans by prompt, with gen_ai.prompt.name; a handler that throws is -32603', async () => {
    const connection = await connect(era);
    await connection.receive({ jsonrpc: '2.0', id: nextId++, method: 'prompts/get', params: { name: 'greet', ...extra } });
    expect(recorder.span('prompts/get greet').attributes).toMatchObject({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'greet' });
    await connection.receive({ jsonrpc: '2.0', id: nextId++, method: 'prompts/get', params: { name: 'broken', ...extra } });
    const broken = recorder.span('prompts/get broken');
    expect(broken.attributes['error.type']).toBe('-32603');
    expect(broken.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Internal error' });
  });

  it('names list and read spans by method alone, the URI in mcp.resource.uri', async () => {
    const connection = await connect(era);
    await connection.receive({ jsonrpc: '2.0', id: nextId++, method: 'tools/list', params: { ...extra } });
    await connection.receive({ jsonrpc: '2.0', id: nextId++, method: 'resources/read', params: { uri: 'x://nothing', ...extra } });
    expect(recorder.span('tools/list').attributes['mcp.method.name']).toBe('tools/list');
    expect(recorder.span('resources/read').attributes['mcp.resource.uri']).toBe('x://nothing');
  });

  it('links, and does not parent, an ambient span of another trace; parents to it without a traceparent', async () => {
    const connection = await connect(era);
    const http = trace.getTracer('http').startSpan('POST /mcp', { kind: SpanKind.SERVER });
    await context.with(trace.setSpan(context.active(), http), () => call(connection, extra, 'echo', { text: 'a' }, { traceparent: TRACEPARENT }));
    await context.with(trace.setSpan(context.active(), http), () => call(connection, extra, 'echo', { text: 'b' }));
    http.end();
    const [linked, child] = recorder.spans().filter((span) => span.name === 'tools/call echo');
    expect(linked.spanContext().traceId).toBe(TRACE_ID);
    expect(linked.links.map((link) => link.context.spanId)).toEqual([http.spanContext().spanId]);
    expect(child.parentSpanContext?.spanId).toBe(http.spanContext().spanId);
    expect(child.links).toEqual([]);
  });

  it('puts trace_id and span_id on the request line and ctx.logger lines', async () => {
    const connection = await connect(era);
    await call(connection, extra, 'echo', { text: 'hi' }, { traceparent: TRACEPARENT });
    const span = recorder.span('tools/call echo');
    const line = lines.find((entry) => entry.msg === 'request' && entry.method === 'tools/call');
    expect(line).toMatchObject({ trace_id: TRACE_ID, span_id: span.spanContext().spanId });
    await call(connection, extra, 'note', {}, { traceparent: TRACEPARENT });
    const noted = lines.find((entry) => entry.msg === 'noted');
    expect(noted).toMatchObject({ trace_id: TRACE_ID, span_id: recorder.span('tools/call note').spanContext().spanId });
  });

  it('records mcp.server.operation.duration in seconds with the convention buckets, and the result size', async () => {
    const connection = await connect(era);
    await call(connection, extra, 'echo', { text: 'hi' });
    await call(connection, extra, 'broken', {});
    await recorder.collect();
    const duration = recorder.histogram(METRIC.OPERATION_DURATION)!;
    expect(duration.descriptor.unit).toBe('s');
    const points = duration.dataPoints.filter((point) => point.attributes['mcp.protocol.version'] === version);
    const echo = points.find((point) => point.attributes['gen_ai.tool.name'] === 'echo')!;
    expect(echo.value.buckets.boundaries).toEqual(DURATION_BUCKETS);
    expect(echo.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'network.transport': 'tcp' });
    expect(points.find((point) => point.attributes['gen_ai.tool.name'] === 'broken')!.attributes['error.type']).toBe('tool_error');
    const size = recorder.histogram(METRIC.RESULT_SIZE)!;
    expect(size.descriptor.unit).toBe('By');
    expect(size.dataPoints.some((point) => (point.value.sum ?? 0) > 0)).toBe(true);
  });
});

describe('otel() on handshake-era sessions', () => {
  it('makes a CLIENT span for roots/list and sends its traceparent in _meta, in W3C Trace Context format (A19)', async () => {
    const connection = await connect('legacy');
    const answer = call(connection, {}, 'ask', {}, { traceparent: TRACEPARENT });
    await new Promise((resolve) => setImmediate(resolve));
    const asked = sent.find((message) => message.method === 'roots/list') as { id: string; params: { _meta: Record<string, string> } };
    await connection.receive({ jsonrpc: '2.0', id: asked.id, result: { roots: [] } });
    await answer;
    const client = recorder.span('roots/list');
    const server = recorder.span('tools/call ask');
    expect(client.kind).toBe(SpanKind.CLIENT);
    expect(client.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(asked.params._meta.traceparent).toBe(`00-${TRACE_ID}-${client.spanContext().spanId}-01`);
  });

  it.each([
    ['sampling/createMessage', 'summarise', { role: 'assistant', model: 'm', content: { type: 'text', text: 'short' } }, 'short'],
    ['elicitation/create', 'confirm', { action: 'accept', content: { ok: true } }, 'accept'],
  ])('makes a CLIENT span for %s too, and sends its traceparent in _meta', async (method, tool, result, text) => {
    const connection = await connect('legacy');
    const answer = call(connection, {}, tool, {}, { traceparent: TRACEPARENT });
    let asked: { id: string; params: { _meta: Record<string, string> } } | undefined;
    for (let turn = 0; turn < 100 && asked === undefined; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
      asked = sent.find((message) => message.method === method) as typeof asked;
    }
    await connection.receive({ jsonrpc: '2.0', id: asked!.id, result });
    expect(await answer).toMatchObject({ result: { content: [{ text }] } });
    const client = recorder.span(method);
    expect(client.kind).toBe(SpanKind.CLIENT);
    expect(client.attributes).toMatchObject({ 'mcp.method.name': method, 'mcp.session.id': 'sess-1' });
    expect(client.parentSpanContext?.spanId).toBe(recorder.span(`tools/call ${tool}`).spanContext().spanId);
    expect(asked!.params._meta.traceparent).toBe(`00-${TRACE_ID}-${client.spanContext().spanId}-01`);
  });

  it('makes a span for initialize, and records the session duration when it closes', async () => {
    const connection = await connect('legacy');
    expect(recorder.span('initialize').attributes).toMatchObject({ 'mcp.method.name': 'initialize', 'mcp.protocol.version': '2025-11-25' });
    connection.close();
    await recorder.collect();
    const sessions = recorder.histogram(METRIC.SESSION_DURATION)!;
    expect(sessions.descriptor.unit).toBe('s');
    expect(sessions.dataPoints[0].value.count).toBeGreaterThanOrEqual(1);
  });
});

describe('otel() beside another subscriber', () => {
  it('runs the handler inside both contexts when another start subscriber set runWithin first', async () => {
    telemetry.disable();
    const requests = tracingChannel(REQUEST_CHANNEL);
    const other = (message: unknown) => {
      (message as RequestTrace).runWithin = (fn) => tenant.run('acme', fn);
    };
    requests.start.subscribe(other);
    telemetry = otel();
    seen = [];
    try {
      const connection = await connect('modern');
      await call(connection, { _meta: MODERN }, 'echo', { text: 'hi' });
    } finally {
      requests.start.unsubscribe(other);
    }
    expect(seen).toEqual([['acme', true]]);
  });
});

describe('otel() modes', () => {
  it('propagation_only makes no spans but runs the handler in the caller trace', async () => {
    telemetry = otel({ mode: 'propagation_only' });
    const connection = await connect('modern');
    recorder.reset();
    await call(connection, { _meta: MODERN }, 'echo', { text: 'hi' }, { traceparent: TRACEPARENT });
    expect(recorder.spans().map((span) => span.name)).toEqual(['inside']);
    expect(recorder.span('inside').parentSpanContext?.spanId).toBe(PARENT);
    expect(lines.find((entry) => entry.msg === 'request')).toMatchObject({ trace_id: TRACE_ID });
  });

  it('propagation_only passes the caller trace on to requests to the client', async () => {
    telemetry = otel({ mode: 'propagation_only' });
    const connection = await connect('legacy');
    recorder.reset();
    const answer = call(connection, {}, 'ask', {}, { traceparent: TRACEPARENT });
    await new Promise((resolve) => setImmediate(resolve));
    const asked = sent.find((message) => message.method === 'roots/list') as { id: string; params: { _meta: Record<string, string> } };
    await connection.receive({ jsonrpc: '2.0', id: asked.id, result: { roots: [] } });
    await answer;
    expect(asked.params._meta.traceparent).toBe(TRACEPARENT);
    expect(recorder.spans()).toEqual([]);
  });

  it('off watches nothing', async () => {
    telemetry = otel({ mode: 'off' });
    const connection = await connect('modern');
    await call(connection, { _meta: MODERN }, 'echo', { text: 'hi' }, { traceparent: TRACEPARENT });
    expect(recorder.spans().map((span) => span.name)).toEqual(['inside']);
    expect(recorder.span('inside').parentSpanContext).toBeUndefined();
  });

  it('disable() stops it', async () => {
    telemetry.disable();
    const connection = await connect('modern');
    await call(connection, { _meta: MODERN }, 'echo', { text: 'hi' });
    expect(recorder.spans().map((span) => span.name)).toEqual(['inside']);
  });
});
