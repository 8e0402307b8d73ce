import type { JsonRpcMessage } from '@mcpkit/core';
import { encodeMessage, isObject, type EncodeLimits } from '@mcpkit/core/transport';

// The JSON of `_meta` objects that many requests share (the 2026-07-28 era's client capabilities
// and info, the same on every request of a connection): written once, then spliced into each
// request instead of serialised again. Keyed by identity: only frozen objects are registered.
const encoded = new WeakMap<object, string>();

/** Freezes `meta` and remembers its JSON, for `encodeRequest`; returns it. */
export function sharedMeta(meta: Record<string, unknown>): Readonly<Record<string, unknown>> {
  const frozen = Object.freeze(meta);
  encoded.set(frozen, JSON.stringify(frozen));
  return frozen;
}

/**
 * `encodeMessage` for what the client sends, with the same text and bounds: a request whose
 * `_meta` is a `sharedMeta` has it spliced in as the JSON written once.
 */
export function encodeRequest(message: JsonRpcMessage, limits: EncodeLimits): string | undefined {
  const params = (message as { params?: unknown }).params;
  const meta = isObject(params) ? params._meta : undefined;
  const fragment = isObject(meta) ? encoded.get(meta) : undefined;
  if (fragment === undefined) return encodeMessage(message, limits);
  // Copies without spreads (V8's slow path); an undefined `_meta` is left out by JSON.stringify.
  const rest: Record<string, unknown> = Object.assign({}, params);
  rest._meta = undefined;
  const bare = Object.assign({}, message) as { params?: unknown };
  bare.params = rest;
  const head = encodeMessage(bare as JsonRpcMessage, limits);
  // The peer writes `params` last; anything else is encoded whole.
  if (head === undefined || !head.endsWith('}}')) return encodeMessage(message, limits);
  const text = `${head.slice(0, -2)}${head.endsWith('"params":{}}') ? '' : ','}"_meta":${fragment}}}`;
  const max = limits.maxMessageBytes;
  return text.length > max || (text.length * 3 > max && Buffer.byteLength(text) > max) ? undefined : text;
}
