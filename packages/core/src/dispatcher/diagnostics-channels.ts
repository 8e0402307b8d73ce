import { channel, tracingChannel } from 'node:diagnostics_channel';
import { isObject, type RequestId } from '../protocol/json-rpc';
import { monotonicMs } from '../logging/monotonic-ms';
import { METHOD } from '../protocol/methods';
import type { Meta } from '../protocol/mcp-types';
import type { EraName, RequestFrame } from '../wire/frame';
import type { TransportInfo } from '../model/transport-info';
import { answerOutcome } from './outcome';

/** The name of the tracing channel every request is published on (`node:diagnostics_channel`). */
export const REQUEST_CHANNEL = 'mcpkit:request';

/** The name of the tracing channel every request the server sends its client is published on. */
export const CLIENT_REQUEST_CHANNEL = 'mcpkit:client-request';

/**
 * What the `mcpkit:request` tracing channel publishes about one request, the same object on each
 * of its events: `start` (before the handler; a subscriber may add log fields and set
 * `runWithin`), `end` (the handler's synchronous part returned), `error` (answered with a JSON-RPC
 * error), then `asyncStart` and `asyncEnd` once the answer is known, exactly once per request.
 * Built only when the channel has subscribers.
 *
 * @example
 * import { channel, tracingChannel } from 'node:diagnostics_channel';
 * tracingChannel<RequestTrace>('mcpkit:request').subscribe({
 *   start: (request) => console.error('start', request.method, request.target),
 *   asyncEnd: (request) => console.error('end', request.method, request.error?.code ?? (request.isError ? 'tool_error' : 'ok')),
 *   end() {},
 *   asyncStart() {},
 *   error() {},
 * });
 */
export interface RequestTrace {
  readonly method: string;
  /** The tool or prompt name, the resource URI; undefined for methods without one. */
  readonly target: string | undefined;
  readonly id: RequestId;
  readonly era: EraName;
  /** The revision in force: the negotiated one (legacy era) or the request's own (2026-07-28). */
  readonly protocolVersion: string;
  /** The legacy-era session's id (HTTP `Mcp-Session-Id`); undefined on stdio and stateless requests. */
  readonly sessionId: string | undefined;
  readonly transport: TransportInfo;
  /** `params._meta`: `traceparent`, `tracestate`, `baggage` travel here. */
  readonly meta: Meta | undefined;
  /** The request's params, arguments included: whoever records them must treat them as secret. */
  readonly params: Readonly<Record<string, unknown>>;
  /**
   * The fields of this request's log lines (its request line and `ctx.logger`): a `start`
   * subscriber may add to them (`trace_id`, `span_id`), nothing later.
   */
  readonly logBindings: Record<string, unknown>;
  /**
   * Set by a `start` subscriber that needs the handler to run inside its own async context (an
   * OpenTelemetry `context.with`), so work the handler starts belongs to the request. It only
   * runs `fn`: it sees no arguments and cannot change the result (that is the pipeline's job).
   * A subscriber that finds one already set wraps it, so both contexts apply.
   */
  runWithin: (<T>(fn: () => T) => T) | undefined;
  /** The result sent (set before `asyncStart`), when the answer is a result. */
  result: Readonly<Record<string, unknown>> | undefined;
  /** True when the result is a tool failure (`isError: true`). */
  isError: boolean;
  /** The JSON-RPC error sent (set before `error`), when the answer is one; `data` as sent (an access denial's `{ error }`). */
  error: { readonly code: number; readonly message: string; readonly data?: unknown } | undefined;
  /** True when the request was cancelled, by its client or the connection closing (no answer, or one saying why). */
  cancelled: boolean;
  /**
   * The request line's `outcome` (set before `asyncStart`): `ok`, `tool_error`, `denied`,
   * `hidden`, `rate_limited`, `invalid`, `cancelled` or `error <code>`.
   */
  outcome: string | undefined;
  /** True when an access rule or guard of the primitive let the caller through (set before `asyncStart`). */
  authorized: boolean;
  /**
   * True when the server knows what this request names (set before `asyncStart`): a method it
   * implements and, for `tools/call` and `prompts/get`, a registered tool or prompt. `method` and
   * `target` are the client's text otherwise: a subscriber that labels metrics with them must not
   * use them unless this is true, or each call with a new name makes a new series.
   */
  known: boolean;
}

