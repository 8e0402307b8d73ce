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
 * What a client sees of a whole list, before it is paged (MCP Apps: a client without the extension
 * gets no app-only tool): `entries` shapes the entries, `pages` the precomputed pages (memoised by
 * the caller, as they are per app state).
 */
export interface ListShape<K extends string, T> {
  readonly entries: (entries: readonly T[]) => T[];
  readonly pages: (pages: ListPages<K, T>) => ListPages<K, T>;
}

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
  shape?: ListShape<K, T>,
): Page<K, T> | Promise<Page<K, T>> {
  if (pipelines === undefined || !pipelines.varies) return pageAt(shape ? shape.pages(pages) : pages, list, cursor);
  ctx.declaredCacheHint = PER_CALLER;
  const visible = pipelines.lists.of(pages, list, ctx.auth, app.settings.pageSize);
  if (visible.pages !== undefined) return pageAt(shape ? shape.pages(visible.pages) : visible.pages, list, cursor);
  return guardedPage(app, visible, list, cursor, ctx, shape);
}

async function guardedPage<K extends string, T>(
  app: AppModel,
  visible: VisibleEntries<K, T>,
  list: K,
  cursor: unknown,
  ctx: HandlerContext,
  shape: ListShape<K, T> | undefined,
): Promise<Page<K, T>> {
  const { entries, guarded } = visible;
  const verdicts = await Promise.all(entries.map((_, index) => guarded![index]?.guardsVisible(ctx) ?? true));
  const allowed = entries.filter((_, index) => verdicts[index]);
  return pageAt(pagesOf(list, shape ? shape.entries(allowed) : allowed, app.settings.pageSize), list, cursor);
}
