import { headerValue, type HttpBodyResult, type HttpHeaders, type HttpResult } from './http-result';
import { bodyResult } from './transport-faults';

// What a browser may read of an MCP answer: the challenge (to find the metadata and the scopes),
// the session and the version it runs, and when to retry.
const EXPOSED = 'WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version, Retry-After';
// A header list as RFC 9110 spells one (tokens and commas), and not a long one.
const HEADER_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*,[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;
const MAX_HEADER_LIST = 2048;
// What an MCP client sends, when a preflight names no list we can echo.
const DEFAULT_HEADERS = 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, Mcp-Method, Mcp-Name';

/**
 * `result` with the CORS headers of an answer to an allowed `Origin` (the Host/Origin guard has
 * passed): that origin, never `*` (the answer varies by origin), and the headers a browser
 * client must read. Without an `Origin` (not a browser), `result` as it is.
 */
export function withCors<R extends HttpResult>(headers: HttpHeaders, result: R): R {
  const origin = headerValue(headers.origin);
  if (origin === undefined) return result;
  return {
    ...result,
    headers: { ...result.headers, 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': EXPOSED },
  };
}

/**
 * The answer to a CORS preflight of the MCP endpoint from an allowed origin, else undefined (an
 * `OPTIONS` without `Origin` and `Access-Control-Request-Method` is no preflight). The requested
 * headers are allowed as asked (the origin is trusted; `Authorization` is never covered by a
 * `*`), and the preflight is cached ten minutes.
 */
export function preflight(headers: HttpHeaders, methods: string): HttpBodyResult | undefined {
  if (headerValue(headers.origin) === undefined || headerValue(headers['access-control-request-method']) === undefined) return undefined;
  const requested = headerValue(headers['access-control-request-headers'])?.trim() ?? '';
  const allowHeaders = requested.length <= MAX_HEADER_LIST && HEADER_LIST.test(requested) ? requested : DEFAULT_HEADERS;
  return withCors(
    headers,
    bodyResult('noContent', { 'access-control-allow-methods': methods, 'access-control-allow-headers': allowHeaders, 'access-control-max-age': '600' }),
  );
}
