import { createApp, Prompt, Tool } from '@mcpkit/core';
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

async function connect(): Promise<Connection> {
  const app = createApp({ name: 'known', version: '1', providers: [Known], logger: pino({ level: 'silent' }) });
  const connection = app.connect({ kind: 'http' }, { sessionId: 's' });
  connection.setOutbound(() => {});
  await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
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
