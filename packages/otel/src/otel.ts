import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import { metrics, trace } from '@opentelemetry/api';
import { CLIENT_REQUEST_CHANNEL, REQUEST_CHANNEL, SESSION_CHANNEL, type SessionTrace } from '@mcpkit/core';
import { ATTR } from './attributes';
import { clientSpans } from './client-spans';
import { createInstruments, type Instruments } from './instruments';
import type { OtelOptions, TelemetryMode } from './options';
import { requestSpans } from './request-spans';

/** What `otel()` returns: its mode, and how to stop. */
export interface Telemetry {
  readonly mode: TelemetryMode;
  /** Stops watching: later requests make no spans or metrics. */
  disable(): void;
}

const SCOPE = '@mcpkit/otel';
// Read at build time would need a JSON import; the scope version only labels the spans.
const SCOPE_VERSION = '0.1.0';

let current: Telemetry | undefined;

/**
 * Turns on OpenTelemetry for every mcpkit app in this process, by the MCP semantic conventions:
 * a SERVER span per request named `{mcp.method.name} {target}` (its parent from
 * `_meta.traceparent`, linked to an ambient HTTP span of another trace), a CLIENT span per request
 * the server sends its client (with `traceparent` in its `_meta`), the histograms
 * `mcp.server.operation.duration` and `mcp.server.session.duration` (seconds) and
 * `mcpkit.server.result.size` (bytes), and `trace_id` / `span_id` on the request's log lines. It
 * subscribes to core's `node:diagnostics_channel` channels, so an app that never calls it pays
 * nothing. Calling it again replaces the previous call's settings.
 *
 * Spans go to the global tracer provider unless one is given: start the OpenTelemetry SDK first.
 *
 * @param options what to record; arguments and results are left out unless asked for
 * @returns the handle that stops it
 * @example
 * import { otel } from '@mcpkit/otel';
 *
 * otel(); // after the OpenTelemetry SDK has started
 * serveHttp(createApp({ name: 'notes', version: '1.0.0', providers: [Notes] }), { port: 3000 });
 */
export function otel(options: OtelOptions = {}): Telemetry {
  current?.disable();
  const mode = options.mode ?? 'native';
  if (mode === 'off') {
    current = { mode, disable() {} };
    return current;
  }
  const native = mode === 'native';
  const tracer = native ? (options.tracerProvider ?? trace).getTracer(SCOPE, SCOPE_VERSION) : undefined;
  // Made on first use: the SDK may register its global meter provider after this call.
  let instruments: Instruments | undefined;
  const instrumentsOf = native ? () => (instruments ??= createInstruments((options.meterProvider ?? metrics).getMeter(SCOPE, SCOPE_VERSION))) : () => undefined;

  const requests = tracingChannel(REQUEST_CHANNEL);
  const onRequest = requestSpans({
    tracer,
    instruments: instrumentsOf,
    captureArguments: options.captureArguments === true,
    captureResults: options.captureResults === true,
    captureEndUser: options.captureEndUser === true,
    logIds: options.logIds !== false,
    trustClientTraceContext: options.trustClientTraceContext ?? 'parent',
  });
  requests.start.subscribe(onRequest.start);
  requests.asyncEnd.subscribe(onRequest.asyncEnd);

  const clientRequests = tracingChannel(CLIENT_REQUEST_CHANNEL);
  const onClientRequest = clientSpans(tracer);
  clientRequests.start.subscribe(onClientRequest.start);
  clientRequests.error.subscribe(onClientRequest.error);
  clientRequests.asyncEnd.subscribe(onClientRequest.asyncEnd);

  const onSession = (message: unknown): void => {
    const session = message as SessionTrace;
    const attributes: Record<string, string> = { [ATTR.MCP_PROTOCOL_VERSION]: session.protocolVersion };
    const transport = session.transport.kind === 'stdio' ? 'pipe' : session.transport.kind === 'http' ? 'tcp' : undefined;
    if (transport !== undefined) attributes[ATTR.NETWORK_TRANSPORT] = transport;
    instrumentsOf()?.sessionDuration.record(session.durationSeconds, attributes);
  };
  if (native) subscribe(SESSION_CHANNEL, onSession);

  const handle: Telemetry = {
    mode,
    disable() {
      requests.start.unsubscribe(onRequest.start);
      requests.asyncEnd.unsubscribe(onRequest.asyncEnd);
      clientRequests.start.unsubscribe(onClientRequest.start);
      clientRequests.error.unsubscribe(onClientRequest.error);
      clientRequests.asyncEnd.unsubscribe(onClientRequest.asyncEnd);
      if (native) unsubscribe(SESSION_CHANNEL, onSession);
      if (current === handle) current = undefined;
    },
  };
  current = handle;
  return handle;
}
