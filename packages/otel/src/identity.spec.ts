import { SpanStatusCode } from '@opentelemetry/api';
import { createApp, RateLimit, RequireScopes, Tool, UseGuards, type AuthInfo, type Guard } from '@mcpkit/core';
import type { Connection } from '@mcpkit/core/transport';
import pino from 'pino';
import { record, type Recorder } from '../test/recorder';
import { METRIC } from './attributes';
import { otel, type Telemetry } from './otel';

// The identity attributes (#15 after #14): the access decision on every span that had one,
// error.type for denied, hidden and rate-limited calls, enduser.id only when asked for.

class Nobody implements Guard {
  canActivate(): boolean {
    return false;
  }
}

class Notes {
  @Tool({ input: null })
  @RequireScopes('notes:read')
  read(): string {
    return 'read';
  }

  @Tool({ input: null })
  @RequireScopes('notes:write')
  write(): string {
    return 'written';
  }

  @Tool({ input: null })
  @RequireScopes('notes:admin', { whenMissing: 'hide' })
  secret(): string {
    return 'secret';
  }

  @Tool({ input: null })
  @UseGuards(Nobody)
  forbidden(): string {
    return 'never';
  }

  @Tool({ input: null })
  @RateLimit({ limit: 1, windowMs: 60_000 })
  limited(): string {
    return 'once';
  }

  @Tool({ input: null })
  open(): string {
    return 'open';
  }
}

const MODERN = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const ANN: AuthInfo = { subject: 'ann', clientId: 'cli', issuer: 'https://as.example', scopes: ['notes:read'] };

let recorder: Recorder;
let telemetry: Telemetry;
beforeAll(() => {
  recorder = record();
});
afterAll(() => recorder.stop());
beforeEach(() => recorder.reset());
afterEach(() => telemetry.disable());

async function connect(era: 'legacy' | 'modern', auth: AuthInfo | undefined): Promise<Connection> {
  const app = createApp({ name: 'notes', version: '1', providers: [Notes], logger: pino({ level: 'silent' }) });
  const connection = app.connect(
    { kind: 'http', headers: { authorization: 'Bearer t0ken-value' }, ...(auth === undefined ? {} : { auth }), remoteAddress: '10.1.2.80', remotePort: 65123 },
    { sessionId: era === 'legacy' ? 'sess-1' : undefined },
  );
  connection.setOutbound(() => {});
  if (era === 'legacy') {
    await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
  }
  return connection;
}

let nextId = 1;
const callOn = (connection: Connection, era: 'legacy' | 'modern', name: string) =>
  connection.receive({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: {}, ...(era === 'modern' ? { _meta: MODERN } : {}) } });

describe.each(['legacy' as const, 'modern' as const])('otel() and identity (%s era)', (era) => {
  it('says the access decision: allow, challenge, hide, deny; error.type is the JSON-RPC code of the answer', async () => {
    telemetry = otel();
    const connection = await connect(era, ANN);
    for (const name of ['read', 'write', 'secret', 'forbidden', 'open']) await callOn(connection, era, name);
    const attributes = (name: string) => recorder.span(`tools/call ${name}`).attributes;
    expect(attributes('read')).toMatchObject({ 'mcpkit.auth.decision': 'allow', 'mcpkit.request.outcome': 'ok' });
    expect(attributes('read')['error.type']).toBeUndefined();
    expect(attributes('write')).toMatchObject({
      'mcpkit.auth.decision': 'challenge',
      'mcpkit.request.outcome': 'denied',
      'error.type': '-31001',
      'rpc.response.status_code': '-31001',
    });
    // Hidden answers as an unknown tool does, and its span says so: only the decision tells them apart.
    expect(attributes('secret')).toMatchObject({ 'mcpkit.auth.decision': 'hide', 'mcpkit.request.outcome': 'hidden', 'error.type': '-32602' });
    expect(attributes('forbidden')).toMatchObject({ 'mcpkit.auth.decision': 'deny', 'mcpkit.request.outcome': 'denied', 'error.type': '-31001' });
    expect(recorder.span('tools/call forbidden').status.code).toBe(SpanStatusCode.ERROR);
    // No access rule, no decision.
    expect(attributes('open')['mcpkit.auth.decision']).toBeUndefined();
  });

  it('an anonymous caller of a scoped tool is challenged (authentication_required)', async () => {
    telemetry = otel();
    const connection = await connect(era, undefined);
    await callOn(connection, era, 'read');
    expect(recorder.span('tools/call read').attributes).toMatchObject({ 'mcpkit.auth.decision': 'challenge', 'error.type': '-31001' });
  });

  it('a rate-limited call is a tool_error by the convention, with outcome rate_limited, on the span and the histogram', async () => {
    telemetry = otel();
    const connection = await connect(era, ANN);
    await callOn(connection, era, 'limited');
    recorder.reset();
    await callOn(connection, era, 'limited');
    expect(recorder.span('tools/call limited').attributes).toMatchObject({ 'error.type': 'tool_error', 'mcpkit.request.outcome': 'rate_limited' });
    await recorder.collect();
    const points = recorder.histogram(METRIC.OPERATION_DURATION)!.dataPoints;
    expect(points.map((point) => point.attributes)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ 'gen_ai.tool.name': 'limited', 'error.type': 'tool_error', 'mcpkit.request.outcome': 'rate_limited' }),
      ]),
    );
  });

  it('puts client.address and client.port on the span, enduser.id only when asked, and never the token', async () => {
    telemetry = otel();
    let connection = await connect(era, ANN);
    await callOn(connection, era, 'read');
    const span = recorder.span('tools/call read');
    expect(span.attributes).toMatchObject({ 'client.address': '10.1.2.80', 'client.port': 65123 });
    expect(span.attributes['enduser.id']).toBeUndefined();
    expect(JSON.stringify(recorder.spans().map((each) => [each.attributes, each.events, each.status]))).not.toMatch(/ann|t0ken/);

    telemetry.disable();
    telemetry = otel({ captureEndUser: true });
    recorder.reset();
    connection = await connect(era, ANN);
    await callOn(connection, era, 'read');
    expect(recorder.span('tools/call read').attributes['enduser.id']).toBe('ann');
    expect(JSON.stringify(recorder.spans().map((each) => [each.attributes, each.events, each.status]))).not.toContain('t0ken');
  });
});
