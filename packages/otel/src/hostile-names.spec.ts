import { createApp, Prompt, Tool, type RequestContext } from '@mcpkit/core';
import type { Connection } from '@mcpkit/core/transport';
import pino from 'pino';
import { record, type Recorder } from '../test/recorder';
import { otel, type Telemetry } from './otel';

// A hostile client chooses the method, the tool and prompt names and the protocol version: none of
// its text may become a metric series, and what a span keeps of it is bounded.

class Known {
  @Tool({ input: null })
  echo(): string {
    return 'ok';
  }

  @Tool({ input: null })
  async ask(_: unknown, ctx: RequestContext): Promise<string> {
    return `${(await ctx.roots({ timeoutMs: 2_000 })).length} roots`;
  }

  @Prompt({ input: null })
  greet(): string {
    return 'hello';
  }
}

const MODERN = { 'io.modelcontextprotocol/clientCapabilities': {} };

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

let sent: Array<Record<string, unknown>>;
async function connect(): Promise<Connection> {
  sent = [];
  const app = createApp({ name: 'known', version: '1', providers: [Known], logger: pino({ level: 'silent' }) });
  const connection = app.connect({ kind: 'http' }, { sessionId: 's' });
  connection.setOutbound((message) => sent.push(message as unknown as Record<string, unknown>));
  await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { roots: {} } } });
  return connection;
}

/** Every attribute value of every point of the duration histogram (after a collect). */
async function metricValues(): Promise<Array<Record<string, unknown>>> {
  await recorder.collect();
  const histogram = recorder.histogram('mcp.server.operation.duration');
  return (histogram?.dataPoints ?? []).map((point) => point.attributes as Record<string, unknown>);
}

describe('metrics carry only names the server knows', () => {
  it('unknown tools, prompts and methods are _OTHER, a rejected protocol version is left out; known ones stay', async () => {
    const connection = await connect();
    for (let i = 0; i < 5; i++) {
      await connection.receive({ jsonrpc: '2.0', id: `t${i}`, method: 'tools/call', params: { name: `nope-${i}`, arguments: {} } });
      await connection.receive({ jsonrpc: '2.0', id: `p${i}`, method: 'prompts/get', params: { name: `nope-${i}` } });
      await connection.receive({ jsonrpc: '2.0', id: `m${i}`, method: `bogus/m${i}`, params: {} });
      // A stateless (2026) request of a version the server does not speak.
      await connection.receive({
        jsonrpc: '2.0',
        id: `v${i}`,
        method: 'tools/list',
        params: { _meta: { ...MODERN, 'io.modelcontextprotocol/protocolVersion': `2026-99-0${i}` } },
      });
    }
    await connection.receive({ jsonrpc: '2.0', id: 'e', method: 'tools/call', params: { name: 'echo', arguments: {} } });
    await connection.receive({ jsonrpc: '2.0', id: 'g', method: 'prompts/get', params: { name: 'greet' } });

    const points = await metricValues();
    const text = JSON.stringify(points);
    expect(text).not.toMatch(/nope-|bogus|2026-99/);
    expect(points).toContainEqual(expect.objectContaining({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': '_OTHER', 'error.type': '-32602' }));
    expect(points).toContainEqual(expect.objectContaining({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': '_OTHER' }));
    expect(points).toContainEqual(expect.objectContaining({ 'mcp.method.name': '_OTHER', 'error.type': '-32601' }));
    expect(points).toContainEqual(
      expect.objectContaining({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'echo', 'mcp.protocol.version': '2025-11-25' }),
    );
    expect(points).toContainEqual(expect.objectContaining({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'greet' }));
    const rejected = points.filter((point) => point['mcp.method.name'] === 'tools/list' && point['error.type'] !== undefined);
    expect(rejected.length).toBeGreaterThan(0);
    for (const point of rejected) expect(point['mcp.protocol.version']).toBeUndefined();
    // Twenty hostile calls, a handful of series: one per (method, error) pair, not one per name.
    expect(points.length).toBeLessThanOrEqual(8);

    // The span still says what the client asked for.
    expect(recorder.span('tools/call nope-0').attributes['gen_ai.tool.name']).toBe('nope-0');
    expect(recorder.span('bogus/m0').attributes['mcp.method.name']).toBe('bogus/m0');
  });
});

describe('spans keep a bounded part of what the client sent', () => {
  // clip's bound and its note "…(N more characters)".
  const NAME_BOUND = 200 + 40;
  const STATUS_BOUND = 500 + 40;

  it('huge names, methods, URIs, ids and versions are clipped in span names, attributes and status messages', async () => {
    const connection = await connect();
    recorder.reset();
    const huge = (letter: string) => letter.repeat(200_000);
    const answers = [
      await connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: huge('T'), arguments: {} } }),
      await connection.receive({ jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: huge('P') } }),
      await connection.receive({ jsonrpc: '2.0', id: 3, method: huge('M'), params: {} }),
    ];
    // Core's answers echo at most CLIP_LENGTH characters of the name (issue #11) too.
    for (const answer of answers) expect(JSON.stringify(answer).length).toBeLessThan(400);
    await connection.receive({ jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: `notes://${huge('u')}` } });
    await connection.receive({ jsonrpc: '2.0', id: huge('I'), method: 'tools/list', params: {} });
    await connection.receive({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/list',
      params: { _meta: { ...MODERN, 'io.modelcontextprotocol/protocolVersion': huge('V') } },
    });
    // A request to the client answered with a huge error message.
    const pending = connection.receive({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'ask', arguments: {} } });
    let question: Record<string, unknown> | undefined;
    for (let round = 0; round < 100 && question === undefined; round++) {
      question = sent.find((message) => message.method === 'roots/list');
      if (question === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(question).toBeDefined();
    await connection.receive({ jsonrpc: '2.0', id: question!.id as number, error: { code: -32603, message: huge('E') } });
    await pending;

    const spans = recorder.spans();
    expect(spans.length).toBe(8);
    for (const span of spans) {
      expect(span.name.length).toBeLessThanOrEqual(NAME_BOUND + 'tools/call '.length);
      for (const value of Object.values(span.attributes))
        if (typeof value === 'string') expect(value.length).toBeLessThanOrEqual(NAME_BOUND + 'notes://'.length);
      expect((span.status.message ?? '').length).toBeLessThanOrEqual(STATUS_BOUND);
    }
    // Clipped, not dropped: the start of what the client sent is still there.
    expect(spans.map((span) => span.name)).toContainEqual(expect.stringMatching(/^tools\/call T{200}…\(199800 more characters\)$/));
    expect(spans.find((span) => span.name === 'roots/list')?.status.message).toMatch(/^The client answered roots\/list with error -32603: E+…/);
  });
});
