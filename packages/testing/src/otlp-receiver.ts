import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One export an OTLP/HTTP exporter sent: its path (`/v1/traces`, `/v1/metrics`, `/v1/logs`), type and bytes. */
export interface OtlpExport {
  readonly path: string;
  readonly contentType: string;
  readonly body: Buffer;
}

/** A span as OTLP/JSON carries it (ids in hex). */
export interface OtlpSpan {
  name: string;
  /** 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  links?: Array<{ traceId: string; spanId: string }>;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

/** A metric as OTLP/JSON carries it (its data points in the field of its kind: `histogram`, `sum` …). */
export interface OtlpMetric {
  name: string;
  unit: string;
  [field: string]: unknown;
}

type JsonTraces = { resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: OtlpSpan[] }> }> };
type JsonMetrics = { resourceMetrics?: Array<{ scopeMetrics?: Array<{ metrics?: OtlpMetric[] }> }> };

/**
 * A small OTLP/HTTP receiver for tests: point `OTEL_EXPORTER_OTLP_ENDPOINT` of a server under
 * test at `url`, and read what it exported (`http/json` parsed, `http/protobuf` as bytes).
 *
 * @example
 * const otlp = await OtlpReceiver.start();
 * const server = await HttpServerProcess.start(process.execPath, ['dist/main.js'], {
 *   OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
 *   OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
 * });
 * // … drive a session, then stop the server so it flushes …
 * expect(otlp.spans().map((span) => span.name)).toContain('tools/call echo');
 * await otlp.close();
 */
export class OtlpReceiver {
  private constructor(
    private readonly server: Server,
    /** `http://127.0.0.1:<port>`: the endpoint, without `/v1/...`. */
    readonly url: string,
    /** Every export received, in order. */
    readonly exports: readonly OtlpExport[],
  ) {}

  /** Listens on a free loopback port. */
  static async start(): Promise<OtlpReceiver> {
    const exports: OtlpExport[] = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const contentType = String(request.headers['content-type'] ?? '');
        exports.push({ path: request.url ?? '', contentType, body: Buffer.concat(chunks) });
        // An empty success: `{}` in JSON, zero bytes in protobuf.
        response.writeHead(200, { 'content-type': contentType || 'application/json' });
        response.end(contentType === 'application/json' ? '{}' : '');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new OtlpReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exports);
  }

  /** The spans of every `http/json` trace export. */
  spans(): OtlpSpan[] {
    return this.json<JsonTraces>('/v1/traces').flatMap((body) =>
      (body.resourceSpans ?? []).flatMap((resource) => (resource.scopeSpans ?? []).flatMap((scope) => scope.spans ?? [])),
    );
  }

  /** The metrics of every `http/json` metric export (one entry per export and metric). */
  metrics(): OtlpMetric[] {
    return this.json<JsonMetrics>('/v1/metrics').flatMap((body) =>
      (body.resourceMetrics ?? []).flatMap((resource) => (resource.scopeMetrics ?? []).flatMap((scope) => scope.metrics ?? [])),
    );
  }

  /** Stops listening. */
  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private json<T>(path: string): T[] {
    return this.exports
      .filter((entry) => entry.path === path && entry.contentType === 'application/json')
      .map((entry) => JSON.parse(entry.body.toString()) as T);
  }
}

/** The value of a span's attribute, as OTLP/JSON types it (`{ stringValue: 'x' }`); undefined when absent. */
export function spanAttribute(span: OtlpSpan, key: string): Record<string, unknown> | undefined {
  return span.attributes.find((entry) => entry.key === key)?.value;
}
