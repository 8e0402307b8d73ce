import { InvalidParamsError } from '@mcpkit/core';
import { compareUris } from './uri';

const CURSOR = 'after:';

/** One page of `items` after the cursor's key (opaque: base64url of `after:<key>`); a forged cursor is `-32602`. */
export function page<T>(items: readonly T[], cursor: unknown, size: number, key: (item: T) => string): { items: T[]; nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    const after = typeof cursor === 'string' ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
    if (!after.startsWith(CURSOR)) throw new InvalidParamsError('Invalid cursor');
    const found = items.findIndex((item) => compareUris(key(item), after.slice(CURSOR.length)) > 0);
    start = found === -1 ? items.length : found;
  }
  const slice = items.slice(start, start + size);
  const last = slice[slice.length - 1];
  return start + size < items.length && last !== undefined
    ? { items: slice, nextCursor: Buffer.from(CURSOR + key(last)).toString('base64url') }
    : { items: slice };
}

/** `params.uri`, a non-empty string of at most 8 KiB, or `-32602`. */
export function requireUri(params: Readonly<Record<string, unknown>>, method: string): string {
  if (typeof params.uri !== 'string' || params.uri.length === 0) throw new InvalidParamsError(`${method} needs params.uri, a string`);
  if (params.uri.length > 8192) throw new InvalidParamsError(`${method}: params.uri is longer than 8192 characters`);
  return params.uri;
}
