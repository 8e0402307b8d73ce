import { ResourceNotFoundError } from '../errors/mcp-error';
import { METHOD } from '../protocol/methods';
import { requireString } from './read-params';
import type { ReadResourceResult } from '../protocol/mcp-types';
import { toReadResourceResult } from '../results/resource-result';
import type { CapabilityMap } from '../scanner/definitions';
import type { RequestContext } from './request-context';

/**
 * `resources/read`: an exact URI first, then each template in declaration order. A handler that
 * returns `undefined` or `null` says the resource does not exist (both eras: their error maps
 * choose the code).
 */
export async function readResource(map: CapabilityMap, params: Record<string, unknown>, ctx: RequestContext): Promise<ReadResourceResult> {
  const uri = requireString(params, 'uri', METHOD.RESOURCES_READ);
  const fixed = map.resources.get(uri);
  if (fixed) {
    const value = await fixed.invoke({ uri }, ctx);
    if (value === undefined || value === null) throw new ResourceNotFoundError(uri);
    ctx.declaredCacheHint = fixed.cache;
    return toReadResourceResult(value, uri, fixed.entry.mimeType);
  }
  for (const definition of map.templates) {
    const variables = definition.template.match(uri);
    if (!variables) continue;
    const value = await definition.invoke(variables, ctx);
    if (value === undefined || value === null) throw new ResourceNotFoundError(uri);
    ctx.declaredCacheHint = definition.cache;
    return toReadResourceResult(value, uri, definition.entry.mimeType);
  }
  throw new ResourceNotFoundError(uri);
}
