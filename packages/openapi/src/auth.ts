import type { RequestContext } from '@mcpkit/core';
import type { OperationRequest } from './operation';

/** A credential, or a function of the MCP request that gives one (a per-caller token); undefined sends none. */
export type Secret = string | ((ctx: RequestContext) => string | undefined | Promise<string | undefined>);

/** The HTTP request about to be sent, for an `auth` function to sign or add to. */
export interface OutgoingRequest {
  readonly method: string;
  /** The full URL, query included; an auth function may add to its `searchParams`. */
  readonly url: URL;
  readonly headers: Headers;
  /** The operation it calls. */
  readonly operation: OperationRequest;
}

/**
 * How the calls authenticate to the API:
 * - `{ bearer }`: `Authorization: Bearer <token>`;
 * - `{ apiKey, name, in }`: the key in the header (default), query parameter or cookie `name`;
 * - a function that edits the outgoing request (signs it, adds what it needs) from the MCP
 *   request's context, e.g. the caller's own token from `ctx.auth`.
 *
 * @example
 * fromOpenApi(spec, { baseUrl, auth: { bearer: process.env.API_TOKEN! } });
 * fromOpenApi(spec, { baseUrl, auth: { apiKey: (ctx) => keys.get(ctx.auth?.subject ?? ''), name: 'X-Api-Key' } });
 * fromOpenApi(spec, { baseUrl, auth: (request, ctx) => request.headers.set('X-Tenant', String(ctx.auth?.claims?.tenant)) });
 */
export type OpenApiAuth =
  | { bearer: Secret }
  | { apiKey: Secret; name: string; in?: 'header' | 'query' | 'cookie' }
  | ((request: OutgoingRequest, ctx: RequestContext) => void | Promise<void>);

async function reveal(secret: Secret, ctx: RequestContext): Promise<string | undefined> {
  return typeof secret === 'function' ? secret(ctx) : secret;
}

/** Applies `auth` to the outgoing request. */
export async function applyAuth(auth: OpenApiAuth | undefined, request: OutgoingRequest, ctx: RequestContext): Promise<void> {
  if (auth === undefined) return;
  if (typeof auth === 'function') return auth(request, ctx);
  if ('bearer' in auth) {
    const token = await reveal(auth.bearer, ctx);
    if (token !== undefined) request.headers.set('authorization', `Bearer ${token}`);
    return;
  }
  const key = await reveal(auth.apiKey, ctx);
  if (key === undefined) return;
  if (auth.in === 'query') request.url.searchParams.append(auth.name, key);
  else if (auth.in === 'cookie') appendCookie(request.headers, `${auth.name}=${encodeURIComponent(key)}`);
  else request.headers.set(auth.name, key);
}

/** Adds a `name=value` pair to the request's Cookie header. */
export function appendCookie(headers: Headers, pair: string): void {
  const existing = headers.get('cookie');
  headers.set('cookie', existing ? `${existing}; ${pair}` : pair);
}
