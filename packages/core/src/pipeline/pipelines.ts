import type { CallTarget, ExceptionFilter, Guard, Interceptor, Operation, PipelinePart, RateLimitOptions } from '../decorators/pipeline-types';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { isConstructor, type Constructor } from '../metadata/constructor';
import type { CapabilityMap } from '../scanner/definitions';
import type { MountRules, Policy } from '../scanner/read-policy';
import { compileAccessRule } from './access-rule';
import { compilePipeline, type Pipeline } from './compile-pipeline';
import type { PipelineSettings } from './pipeline-settings';
import { rateLimiter } from './rate-limiter';
import { VisibleLists } from './visible-lists';

/** The pipelines of one kind: by name for calls, in list order for lists. */
export interface KindPipelines {
  readonly byName: ReadonlyMap<string, Pipeline>;
  /** Aligned with the kind's list entries; undefined where an item has nothing to run. */
  readonly inOrder: ReadonlyArray<Pipeline | undefined>;
  /** Some item's list visibility depends on the caller. */
  readonly varies: boolean;
  /** The kind's filtered lists, memoised per visibility signature. */
  readonly lists: VisibleLists;
}

/** Every pipeline of an app state; the app has none at all when nothing is declared anywhere. */
export interface Pipelines {
  readonly tools: KindPipelines;
  readonly prompts: KindPipelines;
  readonly resources: KindPipelines;
  readonly templates: KindPipelines;
}

const OPERATIONS: readonly Operation[] = ['list', 'call', 'get', 'read', 'complete'];

type Kind = CallTarget['kind'];

/** Makes each part once per app (a class used on ten tools is one instance). */
class Parts {
  private readonly instances = new Map<Constructor, unknown>();
  constructor(private readonly resolve: ((type: Constructor) => unknown) | undefined) {}

  of<T>(parts: ReadonlyArray<PipelinePart<T>>, member: string, owner: string): T[] {
    return parts.map((part) => {
      let instance: unknown = part;
      if (isConstructor(part)) {
        instance = this.instances.get(part);
        if (instance === undefined) {
          instance = this.resolve ? this.resolve(part) : new part();
          this.instances.set(part, instance);
        }
      }
      if (typeof instance !== 'object' || instance === null || typeof (instance as Record<string, unknown>)[member] !== 'function') {
        throw new DefinitionError(DefinitionErrorCode.INVALID_PROVIDER, `A guard, interceptor or filter of ${owner} has no ${member} method.`, [
          `Give it ${member}(…), or make resolve() return an instance of the class it is given.`,
        ]);
      }
      return instance as T;
    });
  }
}

function pipelineOf(kind: Kind, name: string, owner: string, policy: Policy, settings: PipelineSettings, parts: Parts): Pipeline | undefined {
  const mounted = policy.mounted ?? [];
  const levels = [...mounted, policy.classRules, policy.methodRules].filter((rules) => rules !== undefined);
  const isPublic = policy.methodRules?.isPublic ?? policy.classRules?.isPublic ?? false;
  const requireAuth = settings.requireAuth || mounted.some((rules) => rules.requireAuth);
  const access = compileAccessRule(
    levels.flatMap((rules) => rules.scopes),
    levels.flatMap((rules) => rules.roles),
    requireAuth && !isPublic,
    settings.impliedScopes,
  );
  const guards = parts.of<Guard>([...settings.guards, ...levels.flatMap((rules) => rules.guards)], 'canActivate', owner);
  const interceptors = parts.of<Interceptor>([...settings.interceptors, ...levels.flatMap((rules) => rules.interceptors)], 'intercept', owner);
  const filters = parts.of<ExceptionFilter>([...[...levels].reverse().flatMap((rules) => rules.filters), ...settings.filters], 'catch', owner);
  const limit =
    kind === 'tool' ? (policy.methodRules?.rateLimit ?? policy.classRules?.rateLimit ?? mountedRateLimit(mounted) ?? settings.rateLimit) : undefined;
  if (limit !== undefined) interceptors.unshift(rateLimiter(limit, settings.rateLimitStore, name));
  if (access === undefined && guards.length + interceptors.length + filters.length === 0) return undefined;
  const targets = {} as Record<Operation, CallTarget>;
  for (const operation of OPERATIONS) {
    targets[operation] = Object.freeze({ kind, name, operation, owner, providerClass: policy.providerClass, methodName: policy.methodName, isPublic });
  }
  return compilePipeline({ access, guards, interceptors, filters, targets: Object.freeze(targets) });
}

/** The app-wide rate limit of the innermost mounted app that sets one. */
function mountedRateLimit(mounted: readonly MountRules[]): RateLimitOptions | undefined {
  for (let index = mounted.length - 1; index >= 0; index--) if (mounted[index].rateLimit !== undefined) return mounted[index].rateLimit;
  return undefined;
}

function kindPipelines(
  kind: Kind,
  items: ReadonlyArray<[string, { owner: string; policy: Policy; unlisted?: boolean }]>,
  settings: PipelineSettings,
  parts: Parts,
): KindPipelines {
  const byName = new Map<string, Pipeline>();
  const inOrder: Array<Pipeline | undefined> = [];
  for (const [name, definition] of items) {
    const pipeline = pipelineOf(kind, name, definition.owner, definition.policy, settings, parts);
    if (pipeline) byName.set(name, pipeline);
    // Aligned with the list's entries, which leave unlisted tools out.
    if (definition.unlisted !== true) inOrder.push(pipeline);
  }
  return Object.freeze({
    byName,
    inOrder,
    varies: inOrder.some((pipeline) => pipeline?.varies === true),
    lists: new VisibleLists(inOrder, settings.impliedScopes),
  });
}

/**
 * Compiles the pipeline of every primitive of `map`, or returns undefined when nothing anywhere
 * declares one: such an app then runs exactly the plain handler path.
 */
export function compilePipelines(map: CapabilityMap, settings: PipelineSettings): Pipelines | undefined {
  const parts = new Parts(settings.resolve);
  const pipelines: Pipelines = Object.freeze({
    tools: kindPipelines('tool', [...map.tools], settings, parts),
    prompts: kindPipelines('prompt', [...map.prompts], settings, parts),
    resources: kindPipelines('resource', [...map.resources], settings, parts),
    templates: kindPipelines(
      'resourceTemplate',
      map.templates.map((template) => [template.entry.uriTemplate, template] as [string, typeof template]),
      settings,
      parts,
    ),
  });
  const any = Object.values(pipelines).some((kind: KindPipelines) => kind.byName.size > 0);
  return any ? pipelines : undefined;
}
