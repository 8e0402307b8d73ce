import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { RATE_LIMIT_METADATA } from '../metadata/metadata-keys';
import { classOrMethod } from './class-or-method';
import type { RateLimitOptions } from './pipeline-types';

/** Throws a DefinitionError unless `options` is a valid rate limit; `where` names its owner. */
export function checkRateLimit(options: unknown, where: string): asserts options is RateLimitOptions {
  const { limit, windowMs, by } = (options ?? {}) as Partial<RateLimitOptions>;
  const problems: string[] = [];
  if (!(Number.isSafeInteger(limit) && (limit as number) > 0)) problems.push(`limit ${String(limit)} is not a positive integer`);
  if (!(Number.isFinite(windowMs) && (windowMs as number) > 0)) problems.push(`windowMs ${String(windowMs)} is not a positive number`);
  if (by !== undefined && by !== 'caller' && by !== 'tool' && typeof by !== 'function')
    problems.push(`by ${JSON.stringify(by)} is not 'caller', 'tool' or a function`);
  if (problems.length > 0) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `The rate limit of ${where} is invalid: ${problems.join('; ')}.`, [
      "Write { limit: 30, windowMs: 60_000 } (and by: 'caller' | 'tool' | (ctx) => key).",
    ]);
  }
}

/**
 * Limits how often a tool may be called (on a class: each of its tools): a token bucket of
 * `limit` calls refilled over `windowMs`, per caller by default (its subject; anonymous
 * callers by session, else by client address). Over the limit the call answers an `isError`
 * result "rate limit: retry in N s", with the wait in `_meta`.
 *
 * @example
 * @RateLimit({ limit: 5, windowMs: 10_000 })
 * @Tool() limited() { return 'limited:ok'; }
 */
export function RateLimit(options: RateLimitOptions): ClassDecorator & MethodDecorator {
  checkRateLimit(options, '@RateLimit');
  return classOrMethod('@RateLimit', RATE_LIMIT_METADATA, Object.freeze({ ...options }), false);
}
