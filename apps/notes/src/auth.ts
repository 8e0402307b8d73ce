import type { McpHttpOptions } from '@mcpkit/http';
import { NOTES_SCOPES } from './access';

/** The authenticated mode's settings: who issues the tokens, and the URL they are issued for. */
export interface NotesAuth {
  /** `NOTES_AUTH_ISSUER`: the authorization server's issuer URL (its metadata names the `jwks_uri`). */
  readonly issuer: string;
  /** `NOTES_AUTH_RESOURCE`: the canonical URL of the notes MCP endpoint, as tokens carry it in `aud`. */
  readonly resource: string;
  /**
   * `NOTES_AUTH_TYP`: the JWT `typ` header required, e.g. `at+jwt` (RFC 9068). Unset: any, as
   * Auth0's default profile, Entra ID and Keycloak send `JWT`; the audience check is what keeps
   * an ID token (its `aud` is a client id) out.
   */
  readonly requireTyp?: string;
}

/**
 * The authenticated mode from the environment: undefined when neither variable is set. One
 * without the other is a mistake that must not end in a server open to anyone, so it throws.
 * `prefix` names the variables of another server that mounts the notes (apps/gateway reads
 * `GATEWAY_AUTH_ISSUER`, `GATEWAY_AUTH_RESOURCE` and `GATEWAY_AUTH_TYP` with `'GATEWAY'`).
 *
 * @example
 * const auth = notesAuthFromEnv(process.env, 'GATEWAY');
 */
export function notesAuthFromEnv(env: NodeJS.ProcessEnv = process.env, prefix = 'NOTES'): NotesAuth | undefined {
  const [issuerVar, resourceVar] = [`${prefix}_AUTH_ISSUER`, `${prefix}_AUTH_RESOURCE`];
  const issuer = env[issuerVar] || undefined;
  const resource = env[resourceVar] || undefined;
  if (issuer === undefined && resource === undefined) return undefined;
  if (issuer === undefined || resource === undefined) {
    throw new Error(`set both ${issuerVar} and ${resourceVar} for the authenticated mode, or neither`);
  }
  for (const [name, url] of [
    [issuerVar, issuer],
    [resourceVar, resource],
  ] as const) {
    if (!URL.canParse(url)) throw new Error(`${name} must be an absolute URL, got ${JSON.stringify(url)}`);
  }
  const requireTyp = env[`${prefix}_AUTH_TYP`] || undefined;
  return requireTyp === undefined ? { issuer, resource } : { issuer, resource, requireTyp };
}

/**
 * The HTTP options of the authenticated mode: an OAuth 2.1 resource server for `resource` that
 * takes JWT access tokens from `issuer`, and the resource's own host besides loopback (a proxy
 * in front forwards its public name in `Host`). Loads the HTTP package only when asked, as
 * main.ts loads Fastify: a stdio server does not pay for either. `resourceName` is what the
 * protected-resource metadata calls the server (a gateway that mounts the notes names itself).
 */
export async function notesHttpAuth(
  { issuer, resource, requireTyp }: NotesAuth,
  resourceName = 'mcpkit notes',
): Promise<Pick<McpHttpOptions, 'auth' | 'allowedHosts'>> {
  const { jwtVerifier, LOOPBACK_HOSTS } = await import('@mcpkit/http');
  return {
    auth: {
      resource,
      authorizationServers: [issuer],
      verifier: jwtVerifier({ issuer, requireTyp }),
      scopesSupported: [...NOTES_SCOPES],
      resourceName,
    },
    allowedHosts: [...new Set([...LOOPBACK_HOSTS, new URL(resource).host])],
  };
}
