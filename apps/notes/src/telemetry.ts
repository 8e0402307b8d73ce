/**
 * Starts OpenTelemetry when the standard configuration asks for it (`OTEL_EXPORTER_OTLP_ENDPOINT`
 * set): the Node SDK reads the rest of `OTEL_*` itself (`OTEL_EXPORTER_OTLP_PROTOCOL` http/json or
 * http/protobuf, `OTEL_SERVICE_NAME`, `OTEL_METRIC_EXPORT_INTERVAL`), `@fastify/otel` makes the
 * HTTP spans and `@mcpkit/otel` the MCP ones. Nothing is loaded otherwise, so a server without it
 * starts as fast as before. Every exporter sends over HTTP: nothing is written to stdout, which
 * stdio keeps for the protocol.
 *
 * @returns what flushes and stops it before the process exits
 */
export async function startTelemetry(): Promise<() => Promise<void>> {
  if (!process.env.OTEL_EXPORTER_OTLP_ENDPOINT) return () => Promise.resolve();
  const [{ NodeSDK }, { FastifyOtelInstrumentation }, { otel }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@fastify/otel'),
    import('@mcpkit/otel'),
  ]);
  const sdk = new NodeSDK({ instrumentations: [new FastifyOtelInstrumentation({ registerOnInitialization: true })] });
  sdk.start();
  otel();
  return () => sdk.shutdown();
}
