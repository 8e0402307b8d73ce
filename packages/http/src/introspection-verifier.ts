import { createHash } from 'node:crypto';
import type { AuthInfo } from '@mcpkit/core';
import { metadataUrl } from './authorization-server-metadata';
import { InvalidTokenError, type TokenVerifier } from './resource-server';
import { authInfoOf, resourceAudience } from './token-claims';

/** Options of `introspectionVerifier`. */
export interface IntrospectionVerifierOptions {
  /** The authorization server's issuer URL: an answer's `iss`, when it has one, must equal it. */
  issuer: string;
  /** The introspection endpoint. Default: `introspection_endpoint` of `<issuer>/.well-known/oauth-authorization-server`, whose `issuer` must be identical. */
  endpoint?: string;
  /** This resource server's client id at the authorization server. */
  clientId: string;
  /** Its client secret. */
  clientSecret: string;
  /** How the client authenticates (RFC 6749 §2.3.1): `client_secret_basic` (default, an `Authorization: Basic` header) or `client_secret_post` (form fields). */
  clientAuth?: 'client_secret_basic' | 'client_secret_post';
  /** Accepted `aud` values (exact strings). Default: the endpoint's `resource`, with and without a trailing slash. */
  audience?: string | readonly string[];
  /** Seconds of clock skew allowed on `exp` and `nbf` (default 30). */
  clockToleranceSec?: number;
  /** Longest a positive answer is reused, in seconds (default 60; 0: ask every time). Never past the token's `exp`. */
  cacheTtlSec?: number;
  /**
   * How long an inactive answer (`active: false`) is reused, in seconds (default 5; 0: ask every
   * time): a flood repeating one bad token costs one call per this time, not one each.
   */
  inactiveCacheSec?: number;
  /** Most active answers cached (default 10 000; inactive ones: 1 000 at most, apart); past it the least recently used goes. */
  maxCacheEntries?: number;
  /** How long the endpoint may take to answer, in ms (default 5 000); slower is a `503`. */
  timeoutMs?: number;
}

// Most inactive answers remembered (at most maxCacheEntries too).
const MAX_INACTIVE = 1_000;

// An introspection answer is a handful of claims: anything bigger is not one.
const MAX_ANSWER_BYTES = 64 * 1024;

interface Cached {
  /** Undefined: the token was inactive. */
  readonly auth: AuthInfo | undefined;
  /** `performance.now()` past which the answer is asked again. */
  readonly until: number;
}

