import { clipValue } from '../errors/clip';
import { InvalidParamsError } from '../errors/mcp-error';
import type { ListPages } from '../model/list-pages';

function cursorFor(list: string, page: number): string {
  return Buffer.from(`${list}:${page}`).toString('base64url');
}

/** Splits a list into its result pages once; without a page size, everything is one page. */
export function pagesOf<K extends string, T>(list: K, items: T[], pageSize: number | undefined): ListPages<K, T> {
  if (pageSize === undefined || items.length <= pageSize) return [Object.freeze({ [list]: items } as Record<K, T[]>)];
  const pages: Array<Record<K, T[]> & { nextCursor?: string }> = [];
  for (let start = 0, page = 0; start < items.length; start += pageSize, page++) {
    const result = { [list]: items.slice(start, start + pageSize) } as Record<K, T[]> & { nextCursor?: string };
    if (start + pageSize < items.length) result.nextCursor = cursorFor(list, page + 1);
    pages.push(Object.freeze(result));
  }
  return pages;
}

/**
 * The page a cursor names. Cursors are opaque to clients; one we did not issue (or that no
 * longer points anywhere after the list shrank) is `-32602` (pagination, "Error Handling").
 */
export function pageAt<K extends string, T>(pages: ListPages<K, T>, list: K, cursor: unknown): Readonly<Record<K, T[]> & { nextCursor?: string }> {
  if (cursor === undefined) return pages[0];
  if (typeof cursor === 'string') {
    const decoded = Buffer.from(cursor, 'base64url').toString();
    const match = new RegExp(`^${list}:(\\d{1,9})$`).exec(decoded);
    if (match && cursorFor(list, Number(match[1])) === cursor && Number(match[1]) < pages.length) return pages[Number(match[1])];
  }
  throw new InvalidParamsError('Invalid cursor', { cursor: clipValue(cursor) });
}
