import { Console } from 'node:console';

/**
 * Sends what would go to stdout through `console` to stderr. With `OTEL_LOG_LEVEL` set the SDK
 * logs through `console.info` / `console.debug`, and the `console` exporters print with
 * `console.dir` / `console.log`: all of them write to stdout, which on stdio carries the protocol,
 * so one diagnostic line would break the client's stream. On HTTP they are still there, on stderr.
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
 * Starts OpenTelemetry when the standard configuration asks for it (`telemetryWanted`): the Node SDK reads the rest of `OTEL_*` itself (`OTEL_EXPORTER_OTLP_PROTOCOL` http/json or
 * http/protobuf, `OTEL_SERVICE_NAME`, `OTEL_METRIC_EXPORT_INTERVAL`), `@fastify/otel` makes the
 * HTTP spans and `@mcpkit/otel` the MCP ones. Nothing is loaded otherwise, so a server without it
 * starts as fast as before. The OTLP exporters send over HTTP, and whatever the SDK prints
 * (`OTEL_LOG_LEVEL`, a `console` exporter) goes to stderr: nothing is written to stdout, which
 * stdio keeps for the protocol.
 *
 * @returns what flushes and stops it before the process exits
 */
export async function startTelemetry(): Promise<() => Promise<void>> {
  if (!telemetryWanted(process.env)) return () => Promise.resolve();
  // Before the SDK exists: its constructor already logs when OTEL_LOG_LEVEL is set.
  consoleToStderr();
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
