import { request as httpRequest } from 'node:http';
import { createApp, Tool, type RequestContext } from '@mcpkit/core';
import { InvalidTokenError } from '@mcpkit/http';
import pino from 'pino';
import { serveHttp, type HttpServer } from '../src';

// Issue #14 (CORS), over loopback: a browser client on another origin reads the Protected
// Resource Metadata whatever its origin, and talks to /mcp when allowedOrigins lets it.
class Notes {
  @Tool({ input: null })
  whoami(_input: unknown, ctx: RequestContext) {
    return ctx.auth?.subject ?? 'nobody';
  }
}

const APP_ORIGIN = 'https://app.example.com';
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

describe('CORS of a resource server on Fastify', () => {
  let server: HttpServer;
  let base: string;

  beforeAll(async () => {
    const app = createApp({ name: 'notes', version: '1', providers: [Notes], logger: pino({ level: 'silent' }) });
    server = await serveHttp(app, {
      port: 0,
      allowedOrigins: [APP_ORIGIN],
      auth: {
        resource: 'http://127.0.0.1/mcp',
        authorizationServers: ['https://as.example'],
        verifier: {
          verify: (token) => {
            if (token !== 'reader-token') throw new InvalidTokenError('unknown');
            return { subject: 'ann', scopes: [] };
          },
        },
      },
    });
    base = new URL(server.url).origin;
  });
  afterAll(() => server.close());

  const PRM = '/.well-known/oauth-protected-resource/mcp';

  it('serves the metadata (GET and a preflight) to any origin with Access-Control-Allow-Origin: *', async () => {
    for (const path of [PRM, '/.well-known/oauth-protected-resource']) {
      const got = await fetch(`${base}${path}`, { headers: { origin: 'https://evil.example' } });
      // A failure names what answered (once seen in CI as a bare 400 that no rerun reproduced).
      if (got.status !== 200) expect({ status: got.status, headers: Object.fromEntries(got.headers), body: await got.text() }).toEqual({ status: 200 });
      expect(got.headers.get('access-control-allow-origin')).toBe('*');
      expect(((await got.json()) as { resource: string }).resource).toBe('http://127.0.0.1/mcp');
      const pre = await fetch(`${base}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'mcp-protocol-version' },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      expect(pre.headers.get('access-control-allow-headers')).toMatch(/mcp-protocol-version/i);
    }
    // The Host is still checked: the document never depends on it, but a rebinding name gets nothing.
    const rebound = await new Promise<number>((resolve, reject) => {
      // fetch will not send another Host: node:http does.
      const request = httpRequest(`${base}${PRM}`, { headers: { host: 'evil.example', origin: 'https://evil.example' } }, (response) => {
        response.resume();
        resolve(response.statusCode!);
      });
      request.on('error', reject);
      request.end();
    });
    expect(rebound).toBe(403);
  });

  it('answers a preflight of /mcp from an allowed origin with the methods and headers an MCP client sends', async () => {
    const pre = await fetch(server.url, {
      method: 'OPTIONS',
      headers: {
        origin: APP_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-protocol-version, mcp-session-id',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(pre.headers.get('vary')).toMatch(/origin/i);
    expect(pre.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE');
    expect(pre.headers.get('access-control-allow-headers')).toBe('authorization, content-type, mcp-protocol-version, mcp-session-id');
    // A list that is no header list gets the default one, not an echo.
    const odd = await fetch(server.url, {
      method: 'OPTIONS',
      headers: { origin: APP_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'a b\tc' },
    });
    expect(odd.headers.get('access-control-allow-headers')).toMatch(/^Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id/);
  });

  it('refuses a preflight and a request from a foreign origin with 403 and no CORS headers; an OPTIONS that is no preflight is 405', async () => {
    const pre = await fetch(server.url, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(pre.status).toBe(403);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    const post = await fetch(server.url, {
      method: 'POST',
      headers: {
        origin: 'https://evil.example',
        authorization: 'Bearer reader-token',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: INIT,
    });
    expect(post.status).toBe(403);
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
    expect((await fetch(server.url, { method: 'OPTIONS' })).status).toBe(405);
  });

  it("lets an allowed origin read a 401's challenge and a session's id (Access-Control-Expose-Headers)", async () => {
    const headers = { origin: APP_ORIGIN, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const anonymous = await fetch(server.url, { method: 'POST', headers, body: INIT });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(anonymous.headers.get('access-control-expose-headers')).toMatch(/WWW-Authenticate/);
    const ok = await fetch(server.url, { method: 'POST', headers: { ...headers, authorization: 'Bearer reader-token' }, body: INIT });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('mcp-session-id')).toBeTruthy();
    expect(ok.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    const exposed = (ok.headers.get('access-control-expose-headers') ?? '').split(/\s*,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['WWW-Authenticate', 'Mcp-Session-Id']));
    await ok.arrayBuffer();
    await fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': ok.headers.get('mcp-session-id')!, authorization: 'Bearer reader-token' } });
  });
});
