import { createApp, RequireScopes, Tool, type RequestContext } from '@mcpkit/core';
import { introspectionVerifier, jwtVerifier, type TokenVerifier } from '@mcpkit/http';
import pino from 'pino';
import { serveHttp, type HttpServer, type ServeHttpOptions } from '../src';
import { StubAuthorizationServer } from '@mcpkit/testing';

// Issue #14, a hostile review over loopback: what a flood of requests costs the authorization
// server while it fails, and what a flood of bad tokens costs the server.
class Notes {
  @Tool({ input: null })
  @RequireScopes('notes:read')
  whoami(_input: unknown, ctx: RequestContext) {
    return ctx.auth!.subject;
  }
}

const RESOURCE = 'http://127.0.0.1/mcp';
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

describe('floods against a resource server', () => {
  let as: StubAuthorizationServer;
  const servers: HttpServer[] = [];
  beforeAll(async () => {
    as = await StubAuthorizationServer.start();
  });
  afterEach(async () => {
    as.failJwks = false;
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  afterAll(() => as.close());

  const serve = async (options: Partial<ServeHttpOptions> & { verifier?: TokenVerifier } = {}) => {
    const { verifier, ...rest } = options;
    const server = await serveHttp(createApp({ name: 'notes', version: '1', providers: [Notes], logger: pino({ level: 'silent' }) }), {
      port: 0,
      auth: { resource: RESOURCE, authorizationServers: [as.issuer], verifier: verifier ?? jwtVerifier({ issuer: as.issuer }) },
      ...rest,
    });
    servers.push(server);
    return server;
  };
  const post = (server: HttpServer, token: string) =>
    fetch(server.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: INIT,
    });

  it('fetches a failing JWKS at most once per cooldown on a cold cache: 20 requests, 1 fetch, all 503 (never accepted)', async () => {
    // A stopped clock: the 1 s backoff after the failure never ends, however slow the 20 posts.
    const server = await serve({ verifier: jwtVerifier({ issuer: as.issuer, now: () => 0 }) });
    as.failJwks = true;
    const token = await as.mint({ aud: RESOURCE, scope: 'notes:read' });
    const before = as.jwksHits;
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await post(server, token)).status);
    statuses.push(...(await Promise.all(Array.from({ length: 10 }, async () => (await post(server, token)).status))));
    expect(statuses).toEqual(Array.from({ length: 20 }, () => 503));
    expect(as.jwksHits - before).toBe(1);
  });

  it('fetches at most once per cooldown for unknown kids while the JWKS fails (warm cache): 503, not 401, in between (injected clock)', async () => {
    // An injected clock: the cooldown (30 s) ends when the test says, however slow the machine.
    let clock = 0;
    const server = await serve({ verifier: jwtVerifier({ issuer: as.issuer, now: () => clock }) });
    expect((await post(server, await as.mint({ aud: RESOURCE, scope: 'notes:read' }))).status).toBe(200);
    // Past the cooldown of that good fetch, an unknown kid may refetch (a rotation): the AS is down now.
    clock += 30_001;
    as.failJwks = true;
    const before = as.jwksHits;
    const unknown = await as.mint({ aud: RESOURCE, scope: 'notes:read', kid: 'k2' });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await post(server, unknown)).status);
    expect(as.jwksHits - before).toBe(1);
    expect(statuses).toEqual(Array.from({ length: 20 }, () => 503));
    // A known key still verifies: the cached set is kept.
    expect((await post(server, await as.mint({ aud: RESOURCE, scope: 'notes:read' }))).status).toBe(200);
  });

  it('fetches again once the backoff after a failure is over, and then accepts (injected clock)', async () => {
    let clock = 0;
    const server = await serve({ verifier: jwtVerifier({ issuer: as.issuer, jwksCooldownSec: 5, now: () => clock }) });
    as.failJwks = true;
    const token = await as.mint({ aud: RESOURCE, scope: 'notes:read' });
    const before = as.jwksHits;
    expect((await post(server, token)).status).toBe(503);
    as.failJwks = false;
    clock += 999; // after a failure the next fetch is due 1 s later (the backoff's first step)
    expect((await post(server, token)).status).toBe(503);
    expect(as.jwksHits - before).toBe(1);
    clock += 2;
    expect((await post(server, token)).status).toBe(200);
    expect(as.jwksHits - before).toBe(2);
  });

  it('answers a flood of garbage tokens 429 with Retry-After before verifying: the verifier runs no more than the limit allows', async () => {
    const inner = jwtVerifier({ issuer: as.issuer }).forResource(RESOURCE);
    const seen: string[] = [];
    const counting: TokenVerifier = {
      verify: (token) => {
        seen.push(token);
        return inner.verify(token);
      },
    };
    const server = await serve({ verifier: counting, rateLimit: { limit: 5, windowMs: 60_000 } });
    // A verified caller counts against its subject, not against the address.
    const good = await as.mint({ aud: RESOURCE, scope: 'notes:read', sub: 'ada' });
    for (let i = 0; i < 5; i++) expect((await post(server, good)).status).toBe(200);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 30; i++) {
      const response = await post(server, `garbage-${i}`);
      statuses.push(response.status);
      if (response.status === 429) retryAfter ??= response.headers.get('retry-after');
      await response.arrayBuffer();
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual(Array.from({ length: 25 }, () => 429));
    expect(retryAfter).toMatch(/^\d+$/);
    expect(seen.filter((token) => token.startsWith('garbage-'))).toHaveLength(5);
    // No token at all counts against the address too.
    expect((await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: INIT })).status).toBe(429);
  });

  it('costs the introspection endpoint no more than the limit allows, and remembers an inactive token for a while', async () => {
    const verifier = introspectionVerifier({ issuer: as.issuer, clientId: as.introspectionClient.id, clientSecret: as.introspectionClient.secret });
    const limited = await serve({ verifier, rateLimit: { limit: 3, windowMs: 60_000 } });
    const before = as.introspectionHits;
    const statuses = await Promise.all(Array.from({ length: 20 }, async (_, i) => (await post(limited, `opaque-${i}`)).status));
    // All at once: counted before their check, but the first of the burst (nothing suspect yet): one more at most.
    const hits = as.introspectionHits - before;
    expect(hits).toBeGreaterThanOrEqual(3);
    expect(hits).toBeLessThanOrEqual(4);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(hits);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(16);
    // Without a limit, one bad token repeated is asked about once within inactiveCacheSec (default 5 s).
    const open = await serve({
      verifier: introspectionVerifier({ issuer: as.issuer, clientId: as.introspectionClient.id, clientSecret: as.introspectionClient.secret }),
    });
    const again = as.introspectionHits;
    for (let i = 0; i < 10; i++) expect((await post(open, 'the-same-bad-token')).status).toBe(401);
    expect(as.introspectionHits - again).toBe(1);
  });
});
