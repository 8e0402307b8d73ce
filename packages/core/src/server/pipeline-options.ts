import type { AppOptions } from '../app/app-options';
import { assertParts } from '../decorators/class-or-method';
import type { PipelineSettings } from '../pipeline/pipeline-settings';
import { MemoryRateLimitStore } from '../app/rate-limit-store';

function list<T>(value: readonly T[] | undefined, option: string, member: string): readonly T[] {
  if (value === undefined) return [];
  if (value.length > 0) assertParts(`createApp({ ${option} })`, member, value);
  return Object.freeze([...value]);
}

/** The app-wide pipeline settings of `createApp`, from its options (already checked against `APP_OPTIONS`). */
export function pipelineSettings(options: AppOptions): PipelineSettings {
  return Object.freeze({
    guards: list(options.guards, 'guards', 'canActivate'),
    interceptors: list(options.interceptors, 'interceptors', 'intercept'),
    filters: list(options.filters, 'filters', 'catch'),
    impliedScopes: options.impliedScopes,
    requireAuth: options.requireAuth === true,
    rateLimit: options.rateLimit,
    rateLimitStore: options.rateLimitStore ?? new MemoryRateLimitStore(),
    resolve: options.resolve,
    publicListsDeclared: options.cache?.lists?.scope === 'public',
  });
}
