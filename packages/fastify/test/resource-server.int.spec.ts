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