/**
 * What the `mcpkit:client-request` tracing channel publishes about one request the server sends
 * its client (sampling, elicitation, roots, ping) on a legacy-era session, through
 * `tracePromise`: `start` (a subscriber may add keys to `meta`, which go into the request's
 * `_meta`, e.g. `traceparent`), then `asyncStart` / `asyncEnd` with `result`, or `error` first.
 *
 * @example
 * import { tracingChannel } from 'node:diagnostics_channel';
 * tracingChannel<unknown, ClientRequestTrace>('mcpkit:client-request').start.subscribe((message) => {
 *   (message as ClientRequestTrace).meta.traceparent = currentTraceparent();
 * });
 */
export interface ClientRequestTrace {
  readonly method: string;
  readonly sessionId: string | undefined;
  /** Keys a `start` subscriber adds here are sent in the request's `params._meta`. */
  readonly meta: Record<string, unknown>;
  /** Set by the channel when the client answered. */
  result?: Record<string, unknown>;
  /** Set by the channel when the request failed (the client's error, a timeout, the connection closing). */
  error?: unknown;
}

/** The name of the channel a legacy-era session's end is published on, with how long it lasted. */
export const SESSION_CHANNEL = 'mcpkit:session';

/**
 * What the `mcpkit:session` channel publishes when a legacy-era session ends (its connection
 * closed: stdio's input ended, an HTTP session was deleted or expired).
 *
 * @example
 * import { subscribe } from 'node:diagnostics_channel';
 * subscribe('mcpkit:session', (message) => {
 *   const session = message as SessionTrace;
 *   console.error(session.sessionId, session.durationSeconds);
 * });
 */
export interface SessionTrace {
  readonly sessionId: string | undefined;
  readonly protocolVersion: string;
  readonly transport: TransportInfo;
  /** From the `initialize` answer to the close. */
  readonly durationSeconds: number;
}

/** @internal */
export const sessionChannel = channel(SESSION_CHANNEL);

/** @internal */
export const requestChannel = tracingChannel<unknown, RequestTrace>(REQUEST_CHANNEL);

/** @internal */
export const clientRequestChannel = tracingChannel<unknown, ClientRequestTrace>(CLIENT_REQUEST_CHANNEL);

/** @internal A request's trace, ready for `start`. */
export function requestTrace(
  method: string,
  target: unknown,
  id: RequestId,
  era: EraName,
  protocolVersion: string,
  sessionId: string | undefined,
  transport: TransportInfo,
  meta: Meta | undefined,
  params: Readonly<Record<string, unknown>>,
  logBindings: Record<string, unknown>,
): RequestTrace {
  return {
    method,
    target: target === undefined || target === null ? undefined : String(target),
    id,
    era,
    protocolVersion,
    sessionId,
    transport,
    meta,
    params,
    logBindings,
    runWithin: undefined,
    result: undefined,
    isError: false,
    error: undefined,
    cancelled: false,
    outcome: undefined,
    authorized: false,
    known: false,
  };
}

/** What a request was answered with, as far as its trace needs (undefined: nothing was sent). */
type Answer = { result?: unknown; error?: { code: number; message: string; data?: unknown } } | undefined;

