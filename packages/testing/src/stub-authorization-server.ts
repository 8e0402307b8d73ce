import { createHash, randomBytes, type webcrypto } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// jose is ESM-only: loaded when a stub starts, so importing @mcpkit/testing costs nothing more.
type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });
type Jwk = Awaited<ReturnType<Jose['exportJWK']>>;

/** Claims and header fields of a minted token; `undefined` leaves a claim out. */
export interface MintOptions {
  /** Default: no `aud` unless given (`undefined` leaves it out too). */
  aud?: string | string[] | undefined;
  /** Default `user-1`; `undefined` leaves `sub` out. */
  sub?: string | undefined;
  scope?: string;
  scp?: string[];
  /** Default: the stub's own issuer. */
  iss?: string;
  /** Seconds from now (default 300); `undefined` leaves `exp` out. */
  exp?: number | undefined;
  /** Seconds from now. */
  nbf?: number;
  /** Header `typ` (default `at+jwt`, RFC 9068). */
  typ?: string;
  /** `k1` (default for ES256), `k2` (published after `rotate()`), `r1` (RS256). */
  kid?: string;
  alg?: 'ES256' | 'RS256';
  claims?: Record<string, unknown>;
}

/** What the stub's user consents to at `/authorize`: the scope granted and who the user is. */
export interface Consent {
  /** The scope granted (space-separated): the token's `scope`. */
  scope: string;
  /** The user (default `user-1`): the token's `sub`. */
  sub?: string;
  /** More claims of the token, e.g. `roles`. */
  claims?: Record<string, unknown>;
}

/** One authorization request as `/authorize` received it. */
export interface AuthorizationRequest {
  /** As registered at `/register`: `client-1`, `client-2` … */
  readonly clientId: string;
  /** The requested scope (space-separated; empty when none was asked for). */
  readonly scope: string;
  /** The RFC 8707 `resource` parameter, when sent. */
  readonly resource: string | undefined;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  resource: string | undefined;
  consent: Consent;
  expires: number;
}

const BODY_LIMIT = 64 * 1024;

/**
 * A stub OAuth 2.1 authorization server on 127.0.0.1 for tests of a resource server: ES256 keys
 * `k1` (published) and `k2` (published after `rotate()`), an RS256 key `r1`, its JWKS (hits
 * counted, can be made to fail), RFC 8414 metadata naming itself as issuer, and `mint()` for
 * tokens with any claims. For real clients it also runs the authorization-code flow: dynamic
 * client registration (`/register`), `/authorize` approved at once by `consent` (redirecting
 * with the code, as a browser would follow), and `/token` checking PKCE S256, the client, the
 * redirect URI and the `resource`, issuing a JWT whose `aud` is that resource.
 *
 * @example
 * const as = await StubAuthorizationServer.start();
 * const token = await as.mint({ aud: 'http://127.0.0.1:3000/mcp', scope: 'notes:read' });
 * as.consent = (request) => ({ scope: 'notes:read', claims: { roles: ['admin'] } });
 * // … the server under test takes tokens from as.issuer …
 * await as.close();
 */
export class StubAuthorizationServer {
  /** How often the JWKS was fetched. */
  jwksHits = 0;
  /** Answer the JWKS with 500 while true. */
  failJwks = false;
  /** Decides what the user grants at `/authorize`; default: exactly the requested scope, as `user-1`. */
  consent: (request: AuthorizationRequest) => Consent = (request) => ({ scope: request.scope });
  /** `METHOD /path` of every request received, in order. */
  readonly requests: string[] = [];
  /** Every `/authorize` request, in order. */
  readonly authorizations: AuthorizationRequest[] = [];
  /** RFC 7662 `/introspect`: the client it admits (`client_secret_basic` or `client_secret_post`). */
  readonly introspectionClient = { id: 'mcp-server', secret: 's3cr:et/+' };
  /** How often `/introspect` was asked. */
  introspectionHits = 0;
  /** Answer `/introspect` with this status (e.g. 500) and a body that is not JSON, instead. */
  failIntrospection: number | undefined = undefined;
  /** Tokens `/introspect` calls inactive. */
  readonly revoked = new Set<string>();
  /** Shapes an active introspection answer (default: the token's claims). */
  introspectionAnswer: (claims: Record<string, unknown>) => Record<string, unknown> = (claims) => claims;
  /** What `/introspect` last received: its form fields and `Authorization` header. */
  lastIntrospection: { form: URLSearchParams; authorization: string | undefined } | undefined;
  private published: Jwk[] = [];
  private readonly clients = new Map<string, readonly string[]>();
  private readonly grants = new Map<string, Grant>();

