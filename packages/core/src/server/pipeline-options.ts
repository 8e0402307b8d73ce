import type { AppOptions } from '../app/app-options';
import { checkRateLimit } from '../decorators/rate-limit.decorator';
import { assertParts } from '../decorators/class-or-method';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import type { PipelineSettings } from '../pipeline/pipeline-settings';
import { MemoryRateLimitStore } from '../app/rate-limit-store';

function list<T>(value: readonly T[] | undefined, option: string, member: string): readonly T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `createApp({ ${option} }) must be an array.`, [`createApp({ ${option}: [MyPart] })`]);
  }
  if (value.length > 0) assertParts(`createApp({ ${option} })`, member, value);
  return Object.freeze([...value]);
}

/** The app-wide pipeline settings of `createApp`, checked. */
export function pipelineSettings(options: AppOptions): PipelineSettings {
  const implied = options.impliedScopes;
  if (implied !== undefined && (typeof implied !== 'object' || implied === null || Object.values(implied).some((value) => !Array.isArray(value)))) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, 'createApp({ impliedScopes }) must map each scope to the scopes it implies.', [
      "impliedScopes: { 'notes:write': ['notes:read'] }",
    ]);
  }
  if (options.rateLimit !== undefined) checkRateLimit(options.rateLimit, 'createApp({ rateLimit })');
  const store = options.rateLimitStore;
  if (store !== undefined && typeof store.take !== 'function') {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, 'createApp({ rateLimitStore }) has no take() method.', [
      'Pass a RateLimitStore, e.g. new MemoryRateLimitStore().',
    ]);
  }
  return Object.freeze({
    guards: list(options.guards, 'guards', 'canActivate'),
    interceptors: list(options.interceptors, 'interceptors', 'intercept'),
    filters: list(options.filters, 'filters', 'catch'),
    impliedScopes: implied,
    requireAuth: options.requireAuth === true,
    rateLimit: options.rateLimit,
    rateLimitStore: store ?? new MemoryRateLimitStore(),
    resolve: options.resolve,
    publicListsDeclared: options.cache?.lists?.scope === 'public',
  });
}
