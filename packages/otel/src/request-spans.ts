import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { clip, SUPPORTED_PROTOCOL_VERSIONS, type RequestTrace } from '@mcpkit/core';
import { ATTR, CANCELLED, OTHER, STATUS_LENGTH, TOOL_ERROR } from './attributes';
import type { Instruments } from './instruments';
import type { TrustClientTraceContext } from './options';

/** What a request's `start` leaves for its end. */
interface Open {
  readonly span: Span | undefined;
  readonly started: number;
}

/** How `otel()` turns the `mcpkit:request` events into spans and metrics. */
export interface RequestSpanSettings {
  readonly tracer: Tracer | undefined;
  readonly instruments: () => Instruments | undefined;
  readonly captureArguments: boolean;
  readonly captureResults: boolean;
  readonly captureEndUser: boolean;
  readonly logIds: boolean;
  readonly trustClientTraceContext: TrustClientTraceContext;
}

const TOOLS_CALL = 'tools/call';
const PROMPTS_GET = 'prompts/get';
// Methods whose target is a resource URI.
const RESOURCE_METHODS: ReadonlySet<string> = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe']);

/**
 * The name a span of this request has: `{mcp.method.name} {target}` for tools and prompts (a URI
 * stays out of names). Both parts may be the client's text, so each is clipped.
 */
export function spanName(request: Pick<RequestTrace, 'method' | 'target'>): string {
  return request.target !== undefined && (request.method === TOOLS_CALL || request.method === PROMPTS_GET)
    ? `${request.method} ${clip(request.target)}`
    : clip(request.method);
}

/** `network.transport` of the convention: stdio is a pipe, HTTP runs on TCP; in-memory has none. */
function networkTransport(kind: string): string | undefined {
  return kind === 'stdio' ? 'pipe' : kind === 'http' ? 'tcp' : undefined;
}

// The revisions this server speaks: any other version string is the client's text.
const SUPPORTED_VERSIONS: ReadonlySet<string> = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);

/**
 * The attributes both the span and the duration histogram carry (the low-cardinality ones).
 * `forMetrics`: names the server does not know (an unknown method, tool or prompt) become `_OTHER`
 * and an unsupported protocol version is left out, so a client cannot make a series per call; a
 * span keeps the client's text.
 */
function commonAttributes(request: RequestTrace, forMetrics: boolean): Attributes {
  const known = !forMetrics || request.known;
  // Not known there may mean only the tool or prompt is not: the method itself is a constant.
  const methodKnown = known || request.method === TOOLS_CALL || request.method === PROMPTS_GET;
  const attributes: Attributes = { [ATTR.MCP_METHOD_NAME]: !methodKnown ? OTHER : forMetrics ? request.method : clip(request.method) };
  if (request.method === TOOLS_CALL) attributes[ATTR.GEN_AI_OPERATION_NAME] = 'execute_tool';
  if (request.target !== undefined) {
    // In metrics a name here is a registered one; a span keeps the client's, clipped.
    const name = !known ? OTHER : forMetrics ? request.target : clip(request.target);
    if (request.method === TOOLS_CALL) attributes[ATTR.GEN_AI_TOOL_NAME] = name;
    else if (request.method === PROMPTS_GET) attributes[ATTR.GEN_AI_PROMPT_NAME] = name;
  }
  if (request.protocolVersion !== '' && (!forMetrics || SUPPORTED_VERSIONS.has(request.protocolVersion))) {
    attributes[ATTR.MCP_PROTOCOL_VERSION] = forMetrics ? request.protocolVersion : clip(request.protocolVersion);
  }
  const { transport } = request;
  const network = networkTransport(transport.kind);
  if (network !== undefined) attributes[ATTR.NETWORK_TRANSPORT] = network;
  if (transport.kind === 'http') {
    attributes[ATTR.NETWORK_PROTOCOL_NAME] = 'http';
    if (transport.httpVersion !== undefined) attributes[ATTR.NETWORK_PROTOCOL_VERSION] = transport.httpVersion;
  }
  return attributes;
}

/**
 * `mcpkit.auth.decision`: `hide` (answered as an unknown name), `challenge` (a denial the caller
 * can cure with a token or more scopes), `deny` (forbidden), `allow` (an access rule or guard let
 * it through); undefined where no access check applied.
 */
