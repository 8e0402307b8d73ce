import { Console } from 'node:console';

/**
 * Sends what `console` would write to stdout to stderr: the SDK logs through `console.info` /
 * `console.debug` (`OTEL_LOG_LEVEL`) and its `console` exporters print through `console.dir`,
 * and on stdio, stdout is the protocol.
 */
function consoleToStderr(): void {
  const stderr = new Console({ stdout: process.stderr, stderr: process.stderr });
  console.log = stderr.log;
  console.info = stderr.info;
  console.debug = stderr.debug;
  console.dir = stderr.dir;
  console.dirxml = stderr.dirxml;
  console.table = stderr.table;
  console.group = stderr.group;
  console.groupCollapsed = stderr.groupCollapsed;
  console.count = stderr.count;
  console.timeLog = stderr.timeLog;
  console.timeEnd = stderr.timeEnd;
}

/**
 * OpenTelemetry for the testbed, on the standard configuration: nothing unless
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set (benchmarks and black-box tests stay as they are); then the
 * Node SDK with its `OTEL_*` settings, `@fastify/otel` for HTTP spans and `@mcpkit/otel` for MCP's.
 * Resolves to the flush to await before exiting, or undefined when telemetry is off.
 */
export async function startTelemetry(): Promise<(() => Promise<void>) | undefined> {
  if (!process.env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  // Before the SDK exists: its constructor already logs when OTEL_LOG_LEVEL is set.
  consoleToStderr();
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const { FastifyOtelInstrumentation } = await import('@fastify/otel');
  const sdk = new NodeSDK({ instrumentations: [new FastifyOtelInstrumentation({ registerOnInitialization: true })] });
  sdk.start();
  (await import('@mcpkit/otel')).otel();
  return () => sdk.shutdown();
}
