import type { AuthInfo } from '@mcpkit/core';
import { authInfoOf, resourceAudience } from './token-claims';
import { metadataUrl } from './authorization-server-metadata';
import { InvalidTokenError, type TokenVerifier } from './resource-server';
import { JwksCache, loadJose } from './jwks-cache';

/** Options of `jwtVerifier`. */
export interface JwtVerifierOptions {
  /** The authorization server's issuer URL: `iss` must equal it exactly. */
  issuer: string;
  /** Accepted `aud` values (exact strings). Default: the endpoint's `resource`, with and without a trailing slash. */
  audience?: string | readonly string[];
  /** The JWKS URL. Default: `jwks_uri` of `<issuer>/.well-known/oauth-authorization-server`, whose `issuer` must be identical. */
  jwksUri?: string;
  /** Accepted algorithms; asymmetric only (default RS256, ES256, PS256, EdDSA). */
  algorithms?: readonly string[];
  /** Seconds of clock skew allowed on `exp` and `nbf` (default 30). */
  clockToleranceSec?: number;
  /** Require this `typ` header, e.g. `at+jwt` (RFC 9068). Default: any, as many providers send `JWT`. */
  requireTyp?: string;
  /**
   * Least seconds between two key set fetches after a good one (default 30): an unknown `kid`
   * costs at most one fetch per this time. After a failed fetch the next is tried 1 s later,
   * then 2, 4 … doubling up to this; in between, requests answer `503` at once.
   */
  jwksCooldownSec?: number;
  /**
   * The clock that paces key set fetches, in ms (default `performance.now`). Tests pass their own
   * to cross a cooldown without waiting: `let t = 0; jwtVerifier({ issuer, now: () => t })`.
   */
  now?: () => number;
}

const ASYMMETRIC = /^(RS|PS|ES)(256|384|512)$|^EdDSA$|^Ed25519$/;

/** Errors of the token itself (jose's codes), as opposed to the key set being unreachable. */
function isTokenProblem(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return (
    typeof code === 'string' &&
    (code.startsWith('ERR_JWT') ||
      code.startsWith('ERR_JWS') ||
      code === 'ERR_JWKS_NO_MATCHING_KEY' ||
      code === 'ERR_JOSE_ALG_NOT_ALLOWED' ||
      code === 'ERR_JOSE_NOT_SUPPORTED')
  );
}

/**
 * Verifies JWT access tokens against the issuer's published keys (jose): signature with an
 * allowed asymmetric algorithm, `iss` exact, `aud` one of ours (A5, A6), `exp` required, `nbf`,
 * optional `typ`. The key set is fetched once and cached (10 min); it is fetched again at most
 * once per `jwksCooldownSec`, and after a failure with a backoff from 1 s up to that, so neither
 * a flood of made-up kids nor a flood of requests while the authorization server is down floods
 * it. An unreachable key set fails the request with `503` (at once, until the next fetch is
 * due); a token is never accepted without a checked signature.
 *
 * @example
 * serveHttp(app, {
 *   auth: {
 *     resource: 'https://mcp.example.com/mcp',
 *     authorizationServers: ['https://example.eu.auth0.com/'],
 *     verifier: jwtVerifier({ issuer: 'https://example.eu.auth0.com/' }),
 *   },
 * });
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier & { forResource(resource: string): TokenVerifier } {
  const algorithms = [...(options.algorithms ?? ['RS256', 'ES256', 'PS256', 'EdDSA'])];
  const symmetric = algorithms.filter((alg) => !ASYMMETRIC.test(alg));
  if (symmetric.length > 0) throw new TypeError(`jwtVerifier: ${symmetric.join(', ')} is not an asymmetric algorithm; a JWKS holds public keys only`);
  if (typeof options.issuer !== 'string' || options.issuer === '') throw new TypeError('jwtVerifier: issuer is required');
  const cooldownSec = options.jwksCooldownSec ?? 30;
  if (!(Number.isFinite(cooldownSec) && cooldownSec >= 0)) throw new TypeError('jwtVerifier: jwksCooldownSec must be a number >= 0');
  let discovered: Promise<string> | undefined;
  const url = (): Promise<string> => {
    if (options.jwksUri !== undefined) return Promise.resolve(options.jwksUri);
    discovered ??= metadataUrl(options.issuer, 'jwks_uri');
    // A failed discovery is tried again at the next fetch (the cache's cooldown paces it).
    discovered.catch(() => (discovered = undefined));
    return discovered;
  };
  if (options.now !== undefined && typeof options.now !== 'function') throw new TypeError('jwtVerifier: now must be a function returning ms');
  const keys = new JwksCache({ url, cooldownMs: cooldownSec * 1000, maxAgeMs: 600_000, timeoutMs: 5_000, now: options.now });

  const make = (audience: readonly string[] | undefined): TokenVerifier => ({
    async verify(token: string): Promise<AuthInfo> {
      if (audience === undefined || audience.length === 0) throw new Error('jwtVerifier: no audience (give audience, or use it as auth.verifier)');
      const { jwtVerify } = await loadJose();
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtVerify(token, keys.lookup, {
          issuer: options.issuer,
          audience: [...audience],
          algorithms,
          clockTolerance: options.clockToleranceSec ?? 30,
          requiredClaims: ['exp'],
          ...(options.requireTyp === undefined ? {} : { typ: options.requireTyp }),
        }));
      } catch (error) {
        if (isTokenProblem(error)) throw new InvalidTokenError((error as Error).message);
        throw error;
      }
      return authInfoOf(payload, options.issuer);
    },
  });

  const given = options.audience === undefined ? undefined : typeof options.audience === 'string' ? [options.audience] : [...options.audience];
  return Object.assign(make(given), {
    forResource: (resource: string) => make(given ?? resourceAudience(resource)),
  });
}
