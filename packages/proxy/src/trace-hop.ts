import { tracingChannel } from 'node:diagnostics_channel';
import { CLIENT_REQUEST_CHANNEL, type ClientRequestTrace, type RequestContext } from '@mcpkit/core';

// The gateway's own requests across the hop are published where core publishes its requests to
// a client: @mcpkit/otel (or any subscriber) opens a CLIENT span there, under the gateway's
// request span, and writes its traceparent into `meta`. So the remote's span is a child of the
// gateway's, not a sibling of it under the caller's.
const hop = tracingChannel<unknown, ClientRequestTrace>(CLIENT_REQUEST_CHANNEL);

/** The caller's W3C trace context, as `_meta` keys. */
function callerMeta(trace: NonNullable<RequestContext['trace']>): Record<string, unknown> {
  const meta: Record<string, unknown> = { traceparent: trace.traceparent };
  if (trace.tracestate !== undefined) meta.tracestate = trace.tracestate;
  if (trace.baggage !== undefined) meta.baggage = trace.baggage;
  return meta;
}

/**
 * Runs one remote call (`method`) with the `_meta` that continues the trace: the caller's trace
 * context, its `traceparent` replaced by the one a `mcpkit:client-request` subscriber gives (the
 * gateway's span); without a subscriber, the caller's as it came.
 */
export function tracedHop<T>(method: string, ctx: RequestContext, send: (meta: Record<string, unknown> | undefined) => Promise<T>): Promise<T> {
  const caller = ctx.trace === undefined ? undefined : callerMeta(ctx.trace);
  if (!hop.hasSubscribers) return send(caller);
  const trace: ClientRequestTrace = { method, sessionId: undefined, meta: {} };
  return hop.tracePromise(() => send({ ...caller, ...trace.meta }), trace);
}
