import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { InvalidTokenError, introspectionVerifier, jwtVerifier, type IntrospectionVerifierOptions } from '../src';
import { StubAuthorizationServer } from '@mcpkit/testing';

// Issue #14: introspectionVerifier (RFC 7662) against the stub authorization server on 127.0.0.1.
const RESOURCE = 'http://localhost/mcp';

describe('introspectionVerifier', () => {
  let as: StubAuthorizationServer;

  beforeAll(async () => {
    as = await StubAuthorizationServer.start();
  });

  afterAll(() => as.close());

  beforeEach(() => {
    as.introspectionHits = 0;
    as.failIntrospection = undefined;
    as.revoked.clear();
    as.introspectionAnswer = (claims) => claims;
  });

  const verifier = (extra: Partial<IntrospectionVerifierOptions> = {}) =>
    introspectionVerifier({ issuer: as.issuer, clientId: as.introspectionClient.id, clientSecret: as.introspectionClient.secret, ...extra }).forResource(
      RESOURCE,
    );
  const refusal = async (promise: unknown): Promise<Error> => {
    try {
      await promise;
    } catch (error) {
      return error as Error;
    }
    throw new Error('the token was accepted');
  };

  it('asks the endpoint from the issuer metadata with client_secret_basic, and maps the answer to the AuthInfo jwtVerifier gives', async () => {
    const token = await as.mint({ aud: RESOURCE, scope: 'notes:read notes:write', claims: { client_id: 'cli', roles: ['admin'] } });
    const auth = await verifier().verify(token);
    const viaJwt = await jwtVerifier({ issuer: as.issuer }).forResource(RESOURCE).verify(token);
    expect(auth).toEqual(viaJwt);
    expect(auth).toMatchObject({ subject: 'user-1', clientId: 'cli', issuer: as.issuer, scopes: ['notes:read', 'notes:write'], expiresAt: expect.any(Number) });
    expect(JSON.stringify(auth)).not.toContain(token);
    // RFC 6749 §2.3.1: the credentials are form-urlencoded before Basic (the secret holds ':', '/' and '+').
    expect(as.lastIntrospection!.authorization).toBe(`Basic ${Buffer.from('mcp-server:s3cr%3Aet%2F%2B').toString('base64')}`);
    expect(Object.fromEntries(as.lastIntrospection!.form)).toEqual({ token, token_type_hint: 'access_token' });
  });

  it('authenticates with client_secret_post in the form instead', async () => {
    await verifier({ clientAuth: 'client_secret_post' }).verify(await as.mint({ aud: RESOURCE }));
    expect(as.lastIntrospection!.authorization).toBeUndefined();
    expect(as.lastIntrospection!.form.get('client_id')).toBe('mcp-server');
  });

  it('refuses an inactive token (revoked, expired, not one of the server): invalid_token, the token in no message', async () => {
    const revoked = await as.mint({ aud: RESOURCE });
    as.revoked.add(revoked);
    for (const token of [revoked, await as.mint({ aud: RESOURCE, exp: -60 }), 'opaque-garbage']) {
      const error = await refusal(verifier().verify(token));
      expect(error).toBeInstanceOf(InvalidTokenError);
      expect(error.message).not.toContain(token);
    }
  });

  it('checks aud, iss, exp and nbf of an active answer like jwtVerifier (A5, A6)', async () => {
    const refused = async (shape: (claims: Record<string, unknown>) => Record<string, unknown>, mint: { aud?: string } = { aud: RESOURCE }) => {
      as.introspectionAnswer = shape;
      expect(await refusal(verifier().verify(await as.mint(mint)))).toBeInstanceOf(InvalidTokenError);
    };
    await refused((claims) => claims, { aud: 'http://localhost/other' });
    await refused((claims) => claims, { aud: undefined });
    await refused((claims) => ({ ...claims, iss: 'http://evil.example' }));
    await refused((claims) => ({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 }));
    await refused((claims) => ({ ...claims, nbf: Math.floor(Date.now() / 1000) + 120 }));
    await refused(({ sub: _sub, ...claims }) => claims);
    // RFC 7662: iss is optional; the endpoint is the issuer's own. The trailing-slash spelling of the resource passes.
    as.introspectionAnswer = ({ iss: _iss, ...claims }) => claims;
    expect((await verifier().verify(await as.mint({ aud: [`${RESOURCE}/`, 'x'] }))).issuer).toBe(as.issuer);
  });

  it('reuses a positive answer for cacheTtlSec, never past exp, and shares one call between concurrent checks', async () => {
    const v = verifier({ cacheTtlSec: 60 });
    const token = await as.mint({ aud: RESOURCE });
    await Promise.all(Array.from({ length: 5 }, () => v.verify(token)));
    await v.verify(token);
    expect(as.introspectionHits).toBe(1);
    // Revoked meanwhile: the cached answer stands until it runs out (what cacheTtlSec trades).
    as.revoked.add(token);
    expect((await v.verify(token)).subject).toBe('user-1');
    const short = verifier({ cacheTtlSec: 0.2 });
    const other = await as.mint({ aud: RESOURCE });
    await short.verify(other);
    as.revoked.add(other);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await refusal(short.verify(other))).toBeInstanceOf(InvalidTokenError);
    // A token living 1 to 2 s (exp is in whole seconds: 1 would be 0 to 1, flaky) is asked again after 2 s, not after 60.
    as.introspectionHits = 0;
    const brief = await as.mint({ aud: RESOURCE, exp: 2 });
    await v.verify(brief);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await refusal(v.verify(brief));
    expect(as.introspectionHits).toBe(2);
  });

  it('keeps at most maxCacheEntries answers, and none with cacheTtlSec 0', async () => {
    const bounded = verifier({ maxCacheEntries: 1 });
    const [a, b] = [await as.mint({ aud: RESOURCE, sub: 'a' }), await as.mint({ aud: RESOURCE, sub: 'b' })];
    await bounded.verify(a);
    await bounded.verify(b);
    await bounded.verify(a);
    expect(as.introspectionHits).toBe(3);
    as.introspectionHits = 0;
    const uncached = verifier({ cacheTtlSec: 0 });
    await uncached.verify(a);
    await uncached.verify(a);
    expect(as.introspectionHits).toBe(2);
  });

  it('remembers an inactive answer for inactiveCacheSec, apart from the active ones, which made-up tokens do not evict', async () => {
    const v = verifier({ maxCacheEntries: 2 });
    const good = await as.mint({ aud: RESOURCE, sub: 'ada' });
    await v.verify(good);
    for (let i = 0; i < 5; i++) await expect(v.verify('made-up')).rejects.toBeInstanceOf(InvalidTokenError);
    expect(as.introspectionHits).toBe(2);
    for (let i = 0; i < 10; i++) await expect(v.verify(`made-up-${i}`)).rejects.toBeInstanceOf(InvalidTokenError);
    as.introspectionHits = 0;
    expect((await v.verify(good)).subject).toBe('ada');
    expect(as.introspectionHits).toBe(0);
    const asking = verifier({ inactiveCacheSec: 0 });
    await expect(asking.verify('made-up')).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(asking.verify('made-up')).rejects.toBeInstanceOf(InvalidTokenError);
    expect(as.introspectionHits).toBe(2);
  });

  it('fails (503 at the endpoint, never accepting) when the introspection endpoint errs, refuses our client or cannot be reached', async () => {
    const token = await as.mint({ aud: RESOURCE });
    as.failIntrospection = 500;
    let error = await refusal(verifier().verify(token));
    expect(error).not.toBeInstanceOf(InvalidTokenError);
    expect(error.message).not.toContain(token);
    // A 200 that is not JSON (an error page): refused alike, without quoting it.
    as.failIntrospection = 200;
    expect((await refusal(verifier().verify(token))).message).toBe('the introspection answer is not JSON');
    as.failIntrospection = undefined;
    error = await refusal(verifier({ clientSecret: 'wrong' }).verify(token));
    expect(error.message).toBe('the introspection endpoint answered 401');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    error = await refusal(verifier({ endpoint: `http://127.0.0.1:${port}/introspect` }).verify(token));
    expect(error).not.toBeInstanceOf(InvalidTokenError);
    expect(String(error.message) + String((error as { cause?: unknown }).cause)).not.toContain(token);
  });

  it('checks its options when made', () => {
    expect(() => introspectionVerifier({ issuer: as.issuer, clientId: '', clientSecret: 'x' })).toThrow(/clientId and clientSecret are required/);
    expect(() => introspectionVerifier({ issuer: as.issuer, clientId: 'x', clientSecret: 'y', clientAuth: 'private_key_jwt' as never })).toThrow(/clientAuth/);
    expect(() => introspectionVerifier({ issuer: as.issuer, clientId: 'x', clientSecret: 'y', maxCacheEntries: 0 })).toThrow(/maxCacheEntries/);
  });
});
