import type { WireCacheHint } from '../../results/cache-hints';
import { isObject } from '../../protocol/json-rpc';
import type { Implementation, ServerCapabilities } from '../../protocol/mcp-types';
import { METHOD } from '../../protocol/methods';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../../protocol/protocol-versions';
import { META, TASKS_EXTENSION } from './meta';

/** `server/discover`: versions, capabilities and instructions, for clients that ask first. */
export function discoverResult(capabilities: Readonly<ServerCapabilities>, instructions: string | undefined): Record<string, unknown> {
  const { logging: _logging, tasks, ...offered } = capabilities;
  // Tasks are an extension here (SEP-2663), not the 2025-11-25 capability.
  if (tasks !== undefined) offered.extensions = { ...offered.extensions, [TASKS_EXTENSION]: {} };
  const result: Record<string, unknown> = { supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS], capabilities: offered };
  if (instructions !== undefined) result.instructions = instructions;
  return result;
}

/** The `_meta` of a modern result that has none of its own: one frozen object per app. */
export function serverInfoMeta(serverInfo: Implementation): Readonly<Record<string, unknown>> {
  return Object.freeze({ [META.SERVER_INFO]: serverInfo });
}

/**
 * A result as the modern era has it: `resultType`, the cache hint of cacheable methods, server
 * info in `_meta` (`infoMeta`, shared, unless the result brings its own `_meta`).
 */
export function shapeModernResult(
  result: Record<string, unknown>,
  infoMeta: Readonly<Record<string, unknown>>,
  cache: WireCacheHint | undefined,
): Record<string, unknown> {
  const own = result._meta;
  // Copied, then given its keys: a spread followed by keys in one literal took V8's slow path
  // (about a microsecond a call, a twelfth of a proxied call's remote).
  const shaped: Record<string, unknown> = Object.assign({}, result);
  // A created task keeps its own resultType; every other result is complete.
  shaped.resultType = result.resultType === 'task' ? 'task' : 'complete';
  shaped._meta = isObject(own) ? { ...own, ...infoMeta } : infoMeta;
  if (cache) {
    shaped.ttlMs = cache.ttlMs;
    shaped.cacheScope = cache.cacheScope;
  }
  return shaped;
}

/** The only methods whose results may be input-required (MRTR, protocol.md §7.2). */
export const MRTR_METHODS: ReadonlySet<string> = new Set([METHOD.TOOLS_CALL, METHOD.PROMPTS_GET, METHOD.RESOURCES_READ]);

/** An input-required result: the questions by key, and the state to echo on the retry. */
export function inputRequiredResult(
  missing: Record<string, { method: string; params: Record<string, unknown> }>,
  requestState: string,
  infoMeta: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  return { resultType: 'input_required', inputRequests: missing, requestState, _meta: infoMeta };
}
