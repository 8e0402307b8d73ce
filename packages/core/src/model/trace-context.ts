/**
 * The W3C trace context a request carries (`traceparent`, `tracestate`, `baggage` in `_meta`,
 * or over HTTP in the headers of the same names), so a handler can continue the caller's trace.
 *
 * @example
 * const span = tracer.startSpan('search', {}, propagation.extract(context.active(), ctx.trace ?? {}));
 */
export interface TraceContext {
  /** `00-<trace-id>-<parent-id>-<flags>`, as received. */
  readonly traceparent: string;
  readonly tracestate?: string;
  readonly baggage?: string;
  /** 32 hex digits: the trace this request belongs to. */
  readonly traceId: string;
  /** 16 hex digits: the caller's span. */
  readonly parentId: string;
  /** The caller's sampling decision (flag bit 0). */
  readonly sampled: boolean;
}
