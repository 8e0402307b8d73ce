import type { CacheHint } from '../results/cache-hints';
import type { CapabilityMap } from '../scanner/definitions';
import type { Pipelines } from '../pipeline/pipelines';
import type { Pipeline } from '../pipeline/compile-pipeline';
import type { HandlerContext } from './handler-context';
import type { SubscriptionGrant } from '../model/subscription-grant';

/** What answers a read of one URI for one caller, once its access rule and guards let the caller through. */
export interface Readable {
  /** The resource's or template's pipeline; undefined when it declares none. */
  readonly pipeline: Pipeline | undefined;
  readonly cache: CacheHint | undefined;
  readonly mimeType: string | undefined;
  /** Runs its handler (inside nothing: the caller wraps it in the pipeline). */
  read(ctx: HandlerContext): unknown;
}

/** A URI only items hidden from this caller answer: it gets what a URI nothing answers gets. */
export const HIDDEN: unique symbol = Symbol('hidden');

/**
 * Which resource answers a read of `uri` for this caller: the exact URI first, then each
 * template in declaration order. What is hidden from the caller does not match (a template
 * after it may, as if it were absent); a denial throws. `HIDDEN` when only hidden items match,
 * undefined when none does. The same rule decides `resources/read` and who may subscribe to `uri`.
 */
export async function findReadable(
  map: CapabilityMap,
  pipelines: Pipelines | undefined,
  uri: string,
  ctx: HandlerContext,
): Promise<Readable | typeof HIDDEN | undefined> {
  let hidden = false;
  const fixed = map.resources.get(uri);
  if (fixed) {
    const pipeline = pipelines?.resources.byName.get(uri);
    if (pipeline === undefined || (await pipeline.authorize(ctx, 'read')) !== 'hidden') {
      return { pipeline, cache: fixed.cache, mimeType: fixed.entry.mimeType, read: (context) => fixed.invoke({ uri }, context) };
    }
    hidden = true;
  }
  for (const definition of map.templates) {
    const variables = definition.template.match(uri);
    if (!variables) continue;
    const pipeline = pipelines?.templates.byName.get(definition.entry.uriTemplate);
    if (pipeline !== undefined && (await pipeline.authorize(ctx, 'read')) === 'hidden') {
      hidden = true;
      continue;
    }
    return { pipeline, cache: definition.cache, mimeType: definition.entry.mimeType, read: (context) => definition.invoke(variables, context) };
  }
  return hidden ? HIDDEN : undefined;
}

/**
 * What subscribing to `uri` is granted with, by the read rule of whatever answers it
 * (`findReadable`): undefined when only items hidden from this caller do (it is then answered
 * as an unknown URI, and never heard of); a denial throws, as it would for a read. A URI nothing
 * answers may be subscribed to, as before it exists.
 */
export function subscriptionGrant(
  map: CapabilityMap,
  pipelines: Pipelines | undefined,
  uri: string,
  ctx: HandlerContext,
): SubscriptionGrant | undefined | Promise<SubscriptionGrant | undefined> {
  const grant: SubscriptionGrant = { auth: ctx.auth, pipelines };
  // No rules anywhere: nothing to wait for.
  if (pipelines === undefined) return grant;
  return findReadable(map, pipelines, uri, ctx).then((found) => {
    if (found !== HIDDEN) return grant;
    ctx.outcome = 'hidden';
    return undefined;
  });
}

/**
 * Whether an update of `uri` may reach the subscriber of `grant`: always while the app is the one
 * it subscribed to (the read rule let it through then, and a hidden URI was never subscribed).
 * After a change of a dynamic app, the read rule of whatever answers `uri` now, for the
 * credential it subscribed with; guards need a request to run, so a guarded item is not heard
 * until the client subscribes again (fail closed).
 */
export function mayHear(map: CapabilityMap, pipelines: Pipelines | undefined, uri: string, grant: SubscriptionGrant): boolean {
  if (grant.pipelines === pipelines) return true;
  const allows = (pipeline: Pipeline | undefined): boolean => pipeline === undefined || (!pipeline.guarded && pipeline.access?.check(grant.auth) === undefined);
  let hidden = false;
  if (map.resources.has(uri)) {
    const pipeline = pipelines?.resources.byName.get(uri);
    if (pipeline?.access?.check(grant.auth) !== 'hidden') return allows(pipeline);
    hidden = true;
  }
  for (const definition of map.templates) {
    if (!definition.template.match(uri)) continue;
    const pipeline = pipelines?.templates.byName.get(definition.entry.uriTemplate);
    if (pipeline?.access?.check(grant.auth) === 'hidden') {
      hidden = true;
      continue;
    }
    return allows(pipeline);
  }
  // Nothing answers it: as when it was subscribed to, unless only hidden templates do now.
  return !hidden;
}