function authDecision(request: RequestTrace): string | undefined {
  if (request.outcome === 'hidden') return 'hide';
  if (request.outcome === 'denied') {
    const reason = (request.error?.data as { error?: unknown } | undefined)?.error;
    return reason === 'forbidden' ? 'deny' : 'challenge';
  }
  return request.authorized ? 'allow' : undefined;
}

/**
 * The parent of a request's span, and the ambient span to link to: `_meta.traceparent` first
 * (both eras), else the ambient context (an HTTP span), else the HTTP headers' trace context.
 */
function parentOf(request: RequestTrace, active: Context, trust: TrustClientTraceContext): { parent: Context; links: Link[] | undefined } {
  const ambient = trace.getSpan(active);
  if (trust === 'link') {
    // The client's context is only a link: its sampled flag decides nothing here.
    const carrier = request.meta?.traceparent !== undefined ? request.meta : ambient === undefined ? request.transport.headers : undefined;
    if (carrier?.traceparent === undefined) return { parent: active, links: undefined };
    const remote = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, carrier));
    return { parent: active, links: remote !== undefined && isSpanContextValid(remote) ? [{ context: remote }] : undefined };
  }
  if (request.meta?.traceparent !== undefined) {
    const parent = propagation.extract(active, request.meta);
    const remote = trace.getSpanContext(parent);
    const around = ambient?.spanContext();
    // One HTTP request may carry MCP messages of other traces: link the HTTP span, not parent.
    const links =
      around !== undefined && remote !== undefined && isSpanContextValid(around) && around.traceId !== remote.traceId ? [{ context: around }] : undefined;
    return { parent, links };
  }
  if (ambient === undefined && request.transport.headers?.traceparent !== undefined) {
    return { parent: propagation.extract(active, request.transport.headers), links: undefined };
  }
  return { parent: active, links: undefined };
}

/** A result's first text, for the span status of a tool failure. */
function firstText(result: Readonly<Record<string, unknown>> | undefined): string {
  const content = result?.content;
  if (!Array.isArray(content)) return TOOL_ERROR;
  for (const block of content) {
    if (typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text') {
      const text = (block as { text?: unknown }).text;
      if (typeof text === 'string') return clip(text, STATUS_LENGTH);
    }
  }
  return TOOL_ERROR;
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return '"[unserialisable]"';
  }
}

/**
 * The subscribers of `mcpkit:request`: a SERVER span per request (when there is a tracer), the
 * handler run inside its context, the log ids, and the metrics at the end.
 */
export function requestSpans(settings: RequestSpanSettings): { start: (message: unknown) => void; asyncEnd: (message: unknown) => void } {
  const open = new WeakMap<RequestTrace, Open>();
  const { tracer } = settings;
  return {
    start(message: unknown): void {
      const request = message as RequestTrace;
      try {
        const { parent, links } = parentOf(request, context.active(), settings.trustClientTraceContext);
        let span: Span | undefined;
        let inside = parent;
        if (tracer !== undefined) {
          const attributes = commonAttributes(request, false);
          if (request.target !== undefined && RESOURCE_METHODS.has(request.method)) attributes[ATTR.MCP_RESOURCE_URI] = clip(request.target);
          // A request always has an id here: notifications are not requests.
          attributes[ATTR.JSONRPC_REQUEST_ID] = clip(String(request.id));
          if (request.sessionId !== undefined) attributes[ATTR.MCP_SESSION_ID] = request.sessionId;
          const { transport } = request;
          if (transport.remoteAddress !== undefined) {
            attributes[ATTR.CLIENT_ADDRESS] = transport.remoteAddress;
            if (transport.remotePort !== undefined) attributes[ATTR.CLIENT_PORT] = transport.remotePort;
          }
          // The subject only: AuthInfo never holds the token, and headers are never read here.
          if (settings.captureEndUser && transport.auth !== undefined) attributes[ATTR.ENDUSER_ID] = transport.auth.subject;
          if (settings.captureArguments && request.method === TOOLS_CALL) attributes[ATTR.GEN_AI_TOOL_CALL_ARGUMENTS] = json(request.params.arguments ?? {});
          span = tracer.startSpan(spanName(request), { kind: SpanKind.SERVER, attributes, links }, parent);
          inside = trace.setSpan(parent, span);
        }
        open.set(request, { span, started: performance.now() });
        if (settings.logIds) {
          const ids = trace.getSpanContext(inside);
          if (ids !== undefined && isSpanContextValid(ids)) {
            request.logBindings.trace_id = ids.traceId;
            if (span !== undefined) request.logBindings.span_id = ids.spanId;
          }
        }
        if (inside !== context.active()) {
          // Another subscriber may have set one already: run inside both.
          const outer = request.runWithin;
          request.runWithin = outer === undefined ? (fn) => context.with(inside, fn) : (fn) => outer(() => context.with(inside, fn));
        }
      } catch {
        // A tracer that throws must not take the request down with it.
      }
    },

    asyncEnd(message: unknown): void {
      const request = message as RequestTrace;
      const state = open.get(request);
      if (state === undefined) return;
      open.delete(request);
      try {
        const seconds = (performance.now() - state.started) / 1000;
        const errorType = errorTypeOf(request);
        const decision = authDecision(request);
        if (state.span !== undefined) endSpan(state.span, request, errorType, decision, settings);
        const instruments = settings.instruments();
        if (instruments !== undefined) recordMetrics(instruments, request, seconds, errorType, decision);
      } catch {
        // As in start: telemetry never fails a request.
      }
    },
  };
}

