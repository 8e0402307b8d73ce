import { pageAt, pagesOf } from '../app/pages';
import type { ListPages } from '../model/list-pages';
import type { KindPipelines } from '../pipeline/pipelines';
import type { VisibleEntries } from '../pipeline/visible-lists';
import type { AppModel } from './app-model';
import type { HandlerContext } from './handler-context';

// A list that varies by caller is private on every page (caching.mdx: one cacheScope for all pages).
const PER_CALLER = Object.freeze({ scope: 'private' as const });

type Page<K extends string, T> = Readonly<Record<K, T[]> & { nextCursor?: string }>;

/**
 * A list result: the precomputed page when no item's visibility depends on the caller; else the
 * items this caller may see, filtered before pagination, from its own credentials on this
 * request (a step-up changes them mid-session). The built-in rules' part is memoised per
 * visibility signature (`VisibleLists`); guards, which see the whole context, run per request.
 */
export function listFor<K extends string, T>(
  app: AppModel,
  pages: ListPages<K, T>,
  list: K,
  cursor: unknown,
  ctx: HandlerContext,
  pipelines: KindPipelines | undefined,
): Page<K, T> | Promise<Page<K, T>> {
  if (pipelines === undefined || !pipelines.varies) return pageAt(pages, list, cursor);
  ctx.declaredCacheHint = PER_CALLER;
  const visible = pipelines.lists.of(pages, list, ctx.auth, app.settings.pageSize);
  if (visible.pages !== undefined) return pageAt(visible.pages, list, cursor);
  return guardedPage(app, visible, list, cursor, ctx);
}

async function guardedPage<K extends string, T>(
  app: AppModel,
  visible: VisibleEntries<K, T>,
  list: K,
  cursor: unknown,
  ctx: HandlerContext,
): Promise<Page<K, T>> {
  const { entries, guarded } = visible;
  const verdicts = await Promise.all(entries.map((_, index) => guarded![index]?.guardsVisible(ctx) ?? true));
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