/** The endpoint's answer as JSON, read up to `MAX_ANSWER_BYTES`; an Error (a 503) for anything else. */
async function answerOf(response: Response): Promise<Record<string, unknown>> {
  if (response.status !== 200) {
    await response.body?.cancel();
    // 401 here means our own client credentials were refused: a configuration fault, not the caller's.
    throw new Error(`the introspection endpoint answered ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > MAX_ANSWER_BYTES) {
    await response.body?.cancel();
    throw new Error('the introspection answer is too large');
  }
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error('the introspection answer has no body');
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new Error('the introspection answer is too large');
    }
    text += decoder.decode(value, { stream: true });
  }
  let answer: unknown;
  try {
    answer = JSON.parse(text + decoder.decode());
  } catch {
    // JSON.parse quotes the text it failed on; the answer is not ours to put in a log.
    throw new Error('the introspection answer is not JSON');
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) throw new Error('the introspection answer is not a JSON object');
  return answer as Record<string, unknown>;
}

/** RFC 6749 §2.3.1: id and secret are form-urlencoded before they are joined for Basic. */
function basic(clientId: string, clientSecret: string): string {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

/**
 * Verifies opaque (or any) access tokens by asking the authorization server (RFC 7662): POSTs
 * the token to its introspection endpoint with this server's client credentials. `active:
 * false` is `401 invalid_token`; an active answer must name this resource in `aud` (A5, A6),
 * and its `iss` (when present) the issuer; `exp` and `nbf` are checked with the tolerance. The
 * same `AuthInfo` as `jwtVerifier` comes out. A positive answer is reused for `cacheTtlSec`
 * at most, never past the token's `exp` (a revoked token is refused again within that time), an
 * inactive one for `inactiveCacheSec`; the cache holds SHA-256 digests, not tokens. Concurrent checks of one token share one call.
 * An endpoint that cannot be reached, is slow, or answers other than 200 fails the request with
 * `503`: a token is never accepted without an answer.
 *
 * @example
 * serveHttp(app, {
 *   auth: {
 *     resource: 'https://mcp.example.com/mcp',
 *     authorizationServers: ['https://sso.example.com/realms/acme'],
 *     verifier: introspectionVerifier({
 *       issuer: 'https://sso.example.com/realms/acme',
 *       clientId: 'mcp-server',
 *       clientSecret: process.env.INTROSPECTION_SECRET!,
 *     }),
 *   },
 * });
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier & { forResource(resource: string): TokenVerifier } {
  if (typeof options.issuer !== 'string' || options.issuer === '') throw new TypeError('introspectionVerifier: issuer is required');
  if (typeof options.clientId !== 'string' || options.clientId === '' || typeof options.clientSecret !== 'string') {
    throw new TypeError('introspectionVerifier: clientId and clientSecret are required (the introspection endpoint authenticates its callers)');
  }
  const clientAuth = options.clientAuth ?? 'client_secret_basic';
  if (clientAuth !== 'client_secret_basic' && clientAuth !== 'client_secret_post') {
    throw new TypeError(`introspectionVerifier: clientAuth ${JSON.stringify(clientAuth)} is not client_secret_basic or client_secret_post`);
  }
  const ttlMs = (options.cacheTtlSec ?? 60) * 1000;
  const inactiveMs = (options.inactiveCacheSec ?? 5) * 1000;
  const maxEntries = options.maxCacheEntries ?? 10_000;
  const toleranceSec = options.clockToleranceSec ?? 30;
  const timeoutMs = options.timeoutMs ?? 5_000;
  if (!(ttlMs >= 0) || !(inactiveMs >= 0) || !(Number.isInteger(maxEntries) && maxEntries > 0)) {
    throw new TypeError('introspectionVerifier: cacheTtlSec and inactiveCacheSec must be >= 0 and maxCacheEntries a positive integer');
  }
  const authorization = basic(options.clientId, options.clientSecret);

  let endpoint: Promise<string> | undefined;
  const endpointUrl = (): Promise<string> => {
    if (options.endpoint !== undefined) return Promise.resolve(options.endpoint);
    endpoint ??= metadataUrl(options.issuer, 'introspection_endpoint');
    // A failed discovery is retried by the next request, not remembered.
    endpoint.catch(() => (endpoint = undefined));
    return endpoint;
  };

  // One cache and one table of calls in flight per verifier, whatever audience it checks for.
  const cache = new Map<string, Cached>();
  // Inactive answers apart, and fewer: a flood of made-up tokens must not evict the good ones.
  const inactive = new Map<string, Cached>();
  const maxInactive = Math.min(maxEntries, MAX_INACTIVE);
  const inFlight = new Map<string, Promise<Record<string, unknown>>>();

  const ask = async (token: string): Promise<Record<string, unknown>> => {
    const form = new URLSearchParams({ token, token_type_hint: 'access_token' });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (clientAuth === 'client_secret_basic') headers.authorization = authorization;
    else {
      form.set('client_id', options.clientId);
      form.set('client_secret', options.clientSecret);
    }
    const response = await fetch(await endpointUrl(), { method: 'POST', headers, body: form.toString(), signal: AbortSignal.timeout(timeoutMs) });
    return answerOf(response);
  };

  const remember = (key: string, auth: AuthInfo | undefined): void => {
    const expiresAtMs = auth?.expiresAt === undefined ? Infinity : auth.expiresAt * 1000 - Date.now();
    const lifetime = auth === undefined ? inactiveMs : Math.min(ttlMs, expiresAtMs);
    if (!(lifetime > 0)) return;
    const into = auth === undefined ? inactive : cache;
    if (into.size >= (auth === undefined ? maxInactive : maxEntries)) into.delete(into.keys().next().value as string);
    into.set(key, { auth, until: performance.now() + lifetime });
  };

  const make = (audience: readonly string[] | undefined): TokenVerifier => ({
    async verify(token: string): Promise<AuthInfo> {
      if (audience === undefined || audience.length === 0) throw new Error('introspectionVerifier: no audience (give audience, or use it as auth.verifier)');
      // The digest names the token in memory; the token itself is kept nowhere.
      const key = `${audience.join(' ')}\u0000${createHash('sha256').update(token).digest('base64url')}`;
      const hit = cache.get(key) ?? inactive.get(key);
      if (hit !== undefined) {
        const from = hit.auth === undefined ? inactive : cache;
        from.delete(key);
        if (hit.until > performance.now()) {
          from.set(key, hit);
          if (hit.auth === undefined) throw new InvalidTokenError('the token is not active');
          return hit.auth;
        }
      }
      let pending = inFlight.get(key);
      if (pending === undefined) {
        pending = ask(token).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      const answer = await pending;
      // RFC 7662 §2.2: only a literal true is active. Remembered briefly: it will not turn active.
      if (answer.active !== true) {
        remember(key, undefined);
        throw new InvalidTokenError('the token is not active');
      }
      const auth = check(answer, audience);
      remember(key, auth);
      return auth;
    },
  });

  const check = (answer: Record<string, unknown>, audience: readonly string[]): AuthInfo => {
    // RFC 7662 §2.2: only a literal true is active.
    if (answer.active !== true) throw new InvalidTokenError('the token is not active');
    if (answer.iss !== undefined && answer.iss !== options.issuer) throw new InvalidTokenError('the token was issued by another issuer');
    const aud = typeof answer.aud === 'string' ? [answer.aud] : Array.isArray(answer.aud) ? answer.aud : [];
    if (!aud.some((value) => typeof value === 'string' && audience.includes(value))) throw new InvalidTokenError('the token is not for this resource');
    const now = Date.now() / 1000;
    if (answer.exp !== undefined && !(typeof answer.exp === 'number' && answer.exp + toleranceSec > now)) throw new InvalidTokenError('the token has expired');
    if (answer.nbf !== undefined && !(typeof answer.nbf === 'number' && answer.nbf - toleranceSec <= now))
      throw new InvalidTokenError('the token is not valid yet');
    const { active: _active, token_type: _type, ...claims } = answer;
    return authInfoOf(claims, options.issuer);
  };

  const given = options.audience === undefined ? undefined : typeof options.audience === 'string' ? [options.audience] : [...options.audience];
  return Object.assign(make(given), { forResource: (resource: string) => make(given ?? resourceAudience(resource)) });
}
