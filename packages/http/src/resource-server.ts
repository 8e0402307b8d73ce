import type { AuthInfo, Logger } from '@mcpkit/core';
import { ErrorCode, type JsonRpcResponse } from '@mcpkit/core';
import type { EncodeLimits } from '@mcpkit/core/transport';
import { headerValue, type HttpBodyResult, type HttpRequest } from './http-result';
import { answerResult, bodyResult, FAULTS, faultResult } from './transport-faults';
import { namesAccessToken } from './query-credentials';

/**
 * Checks a bearer token and says who it belongs to. Throw `InvalidTokenError` for a token that
 * is bad (expired, wrong audience, bad signature: `401 invalid_token`); anything else thrown
 * (the authorization server unreachable) answers `503`, and the token is never accepted.
 *
 * @example
 * const verifier: TokenVerifier = { verify: async (token) => lookUp(token) ?? Promise.reject(new InvalidTokenError('unknown token')) };
 */
export interface TokenVerifier {
  verify(token: string): Promise<AuthInfo> | AuthInfo;
  /** The verifier to use for this endpoint: one whose default audience is its `resource` (`jwtVerifier` has it). */
  forResource?(resource: string): TokenVerifier;
}

/** What a verifier throws for a token that must be refused with `401 invalid_token`. */
export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

/** `auth` of the HTTP options: this endpoint is an OAuth 2.1 resource server (RFC 9728, RFC 6750). */
export interface ResourceServerOptions {
  /** The endpoint's canonical URL, exactly as tokens name it in `aud` (never derived from `Host`), e.g. `https://mcp.example.com/mcp`. */
  resource: string;
  /** Issuer URLs of the authorization servers that issue tokens for it (at least one). */
  authorizationServers: readonly string[];
  verifier: TokenVerifier;
  /** Published in the metadata and named in a bare `401` challenge; `offline_access` is never published. */
  scopesSupported?: readonly string[];
  /** Requests without a token: `deny` (default) answers `401` before the body is read; `allow` serves them anonymously. */
  anonymous?: 'deny' | 'allow';
  /** Also serve the metadata at `/.well-known/oauth-protected-resource` (default true). */
  metadataAtRoot?: boolean;
  resourceName?: string;
  resourceDocumentation?: string;
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';
// What a refused token's challenge and body both say (never why: that is for the server log).
const INVALID_TOKEN = 'The access token is invalid';
// RFC 6750 §2.1: b64token.
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/** A quoted-string of RFC 7230: backslash and quote escaped. */
const quoted = (value: string): string => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** `error` with every occurrence of `token` in its message and stack censored (a copy, when there is any). */
function withoutToken(error: unknown, token: string): unknown {
  if (!(error instanceof Error) || !`${error.message}${error.stack ?? ''}`.includes(token)) return error;
  const copy = new Error(error.message.split(token).join('[Redacted]'));
  copy.name = error.name;
  copy.stack = (error.stack ?? '').split(token).join('[Redacted]');
  return copy;
}

/** The outcome of authenticating one request: who it is (undefined: anonymous, allowed), or the answer refusing it. */
export type Authentication = { auth: AuthInfo | undefined; refused?: undefined } | { refused: HttpBodyResult; auth?: undefined };

/**
 * The resource-server side of an MCP endpoint: its Protected Resource Metadata, the bearer
 * token check of every request (a session id is never a credential), and the challenges.
 */
export class ResourceServer {
  readonly metadataPaths: ReadonlySet<string>;
  private readonly metadataUrl: string;
  private readonly metadataBody: string;
  private readonly scopes: readonly string[];
  private readonly verifier: TokenVerifier;

  constructor(
    private readonly options: ResourceServerOptions,
    mcpPath: string,
  ) {
    let url: URL;
    try {
      url = new URL(options.resource);
    } catch {
      throw new TypeError(`mcpkit HTTP auth: resource ${JSON.stringify(options.resource)} is not an absolute URL`);
    }
    if (!Array.isArray(options.authorizationServers) || options.authorizationServers.length === 0) {
      throw new TypeError('mcpkit HTTP auth: name at least one authorization server (RFC 9728: authorization_servers)');
    }
    if (typeof options.verifier?.verify !== 'function') throw new TypeError('mcpkit HTTP auth: verifier must have verify(token)');
    this.verifier = options.verifier.forResource?.(options.resource) ?? options.verifier;
    // A12: a refresh-token scope is never advertised.
    this.scopes = Object.freeze((options.scopesSupported ?? []).filter((scope) => scope !== 'offline_access'));
    const path = url.pathname === '/' ? '' : url.pathname;
    this.metadataUrl = `${url.origin}${WELL_KNOWN}${path}`;
    const paths = new Set([`${WELL_KNOWN}${mcpPath}`]);
    if (options.metadataAtRoot !== false) paths.add(WELL_KNOWN);
    this.metadataPaths = paths;
    const document: Record<string, unknown> = {
      resource: options.resource,
      authorization_servers: [...options.authorizationServers],
      scopes_supported: [...this.scopes],
      bearer_methods_supported: ['header'],
    };
    if (options.resourceName !== undefined) document.resource_name = options.resourceName;
    if (options.resourceDocumentation !== undefined) document.resource_documentation = options.resourceDocumentation;
    this.metadataBody = JSON.stringify(document);
  }