  private constructor(
    private readonly jose: Jose,
    private readonly server: Server,
    /** `http://127.0.0.1:<port>`, exactly as tokens carry it in `iss`. */
    readonly issuer: string,
    private readonly keys: Record<string, { privateKey: webcrypto.CryptoKey; jwk: Jwk }>,
  ) {}

  /** Makes the keys and listens on a free loopback port. */
  static async start(): Promise<StubAuthorizationServer> {
    const jose = await import('jose');
    const keys: Record<string, { privateKey: webcrypto.CryptoKey; jwk: Jwk }> = {};
    for (const [kid, alg] of [
      ['k1', 'ES256'],
      ['k2', 'ES256'],
      ['r1', 'RS256'],
    ] as const) {
      const { privateKey, publicKey } = await jose.generateKeyPair(alg, { extractable: true });
      keys[kid] = { privateKey, jwk: { ...(await jose.exportJWK(publicKey)), kid, alg, use: 'sig' } };
    }
    const routes: { stub?: StubAuthorizationServer } = {};
    const server = createServer((request, response) => {
      routes.stub!.serve(request, response).catch(() => {
        if (!response.headersSent) response.writeHead(500);
        response.end();
      });
    });
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const stub = new StubAuthorizationServer(jose, server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, keys);
    routes.stub = stub;
    stub.published = [keys.k1.jwk, keys.r1.jwk];
    return stub;
  }

  /** Publishes `k2` too (key rotation). */
  rotate(): void {
    this.published = [this.keys.k1.jwk, this.keys.k2.jwk, this.keys.r1.jwk];
  }

