import { tracingChannel } from 'node:diagnostics_channel';
import { REQUEST_CHANNEL, type RequestTrace } from '@mcpkit/core';

/** Counts answers by method and outcome, from core's `mcpkit:request` channel: no OpenTelemetry needed. */
export function countOutcomes(): { counts: Map<string, number>; stop(): void } {
  const counts = new Map<string, number>();
  const requests = tracingChannel(REQUEST_CHANNEL);
  const onEnd = (message: unknown) => {
    const request = message as RequestTrace;
    const outcome = request.error ? String(request.error.code) : request.isError ? 'tool_error' : request.cancelled ? 'cancelled' : 'ok';
    const key = `${request.method} ${outcome}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  requests.asyncEnd.subscribe(onEnd);
  return { counts, stop: () => requests.asyncEnd.unsubscribe(onEnd) };
}
