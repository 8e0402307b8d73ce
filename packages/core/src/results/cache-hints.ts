import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { METHOD } from '../protocol/methods';

/** Who may reuse a cached result: anyone (`public`) or only the same authorization context. */
export type CacheScope = 'public' | 'private';

/**
 * How long, and for whom, a 2026-07-28 client may keep a result (`ttlMs`, `cacheScope`).
 *
 * @example
 * @Resource({ uri: 'docs://changelog', cache: { ttlMs: 60_000, scope: 'public' } })
 */
export interface CacheHint {
  /** Milliseconds the result stays fresh; 0 (the default) means ask again every time. */
  ttlMs?: number;
  /** `public` only when the answer is the same for every caller. */
  scope?: CacheScope;
}

/** App-wide cache hints of `createApp({ cache })`. */
export interface CacheOptions {
  /** `server/discover` and the four list results (default `{ ttlMs: 0, scope: 'public' }`). */
  lists?: CacheHint;
  /** `resources/read`, unless a resource says otherwise (default `{ ttlMs: 0, scope: 'private' }`). */
  reads?: CacheHint;
}

/** A hint as the wire carries it. */
export interface WireCacheHint {
  readonly ttlMs: number;
  readonly cacheScope: CacheScope;
}

/** For answers that depend on what the user just said (input-required retries). */
export const UNCACHEABLE: WireCacheHint = Object.freeze({ ttlMs: 0, cacheScope: 'private' });

const LISTS = ['server/discover', METHOD.TOOLS_LIST, METHOD.PROMPTS_LIST, METHOD.RESOURCES_LIST, METHOD.RESOURCES_TEMPLATES_LIST];

/** Throws a DefinitionError unless `hint` is a valid `CacheHint`; `where` names its owner. */
export function checkCacheHint(hint: unknown, where: string): void {
  if (hint === undefined) return;
  const problems: string[] = [];
  if (typeof hint !== 'object' || hint === null || Array.isArray(hint)) {
    problems.push(`${JSON.stringify(hint)} is not an object`);
  } else {
    const { ttlMs, scope, ...rest } = hint as CacheHint & Record<string, unknown>;
    if (ttlMs !== undefined && !(Number.isSafeInteger(ttlMs) && ttlMs >= 0)) problems.push(`ttlMs ${String(ttlMs)} is not a whole number of milliseconds ≥ 0`);
    if (scope !== undefined && scope !== 'public' && scope !== 'private') problems.push(`scope ${JSON.stringify(scope)} is neither "public" nor "private"`);
    const unknown = Object.keys(rest);
    if (unknown.length > 0)
      problems.push(unknown.length === 1 ? `${unknown[0]} is not a cache hint option` : `${unknown.join(', ')} are not cache hint options`);
  }
  if (problems.length > 0) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `The cache hint of ${where} is invalid: ${problems.join('; ')}.`, [
      "Write { ttlMs: 60_000, scope: 'public' }: ttlMs a whole number ≥ 0, scope 'public' or 'private'.",
    ]);
  }
}

/** `hint` over `under`: a field `hint` leaves out, or sets to `undefined`, keeps the value under it. */
export function overlayCacheHint(under: CacheHint | undefined, hint: CacheHint): CacheHint {
  const next: CacheHint = { ...under };
  if (hint.ttlMs !== undefined) next.ttlMs = hint.ttlMs;
  if (hint.scope !== undefined) next.scope = hint.scope;
  return next;
}

/** `hint` filled in from `fallback`, frozen (`fallback` itself when there is no hint). */
export function resolveCacheHint(hint: CacheHint | undefined, fallback: WireCacheHint): WireCacheHint {
  if (hint === undefined) return fallback;
  return Object.freeze({ ttlMs: hint.ttlMs ?? fallback.ttlMs, cacheScope: hint.scope ?? fallback.cacheScope });
}

/** The hint of every cacheable method, computed once from the app's options (checked by createApp). */
export function cacheHintTable(options: CacheOptions | undefined): ReadonlyMap<string, WireCacheHint> {
  // createApp checked the options against APP_OPTIONS.
  const lists = resolveCacheHint(options?.lists, Object.freeze({ ttlMs: 0, cacheScope: 'public' }));
  const table = new Map<string, WireCacheHint>(LISTS.map((method) => [method, lists]));
  // A reader may answer per caller: private unless the app or the resource says otherwise.
  table.set(METHOD.RESOURCES_READ, resolveCacheHint(options?.reads, UNCACHEABLE));
  return table;
}
