import { tracingChannel } from 'node:diagnostics_channel';
import { REQUEST_CHANNEL, type RequestTrace } from '@mcpkit/core';

/** Counts answers by method and outcome, from core's `mcpkit:request` channel: no OpenTelemetry needed. */
export function countOutcomes(): { counts: Map<string, number>; stop(): void } {
  const counts = new Map<string, number>();
  const requests = tracingChannel(REQUEST_CHANNEL);
  const onEnd = (message: unknown) => {
    const request = message as RequestTrace;
    // The request line's word: ok, tool_error, denied, hidden, rate_limited, invalid, cancelled, error <code>.
    // A method the server does not implement is the client's text: one key for all of them
    // (not known on tools/call may be the tool name only, and the method is not counted by tool).
    const method = request.known || request.method === 'tools/call' || request.method === 'prompts/get' ? request.method : '_OTHER';
    const key = `${method} ${request.outcome}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  requests.asyncEnd.subscribe(onEnd);
  return { counts, stop: () => requests.asyncEnd.unsubscribe(onEnd) };
}
