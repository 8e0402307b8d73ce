import { ResourceNotFoundError } from '../errors/mcp-error';
import { METHOD } from '../protocol/methods';
import { requireUri } from '../model/read-params';
import type { ReadResourceResult } from '../protocol/mcp-types';
import { toReadResourceResult } from '../results/resource-result';
import type { CapabilityMap } from '../scanner/definitions';
import type { HandlerContext } from './handler-context';
import type { Pipelines } from '../pipeline/pipelines';
import { findReadable, HIDDEN } from './readable-resource';

/**
 * `resources/read`: an exact URI first, then each template in declaration order (`findReadable`).
 * A handler that returns `undefined` or `null` says the resource does not exist (both eras: their
 * error maps choose the code). A URI longer than `maxUriLength` is `-32602` before any template sees it.
 */
export async function readResource(
  map: CapabilityMap,
  params: Record<string, unknown>,
  ctx: HandlerContext,
  maxUriLength: number,
  pipelines?: Pipelines,
): Promise<ReadResourceResult> {
  const uri = requireUri(params, 'uri', METHOD.RESOURCES_READ, maxUriLength);
  const found = await findReadable(map, pipelines, uri, ctx);
  // A resource hidden from this caller: exactly an unknown URI's answer.
  if (found === HIDDEN) ctx.outcome = 'hidden';
  if (found === HIDDEN || found === undefined) throw new ResourceNotFoundError(uri);
  const { pipeline } = found;
  const value = pipeline === undefined ? await found.read(ctx) : await pipeline.run(ctx, 'read', async () => found.read(ctx));
  if (value === undefined || value === null) throw new ResourceNotFoundError(uri);
  ctx.declaredCacheHint = found.cache;
  return toReadResourceResult(value, uri, found.mimeType);
}
