import type {
  ExceptionFilter,
  Guard,
  Interceptor,
  PipelinePart,
  RateLimitOptions,
  RequireRolesOptions,
  RequireScopesOptions,
} from '../decorators/pipeline-types';
import { Public } from '../decorators/public.decorator';
import { RateLimit } from '../decorators/rate-limit.decorator';
import { RequireRoles } from '../decorators/require-roles.decorator';
import { RequireScopes } from '../decorators/require-scopes.decorator';
import { UseFilters } from '../decorators/use-filters.decorator';
import { UseGuards } from '../decorators/use-guards.decorator';
import { UseInterceptors } from '../decorators/use-interceptors.decorator';

/**
 * The pipeline of a `define*` capability: what the decorators `@UseGuards`, `@UseInterceptors`,
 * `@UseFilters`, `@RequireScopes`, `@RequireRoles` and `@Public` say on a method, as options.
 * They store the very same metadata, so a defined capability runs exactly the pipeline of its
 * decorated twin (after the app's guards, interceptors and filters).
 *
 * @example
 * defineTool({ name: 'create_note', input: NewNote, requireScopes: ['notes:write'], guards: [TenantGuard] }, (input) => store.add(input));
 */
export interface DefinePipelineOptions {
  /** As `@UseGuards(...guards)`. */
  guards?: ReadonlyArray<PipelinePart<Guard>>;
  /** As `@UseInterceptors(...interceptors)`. */
  interceptors?: ReadonlyArray<PipelinePart<Interceptor>>;
  /** As `@UseFilters(...filters)`. */
  filters?: ReadonlyArray<PipelinePart<ExceptionFilter>>;
  /** As `@RequireScopes(...scopes)`, or with its options: `{ scopes, match, whenMissing }`. */
  requireScopes?: readonly string[] | ({ scopes: readonly string[] } & RequireScopesOptions);
  /** As `@RequireRoles(...roles)`, or with its options: `{ roles, claim }`. */
  requireRoles?: readonly string[] | ({ roles: readonly string[] } & RequireRolesOptions);
  /** As `@Public()` (default false). */
  public?: boolean;
}

/** `defineTool`'s pipeline options: the common ones and `rateLimit`, as `@RateLimit(options)`. */
export interface DefineToolPipelineOptions extends DefinePipelineOptions {
  rateLimit?: RateLimitOptions;
}

type Decorate = (prototype: object, key: string, descriptor: PropertyDescriptor) => void;

const PIPELINE_KEYS = ['guards', 'interceptors', 'filters', 'requireScopes', 'requireRoles', 'public', 'rateLimit'] as const;

/**
 * @internal Splits a `define*` options object into the capability's own options (for its
 * decorator) and a function that applies the pipeline decorators those options name.
 */
export function pipelineDecorators<O extends DefineToolPipelineOptions>(options: O): [Omit<O, (typeof PIPELINE_KEYS)[number]>, Decorate] {
  const own = { ...options } as Record<string, unknown>;
  for (const key of PIPELINE_KEYS) delete own[key];
  const decorators: MethodDecorator[] = [];
  const { guards, interceptors, filters, requireScopes, requireRoles, rateLimit } = options;
  // Each decorator checks its own arguments, so a mistake here reads as it would on a method.
  if (guards !== undefined) decorators.push(UseGuards(...(guards as Array<PipelinePart<Guard>>)));
  if (interceptors !== undefined) decorators.push(UseInterceptors(...(interceptors as Array<PipelinePart<Interceptor>>)));
  if (filters !== undefined) decorators.push(UseFilters(...(filters as Array<PipelinePart<ExceptionFilter>>)));
  if (requireScopes !== undefined) {
    decorators.push(
      Array.isArray(requireScopes)
        ? RequireScopes(...(requireScopes as string[]))
        : RequireScopes(...((requireScopes as { scopes: string[] }).scopes ?? []), {
            match: (requireScopes as RequireScopesOptions).match,
            whenMissing: (requireScopes as RequireScopesOptions).whenMissing,
          }),
    );
  }
  if (requireRoles !== undefined) {
    decorators.push(
      Array.isArray(requireRoles)
        ? RequireRoles(...(requireRoles as string[]))
        : RequireRoles(...((requireRoles as { roles: string[] }).roles ?? []), { claim: (requireRoles as RequireRolesOptions).claim }),
    );
  }
  if (options.public === true) decorators.push(Public());
  if (rateLimit !== undefined) decorators.push(RateLimit(rateLimit));
  const decorate: Decorate = (prototype, key, descriptor) => {
    for (const decorator of decorators) decorator(prototype, key, descriptor);
  };
  return [own as Omit<O, (typeof PIPELINE_KEYS)[number]>, decorate];
}

/** @internal The capability's decorator (given its own options), then the pipeline decorators `given` names. */
export function withPipeline<O extends DefineToolPipelineOptions>(given: O, decorator: (own: Omit<O, (typeof PIPELINE_KEYS)[number]>) => Decorate): Decorate {
  const [own, pipeline] = pipelineDecorators(given);
  const declare = decorator(own);
  return (prototype, key, descriptor) => {
    declare(prototype, key, descriptor);
    pipeline(prototype, key, descriptor);
  };
}
