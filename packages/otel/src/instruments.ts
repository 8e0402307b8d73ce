import type { Histogram, Meter } from '@opentelemetry/api';
import { DURATION_BUCKETS, METRIC } from './attributes';

/** The histograms `otel()` records. */
export interface Instruments {
  readonly operationDuration: Histogram;
  readonly sessionDuration: Histogram;
  readonly resultSize: Histogram;
}

/** Creates the histograms on `meter`, with the convention's units and bucket advice. */
export function createInstruments(meter: Meter): Instruments {
  const durations = { unit: 's', advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] } };
  return {
    operationDuration: meter.createHistogram(METRIC.OPERATION_DURATION, {
      description: 'Duration of the MCP request or notification as observed on the receiver from the time it was received until the result or ack is sent.',
      ...durations,
    }),
    sessionDuration: meter.createHistogram(METRIC.SESSION_DURATION, {
      description: 'The duration of the MCP session as observed on the MCP server.',
      ...durations,
    }),
    resultSize: meter.createHistogram(METRIC.RESULT_SIZE, { description: 'Size of the result sent, as JSON, in bytes.', unit: 'By' }),
  };
}
