import type { PipelinePart, Guard, Interceptor, ExceptionFilter, RateLimitOptions } from '../decorators/pipeline-types';
import type { RoleRule } from '../decorators/require-roles.decorator';
import type { ScopeRule } from '../decorators/require-scopes.decorator';
import type { Constructor } from '../metadata/constructor';
import {
  FILTERS_METADATA,
  GUARDS_METADATA,
  INTERCEPTORS_METADATA,
  PUBLIC_METADATA,
  RATE_LIMIT_METADATA,
  ROLES_METADATA,
  SCOPES_METADATA,
} from '../metadata/metadata-keys';
import type { DecoratedMethod } from './scan-providers';

/** What `@UseGuards`, `@RequireScopes` … say at one level (a class, or a method). */
export interface Rules {
  readonly guards: ReadonlyArray<PipelinePart<Guard>>;
  readonly interceptors: ReadonlyArray<PipelinePart<Interceptor>>;
  readonly filters: ReadonlyArray<PipelinePart<ExceptionFilter>>;
  readonly isPublic: boolean | undefined;
  readonly scopes: readonly ScopeRule[];
  readonly roles: readonly RoleRule[];
  readonly rateLimit: RateLimitOptions | undefined;
}

/** A primitive's access and pipeline declarations, read once at start-up. */
export interface Policy {
  readonly providerClass: Constructor | undefined;
  readonly methodName: string;
  /** Undefined when the level declares nothing. */
  readonly classRules: Rules | undefined;
  readonly methodRules: Rules | undefined;
  /**
   * The app-wide rules of the apps it was mounted from (`createApp({ imports })`), outermost
   * first: they run after the importing app's own and before the class's. Absent when not mounted.
   */
  readonly mounted?: readonly MountRules[];
}

/** What a mounted app's own `createApp` options add to each of its primitives in the app importing it. */
export interface MountRules extends Rules {
  /** The mounted app said `requireAuth`: its non-public primitives need credentials here too. */
  readonly requireAuth: boolean;
}

function rulesOf(read: (key: string) => unknown): Rules | undefined {
  const rules: Rules = {
    guards: (read(GUARDS_METADATA) as Rules['guards'] | undefined) ?? [],
    interceptors: (read(INTERCEPTORS_METADATA) as Rules['interceptors'] | undefined) ?? [],
    filters: (read(FILTERS_METADATA) as Rules['filters'] | undefined) ?? [],
    isPublic: read(PUBLIC_METADATA) as boolean | undefined,
    scopes: (read(SCOPES_METADATA) as Rules['scopes'] | undefined) ?? [],
    roles: (read(ROLES_METADATA) as Rules['roles'] | undefined) ?? [],
    rateLimit: read(RATE_LIMIT_METADATA) as RateLimitOptions | undefined,
  };
  const empty =
    rules.guards.length + rules.interceptors.length + rules.filters.length + rules.scopes.length + rules.roles.length === 0 &&
    rules.isPublic === undefined &&
    rules.rateLimit === undefined;
  return empty ? undefined : Object.freeze(rules);
}

/** Reads the class's and the method's declarations of a decorated method. */
export function readPolicy(method: DecoratedMethod): Policy {
  const providerClass = (method.instance as { constructor?: Constructor }).constructor;
  const { prototype, methodName } = method;
  return Object.freeze({
    providerClass,
    methodName,
    classRules: providerClass === undefined ? undefined : rulesOf((key) => Reflect.getMetadata(key, providerClass)),
    methodRules: rulesOf((key) => Reflect.getMetadata(key, prototype, methodName)),
  });
}
