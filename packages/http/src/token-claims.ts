import type { AuthInfo } from '@mcpkit/core';
import { InvalidTokenError } from './resource-server';

function scopesOf(claims: Record<string, unknown>): string[] {
  const { scope, scp } = claims;
  if (typeof scope === 'string') return scope.split(' ').filter(Boolean);
  if (Array.isArray(scp)) return scp.filter((value): value is string => typeof value === 'string');
  if (typeof scp === 'string') return scp.split(' ').filter(Boolean);
  return [];
}

/**
 * The `AuthInfo` of a checked token's claims (a JWT's payload, an introspection answer): the
 * same fields whichever verifier checked it. A token without a subject is refused.
 */
export function authInfoOf(claims: Record<string, unknown>, issuer: string): AuthInfo {
  if (typeof claims.sub !== 'string' || claims.sub === '') throw new InvalidTokenError('the token has no sub');
  const clientId = typeof claims.client_id === 'string' ? claims.client_id : typeof claims.azp === 'string' ? claims.azp : undefined;
  return Object.freeze({
    subject: claims.sub,
    ...(clientId === undefined ? {} : { clientId }),
    issuer,
    scopes: Object.freeze(scopesOf(claims)),
    ...(typeof claims.exp === 'number' ? { expiresAt: claims.exp } : {}),
    claims: Object.freeze({ ...claims }),
  });
}

/** The audiences a token for `resource` may name by default: it, with and without a trailing slash. */
export function resourceAudience(resource: string): string[] {
  return [resource, resource.endsWith('/') ? resource.slice(0, -1) : `${resource}/`];
}
