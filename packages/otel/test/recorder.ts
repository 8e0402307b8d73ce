import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

class TestReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** The OpenTelemetry test recipe of observability.md: in-memory spans, a collecting metric reader, globals set and reset. */
export interface Recorder {
  readonly exporter: InMemorySpanExporter;
  readonly provider: BasicTracerProvider;
  spans(): ReadableSpan[];
  span(name: string): ReadableSpan;
  /** Collects the metrics now; `histogram` reads what the last collect saw. */
  collect(): Promise<void>;
  histogram(name: string): HistogramMetricData | undefined;
  reset(): void;
  stop(): Promise<void>;
}

export function record(): Recorder {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(meterProvider);
  let collected: HistogramMetricData[] = [];
  return {
    exporter,
    provider,
    spans: () => exporter.getFinishedSpans(),
    span(name) {
      const found = exporter.getFinishedSpans().find((span) => span.name === name);
      if (found === undefined)
        throw new Error(
          `no span ${name}; spans: ${exporter
            .getFinishedSpans()
            .map((span) => span.name)
            .join(', ')}`,
        );
      return found;
    },
    histogram(name) {
      return collected.find((metric) => metric.descriptor.name === name);
    },
    reset() {
      exporter.reset();
    },
    async stop() {
      await provider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
      metrics.disable();
    },
    async collect() {
      const { resourceMetrics } = await reader.collect();
      collected = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics) as HistogramMetricData[];
    },
  };
}
