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

/**
 * The HTTP request of one call, from the validated arguments: path parameters encoded into the
 * path (a value never leaves its segment), query, header and cookie parameters by their style,
 * the body by its media type. `baseUrl`'s own path is kept (`https://api.example.com/v3` +
 * `/pet` → `/v3/pet`).
 */
export function buildRequest(baseUrl: string, operation: OperationRequest, args: Record<string, unknown>, fixedHeaders: Record<string, string>): BuiltRequest {
  let path = operation.path;
  const query: string[] = [];
  const headers = new Headers(fixedHeaders);
  const cookies: string[] = [];
  for (const parameter of operation.parameters) {
    const value = args[parameter.argument];
    if (value === undefined) continue;
    switch (parameter.in) {
      case 'path':
        path = path.split(`{${parameter.name}}`).join(pathValue(parameter, value));
        break;
      case 'query':
        query.push(...queryPairs(parameter, value));
        break;
      case 'header':
        headers.set(parameter.name, headerValue(parameter, value));
        break;
      default:
        cookies.push(cookiePair(parameter, value));
    }
  }
  if (cookies.length > 0) headers.set('cookie', [headers.get('cookie'), ...cookies].filter(Boolean).join('; '));
  if (!headers.has('accept')) headers.set('accept', ACCEPT);
  const base = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;
  const url = new URL(`${base}${path}`);
  if (query.length > 0) url.search = (url.search ? `${url.search.slice(1)}&` : '') + query.join('&');
  const built: BuiltRequest = { url, headers };
  const body = operation.body;
  if (body !== undefined && args[body.argument] !== undefined) {
    built.body = encodeBody(operation, args[body.argument]);
    headers.set('content-type', body.encoding === 'json' && body.mediaType === '*/*' ? 'application/json' : body.mediaType);
  }
  return built;
}
