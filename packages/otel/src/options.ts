import type { MeterProvider, TracerProvider } from '@opentelemetry/api';

/**
 * What `otel()` does: `native` makes spans and metrics; `propagation_only` makes none but runs
 * handlers in the caller's trace context (from `_meta.traceparent`) and passes it on to the
 * client's requests; `off` watches nothing.
 */
export type TelemetryMode = 'native' | 'propagation_only' | 'off';

/** Options of `otel()`. */
export interface OtelOptions {
  /** Default `native`. */
  mode?: TelemetryMode;
  /** Where spans go; the global provider (the one the OpenTelemetry SDK registers) by default. */
  tracerProvider?: TracerProvider;
  /** Where metrics go; the global provider by default. */
  meterProvider?: MeterProvider;
  /**
   * Record `tools/call` arguments as `gen_ai.tool.call.arguments` (JSON). Off by default:
   * arguments may hold secrets.
   */
  captureArguments?: boolean;
  /** Record `tools/call` results as `gen_ai.tool.call.result` (JSON). Off by default, like arguments. */
  captureResults?: boolean;
  /**
   * Record the authenticated caller's subject (`ctx.auth.subject`) as `enduser.id`. Off by
   * default: it identifies a person. The token itself is never recorded.
   */
  captureEndUser?: boolean;
  /** Put `trace_id` and `span_id` on the request line and `ctx.logger` lines (default true). */
  logIds?: boolean;
}
