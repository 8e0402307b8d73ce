import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import { createApp, RequireScopes, Tool, type RequestContext } from '@mcpkit/core';
import { otel, type Telemetry } from '@mcpkit/otel';

class Notes {
  @Tool({ description: 'Says who is calling', input: null })
  @RequireScopes('notes:read')
  whoami(_input: unknown, ctx: RequestContext): string {
    return ctx.auth?.subject ?? 'anonymous';
  }
}

export const app = createApp({ name: 'notes', version: '1.0.0', providers: [Notes] });

/**
 * OpenTelemetry without the global providers: spans and metrics go where the caller says (a
 * test's in-memory exporter, a pipeline of its own beside the SDK's), with the access decision on
 * each `whoami` span and the caller's subject as `enduser.id`.
 */
export function traceTo(tracerProvider: TracerProvider, meterProvider: MeterProvider): Telemetry {
  return otel({ tracerProvider, meterProvider, captureEndUser: true });
}
