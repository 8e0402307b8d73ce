import type { MeterProvider, TracerProvider } from '@opentelemetry/api';

/**
 * What `otel()` does: `native` makes spans and metrics; `propagation_only` makes none but runs
 * handlers in the caller's trace context (from `_meta.traceparent`) and passes it on to the
 * client's requests; `off` watches nothing.
 */
export type TelemetryMode = 'native' | 'propagation_only' | 'off';

/**
 * What the client's trace context (`_meta.traceparent`, or the HTTP `traceparent` header when no
 * HTTP span is around) is to a request's span: `parent` joins the client's trace, and so follows
 * its sampled flag (a parent-based sampler); `link` starts the server's own trace, sampled by the
 * server's sampler alone, with a link to the client's span.
 */
export type TrustClientTraceContext = 'parent' | 'link';

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
  /**
   * Record `tools/call` results as `gen_ai.tool.call.result` (JSON), and a failed tool's text as
   * its span's status message (else `tool_error`). Off by default, like arguments: a result may
   * quote them.
   */
  captureResults?: boolean;
  /**
   * Record the authenticated caller's subject (`ctx.auth.subject`) as `enduser.id`. Off by
   * default: it identifies a person. The token itself is never recorded.
   */
  captureEndUser?: boolean;
  /** Put `trace_id` and `span_id` on the request line and `ctx.logger` lines (default true). */
  logIds?: boolean;
  /**
   * Default `parent`: the request's span is a child of the client's `_meta.traceparent`, so one
   * agent action is one trace, as the MCP conventions ask; the client's sampled flag then decides
   * whether it is recorded (with the SDK's default parent-based sampler, `00` keeps a call out of
   * the traces and `01` passes a ratio sampler by). `link` for clients you do not trust: the server
   * samples on its own and links the client's span. In `propagation_only` mode, `link` means the
   * handlers do not run in the client's context.
   *
   * @example
   * otel({ trustClientTraceContext: 'link' }); // a public server: the client's flags decide nothing
   */
  trustClientTraceContext?: TrustClientTraceContext;
}
