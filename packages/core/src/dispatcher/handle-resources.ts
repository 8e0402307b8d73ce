import { ResourceNotFoundError } from '../errors/mcp-error';
import { METHOD } from '../protocol/methods';
import { requireUri } from './read-params';
import type { ReadResourceResult } from '../protocol/mcp-types';
import { toReadResourceResult } from '../results/resource-result';
import type { CapabilityMap } from '../scanner/definitions';
import type { RequestContext } from './request-context';
import type { Pipelines } from '../pipeline/pipelines';
import type { Pipeline } from '../pipeline/compile-pipeline';

/**
 * `resources/read`: an exact URI first, then each template in declaration order. A handler that
 * returns `undefined` or `null` says the resource does not exist (both eras: their error maps
 * choose the code). A URI longer than `maxUriLength` is `-32602` before any template sees it.
 */
export async function readResource(
  map: CapabilityMap,
  params: Record<string, unknown>,
  ctx: RequestContext,
  maxUriLength: number,
  pipelines?: Pipelines,
): Promise<ReadResourceResult> {
  const uri = requireUri(params, 'uri', METHOD.RESOURCES_READ, maxUriLength);
  const fixed = map.resources.get(uri);
  if (fixed) {
    const pipeline = pipelines?.resources.byName.get(uri);
    const value = pipeline === undefined ? await fixed.invoke({ uri }, ctx) : await readThrough(pipeline, ctx, () => fixed.invoke({ uri }, ctx));
    if (value === HIDDEN) throw hiddenResource(uri, ctx);
    if (value === undefined || value === null) throw new ResourceNotFoundError(uri);
    ctx.declaredCacheHint = fixed.cache;
    return toReadResourceResult(value, uri, fixed.entry.mimeType);
  }
  let hidden = false;
  for (const definition of map.templates) {
    const variables = definition.template.match(uri);
    if (!variables) continue;
    const pipeline = pipelines?.templates.byName.get(definition.entry.uriTemplate);
    const value = pipeline === undefined ? await definition.invoke(variables, ctx) : await readThrough(pipeline, ctx, () => definition.invoke(variables, ctx));
    // A template hidden from this caller does not match: the next one may, as if it were absent.
    if (value === HIDDEN) {
      hidden = true;
      continue;
    }
    if (value === undefined || value === null) throw new ResourceNotFoundError(uri);
    ctx.declaredCacheHint = definition.cache;
    return toReadResourceResult(value, uri, definition.entry.mimeType);
  }
  throw hidden ? hiddenResource(uri, ctx) : new ResourceNotFoundError(uri);
}

const HIDDEN: unique symbol = Symbol('hidden');

async function readThrough(pipeline: Pipeline, ctx: RequestContext, read: () => unknown): Promise<unknown> {
  if ((await pipeline.authorize(ctx, 'read')) === 'hidden') return HIDDEN;
  return pipeline.run(ctx, 'read', async () => read());
}

/** The answer to a resource hidden from this caller: exactly an unknown URI's. */
function hiddenResource(uri: string, ctx: RequestContext): ResourceNotFoundError {
  ctx.outcome = 'hidden';
  return new ResourceNotFoundError(uri);
}
