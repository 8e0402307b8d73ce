/**
 * OpenTelemetry for the testbed, on the standard configuration: nothing unless
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set (benchmarks and black-box tests stay as they are); then the
 * Node SDK with its `OTEL_*` settings, `@fastify/otel` for HTTP spans and `@mcpkit/otel` for MCP's.
 * Resolves to the flush to await before exiting, or undefined when telemetry is off.
 */
export async function startTelemetry(): Promise<(() => Promise<void>) | undefined> {
  if (!process.env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const { FastifyOtelInstrumentation } = await import('@fastify/otel');
  const sdk = new NodeSDK({ instrumentations: [new FastifyOtelInstrumentation({ registerOnInitialization: true })] });
  sdk.start();
  (await import('@mcpkit/otel')).otel();
  return () => sdk.shutdown();
}
