import { METHOD } from '@mcpkit/core';
import type { ChangedList, ResumePosition, RouterPosition } from './session-router';

/** The GET stream id of a routed session: one per session, whichever instance holds it. */
export const ROUTED_STREAM = 'g';

const LIST_METHOD: Readonly<Record<ChangedList, string>> = {
  tools: METHOD.TOOLS_LIST_CHANGED,
  resources: METHOD.RESOURCES_LIST_CHANGED,
  prompts: METHOD.PROMPTS_LIST_CHANGED,
};

/** One entry of the broadcast log: a list change, or a resource update. */
export type Broadcast = { readonly list: ChangedList } | { readonly uri: string };

/**
 * The JSON text a broadcast is sent as on a GET stream (a hint: the client reads the list or
 * the resource again).
 *
 * @example
 * broadcastText({ list: 'tools' }); // '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}'
 */
export function broadcastText(broadcast: Broadcast): string {
  if ('list' in broadcast) return JSON.stringify({ jsonrpc: '2.0', method: LIST_METHOD[broadcast.list] });
  return JSON.stringify({ jsonrpc: '2.0', method: METHOD.RESOURCE_UPDATED, params: { uri: broadcast.uri } });
}

/** The SSE id of an event of a routed GET stream: `g_<log>_<broadcasts>`. */
export function routedEventId(position: RouterPosition): string {
  return `${ROUTED_STREAM}_${position.log}_${position.broadcasts}`;
}

/** True when a `Last-Event-ID` names the routed GET stream (valid or not): POST streams' names have no `_`. */
export function namesRoutedStream(eventId: string): boolean {
  return eventId.startsWith(`${ROUTED_STREAM}_`);
}

/**
 * The position a routed `Last-Event-ID` names: `g_<log>_<broadcasts>`, or `g_<log>` as versions
 * before the broadcast position was carried wrote it (sessions live across a deploy).
 * Undefined for anything else: an unknown id (400), never a question to put to the store.
 */
export function parseRoutedEventId(eventId: string): ResumePosition | undefined {
  if (!namesRoutedStream(eventId)) return undefined;
  const parts = eventId.slice(ROUTED_STREAM.length + 1).split('_');
  if (parts.length > 2 || !parts.every(isRoutedPosition)) return undefined;
  return parts.length === 1 ? { log: parts[0] } : { log: parts[0], broadcasts: parts[1] };
}

const MAX_PART = 18_446_744_073_709_551_615n;

/**
 * True for a position a shared log can hold (`<ms>-<n>` or `<ms>`, each part at most
 * 2^64 - 1, as Redis stream ids).
 */
export function isRoutedPosition(position: string): boolean {
  if (!/^\d{1,20}(-\d{1,20})?$/.test(position)) return false;
  return position.split('-').every((part) => BigInt(part) <= MAX_PART);
}

/**
 * Orders two stream ids (`<ms>-<n>`, or `<ms>` for `<ms>-0`) as Redis does: negative, zero or
 * positive. Both must pass `isRoutedPosition`.
 *
 * @example
 * compareStreamIds('5-1', '5-10'); // < 0
 */
export function compareStreamIds(a: string, b: string): number {
  const [am, as = '0'] = a.split('-');
  const [bm, bs = '0'] = b.split('-');
  const ms = compareDigits(am, bm);
  return ms !== 0 ? ms : compareDigits(as, bs);
}

/** Compares two decimal strings without leading-zero trouble or float rounding. */
function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}
