import { createApp, Tool } from '@mcpkit/core';
import type { Connection } from '@mcpkit/core/transport';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  type Sampler,
} from '@opentelemetry/sdk-trace-base';
import pino from 'pino';
import { record, type Recorder } from '../test/recorder';
import { otel } from './otel';
import type { TrustClientTraceContext } from './options';

// Whether the client's sampled flag decides if the server's span is recorded: yes with 'parent'
// (the default), no with 'link'.

class Echo {
  @Tool({ input: null })
  echo(): string {
    return 'ok';
  }
}

const CLIENT_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_SPAN = 'b7ad6b7169203331';
const traceparent = (flags: '00' | '01') => `00-${CLIENT_TRACE}-${CLIENT_SPAN}-${flags}`;

let recorder: Recorder;
beforeAll(() => {
  // The globals (context manager, propagator); spans go to each test's own provider.
  recorder = record();
});
afterAll(() => recorder.stop());

/** One `tools/call echo` with the client's flags, under a server sampler and trust setting; the spans its provider got. */
async function callWith(root: Sampler, flags: '00' | '01', trust: TrustClientTraceContext | undefined) {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ sampler: new ParentBasedSampler({ root }), spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const telemetry = otel(trust === undefined ? { tracerProvider } : { tracerProvider, trustClientTraceContext: trust });
  try {
    const app = createApp({ name: 'trust', version: '1', providers: [Echo], logger: pino({ level: 'silent' }) });
    const connection: Connection = app.connect({ kind: 'stdio' });
    connection.setOutbound(() => {});
    await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    exporter.reset();
    const answer = await connection.receive({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: {}, _meta: { traceparent: traceparent(flags) } },
    });
    expect(answer).toMatchObject({ result: { content: [{ type: 'text', text: 'ok' }] } });
    return exporter.getFinishedSpans();
  } finally {
    telemetry.disable();
    await tracerProvider.shutdown();
  }
}

describe('trustClientTraceContext', () => {
  it("'parent' (the default): the client's flags decide, 00 hides the call, 01 passes a sampler that records nothing", async () => {
    expect(await callWith(new AlwaysOnSampler(), '00', undefined)).toEqual([]);
    const [span] = await callWith(new AlwaysOffSampler(), '01', 'parent');
    expect(span?.name).toBe('tools/call echo');
    expect(span?.spanContext().traceId).toBe(CLIENT_TRACE);
    expect(span?.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
  });

  it("'link': the server's sampler decides alone, and the client's span is a link, not the parent", async () => {
    expect(await callWith(new AlwaysOffSampler(), '01', 'link')).toEqual([]);
    const spans = await callWith(new AlwaysOnSampler(), '00', 'link');
    expect(spans).toHaveLength(1);
    const [span] = spans;
    expect(span!.spanContext().traceId).not.toBe(CLIENT_TRACE);
    expect(span!.parentSpanContext).toBeUndefined();
    expect(span!.links.map((link) => [link.context.traceId, link.context.spanId])).toEqual([[CLIENT_TRACE, CLIENT_SPAN]]);
  });
});
