import type { CallTarget, Interceptor, RateLimitOptions } from '../decorators/pipeline-types';
import type { HandlerContext } from '../dispatcher/handler-context';
import { toolErrorResult } from '../results/tool-result';
import type { RateLimitStore } from '../app/rate-limit-store';

/** The `_meta` key of a rate-limited result: `{ retryAfterMs }`. */
export const RATE_LIMIT_META = 'io.mcpkit/rateLimit';

/**
 * Who a call counts against when limiting by caller: its subject; anonymous callers by their
 * session (legacy era), else their network address; else everyone anonymous together.
 */
function callerKey(ctx: HandlerContext): string {
  const auth = ctx.auth;
  if (auth !== undefined) return `sub:${auth.issuer ?? ''}:${auth.subject}`;
  const session = ctx.session?.id;
  if (session !== undefined) return `session:${session}`;
  const address = ctx.transport.remoteAddress;
  return address === undefined ? 'anonymous' : `address:${address}`;
}

/**
 * A tool's rate limit as an interceptor (`level`: '' in the app serving it, `mount1:` … for the
 * apps it was mounted from) (after the guards, so a denied caller spends
 * nothing). Over the limit the tool answers an `isError` result the model can act on. A
 * 2026-07-28 call that asks its client questions counts on its first round only (each exchange
 * completes once).
 */
export function rateLimiter(options: RateLimitOptions, store: RateLimitStore, tool: string, level = ''): Interceptor {
  const { limit, windowMs, by = 'caller' } = options;
  // `level` keeps apart the counts of the apps a mounted tool came through (a key of `by`'s own is the user's to share).
  const keyOf = by === 'tool' ? () => `${level}tool:${tool}` : by === 'caller' ? (ctx: HandlerContext) => `${level}tool:${tool}:${callerKey(ctx)}` : by;
  return {
    async intercept(ctx: HandlerContext, next: () => Promise<unknown>, _target: CallTarget) {
      // A call that asks its client counts once: its later rounds were counted on its first.
      if (ctx.isContinuation) return next();
      let wait = store.take(keyOf(ctx), limit, windowMs);
      if (wait instanceof Promise) wait = await wait;
      if (wait <= 0) return next();
      ctx.outcome = 'rate_limited';
      const seconds = Math.max(1, Math.ceil(wait / 1000));
      return { ...toolErrorResult(`rate limit: retry in ${seconds} s`), _meta: { [RATE_LIMIT_META]: { retryAfterMs: wait } } };
    },
  };
}
