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
 * Whether the standard configuration asks for telemetry: an OTLP endpoint, or an exporter named
 * for traces or metrics (`prometheus` serves metrics for scraping with no endpoint at all).
 * `none` in both, or nothing set, starts nothing.
 */
export function telemetryWanted(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) return true;
  const named = (value: string | undefined) => value !== undefined && value.split(',').some((name) => name.trim() !== '' && name.trim() !== 'none');
  return named(env.OTEL_TRACES_EXPORTER) || named(env.OTEL_METRICS_EXPORTER);
}

/**
 * OpenTelemetry for the testbed, on the standard configuration: nothing unless `telemetryWanted`
 * (benchmarks and black-box tests stay as they are); then the
 * Node SDK with its `OTEL_*` settings, `@fastify/otel` for HTTP spans and `@mcpkit/otel` for MCP's.
 * Resolves to the flush to await before exiting, or undefined when telemetry is off.
 */
export async function startTelemetry(): Promise<(() => Promise<void>) | undefined> {
  if (!telemetryWanted(process.env)) return undefined;
  // Before the SDK exists: its constructor already logs when OTEL_LOG_LEVEL is set.
  consoleToStderr();
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const { FastifyOtelInstrumentation } = await import('@fastify/otel');
  const sdk = new NodeSDK({ instrumentations: [new FastifyOtelInstrumentation({ registerOnInitialization: true })] });
  sdk.start();
  (await import('@mcpkit/otel')).otel();
  return () => sdk.shutdown();
}