/** `error.type` of a request that failed: its JSON-RPC code, a tool error, or a cancellation; undefined when it succeeded. */
function errorTypeOf(request: RequestTrace): string | undefined {
  if (request.error !== undefined) return String(request.error.code);
  if (request.isError) return TOOL_ERROR;
  return request.cancelled ? CANCELLED : undefined;
}

/** Sets a request span's status and the attributes of its outcome, then ends it. */
function endSpan(span: Span, request: RequestTrace, errorType: string | undefined, decision: string | undefined, settings: RequestSpanSettings): void {
  if (request.error !== undefined) {
    span.setAttribute(ATTR.RPC_RESPONSE_STATUS_CODE, String(request.error.code));
    span.setStatus({ code: SpanStatusCode.ERROR, message: clip(request.error.message, STATUS_LENGTH) });
  } else if (request.isError) {
    // The result's text is the tool's output, and an invalid-arguments result quotes the
    // client's input: like the result itself, only when asked for.
    span.setStatus({ code: SpanStatusCode.ERROR, message: settings.captureResults ? firstText(request.result) : TOOL_ERROR });
  } else if (request.cancelled) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'cancelled by the client' });
  }
  if (errorType !== undefined) span.setAttribute(ATTR.ERROR_TYPE, errorType);
  if (request.cancelled) span.setAttribute(ATTR.MCPKIT_CANCELLED, true);
  if (request.outcome !== undefined) span.setAttribute(ATTR.MCPKIT_OUTCOME, request.outcome);
  if (decision !== undefined) span.setAttribute(ATTR.MCPKIT_AUTH_DECISION, decision);
  if (settings.captureResults && request.method === TOOLS_CALL && request.result !== undefined) {
    span.setAttribute(ATTR.GEN_AI_TOOL_CALL_RESULT, json(request.result));
  }
  span.end();
}

/** The request's duration and result size, with the low-cardinality attributes of its outcome. */
function recordMetrics(instruments: Instruments, request: RequestTrace, seconds: number, errorType: string | undefined, decision: string | undefined): void {
  const attributes = commonAttributes(request, true);
  if (errorType !== undefined) attributes[ATTR.ERROR_TYPE] = errorType;
  if (request.error !== undefined) attributes[ATTR.RPC_RESPONSE_STATUS_CODE] = String(request.error.code);
  if (request.outcome !== undefined) attributes[ATTR.MCPKIT_OUTCOME] = request.outcome;
  if (decision !== undefined) attributes[ATTR.MCPKIT_AUTH_DECISION] = decision;
  instruments.operationDuration.record(seconds, attributes);
  if (request.result !== undefined) instruments.resultSize.record(Buffer.byteLength(json(request.result)), attributes);
}
