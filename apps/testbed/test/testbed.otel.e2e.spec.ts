import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HttpServerProcess, OtlpReceiver, RawStdioClient, spanAttribute } from '@mcpkit/testing';

// The testbed on the standard OpenTelemetry configuration, on both HTTP bindings: what it
// exports to an OTLP/HTTP receiver follows the client's trace and says which tool failed.
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const TRACE = 'a3ce929d0e0e47364bf92f3577b34da6';
const TRACEPARENT = `00-${TRACE}-0e0e47364bf92f35-01`;

describe.each(['http', 'fetch'])('testbed %s with OTEL_EXPORTER_OTLP_ENDPOINT', (mode) => {
  it('exports the MCP spans and the duration histogram', async () => {
    const otlp = await OtlpReceiver.start();
    try {
      const server = await HttpServerProcess.start(process.execPath, [MAIN, mode], {
        LOG_LEVEL: 'info',
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'testbed-e2e',
        OTEL_LOGS_EXPORTER: 'none',
      });
      const client = new Client({ name: 'otel-e2e', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      await client.callTool({ name: 'echo', arguments: { text: 'hi' }, _meta: { traceparent: TRACEPARENT } });
      await client.callTool({ name: 'fail', arguments: {}, _meta: { traceparent: TRACEPARENT } });
      await client.close();
      expect(await server.stop()).toEqual({ code: 0, signal: null });
      const spans = otlp.spans();
      const echo = spans.find((span) => span.name === 'tools/call echo');
      expect(echo).toMatchObject({ kind: 2, traceId: TRACE, parentSpanId: '0e0e47364bf92f35' });
      const fail = spans.find((span) => span.name === 'tools/call fail')!;
      expect(spanAttribute(fail, 'error.type')).toEqual({ stringValue: 'tool_error' });
      const duration = otlp.metrics().find((metric) => metric.name === 'mcp.server.operation.duration');
      expect(duration).toMatchObject({ unit: 's' });
    } finally {
      await otlp.close();
    }
  });
});

describe('testbed stdio with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('keeps stdout for JSON-RPC even with the SDK logging at debug and a console exporter, and exports the spans', async () => {
    const otlp = await OtlpReceiver.start();
    const client = RawStdioClient.spawn(process.execPath, [MAIN, 'stdio'], {
      ...process.env,
      LOG_LEVEL: 'warn',
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_LOGS_EXPORTER: 'none',
      OTEL_LOG_LEVEL: 'debug',
      OTEL_TRACES_EXPORTER: 'otlp,console',
    });
    try {
      await client.initialize();
      await client.request('tools/call', { name: 'echo', arguments: { text: 'hi' }, _meta: { traceparent: TRACEPARENT } });
      expect(await client.end()).toEqual({ code: 0, signal: null });
      expect(client.stray).toEqual([]);
      for (const line of client.lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0', id: expect.anything() });
      expect(otlp.spans().find((span) => span.name === 'tools/call echo')).toMatchObject({ traceId: TRACE });
    } finally {
      client.kill();
      await otlp.close();
    }
  });
});
