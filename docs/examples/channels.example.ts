import { tracingChannel } from 'node:diagnostics_channel';
import { REQUEST_CHANNEL, type RequestTrace } from '@mcpkit/core';

/** Counts answers by method and outcome, from core's `mcpkit:request` channel: no OpenTelemetry needed. */
export function countOutcomes(): { counts: Map<string, number>; stop(): void } {
  const counts = new Map<string, number>();
  const requests = tracingChannel(REQUEST_CHANNEL);
  const onEnd = (message: unknown) => {
    const request = message as RequestTrace;
    // The request line's word: ok, tool_error, denied, hidden, rate_limited, invalid, cancelled, error <code>.
    const key = `${request.method} ${request.outcome}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  requests.asyncEnd.subscribe(onEnd);
  return { counts, stop: () => requests.asyncEnd.unsubscribe(onEnd) };
}
