import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { webcrypto } from 'node:crypto';
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK } from 'jose';

/** Claims and header fields a test token may set; `undefined` leaves a claim out. */
export interface MintOptions {
  aud?: string | string[] | undefined;
  sub?: string | undefined;
  scope?: string;
  scp?: string[];
  iss?: string;
  /** Seconds from now; `undefined` leaves `exp` out. */
  exp?: number | undefined;
  nbf?: number;
  typ?: string;
  kid?: string;
  alg?: 'ES256' | 'RS256';
  claims?: Record<string, unknown>;
}

/**
 * A stub authorization server on 127.0.0.1 (auth.md §5): ES256 keys `k1` (published) and `k2`
 * (published after `rotate()`), an RS256 key, its JWKS (hits counted, can fail), its metadata
 * naming itself as issuer, and `mint()` for tokens with any claims.
 */
export class OAuthFixture {
  jwksHits = 0;
  failJwks = false;
  /** RFC 7662 endpoint `/introspect`: the client it admits (client_secret_basic or _post). */
  readonly introspectionClient = { id: 'mcp-server', secret: 's3cr:et/+' };
  introspectionHits = 0;
  /** Answer the introspection endpoint with this status (e.g. 500) instead. */
  failIntrospection: number | undefined = undefined;
  /** Tokens the introspection endpoint calls inactive. */
  readonly revoked = new Set<string>();
  /** Shapes an active introspection answer (default: the token's claims). */
  introspectionAnswer: (claims: Record<string, unknown>) => Record<string, unknown> = (claims) => claims;
  /** What the introspection endpoint last received: its form fields and Authorization header. */
  lastIntrospection: { form: URLSearchParams; authorization: string | undefined } | undefined;
  private published: JWK[] = [];

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    private readonly keys: Record<string, { privateKey: webcrypto.CryptoKey; jwk: JWK }>,
  ) {}

  static async start(): Promise<OAuthFixture> {
    const keys: Record<string, { privateKey: webcrypto.CryptoKey; jwk: JWK }> = {};
    for (const [kid, alg] of [
      ['k1', 'ES256'],
      ['k2', 'ES256'],
      ['r1', 'RS256'],
    ] as const) {
      const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
      keys[kid] = { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
    }
    const routes: { fixture?: OAuthFixture } = {};
    const server = createServer((req, res) =>
      req.url === '/introspect' ? void routes.fixture!.introspect(req, res) : routes.fixture!.serve(req.url ?? '/', res),
    );
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const fixture = new OAuthFixture(server, issuer, keys);
    routes.fixture = fixture;
    fixture.published = [keys.k1.jwk, keys.r1.jwk];
    return fixture;
  }

  /** Publishes `k2` too (key rotation). */
  rotate(): void {
    this.published = [this.keys.k1.jwk, this.keys.k2.jwk, this.keys.r1.jwk];
  }

  private serve(url: string, res: import('node:http').ServerResponse): void {
    if (url === '/.well-known/oauth-authorization-server') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ issuer: this.issuer, jwks_uri: `${this.issuer}/jwks`, introspection_endpoint: `${this.issuer}/introspect` }));
    } else if (url === '/jwks') {
      this.jwksHits++;
      if (this.failJwks) res.writeHead(500).end('down');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: this.published }));
    } else {
      res.writeHead(404).end();
    }
  }

  /**
   * RFC 7662: authenticates the client (Basic, or client_id and client_secret in the form), then
   * answers `active: true` with the claims of a token it minted that is unexpired and not
   * revoked, else `active: false`.
   */
  private async introspect(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.introspectionHits++;
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const form = new URLSearchParams(body);
    this.lastIntrospection = { form, authorization: req.headers.authorization };
    if (this.failIntrospection !== undefined) return void res.writeHead(this.failIntrospection).end('down');
    const { id, secret } = this.introspectionClient;
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
    const posted = form.get('client_id') === id && form.get('client_secret') === secret;
    if (req.method !== 'POST' || (req.headers.authorization !== basic && !posted)) {
      return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}');
    }
    const token = form.get('token') ?? '';
    let answer: Record<string, unknown> = { active: false };
    try {
      const { payload } = await jwtVerify(token, createLocalJWKSet({ keys: Object.values(this.keys).map((key) => key.jwk) }));
      if (!this.revoked.has(token)) answer = { ...this.introspectionAnswer(payload), active: true, token_type: 'Bearer' };
    } catch {
      // Not ours, expired or garbage: inactive (RFC 7662 §2.2).
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  }

  async mint(options: MintOptions = {}): Promise<string> {
    const alg = options.alg ?? 'ES256';
    const kid = options.kid ?? (alg === 'RS256' ? 'r1' : 'k1');
    const key = this.keys[kid] ?? this.keys.k1;
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = { ...options.claims };
    if (options.scope !== undefined) claims.scope = options.scope;
    if (options.scp !== undefined) claims.scp = options.scp;
    if (!('sub' in options) || options.sub !== undefined) claims.sub = options.sub ?? 'user-1';
    if (!('aud' in options) || options.aud !== undefined) claims.aud = options.aud;
    claims.iss = options.iss ?? this.issuer;
    if (!('exp' in options)) claims.exp = now + 300;
    else if (options.exp !== undefined) claims.exp = now + options.exp;
    if (options.nbf !== undefined) claims.nbf = now + options.nbf;
    return new SignJWT(claims)
      .setProtectedHeader({ alg, kid, typ: options.typ ?? 'at+jwt' })
      .setIssuedAt(now)
      .sign(key.privateKey);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
