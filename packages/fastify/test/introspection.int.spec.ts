import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApp, RequireScopes, Tool, type RequestContext } from '@mcpkit/core';
import { introspectionVerifier } from '@mcpkit/http';
import pino from 'pino';
import { serveHttp, type HttpServer } from '../src';
import { StubAuthorizationServer } from '@mcpkit/testing';

// Issue #14 over loopback HTTP: an endpoint whose tokens are checked by RFC 7662 introspection at
// the stub authorization server, with the official SDK client.
class Notes {
  @Tool({ input: null })
  @RequireScopes('notes:read')
  whoami(_input: unknown, ctx: RequestContext) {
    return `${ctx.auth!.subject} ${ctx.auth!.scopes.join(',')}`;
  }
}

describe('introspectionVerifier behind serveHttp', () => {
  let as: StubAuthorizationServer;
  let server: HttpServer;
  const RESOURCE = 'http://127.0.0.1/mcp';

  beforeAll(async () => {
    as = await StubAuthorizationServer.start();
    const app = createApp({ name: 'notes', version: '1', providers: [Notes], logger: pino({ level: 'silent' }) });
    server = await serveHttp(app, {
      port: 0,
      auth: {
        resource: RESOURCE,
        authorizationServers: [as.issuer],
        verifier: introspectionVerifier({
          issuer: as.issuer,
          clientId: as.introspectionClient.id,
          clientSecret: as.introspectionClient.secret,
          cacheTtlSec: 0,
        }),
      },
    });
  });

  afterAll(async () => {
    await server.close();
    await as.close();
  });

  const post = (token: string) =>
    fetch(server.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });

  it("serves an active token's holder as ctx.auth", async () => {
    const token = await as.mint({ aud: RESOURCE, scope: 'notes:read', sub: 'ada' });
    const client = new Client({ name: 'rs', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      expect(await client.callTool({ name: 'whoami', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'ada notes:read' }] });
    } finally {
      await client.close();
    }
  });

  it('answers 401 invalid_token for a revoked token and 503 when the endpoint is down, the token in neither', async () => {
    const token = await as.mint({ aud: RESOURCE, scope: 'notes:read' });
    as.revoked.add(token);
    const revoked = await post(token);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await revoked.text()).not.toContain(token);
    // Another token: an inactive answer is remembered for inactiveCacheSec.
    const other = await as.mint({ aud: RESOURCE, scope: 'notes:read' });
    as.failIntrospection = 502;
    try {
      const down = await post(other);
      expect(down.status).toBe(503);
      const body = await down.text();
      expect(body).not.toContain(other);
      expect(body).not.toMatch(/introspect|at /);
    } finally {
      as.failIntrospection = undefined;
    }
  });
});
