import type { OperationRequest } from './operation';
import { cookiePair, headerValue, pathValue, queryPairs } from './serialize';

/** What is sent: the URL, the headers, the body. */
export interface BuiltRequest {
  url: URL;
  headers: Headers;
  body?: string | Uint8Array;
}

const ACCEPT = 'application/json, application/problem+json;q=0.9, */*;q=0.8';

function formBody(value: unknown): string {
  const form = new URLSearchParams();
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      for (const one of Array.isArray(item) ? item : [item]) {
        if (one !== undefined) form.append(key, typeof one === 'string' ? one : typeof one === 'object' ? JSON.stringify(one) : String(one));
      }
    }
  }
  return form.toString();
}

function encodeBody(operation: OperationRequest, value: unknown): string | Uint8Array {
  switch (operation.body!.encoding) {
    case 'json':
      return JSON.stringify(value);
    case 'form':
      return formBody(value);
    case 'binary':
      return Buffer.from(String(value), 'base64');
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

// A `.` or `..` segment, which URL parsing folds away (`%2e` too): `/users/{id}/keys` with id `..` would be `/keys`.
const DOT_SEGMENT = /^(\.|%2e){1,2}$/i;

/**
 * The base URL and the path joined, never leaving the base URL: the document's path and the
 * values put into it may not climb out of the base path (a dot segment) nor reach another
 * origin (a path `@evil.example/x` or `.evil.example/x` appended to a host would).
 */
function urlOf(baseUrl: string, path: string): URL {
  const base = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;
  if (path.split(/[/?#]/).some((segment) => DOT_SEGMENT.test(segment))) throw new Error(`the path ${path} has a "." or ".." segment`);
  const url = new URL(`${base}${path}`);
  if (url.origin !== new URL(baseUrl).origin) throw new Error(`the path ${path} leaves the API's origin ${new URL(baseUrl).origin}`);
  return url;
}

/**
 * The HTTP request of one call, from the validated arguments: path parameters encoded into the
 * path (a value never leaves its segment), query, header and cookie parameters by their style,
 * the body by its media type. `baseUrl`'s own path is kept (`https://api.example.com/v3` +
 * `/pet` → `/v3/pet`).
 */
export function buildRequest(baseUrl: string, operation: OperationRequest, args: Record<string, unknown>, fixedHeaders: Record<string, string>): BuiltRequest {
  let path = operation.path;
  const query: string[] = [];
  const fixed = new Headers(fixedHeaders);
  const headers = new Headers(fixed);
  const cookies: string[] = [];
  for (const parameter of operation.parameters) {
    // Own properties only: an absent `constructor` or `toString` argument is not Object.prototype's.
    const value = Object.hasOwn(args, parameter.argument) ? args[parameter.argument] : undefined;
    if (value === undefined) continue;
    switch (parameter.in) {
      case 'path':
        path = path.split(`{${parameter.name}}`).join(pathValue(parameter, value));
        break;
      case 'query':
        query.push(...queryPairs(parameter, value));
        break;
      case 'header':
        // A header the app sends with every call (a tenant, an API version) is the app's to say, not the caller's.
        if (!fixed.has(parameter.name)) headers.set(parameter.name, headerValue(parameter, value));
        break;
      default:
        cookies.push(cookiePair(parameter, value));
    }
  }
  if (cookies.length > 0) headers.set('cookie', [headers.get('cookie'), ...cookies].filter(Boolean).join('; '));
  if (!headers.has('accept')) headers.set('accept', ACCEPT);
  const url = urlOf(baseUrl, path);
  if (query.length > 0) url.search = (url.search ? `${url.search.slice(1)}&` : '') + query.join('&');
  const built: BuiltRequest = { url, headers };
  const body = operation.body;
  if (body !== undefined && Object.hasOwn(args, body.argument) && args[body.argument] !== undefined) {
    built.body = encodeBody(operation, args[body.argument]);
    headers.set('content-type', body.encoding === 'json' && body.mediaType === '*/*' ? 'application/json' : body.mediaType);
  }
  return built;
}
