import { tracingChannel } from 'node:diagnostics_channel';
import { CLIENT_REQUEST_CHANNEL, type ClientRequestTrace, type RequestContext } from '@mcpkit/core';
import { tracedHop } from './trace-hop';

const CALLER = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const GATEWAY = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';
// Only the W3C fields tracedHop reads (the parsed ids are not).
const ctx = (trace: Partial<NonNullable<RequestContext['trace']>> | undefined) => ({ trace }) as unknown as RequestContext;

describe('tracedHop', () => {
  it("sends the caller's trace context as it came when nobody listens, and none when it sent none", async () => {
    const sent: unknown[] = [];
    await tracedHop('tools/call', ctx({ traceparent: CALLER, tracestate: 'k=v' }), async (meta) => void sent.push(meta));
    await tracedHop('tools/call', ctx(undefined), async (meta) => void sent.push(meta));
    expect(sent).toEqual([{ traceparent: CALLER, tracestate: 'k=v' }, undefined]);
  });

  it("puts a subscriber's traceparent in place of the caller's, keeping the rest, and ends its trace with the call", async () => {
    const channel = tracingChannel<unknown, ClientRequestTrace>(CLIENT_REQUEST_CHANNEL);
    const seen: string[] = [];
    const handlers = {
      start: (message: unknown) => {
        const trace = message as ClientRequestTrace;
        seen.push(`start ${trace.method}`);
        trace.meta.traceparent = GATEWAY;
      },
      end: () => undefined,
      asyncStart: () => undefined,
      asyncEnd: (message: unknown) => void seen.push(`end ${(message as ClientRequestTrace).result === undefined ? 'failed' : 'answered'}`),
      error: () => void seen.push('error'),
    };
    channel.subscribe(handlers);
    try {
      const meta = await tracedHop('prompts/get', ctx({ traceparent: CALLER, baggage: 'user=ada' }), async (sent) => sent);
      expect(meta).toEqual({ traceparent: GATEWAY, baggage: 'user=ada' });
      await expect(tracedHop('tools/call', ctx(undefined), () => Promise.reject(new Error('gone')))).rejects.toThrow('gone');
      expect(seen).toEqual(['start prompts/get', 'end answered', 'start tools/call', 'error', 'end failed']);
    } finally {
      channel.unsubscribe(handlers);
    }
  });
});