  /** The RFC 8414 metadata document. */
  get metadata(): Record<string, unknown> {
    return {
      issuer: this.issuer,
      jwks_uri: `${this.issuer}/jwks`,
      authorization_endpoint: `${this.issuer}/authorize`,
      token_endpoint: `${this.issuer}/token`,
      registration_endpoint: `${this.issuer}/register`,
      introspection_endpoint: `${this.issuer}/introspect`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
    };
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.issuer);
    this.requests.push(`${request.method} ${url.pathname}`);
    const json = (status: number, body: unknown): void => void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (request.method === 'GET' && url.pathname === '/.well-known/oauth-authorization-server') return json(200, this.metadata);
    if (request.method === 'GET' && url.pathname === '/jwks') {
      this.jwksHits++;
      if (this.failJwks) return void response.writeHead(500).end('down');
      return json(200, { keys: this.published });
    }
    if (request.method === 'POST' && url.pathname === '/register') {
      const metadata = JSON.parse((await readBody(request)) || '{}') as { redirect_uris?: unknown };
      const uris = metadata.redirect_uris;
      if (!Array.isArray(uris) || uris.length === 0 || uris.some((uri) => typeof uri !== 'string')) {
        return json(400, { error: 'invalid_redirect_uri', error_description: 'redirect_uris must list at least one URI' });
      }
      const clientId = `client-${this.clients.size + 1}`;
      this.clients.set(clientId, uris as string[]);
      return json(201, { ...metadata, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000), token_endpoint_auth_method: 'none' });
    }
    if (request.method === 'GET' && url.pathname === '/authorize') return this.authorize(url.searchParams, response, json);
    if (request.method === 'POST' && url.pathname === '/token') return this.token(new URLSearchParams(await readBody(request)), json);
    if (request.method === 'POST' && url.pathname === '/introspect')
      return this.introspect(request, response, new URLSearchParams(await readBody(request)), json);
    response.writeHead(404).end();
  }

  private authorize(query: URLSearchParams, response: ServerResponse, json: (status: number, body: unknown) => void): void {
    const clientId = query.get('client_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    // Errors before the redirect URI is trusted are answered here, never redirected (RFC 6749 §4.1.2.1).
    if (!this.clients.get(clientId)?.includes(redirectUri)) return json(400, { error: 'invalid_request', error_description: 'unknown client or redirect_uri' });
    if (query.get('response_type') !== 'code' || query.get('code_challenge_method') !== 'S256' || !query.get('code_challenge')) {
      return json(400, { error: 'invalid_request', error_description: 'response_type code with a PKCE S256 challenge is required' });
    }
    const request: AuthorizationRequest = { clientId, scope: query.get('scope') ?? '', resource: query.get('resource') ?? undefined };
    this.authorizations.push(request);
    const code = randomBytes(16).toString('base64url');
    this.grants.set(code, {
      clientId,
      redirectUri,
      challenge: query.get('code_challenge')!,
      resource: request.resource,
      consent: this.consent(request),
      expires: Date.now() + 60_000,
    });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    target.searchParams.set('iss', this.issuer);
    const state = query.get('state');
    if (state !== null) target.searchParams.set('state', state);
    response.writeHead(302, { location: target.href }).end();
  }

  private async token(form: URLSearchParams, json: (status: number, body: unknown) => void): Promise<void> {
    if (form.get('grant_type') !== 'authorization_code') return json(400, { error: 'unsupported_grant_type' });
    const code = form.get('code') ?? '';
    const grant = this.grants.get(code);
    // A code is good once.
    this.grants.delete(code);
    const verifier = form.get('code_verifier') ?? '';
    const resource = form.get('resource') ?? undefined;
    const fails =
      grant === undefined ||
      grant.expires < Date.now() ||
      grant.clientId !== form.get('client_id') ||
      grant.redirectUri !== form.get('redirect_uri') ||
      createHash('sha256').update(verifier).digest('base64url') !== grant.challenge ||
      grant.resource !== resource;
    if (fails) return json(400, { error: 'invalid_grant', error_description: 'the code, verifier, client, redirect_uri or resource does not match' });
    const { scope, sub, claims } = grant.consent;
    const accessToken = await this.mint({ aud: resource, scope, sub: sub ?? 'user-1', claims: { client_id: grant.clientId, ...claims } });
    json(200, { access_token: accessToken, token_type: 'Bearer', expires_in: 300, scope });
  }

  /**
   * RFC 7662: authenticates the client (Basic, its id and secret form-urlencoded, or both in the
   * form), then answers `active: true` with the claims of a token this stub signed that is
   * unexpired and not revoked, else `active: false`.
   */
  private async introspect(
    request: IncomingMessage,
    response: ServerResponse,
    form: URLSearchParams,
    json: (status: number, body: unknown) => void,
  ): Promise<void> {
    this.introspectionHits++;
    this.lastIntrospection = { form, authorization: request.headers.authorization };
    if (this.failIntrospection !== undefined) return void response.writeHead(this.failIntrospection).end('down');
    const { id, secret } = this.introspectionClient;
    const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
    const basic = `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
    const posted = form.get('client_id') === id && form.get('client_secret') === secret;
    if (request.headers.authorization !== basic && !posted) return json(401, { error: 'invalid_client' });
    const token = form.get('token') ?? '';
    try {
      const { payload } = await this.jose.jwtVerify(token, this.jose.createLocalJWKSet({ keys: Object.values(this.keys).map((key) => key.jwk) }));
      if (!this.revoked.has(token)) return json(200, { ...this.introspectionAnswer(payload), active: true, token_type: 'Bearer' });
    } catch {
      // Not ours, expired or garbage: inactive (RFC 7662 §2.2).
    }
    json(200, { active: false });
  }

  /** Signs an access token with any claims (RFC 9068 shape by default). */
  async mint(options: MintOptions = {}): Promise<string> {
    const alg = options.alg ?? 'ES256';
    const kid = options.kid ?? (alg === 'RS256' ? 'r1' : 'k1');
    const key = this.keys[kid] ?? this.keys.k1;
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = { ...options.claims };
    if (options.scope !== undefined) claims.scope = options.scope;
    if (options.scp !== undefined) claims.scp = options.scp;
    if (!('sub' in options) || options.sub !== undefined) claims.sub = options.sub ?? 'user-1';
    if (options.aud !== undefined) claims.aud = options.aud;
    claims.iss = options.iss ?? this.issuer;
    if (!('exp' in options)) claims.exp = now + 300;
    else if (options.exp !== undefined) claims.exp = now + options.exp;
    if (options.nbf !== undefined) claims.nbf = now + options.nbf;
    return new this.jose.SignJWT(claims)
      .setProtectedHeader({ alg, kid, typ: options.typ ?? 'at+jwt' })
      .setIssuedAt(now)
      .sign(key.privateKey);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) {
        request.destroy();
        reject(new Error('body too large'));
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString()));
    request.on('error', reject);
  });
}
