import { context, propagation, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import { clip, type ClientRequestTrace } from '@mcpkit/core';
import { ATTR, STATUS_LENGTH } from './attributes';

// Low-cardinality names for the ways a request to the client fails without a JSON-RPC code.
const FAILURES: Readonly<Record<string, string>> = { RequestTimeoutError: 'timeout', ConnectionClosedError: 'connection_closed' };

/** The error's JSON-RPC code when the client answered with one, `timeout`, `connection_closed`, else its class name. */
function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'number') return String(code);
  if (!(error instanceof Error)) return 'Error';
  return FAILURES[error.name] ?? error.name;
}

/**
 * The subscribers of `mcpkit:client-request`: a CLIENT span per request the server sends its
 * client (when there is a tracer), and the trace context injected into its `_meta` so the
 * client's work joins the trace.
 */
export function clientSpans(tracer: Tracer | undefined): {
  start: (message: unknown) => void;
  error: (message: unknown) => void;
  asyncEnd: (message: unknown) => void;
} {
  const open = new WeakMap<ClientRequestTrace, Span>();
  return {
    start(message: unknown): void {
      const request = message as ClientRequestTrace;
      try {
        let around = context.active();
        if (tracer !== undefined) {
          const attributes: Record<string, string> = { [ATTR.MCP_METHOD_NAME]: request.method };
          if (request.sessionId !== undefined) attributes[ATTR.MCP_SESSION_ID] = request.sessionId;
          const span = tracer.startSpan(request.method, { kind: SpanKind.CLIENT, attributes }, around);
          open.set(request, span);
          around = trace.setSpan(around, span);
        }
        propagation.inject(around, request.meta);
      } catch {
        // Telemetry never fails a request.
      }
    },

    error(message: unknown): void {
      const request = message as ClientRequestTrace;
      const span = open.get(request);
      if (span === undefined) return;
      const type = errorType(request.error);
      span.setAttribute(ATTR.ERROR_TYPE, type);
      if (/^-?\d+$/.test(type)) span.setAttribute(ATTR.RPC_RESPONSE_STATUS_CODE, type);
      // The client's error message is the client's text: clipped like the server span's.
      const text = request.error instanceof Error ? request.error.message : String(request.error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: clip(text, STATUS_LENGTH) });
    },

    asyncEnd(message: unknown): void {
      const request = message as ClientRequestTrace;
      const span = open.get(request);
      if (span === undefined) return;
      open.delete(request);
      span.end();
    },
  };
}
