function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The base URL a document's first server names, as a client calls it: its variables (`{region}`)
 * replaced by their defaults, and a relative URL (`/api/v3`, as many documents say) resolved
 * against where the document was read from, as OpenAPI says. Undefined when that gives no
 * http(s) URL: a relative URL in a document not read from a URL, a variable without a default.
 *
 * @example
 * documentBaseUrl({ servers: [{ url: '/api/v3' }] }, 'https://petstore3.swagger.io/api/v3/openapi.json'); // 'https://petstore3.swagger.io/api/v3'
 */
export function documentBaseUrl(document: Record<string, unknown>, documentUrl?: string | URL): string | undefined {
  const [first] = Array.isArray(document.servers) ? (document.servers as unknown[]) : [];
  if (!isRecord(first) || typeof first.url !== 'string') return undefined;
  const variables = isRecord(first.variables) ? first.variables : {};
  let missing = false;
  const url = first.url.replace(/\{([^}]*)\}/g, (_, name: string) => {
    const variable = Object.hasOwn(variables, name) ? variables[name] : undefined;
    if (isRecord(variable) && typeof variable.default === 'string') return variable.default;
    missing = true;
    return '';
  });
  if (missing) return undefined;
  if (/^https?:\/\//i.test(url)) return url;
  if (documentUrl === undefined || !/^https?:\/\//i.test(String(documentUrl))) return undefined;
  return new URL(url, documentUrl).href;
}
