import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import { otel, type Telemetry } from '@mcpkit/otel';

/**
 * OpenTelemetry without the global providers: spans and metrics go where the caller says (a
 * test's in-memory exporter, a pipeline of its own beside the SDK's), and the caller's subject
 * is recorded as `enduser.id`.
 */
export function traceTo(tracerProvider: TracerProvider, meterProvider: MeterProvider): Telemetry {
  return otel({ tracerProvider, meterProvider, captureEndUser: true });
}