  /** `GET` (or a CORS preflight) of the metadata document (RFC 9728 §3). */
  metadata(method: string): HttpBodyResult {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-allow-headers': 'mcp-protocol-version' };
    if (method === 'OPTIONS') return bodyResult('noContent', cors);
    if (method !== 'GET' && method !== 'HEAD') return faultResult(FAULTS.methodNotAllowed('GET, OPTIONS'));
    return bodyResult('ok', { ...cors, 'content-type': 'application/json', 'cache-control': 'max-age=300' }, this.metadataBody);
  }

  /** Checks the request's credentials before any of its body is looked at. */
  async authenticate(request: Pick<HttpRequest, 'headers' | 'query'>, logger: Logger): Promise<Authentication> {
    // A13: a token in the URI ends up in logs and histories.
    if (request.query !== undefined && namesAccessToken(request.query))
      return { refused: this.badRequest('send the access token in the Authorization header, never in the URI') };
    // Only the header is a bearer method here (the metadata says so): a form body is where RFC 6750
    // §2.2 would carry a token, and it is refused before it is read.
    if (/^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(headerValue(request.headers['content-type']) ?? '')) {
      return { refused: this.badRequest('send the access token in the Authorization header, never in a form body') };
    }
    const header = request.headers.authorization;
    if (Array.isArray(header) && header.length > 1) return { refused: this.badRequest('send one Authorization header') };
    const value = headerValue(header);
    if (value === undefined || !/^bearer(\s|$)/i.test(value)) {
      // No credentials (or another scheme): RFC 6750 §3.1, a challenge without an error code.
      return this.options.anonymous === 'allow'
        ? { auth: undefined }
        : { refused: faultResult(FAULTS.authenticationRequired(this.challengeHeader(undefined, this.scopes))) };
    }
    const match = BEARER.exec(value);
    if (!match) return { refused: this.badRequest('malformed Bearer credentials (one token, RFC 6750 §2.1)') };
    try {
      return { auth: await this.verifier.verify(match[1]) };
    } catch (error) {
      // The body gives the challenge's reason: a refused token is not a missing one.
      if (error instanceof InvalidTokenError)
        return { refused: faultResult(FAULTS.invalidToken(this.challengeHeader('invalid_token', this.scopes, INVALID_TOKEN), INVALID_TOKEN)) };
      // Never accept, never leak: the reason goes to the server log only, without the token
      // even when a verifier of your own put it in its message.
      logger.error({ err: withoutToken(error, match[1]) }, 'token verifier failed');
      return { refused: faultResult(FAULTS.tokenUnverifiable()) };
    }
  }

  /**
   * The HTTP answer to one request's access denial (`-31001`): `401` with a challenge naming the
   * scopes when it was anonymous, `403 insufficient_scope` naming every scope the operation needs
   * (A9, A10), a plain `403` otherwise. Undefined for any other answer.
   */
  denial(answer: JsonRpcResponse | readonly JsonRpcResponse[], limits: EncodeLimits): HttpBodyResult | undefined {
    if (Array.isArray(answer) || !('error' in answer) || answer.error.code !== ErrorCode.AccessDenied) return undefined;
    const data = (answer.error.data ?? {}) as { error?: string; scopes?: string[] };
    const scopes = (data.scopes ?? []).filter((scope) => scope !== 'offline_access');
    const result = answerResult(data.error === 'authentication_required' ? 'authenticationRequired' : 'forbidden', answer, limits);
    if (data.error === 'forbidden') return result;
    const header =
      data.error === 'authentication_required'
        ? this.challengeHeader(undefined, scopes.length > 0 ? scopes : this.scopes)
        : this.challengeHeader('insufficient_scope', scopes, answer.error.message);
    result.headers = { ...result.headers, 'www-authenticate': header, 'access-control-expose-headers': 'WWW-Authenticate' };
    return result;
  }

  private challengeHeader(error: string | undefined, scopes: readonly string[], description?: string): string {
    const parts = [`resource_metadata=${quoted(this.metadataUrl)}`];
    if (scopes.length > 0) parts.push(`scope=${quoted(scopes.join(' '))}`);
    if (error !== undefined) parts.unshift(`error=${quoted(error)}`);
    if (description !== undefined) parts.push(`error_description=${quoted(description)}`);
    return `Bearer ${parts.join(', ')}`;
  }

  // Decided before the body is read, so the request id is unknown: id null.
  private badRequest(message: string): HttpBodyResult {
    return faultResult(FAULTS.badCredentials(message));
  }
}
