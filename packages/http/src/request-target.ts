// An absolute-form target's scheme and authority (`http://host:3000`), which a client talking
// through a proxy sends, and which Fastify's router reads as the path after it.
const ABSOLUTE = /^https?:\/\/[^/?#]+/i;

/**
 * A `node:http` request target in origin form, as Fastify's router reads it: `http://host/mcp?x=1`
 * is `/mcp?x=1` (and `http://host` is `/`); any other target (`/mcp`, `*`, garbage) is returned
 * as sent. The target's authority is not the Host guard's: it checks the `Host` header, as the
 * plugin does.
 */
export function originForm(target: string): string {
  if (target.charCodeAt(0) === 47) return target;
  const authority = ABSOLUTE.exec(target);
  // A fragment could hide the path's slash; the router refuses an absolute target holding one.
  if (authority === null || target.includes('#') || !URL.canParse(target)) return target;
  const rest = target.slice(authority[0].length);
  return rest === '' ? '/' : rest.charCodeAt(0) === 63 ? `/${rest}` : rest;
}

/**
 * Where an origin-form target's path ends: at its `?`, or at a `#` before it (no fragment belongs
 * in a request, but Node passes one on, and Fastify's router stops the path there); -1 for none.
 */
export function pathEnd(target: string): number {
  const query = target.indexOf('?');
  const hash = target.indexOf('#');
  return hash >= 0 && (query < 0 || hash < query) ? hash : query;
}

/** The path as routers match it (`/mc%70` is `/mcp`); reserved characters stay encoded, a malformed escape stays as sent. */
export function decodePath(pathname: string): string {
  if (!pathname.includes('%')) return pathname;
  try {
    return decodeURI(pathname);
  } catch {
    return pathname;
  }
}

/** The query string's parameters, a repeated name as a list. */
export function queryOf(params: URLSearchParams): Record<string, string | string[]> {
  // No prototype: `?constructor=a` is 'a', not a list holding `Object` (Fastify's parser does the same).
  const query: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  params.forEach((value, name) => {
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  });
  return query;
}
