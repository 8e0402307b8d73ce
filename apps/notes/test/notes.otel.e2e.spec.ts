import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HttpServerProcess, OtlpReceiver, RawStdioClient, spanAttribute as attribute } from '@mcpkit/testing';

// apps/notes with the standard OpenTelemetry configuration, against a small OTLP/HTTP receiver:
// the spans and metrics of a session driven by the official SDK client arrive, joined to the
// client's trace through `_meta.traceparent`.
const MAIN = join(__dirname, '..', 'dist', 'main.js');

/** A loopback port nobody listens on now (the Prometheus exporter's, which has no port 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
const CLIENT_TRACE = '5b8efff798038103d269b633813fc60c';
const CLIENT_SPAN = 'eee19b7ec3c1b174';
const TRACEPARENT = `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`;

describe('notes with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  let dir: string;
  let otlp: OtlpReceiver;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-notes-otel-'));
    otlp = await OtlpReceiver.start();
  });
  afterEach(async () => {
    await otlp.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const env = (protocol: string) => ({
    NOTES_DB: join(dir, 'notes.db'),
    LOG_LEVEL: 'warn',
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_SERVICE_NAME: 'notes-e2e',
    OTEL_METRIC_EXPORT_INTERVAL: '500',
    OTEL_LOGS_EXPORTER: 'none',
  });

  async function session(server: HttpServerProcess): Promise<void> {
    const client = new Client({ name: 'otel-e2e', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    await client.listTools();
    await client.callTool({ name: 'create_note', arguments: { title: 'Traced', body: 'joined', tags: [] }, _meta: { traceparent: TRACEPARENT } });
    await client.close();
  }

  /** Waits, at most 5 s, for the receiver to hold metric `name`. */
  async function metricArrives(name: string): Promise<boolean> {
    const until = Date.now() + 5_000;
    while (Date.now() < until) {
      if (otlp.metrics().some((metric) => metric.name === name)) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
  }

  it('Prometheus only (OTEL_METRICS_EXPORTER=prometheus, no OTLP endpoint): the SDK starts and serves the MCP metrics for scraping', async () => {
    const port = await freePort();
    const server = await HttpServerProcess.start(process.execPath, [MAIN], {
      NOTES_DB: join(dir, 'notes.db'),
      LOG_LEVEL: 'warn',
      OTEL_METRICS_EXPORTER: 'prometheus',
      OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
      OTEL_TRACES_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
    });
    try {
      await session(server);
      let scraped = '';
      for (const until = Date.now() + 5_000; Date.now() < until && !scraped.includes('mcp_server_operation_duration');) {
        scraped = await fetch(`http://127.0.0.1:${port}/metrics`).then(
          (response) => response.text(),
          () => '',
        );
        if (!scraped.includes('mcp_server_operation_duration')) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(scraped).toMatch(/mcp_server_operation_duration_count\{[^}]*mcp_method_name="tools\/call"/);
    } finally {
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    }
  });

  it('over HTTP (http/json): MCP spans under the client trace, linked to the Fastify span, and the metrics', async () => {
    const server = await HttpServerProcess.start(process.execPath, [MAIN], env('http/json'));
    await session(server);
    // OTEL_METRIC_EXPORT_INTERVAL=500 is honoured: the metrics come while the server runs (the default is 60 s).
    expect(await metricArrives('mcp.server.operation.duration')).toBe(true);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    const spans = otlp.spans();
    const call = spans.find((span) => span.name === 'tools/call create_note');
    expect(call).toMatchObject({ kind: 2, traceId: CLIENT_TRACE, parentSpanId: CLIENT_SPAN });
    expect(attribute(call!, 'gen_ai.tool.name')).toEqual({ stringValue: 'create_note' });
    expect(attribute(call!, 'network.transport')).toEqual({ stringValue: 'tcp' });
    expect(spans.map((span) => span.name)).toEqual(expect.arrayContaining(['initialize', 'tools/list']));
    // @fastify/otel's span of the HTTP request that carried the call: another trace, so a link.
    const http = spans.filter((span) => attribute(span, 'mcp.method.name') === undefined);
    expect(http.length).toBeGreaterThan(0);
    expect(call!.links?.map((link) => link.traceId)).toEqual([expect.any(String)]);
    expect(http.map((span) => span.traceId)).toContain(call!.links![0].traceId);
    expect(otlp.metrics().map((metric) => `${metric.name} ${metric.unit}`)).toEqual(
      expect.arrayContaining(['mcp.server.operation.duration s', 'mcp.server.session.duration s']),
    );
    const resource = otlp.exports.find((entry) => entry.path === '/v1/traces')!.body.toString();
    expect(resource).toContain('"notes-e2e"');
  });

  it("over HTTP with @fastify/otel: the request line is a child of Fastify's request logger and carries the MCP span's ids, not the HTTP span's", async () => {
    const server = await HttpServerProcess.start(process.execPath, [MAIN], { ...env('http/json'), LOG_LEVEL: 'info' });
    await session(server);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    const call = otlp.spans().find((span) => span.name === 'tools/call create_note')!;
    const lines = server.output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const line = lines.find((entry) => entry.msg === 'request' && entry.method === 'tools/call');
    expect(line).toMatchObject({ reqId: expect.anything(), trace_id: CLIENT_TRACE, span_id: call.spanId });
  });

  it('over HTTP (http/protobuf): the exports are protobuf and carry the MCP span', async () => {
    const server = await HttpServerProcess.start(process.execPath, [MAIN], env('http/protobuf'));
    await session(server);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    const traces = otlp.exports.filter((entry) => entry.path === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    expect(traces.every((entry) => entry.contentType === 'application/x-protobuf')).toBe(true);
    // Protobuf keeps strings and ids as they are: the span name and the client's trace id bytes.
    const bytes = Buffer.concat(traces.map((entry) => entry.body));
    expect(bytes.includes('tools/call create_note')).toBe(true);
    expect(bytes.includes(Buffer.from(CLIENT_TRACE, 'hex'))).toBe(true);
    expect(bytes.includes('notes-e2e')).toBe(true);
    const metrics = otlp.exports.filter((entry) => entry.path === '/v1/metrics');
    expect(metrics.length).toBeGreaterThan(0);
    expect(metrics.every((entry) => entry.contentType === 'application/x-protobuf')).toBe(true);
    const metricBytes = Buffer.concat(metrics.map((entry) => entry.body));
    for (const name of ['mcp.server.operation.duration', 'mcp.server.session.duration', 'create_note']) expect(metricBytes.includes(name)).toBe(true);
  });

  it('over stdio: stdout carries the protocol only, even with the SDK logging at debug and a console exporter; the spans and metrics arrive', async () => {
    // Both print through console (info, debug, dir), which writes to stdout unless telemetry.ts sends it to stderr.
    const client = RawStdioClient.spawn(process.execPath, [MAIN, '--stdio'], {
      ...process.env,
      ...env('http/json'),
      OTEL_LOG_LEVEL: 'debug',
      OTEL_TRACES_EXPORTER: 'otlp,console',
    });
    try {
      await client.initialize();
      await client.request('tools/call', { name: 'create_note', arguments: { title: 'Piped', body: 'x', tags: [] }, _meta: { traceparent: TRACEPARENT } });
      expect(await client.end()).toEqual({ code: 0, signal: null });
    } finally {
      client.kill();
    }
    expect(client.stray).toEqual([]);
    expect(client.lines.length).toBe(2);
    for (const line of client.lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0', id: expect.anything() });
    // The SDK did log and print, where it may: on stderr.
    expect(client.stderr).toContain('tools/call create_note');
    const call = otlp.spans().find((span) => span.name === 'tools/call create_note');
    expect(call).toMatchObject({ traceId: CLIENT_TRACE, parentSpanId: CLIENT_SPAN });
    expect(attribute(call!, 'network.transport')).toEqual({ stringValue: 'pipe' });
    expect(otlp.metrics().map((metric) => metric.name)).toEqual(expect.arrayContaining(['mcp.server.operation.duration', 'mcp.server.session.duration']));
  });
});
