import { createApp, RequireScopes, Tool, type RequestContext } from '@mcpkit/core';
import { SignJWT, base64url } from 'jose';
import pino from 'pino';
import { createFetchHandler, InvalidTokenError, jwtVerifier } from '../src';
import { StubAuthorizationServer } from '@mcpkit/testing';
import { JwksCache } from '../src/jwks-cache';

// Issue #14: jwtVerifier on jose against a stub authorization server on 127.0.0.1 (auth.md §5).
const RESOURCE = 'http://localhost/mcp';

describe('jwtVerifier', () => {
  let as: StubAuthorizationServer;

  beforeAll(async () => {
    as = await StubAuthorizationServer.start();
  });

  afterAll(() => as.close());

  const verifier = (extra: Partial<Parameters<typeof jwtVerifier>[0]> = {}) => jwtVerifier({ issuer: as.issuer, ...extra }).forResource(RESOURCE);
  const refused = async (token: Promise<string> | string, v = verifier()) => expect(v.verify(await token)).rejects.toBeInstanceOf(InvalidTokenError);

  it('accepts a token for this resource and reads subject, client, scopes and expiry (A5)', async () => {
    const auth = await verifier().verify(await as.mint({ aud: RESOURCE, scope: 'notes:read notes:write', claims: { client_id: 'cli', roles: ['admin'] } }));
    expect(auth).toMatchObject({ subject: 'user-1', clientId: 'cli', issuer: as.issuer, scopes: ['notes:read', 'notes:write'], expiresAt: expect.any(Number) });
    expect(auth.claims).toMatchObject({ roles: ['admin'] });
    expect(JSON.stringify(auth)).not.toMatch(/eyJ/);
    expect((await verifier().verify(await as.mint({ aud: RESOURCE, scp: ['a', 'b'] }))).scopes).toEqual(['a', 'b']);
  });

  it('checks the audience exactly: another resource and a missing aud are refused; an array with ours and the trailing slash pass (A5, A6, case 5)', async () => {
    await refused(as.mint({ aud: 'http://localhost/other' }));
    await refused(as.mint({ aud: undefined }));
    expect((await verifier().verify(await as.mint({ aud: ['http://x', RESOURCE] }))).subject).toBe('user-1');
    expect((await verifier().verify(await as.mint({ aud: `${RESOURCE}/` }))).subject).toBe('user-1');
  });

  it('refuses expired, exp-less and not-yet-valid tokens, within a 30 s tolerance (case 4)', async () => {
    await refused(as.mint({ aud: RESOURCE, exp: -60 }));
    expect((await verifier().verify(await as.mint({ aud: RESOURCE, exp: -10 }))).subject).toBe('user-1');
    await refused(as.mint({ aud: RESOURCE, exp: undefined }));
    await refused(as.mint({ aud: RESOURCE, nbf: 120 }));
  });

  it('refuses a bad signature, alg none, HS256, an algorithm off the list, a wrong issuer and a wrong typ (cases 3, 6)', async () => {
    const good = await as.mint({ aud: RESOURCE });
    const [header, payload] = good.split('.');
    await refused(`${header}.${payload}.${base64url.encode(new Uint8Array(64))}`);
    const none = `${base64url.encode(JSON.stringify({ alg: 'none', kid: 'k1' }))}.${payload}.`;
    await refused(none);
    const hs = await new SignJWT(JSON.parse(Buffer.from(payload, 'base64url').toString()))
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .sign(new TextEncoder().encode('public-key-as-secret'));
    await refused(hs);
    await refused(as.mint({ aud: RESOURCE, alg: 'RS256' }), verifier({ algorithms: ['ES256'] }));
    await refused(as.mint({ aud: RESOURCE, iss: 'http://evil.example' }));
    await refused(as.mint({ aud: RESOURCE, typ: 'JWT' }), verifier({ requireTyp: 'at+jwt' }));
    expect(() => jwtVerifier({ issuer: as.issuer, algorithms: ['HS256'] })).toThrow(/not an asymmetric algorithm/);
  });

  it('takes the key set only from metadata naming the issuer identically: another spelling there is never trusted, and not blamed on the token (the endpoint answers such failures 503, case 8)', async () => {
    const real = as.metadata;
    // The trailing slash: a normalising comparison would accept it, RFC 8414 §3.3 does not.
    Object.defineProperty(as, 'metadata', { configurable: true, get: () => ({ ...real, issuer: `${as.issuer}/` }) });
    as.jwksHits = 0;
    try {
      const token = await as.mint({ aud: RESOURCE });
      const error = await (async () => verifier({ jwksCooldownSec: 0 }).verify(token))().then(
        () => undefined,
        (problem: unknown) => problem,
      );
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(InvalidTokenError);
      expect(as.jwksHits).toBe(0);
    } finally {
      delete (as as unknown as Record<string, unknown>).metadata;
    }
    expect((await verifier().verify(await as.mint({ aud: RESOURCE }))).subject).toBe('user-1');
  });

  it('fetches the key set once, refetches for an unknown kid at most once per cooldown, and picks up a rotation (case 7)', async () => {
    const v = verifier();
    as.jwksHits = 0;
    await v.verify(await as.mint({ aud: RESOURCE }));
    await v.verify(await as.mint({ aud: RESOURCE }));
    expect(as.jwksHits).toBe(1);
    const unknown = await as.mint({ aud: RESOURCE, kid: 'k2' });
    await Promise.all(Array.from({ length: 50 }, () => expect(v.verify(unknown)).rejects.toBeInstanceOf(InvalidTokenError)));
    expect(as.jwksHits).toBeLessThanOrEqual(2);
    // A fresh verifier (a new process) after the rotation sees k2 at its first fetch.
    as.rotate();
    expect((await verifier().verify(unknown)).subject).toBe('user-1');
  });

  it('picks up a rotation in a running verifier: a new kid after the cooldown costs one refetch, then is known (case 7)', async () => {
    const rotating = await StubAuthorizationServer.start();
    try {
      let clock = 0;
      const v = jwtVerifier({ issuer: rotating.issuer, now: () => clock }).forResource(RESOURCE);
      expect((await v.verify(await rotating.mint({ aud: RESOURCE }))).subject).toBe('user-1');
      const signedWithK2 = await rotating.mint({ aud: RESOURCE, kid: 'k2' });
      clock += 30_001; // past the default cooldown
      rotating.rotate();
      const hits = rotating.jwksHits;
      expect((await v.verify(signedWithK2)).subject).toBe('user-1');
      expect((await v.verify(signedWithK2)).subject).toBe('user-1');
      expect(rotating.jwksHits - hits).toBe(1);
    } finally {
      await rotating.close();
    }
  });

  it('after a failed fetch tries again in 1 s, then 2, 4 … up to the cooldown, not after a whole cooldown (injected clock)', async () => {
    let now = 0;
    const cache = new JwksCache({ url: async () => `${as.issuer}/jwks`, cooldownMs: 30_000, maxAgeMs: 600_000, timeoutMs: 5_000, now: () => now });
    const lookup = () => cache.lookup({ alg: 'ES256', kid: 'k1' }, { payload: '', signature: '' });
    const hits = () => as.jwksHits;
    as.jwksHits = 0;
    as.failJwks = true;
    try {
      // Start-up with the authorization server down: one fetch, then nothing until the backoff is over.
      await expect(lookup()).rejects.toThrow('the JWKS endpoint answered 500');
      expect(hits()).toBe(1);
      now = 999;
      await expect(lookup()).rejects.toThrow('500');
      expect(hits()).toBe(1);
      now = 1_000;
      await expect(lookup()).rejects.toThrow('500');
      expect(hits()).toBe(2);
      // Failing on: 2 s later, then 4, 8, 16, then the 30 s cooldown bounds it; none in between.
      for (const at of [3_000, 7_000, 15_000, 31_000, 61_000, 91_000]) {
        const before = hits();
        now = at - 1;
        await expect(lookup()).rejects.toThrow('500');
        expect(hits()).toBe(before);
        now = at;
        await expect(lookup()).rejects.toThrow('500');
        expect(hits()).toBe(before + 1);
      }
      // Back up: the next attempt succeeds, and a success is refetched at most once per cooldown again.
      as.failJwks = false;
      now = 121_000;
      expect(await lookup()).toBeDefined();
      const upAt = hits();
      now = 121_000 + 29_999;
      await expect(cache.lookup({ alg: 'ES256', kid: 'nope' }, { payload: '', signature: '' })).rejects.toThrow();
      expect(hits()).toBe(upAt);
    } finally {
      as.failJwks = false;
    }
  });

  it('answers 503 through the endpoint when the key set is unreachable, never accepting, without a stack (case 8)', async () => {
    class Notes {
      @Tool({ input: null })
      @RequireScopes('notes:read')
      whoami(_input: unknown, ctx: RequestContext) {
        return ctx.auth!.subject;
      }
    }
    const handler = createFetchHandler(createApp({ name: 'n', version: '1', providers: [Notes], logger: pino({ level: 'silent' }) }), {
      sessions: false,
      auth: { resource: RESOURCE, authorizationServers: [as.issuer], verifier: jwtVerifier({ issuer: as.issuer, jwksCooldownSec: 0 }) },
    });
    const post = (token: string) =>
      handler(
        new Request(RESOURCE, {
          method: 'POST',
          headers: {
            host: 'localhost',
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'whoami',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: {
              name: 'whoami',
              arguments: {},
              _meta: {
                'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
                'io.modelcontextprotocol/clientCapabilities': {},
              },
            },
          }),
        }),
      );
    try {
      as.failJwks = true;
      const down = await post(await as.mint({ aud: RESOURCE, scope: 'notes:read' }));
      expect(down.status).toBe(503);
      expect(await down.text()).not.toMatch(/at |jwks/i);
      as.failJwks = false;
      const up = await post(await as.mint({ aud: RESOURCE, scope: 'notes:read', sub: 'ada' }));
      expect(up.status).toBe(200);
      expect(JSON.stringify(await up.json())).toContain('ada');
      expect((await post(await as.mint({ aud: 'http://localhost/other', scope: 'notes:read' }))).status).toBe(401);
    } finally {
      as.failJwks = false;
      await handler.close();
    }
  });
});
