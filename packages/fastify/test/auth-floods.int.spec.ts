import { createApp, RequireScopes, Tool, type RequestContext } from '@mcpkit/core';
import { jwtVerifier } from '@mcpkit/http';
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

  const serve = async (options: Partial<ServeHttpOptions> & { verifier?: ReturnType<typeof jwtVerifier> } = {}) => {
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
    const server = await serve();
    as.failJwks = true;
    const token = await as.mint({ aud: RESOURCE, scope: 'notes:read' });
    const before = as.jwksHits;
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await post(server, token)).status);
    statuses.push(...(await Promise.all(Array.from({ length: 10 }, async () => (await post(server, token)).status))));
    expect(statuses).toEqual(Array.from({ length: 20 }, () => 503));
    expect(as.jwksHits - before).toBe(1);
  });

  it('fetches at most once per cooldown for unknown kids while the JWKS fails (warm cache): 503, not 401, in between', async () => {
    const server = await serve({ verifier: jwtVerifier({ issuer: as.issuer, jwksCooldownSec: 0.3 }) });
    expect((await post(server, await as.mint({ aud: RESOURCE, scope: 'notes:read' }))).status).toBe(200);
    // Past the cooldown of that good fetch, an unknown kid may refetch (a rotation): the AS is down now.
    await new Promise((resolve) => setTimeout(resolve, 350));
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

  it('fetches again once the cooldown is over, and then accepts', async () => {
    const server = await serve({ verifier: jwtVerifier({ issuer: as.issuer, jwksCooldownSec: 0.3 }) });
    as.failJwks = true;
    const token = await as.mint({ aud: RESOURCE, scope: 'notes:read' });
    const before = as.jwksHits;
    expect((await post(server, token)).status).toBe(503);
    as.failJwks = false;
    expect((await post(server, token)).status).toBe(503);
    expect(as.jwksHits - before).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await post(server, token)).status).toBe(200);
    expect(as.jwksHits - before).toBe(2);
  });
});
