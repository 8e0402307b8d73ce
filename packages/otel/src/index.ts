export { otel, type Telemetry } from './otel';
export type { OtelOptions, TelemetryMode, TrustClientTraceContext } from './options';
export { ATTR, DURATION_BUCKETS, METRIC, TOOL_ERROR } from './attributes';
