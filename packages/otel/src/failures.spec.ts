import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { createApp, Tool, type RequestContext } from '@mcpkit/core';
import type { Connection } from '@mcpkit/core/transport';
import pino from 'pino';
import { record, type Recorder } from '../test/recorder';
import { otel, type Telemetry } from './otel';

// error.type for the failure kinds the answer alone does not name: a request the client
// cancelled, one the server cut short, a tool past its timeout, a request to the client that
// timed out, failed with the client's JSON-RPC error, or lost its connection.

function waitForAbort(signal: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('not aborted'), 5_000);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve('aborted');
    });
  });
}

class Slow {
  @Tool({ input: null })
  wait(_: unknown, ctx: RequestContext): Promise<string> {
    return waitForAbort(ctx.signal);
  }

  @Tool({ input: null, timeoutMs: 20 })
  late(): Promise<string> {
    // Never settles: the deadline answers for it.
    return new Promise<string>(() => {});
  }

  @Tool({ input: null })
  async ask(_: unknown, ctx: RequestContext): Promise<string> {
    return `${(await ctx.roots({ timeoutMs: 30 })).length} roots`;
  }
}

let recorder: Recorder;
let telemetry: Telemetry;
let sent: Array<Record<string, unknown>>;
beforeAll(() => {
  recorder = record();
  telemetry = otel();
});
afterAll(async () => {
  telemetry.disable();
  await recorder.stop();
});

async function connect(): Promise<Connection> {
  sent = [];
  const app = createApp({ name: 'slow', version: '1', providers: [Slow], logger: pino({ level: 'silent' }) });
  const connection = app.connect({ kind: 'stdio' });
  connection.setOutbound((message) => sent.push(message as unknown as Record<string, unknown>));
  await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { roots: {} } } });
  recorder.reset();
  return connection;
}

const tick = (ms = 10) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (bounded) for the server's request `method` to the client. */
async function asked(method: string): Promise<{ id: string | number }> {
  for (let round = 0; round < 100; round++) {
    const found = sent.find((message) => message.method === method);
    if (found !== undefined) return found as { id: string | number };
    await tick(5);
  }
  throw new Error(`the server never asked ${method}`);
}

describe('error.type of each failure kind', () => {
  it('protocol-level answers no handler gave: before initialize -32600, an unknown method -32601, bad arguments -32602; not-JSON has no method and so no span', async () => {
    const app = createApp({ name: 'slow', version: '1', providers: [Slow], logger: pino({ level: 'silent' }) });
    const connection = app.connect({ kind: 'stdio' });
    connection.setOutbound(() => {});
    recorder.reset();
    expect(await connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })).toMatchObject({ error: { code: -32600 } });
    expect(recorder.span('tools/list').attributes).toMatchObject({ 'error.type': '-32600', 'mcpkit.request.outcome': 'error -32600' });
    await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    expect(await connection.receiveText('{"jsonrpc":')).toMatchObject({ error: { code: -32700 } });
    await connection.receive({ jsonrpc: '2.0', id: 2, method: 'tools/nope', params: {} });
    expect(recorder.span('tools/nope').attributes['error.type']).toBe('-32601');
    await connection.receive({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'wait', arguments: 'not an object' } });
    expect(recorder.span('tools/call wait').attributes).toMatchObject({ 'error.type': '-32602', 'mcpkit.request.outcome': 'invalid' });
    expect(recorder.spans().map((span) => span.name)).toEqual(['tools/list', 'initialize', 'tools/nope', 'tools/call wait']);
  });

  it('a request the client cancelled: error.type cancelled, status ERROR, no answer', async () => {
    const connection = await connect();
    const pending = connection.receive({ jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'wait', arguments: {} } });
    await tick();
    await connection.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c1', reason: 'user' } });
    expect(await pending).toBeUndefined();
    const span = recorder.span('tools/call wait');
    expect(span.attributes).toMatchObject({ 'error.type': 'cancelled', 'mcpkit.request.cancelled': true, 'mcpkit.request.outcome': 'cancelled' });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('a request the server cut short (the connection closed): the -32603 it answered', async () => {
    const connection = await connect();
    const pending = connection.receive({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait', arguments: {} } });
    await tick();
    connection.close();
    expect(await pending).toMatchObject({ error: { code: -32603 } });
    expect(recorder.span('tools/call wait').attributes).toMatchObject({ 'error.type': '-32603', 'mcpkit.request.cancelled': true });
  });

  it('a tool past its timeout: its isError result is a tool_error, as the convention says for isError', async () => {
    const connection = await connect();
    expect(await connection.receive({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'late', arguments: {} } })).toMatchObject({
      result: { isError: true },
    });
    const span = recorder.span('tools/call late');
    expect(span.attributes['error.type']).toBe('tool_error');
    // Its text ('timed out') is part of the result, recorded only with captureResults.
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'tool_error' });
  });

  it('a request to the client that timed out: the CLIENT span says timeout', async () => {
    const connection = await connect();
    const answer = await connection.receive({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'ask', arguments: {} } });
    expect(answer).toMatchObject({ result: { isError: true } });
    const roots = recorder.span('roots/list');
    expect(roots.kind).toBe(SpanKind.CLIENT);
    expect(roots.attributes['error.type']).toBe('timeout');
    expect(roots.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("a request to the client answered with an error: the client's code, also as rpc.response.status_code", async () => {
    const connection = await connect();
    const pending = connection.receive({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'ask', arguments: {} } });
    const question = await asked('roots/list');
    await connection.receive({ jsonrpc: '2.0', id: question.id, error: { code: -32601, message: 'no roots here' } });
    await pending;
    expect(recorder.span('roots/list').attributes).toMatchObject({ 'error.type': '-32601', 'rpc.response.status_code': '-32601' });
  });

  it('a request to the client whose connection closed: connection_closed', async () => {
    const connection = await connect();
    const pending = connection.receive({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'ask', arguments: {} } });
    await asked('roots/list');
    connection.close();
    await pending;
    expect(recorder.span('roots/list').attributes['error.type']).toBe('connection_closed');
  });
});
