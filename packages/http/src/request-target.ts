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
  const query: Record<string, string | string[]> = {};
  params.forEach((value, name) => {
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  });
  return query;
}
