import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApp, RequireScopes, Tool, type RequestContext } from '@mcpkit/core';
import { InvalidTokenError } from '@mcpkit/http';
import pino from 'pino';
import { serveHttp, type HttpServer } from '../src';

// Issue #14 over loopback HTTP: the Fastify binding refuses a stranger in onRequest, before its
// body, and serves a token's holder as that caller (the official SDK client, handshake era).
class Notes {
  @Tool({ input: null })
  whoami(_input: unknown, ctx: RequestContext) {
    return ctx.auth?.subject ?? 'nobody';
  }

  @Tool({ input: null })
  @RequireScopes('notes:write')
  write() {
    return 'written';
  }
}

describe('the resource server on Fastify', () => {
  let server: HttpServer;
  let resource: string;

  beforeAll(async () => {
    const app = createApp({ name: 'notes', version: '1', providers: [Notes], logger: pino({ level: 'silent' }) });
    // The canonical URL must be known before the port is: bind a fixed path, then check the URL.
    server = await serveHttp(app, {
      port: 0,
      auth: {
        resource: 'http://127.0.0.1/mcp',
        authorizationServers: ['https://as.example'],
        verifier: {
          verify: (token) => {
            if (token !== 'reader-token') throw new InvalidTokenError('unknown');
            return { subject: 'ann', scopes: ['notes:read'] };
          },
        },
      },
    });
    resource = server.url;
  });

  afterAll(() => server.close());

  it('answers 401 with the challenge before reading the body', async () => {
    const response = await fetch(resource, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"');
    const prm = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', resource));
    expect(await prm.json()).toMatchObject({ resource: 'http://127.0.0.1/mcp', bearer_methods_supported: ['header'] });
  });

  const META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const whoami = (authorization: string, query = '') =>
    fetch(`${resource}${query}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'whoami',
        authorization,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {}, _meta: META } }),
    });

  it('answers a refused token 401 whose body gives the reason its challenge gives (invalid_token), and serves on', async () => {
    const refused = await whoami('Bearer not-a-token');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      'Bearer error="invalid_token", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp", error_description="The access token is invalid"',
    );
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -31001, message: 'Invalid token: The access token is invalid', data: { error: 'invalid_token' } },
    });
    // No token at all is still the other reason.
    expect(((await (await whoami('')).json()) as { error: { message: string } }).error.message).toBe('Authentication required');
    expect((await whoami('Bearer reader-token')).status).toBe(200);
  });

  it('refuses an access token in the query in every spelling (case, array forms, encoded names), and serves on (A13)', async () => {
    for (const query of [
      '?access_token=reader-token',
      '?ACCESS_TOKEN=reader-token',
      '?Access_Token=reader-token',
      '?access_token[]=reader-token',
      '?access_token%5B%5D=reader-token',
      '?access_token[0]=reader-token',
      '?access%5Ftoken=reader-token',
      '?%61ccess_token=reader-token',
      '?access%255Ftoken=reader-token',
      '?other=1&access_token=reader-token',
    ]) {
      const refused = await whoami('Bearer reader-token', query);
      expect([query, refused.status]).toEqual([query, 400]);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_request"');
      expect(await refused.json()).toMatchObject({ error: { code: -32600, message: expect.stringContaining('never in the URI') } });
    }
    // A name that only resembles it is no token.
    expect((await whoami('Bearer reader-token', '?access_tokens=1&token_hint=2')).status).toBe(200);
  });

  it("serves the token's holder as ctx.auth, and answers a step-up 403 on the session", async () => {
    const client = new Client({ name: 'rs', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(resource), { requestInit: { headers: { authorization: 'Bearer reader-token' } } }));
    try {
      expect(await client.callTool({ name: 'whoami', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'ann' }] });
      await expect(client.callTool({ name: 'write', arguments: {} })).rejects.toThrow(/403|insufficient/i);
    } finally {
      await client.close();
    }
  });
});
