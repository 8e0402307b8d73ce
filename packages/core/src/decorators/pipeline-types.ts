import type { RequestContext } from '../model/request-context';
import type { Constructor } from '../metadata/constructor';

/** What a request does with a primitive: guards may answer differently per operation. */
export type Operation = 'list' | 'call' | 'get' | 'read' | 'complete';

/** The primitive a guard, interceptor or filter runs for: fixed at start-up, one frozen object per operation. */
export interface CallTarget {
  readonly kind: 'tool' | 'prompt' | 'resource' | 'resourceTemplate';
  /** Tool or prompt name, resource URI, or template string. */
  readonly name: string;
  readonly operation: Operation;
  /** `Class.method`, for logs. */
  readonly owner: string;
  /** The provider class, to read your own metadata from at start-up. */
  readonly providerClass: Constructor | undefined;
  /** The method name on it. */
  readonly methodName: string;
  /** Marked `@Public()`. */
  readonly isPublic: boolean;
}

/**
 * Decides whether the caller may use a primitive (and, for `operation: 'list'`, see it).
 * `true` lets it through; `false` denies (`ForbiddenError`; in lists the item is left out);
 * `'hide'` makes it answer exactly like an unknown name. Throwing denies too (fail closed) and
 * is logged once; throw an `McpError` (e.g. `InsufficientScopeError`) to choose the answer.
 *
 * @example
 * class WorkingHours implements Guard {
 *   canActivate() { const h = new Date().getHours(); return h >= 8 && h < 18; }
 * }
 */
export interface Guard {
  canActivate(ctx: RequestContext, target: CallTarget): boolean | 'hide' | Promise<boolean | 'hide'>;
}

/**
 * Runs around validation and the handler: `next()` validates the input, runs the handler and
 * resolves with what it returned (before it is shaped into a result); what `intercept` resolves
 * with takes its place. `next()` may be called once: a second call rejects and runs nothing.
 *
 * @example
 * class Timing implements Interceptor {
 *   async intercept(ctx: RequestContext, next: () => Promise<unknown>) {
 *     const started = Date.now();
 *     try { return await next(); } finally { ctx.logger.debug({ ms: Date.now() - started }, 'timed'); }
 *   }
 * }
 */
export interface Interceptor {
  intercept(ctx: RequestContext, next: () => Promise<unknown>, target: CallTarget): unknown;
}

/**
 * Sees what interceptors and the handler throw (method filters first, then class, then app):
 * returns a value that answers instead, or throws (the same error or another) to pass it on.
 * Access denials and hidden items never reach filters.
 *
 * @example
 * class NotFoundAsText implements ExceptionFilter {
 *   catch(error: unknown) { if (error instanceof NotFound) return 'No such note.'; throw error; }
 * }
 */
export interface ExceptionFilter {
  catch(error: unknown, ctx: RequestContext, target: CallTarget): unknown;
}

/** A guard, interceptor or filter: a class (made once through `resolve`, else `new`) or an instance. */
export type PipelinePart<T> = T | Constructor<T>;

/** What a rate limit counts by: the caller (default), the tool (everyone together), or your own key. */
export type RateLimitKey = 'caller' | 'tool' | ((ctx: RequestContext) => string);

/**
 * A token bucket: `limit` calls, refilled evenly over `windowMs`.
 *
 * @example
 * @RateLimit({ limit: 30, windowMs: 60_000 })
 */
export interface RateLimitOptions {
  limit: number;
  windowMs: number;
  by?: RateLimitKey;
}

/** `@RequireScopes` options. */
export interface RequireScopesOptions {
  /** `all` (default): every scope; `any`: one of them. */
  match?: 'all' | 'any';
  /**
   * Without the scopes: `challenge` (default) answers with an insufficient-scope denial naming
   * them (HTTP: a `403` step-up challenge), and the item stays listed; `hide` makes it absent.
   */
  whenMissing?: 'challenge' | 'hide';
}

/** `@RequireRoles` options. */
export interface RequireRolesOptions {
  /** The claim holding the caller's roles, a string array (default `roles`). */
  claim?: string;
}
