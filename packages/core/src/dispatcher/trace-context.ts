import type { Meta } from '../protocol/mcp-types';
import type { TraceContext } from '../model/trace-context';

// Version 00..fe (ff is forbidden); later versions may append fields after the flags.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZEROS_32 = '0'.repeat(32);
const ZEROS_16 = '0'.repeat(16);

type Headers = Readonly<Record<string, string | string[] | undefined>> | undefined;

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value) && typeof value[0] === 'string') return value.join(',').trim();
  return undefined;
}

/** The trace id of a valid `traceparent`, for log lines; `undefined` for anything else. */
export function traceIdOf(traceparent: unknown): string | undefined {
  const parsed = typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent.trim()) : null;
  if (!parsed || parsed[1] === 'ff' || parsed[2] === ZEROS_32 || parsed[3] === ZEROS_16) return undefined;
  if (parsed[1] === '00' && parsed[5] !== undefined) return undefined;
  return parsed[2];
}

/**
 * The trace context of a request: `_meta` first (the MCP way), else the HTTP headers. An invalid
 * `traceparent` means no context (W3C: the callee starts a new trace), never an error.
 */
export function readTraceContext(meta: Meta | undefined, headers: Headers): TraceContext | undefined {
  const fromMeta = meta !== undefined && meta.traceparent !== undefined;
  const source = (key: string) => text(fromMeta ? meta[key] : headers?.[key]);
  const traceparent = source('traceparent');
  const traceId = traceIdOf(traceparent);
  if (traceparent === undefined || traceId === undefined) return undefined;
  const context: { -readonly [K in keyof TraceContext]: TraceContext[K] } = {
    traceparent,
    traceId,
    parentId: traceparent.slice(36, 52),
    sampled: (Number.parseInt(traceparent.slice(53, 55), 16) & 1) === 1,
  };
  const tracestate = source('tracestate');
  if (tracestate) context.tracestate = tracestate;
  const baggage = source('baggage');
  if (baggage) context.baggage = baggage;
  return Object.freeze(context);
}
