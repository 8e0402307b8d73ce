import type { ImpliedScopes } from '../auth/scopes';
import type { ExceptionFilter, Guard, Interceptor, PipelinePart, RateLimitOptions } from '../decorators/pipeline-types';
import type { Constructor } from '../metadata/constructor';
import type { RateLimitStore } from '../app/rate-limit-store';

/** The app-wide part of every primitive's pipeline (from `createApp`). */
export interface PipelineSettings {
  readonly guards: ReadonlyArray<PipelinePart<Guard>>;
  readonly interceptors: ReadonlyArray<PipelinePart<Interceptor>>;
  readonly filters: ReadonlyArray<PipelinePart<ExceptionFilter>>;
  readonly impliedScopes: ImpliedScopes | undefined;
  /** Callers without `AuthInfo` may use only `@Public()` primitives. */
  readonly requireAuth: boolean;
  /** The limit of every tool without its own `@RateLimit`. */
  readonly rateLimit: RateLimitOptions | undefined;
  readonly rateLimitStore: RateLimitStore;
  readonly resolve: ((type: Constructor) => unknown) | undefined;
  /** `createApp({ cache: { lists: { scope: 'public' } } })` was said explicitly. */
  readonly publicListsDeclared: boolean;
}