/** @internal Publishes how a traced request ended: `error` for a JSON-RPC error, then `asyncStart` and `asyncEnd`. */
export function endTrace(trace: RequestTrace, response: Answer): void {
  if (response?.error !== undefined) {
    const { code, message, data } = response.error;
    trace.error = data === undefined ? { code, message } : { code, message, data };
    requestChannel.error.publish(trace);
  } else if (response?.result !== undefined) {
    trace.result = response.result as Record<string, unknown>;
    trace.isError = (response.result as { isError?: unknown }).isError === true;
  }
  trace.outcome ??= trace.cancelled ? 'cancelled' : answerOutcome(trace.error?.code, trace.isError);
  requestChannel.asyncStart.publish(trace);
  requestChannel.asyncEnd.publish(trace);
}

/**
 * @internal Publishes a request the era answered without running a handler (`initialize`, an
 * unknown method, a request refused before its handler): `start`, `end`, then how it ended, in
 * one go. `known`: the server implements `frame.method`. `logBindings` gets the fields a `start`
 * subscriber adds for its request line. Returns the answer.
 */
export function traceAnswered<R extends Answer>(
  frame: RequestFrame,
  protocolVersion: string,
  sessionId: string | undefined,
  transport: TransportInfo,
  answer: R,
  known: boolean,
  logBindings: Record<string, unknown> = {},
): R {
  const trace = requestTrace(frame.method, frame.target, frame.id, frame.era, protocolVersion, sessionId, transport, frame.meta, frame.params, logBindings);
  // No handler ran, so no tool or prompt name was looked up.
  trace.known = known && frame.method !== METHOD.TOOLS_CALL && frame.method !== METHOD.PROMPTS_GET;
  requestChannel.start.publish(trace);
  requestChannel.end.publish(trace);
  endTrace(trace, answer);
  return answer;
}

/**
 * @internal Publishes a long-lived request served outside `runRequest` (`subscriptions/listen`):
 * `start` and `end` now, how it ended once `answer` settles. Returns `answer`.
 */
export function traceLasting<R extends Answer>(frame: RequestFrame, protocolVersion: string, transport: TransportInfo, serve: () => Promise<R>): Promise<R> {
  const trace = requestTrace(frame.method, frame.target, frame.id, frame.era, protocolVersion, undefined, transport, frame.meta, frame.params, {});
  // Only subscriptions/listen lasts: a method the server implements.
  trace.known = true;
  const answer = requestChannel.start.runStores(trace, () => (trace.runWithin === undefined ? serve() : trace.runWithin(serve)));
  requestChannel.end.publish(trace);
  return answer.then(
    (response) => {
      if (response === undefined) trace.cancelled = true;
      endTrace(trace, response);
      return response;
    },
    (error: unknown) => {
      endTrace(trace, undefined);
      throw error;
    },
  );
}

/** @internal Publishes the end of a handshake session opened at `openedAt` (monotonic ms), when anyone listens. */
export function publishSessionEnd(sessionId: string | undefined, protocolVersion: string, transport: TransportInfo, openedAt: number): void {
  if (!sessionChannel.hasSubscribers) return;
  const trace: SessionTrace = { sessionId, protocolVersion, transport, durationSeconds: (monotonicMs() - openedAt) / 1000 };
  sessionChannel.publish(trace);
}

/**
 * @internal Sends a request to the client (`send` its params) inside a `mcpkit:client-request`
 * trace when anyone listens: what a subscriber puts in the trace's `meta` goes in `params._meta`.
 */
export function traceClientRequest<T>(
  method: string,
  sessionId: string | undefined,
  params: Record<string, unknown>,
  send: (params: Record<string, unknown>) => Promise<T>,
): Promise<T> {
  if (!clientRequestChannel.hasSubscribers) return send(params);
  const trace: ClientRequestTrace = { method, sessionId, meta: {} };
  return clientRequestChannel.tracePromise(() => send(withMeta(params, trace.meta)), trace);
}

/** The params with what a `mcpkit:client-request` subscriber put in `_meta` (a `traceparent`). */
function withMeta(params: Record<string, unknown>, meta: Record<string, unknown>): Record<string, unknown> {
  for (const _ in meta) return { ...params, _meta: { ...(isObject(params._meta) ? params._meta : {}), ...meta } };
  return params;
}
