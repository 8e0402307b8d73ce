import { pageAt, pagesOf, type ListPages } from '../app/pages';
import type { KindPipelines } from '../pipeline/pipelines';
import type { AppModel } from './app-model';
import type { RequestContext } from './request-context';

// A list that varies by caller is private on every page (caching.mdx: one cacheScope for all pages).
const PER_CALLER = Object.freeze({ scope: 'private' as const });

/**
 * A list result: the precomputed page when no item's visibility depends on the caller; else the
 * items this caller may see, filtered before pagination, recomputed per request from its own
 * credentials (a step-up changes them mid-session).
 */
export function listFor<K extends string, T>(
  app: AppModel,
  pages: ListPages<K, T>,
  list: K,
  cursor: unknown,
  ctx: RequestContext,
  pipelines: KindPipelines | undefined,
): Readonly<Record<K, T[]> & { nextCursor?: string }> | Promise<Readonly<Record<K, T[]> & { nextCursor?: string }>> {
  if (pipelines === undefined || !pipelines.varies) return pageAt(pages, list, cursor);
  ctx.declaredCacheHint = PER_CALLER;
  return visiblePage(app, pages, list, cursor, ctx, pipelines);
}

async function visiblePage<K extends string, T>(
  app: AppModel,
  pages: ListPages<K, T>,
  list: K,
  cursor: unknown,
  ctx: RequestContext,
  pipelines: KindPipelines,
): Promise<Readonly<Record<K, T[]> & { nextCursor?: string }>> {
  const entries = pages.length === 1 ? pages[0][list] : pages.flatMap((page) => page[list]);
  const verdicts = await Promise.all(entries.map((_, index) => pipelines.inOrder[index]?.visible(ctx) ?? true));
  return pageAt(
    pagesOf(
      list,
      entries.filter((_, index) => verdicts[index]),
      app.settings.pageSize,
    ),
    list,
    cursor,
  );
}
