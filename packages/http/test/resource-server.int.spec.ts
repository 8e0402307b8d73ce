import { createApp, RequireRoles, RequireScopes, Tool, type AuthInfo, type RequestContext } from '@mcpkit/core';
import pino from 'pino';
import { createFetchHandler, InvalidTokenError, type FetchHandler, type McpHttpOptions, type TokenVerifier } from '../src';

// Issue #14, the resource server (auth.md §5), through the fetch binding in process.
const RESOURCE = 'http://localhost/mcp';
const PRM_URL = 'http://localhost/.well-known/oauth-protected-resource/mcp';
const HEADERS = { host: 'localhost', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28' };
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

class Notes {
  @Tool({ input: null })
  whoami(_input: unknown, ctx: RequestContext) {
    return `${ctx.auth?.subject ?? 'nobody'} via ${ctx.auth?.clientId ?? '-'}`;
  }

  @Tool()
  @RequireScopes('notes:write', 'notes:read')
  create_note() {
    return 'created';
  }

  @Tool()
  @RequireRoles('admin')
  purge() {
    return 'purged';
  }
}

const TOKENS: Record<string, AuthInfo> = {
  reader: { subject: 'ann', clientId: 'cli', scopes: ['notes:read'] },
  writer: { subject: 'bo', scopes: ['notes:read', 'notes:write'] },
};

const verifier: TokenVerifier = {
  verify(token) {
    if (token === 'down') throw new Error('JWKS unreachable at https://as.example/jwks');
    const auth = TOKENS[token];
    if (!auth) throw new InvalidTokenError('unknown token');
    return auth;
  },
};

function endpoint(auth: Partial<NonNullable<McpHttpOptions['auth']>> = {}): FetchHandler {
  const app = createApp({ name: 'notes', version: '1', providers: [Notes], logger: pino({ level: 'silent' }) });
  return createFetchHandler(app, {
    sessions: false,
    auth: {
      resource: RESOURCE,
      authorizationServers: ['https://as.example'],
      verifier,
      scopesSupported: ['notes:read', 'notes:write', 'offline_access'],
      ...auth,
    },
  });
}

const post = (handler: FetchHandler, body: { method: string; params: { name: string } }, headers: Record<string, string> = {}, url = RESOURCE) =>
  handler(
    new Request(url, {
      method: 'POST',
      // 2026-07-28 mirrors the method and name in headers.
      headers: { ...HEADERS, 'mcp-method': body.method, 'mcp-name': body.params.name, ...headers },
      body: JSON.stringify(body),
    }),
  );

const callTool = (id: string, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, _meta: META } });

describe('the resource server', () => {
  let handler: FetchHandler;

  beforeEach(() => {
    handler = endpoint();
  });

  afterEach(() => handler.close());

  it('serves Protected Resource Metadata at the path URL and the root, with CORS and without offline_access (A1, A3, A12, case 9)', async () => {
    for (const url of [PRM_URL, 'http://localhost/.well-known/oauth-protected-resource']) {
      const response = await handler(new Request(url, { headers: { host: 'localhost' } }));
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({
        resource: RESOURCE,
        authorization_servers: ['https://as.example'],
        scopes_supported: ['notes:read', 'notes:write'],
        bearer_methods_supported: ['header'],
      });
    }
    // resource is the configured URL, never derived from Host.
    const other = await handler(new Request(PRM_URL, { headers: { host: '127.0.0.1' } }));
    expect(((await other.json()) as { resource: string }).resource).toBe(RESOURCE);
  });

  it('answers a request without a token 401 with resource_metadata and scope and no error code, before reading its body (A2, A4, case 1)', async () => {
    const response = await handler(new Request(RESOURCE, { method: 'POST', headers: HEADERS, body: 'not even JSON' }));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${PRM_URL}", scope="notes:read notes:write"`);
    expect(response.headers.get('access-control-expose-headers')).toBe('WWW-Authenticate');
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -31001 } });
  });

  it('answers a bad token 401 invalid_token, another scheme 401, a token in the URI or malformed Bearer 400 (A5, A13, case 2)', async () => {
    const bad = await post(handler, callTool('1', 'whoami'), { authorization: 'Bearer nope' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", resource_metadata=/);
    expect((await post(handler, callTool('1', 'whoami'), { authorization: 'Basic dTpw' })).status).toBe(401);
    expect((await post(handler, callTool('1', 'whoami'), { authorization: 'reader' }, `${RESOURCE}?access_token=reader`)).status).toBe(400);
    expect((await post(handler, callTool('1', 'whoami'), { authorization: 'Bearer reader, Bearer writer' })).status).toBe(400);
  });

  it('accepts bearer in any case and gives the handler ctx.auth', async () => {
    const response = await post(handler, callTool('1', 'whoami'), { authorization: 'bearer reader' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: { content: Array<{ text: string }> } }).result.content[0].text).toBe('ann via cli');
  });

  it('answers a missing scope 403 insufficient_scope naming every scope, with the request id (A8, A9, A10, case 12)', async () => {
    const response = await post(handler, callTool('step-up', 'create_note'), { authorization: 'Bearer reader' });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", resource_metadata="${PRM_URL}", scope="notes:write notes:read", error_description="Insufficient scope: needs notes:write notes:read"`,
    );
    expect(await response.json()).toMatchObject({
      id: 'step-up',
      error: { code: -31001, data: { error: 'insufficient_scope', scopes: ['notes:write', 'notes:read'] } },
    });
    expect((await post(handler, callTool('2', 'create_note'), { authorization: 'Bearer writer' })).status).toBe(200);
  });

  it('answers a hidden tool exactly like an unknown one (case 11)', async () => {
    const hidden = await post(handler, callTool('x', 'purge'), { authorization: 'Bearer reader' });
    const unknown = await post(handler, callTool('x', 'purgf'), { authorization: 'Bearer reader' });
    expect(hidden.status).toBe(unknown.status);
    expect((await hidden.text()).replace('purge', 'purgf')).toBe(await unknown.text());
  });

  it('answers 503 when the token cannot be verified, and never leaks why (case 8)', async () => {
    const response = await post(handler, callTool('1', 'whoami'), { authorization: 'Bearer down' });
    expect(response.status).toBe(503);
    expect(await response.text()).not.toContain('JWKS');
  });

  it("serves anonymous requests with anonymous: 'allow', and challenges them with 401 where scopes are needed (case 14)", async () => {
    const open = endpoint({ anonymous: 'allow' });
    try {
      const who = await post(open, callTool('1', 'whoami'));
      expect(((await who.json()) as { result: { content: Array<{ text: string }> } }).result.content[0].text).toBe('nobody via -');
      const needs = await post(open, callTool('2', 'create_note'));
      expect(needs.status).toBe(401);
      expect(needs.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${PRM_URL}", scope="notes:write notes:read"`);
    } finally {
      await open.close();
    }
  });

  it('refuses a configuration without authorization servers or with a relative resource', () => {
    const app = createApp({ name: 'n', version: '1', providers: [Notes] });
    expect(() => createFetchHandler(app, { auth: { resource: '/mcp', authorizationServers: ['https://as'], verifier } })).toThrow(/not an absolute URL/);
    expect(() => createFetchHandler(app, { auth: { resource: RESOURCE, authorizationServers: [], verifier } })).toThrow(/at least one authorization server/);
  });

  it('refuses the legacy HTTP+SSE endpoints beside a resource server: they take no token', () => {
    const app = createApp({ name: 'n', version: '1', providers: [Notes] });
    expect(() => createFetchHandler(app, { legacySse: true, auth: { resource: RESOURCE, authorizationServers: ['https://as'], verifier } })).toThrow(
      /legacySse cannot be combined with auth/,
    );
  });

  it('serves the metadata to a foreign origin with Access-Control-Allow-Origin: * through the fetch binding; /mcp still refuses that origin', async () => {
    const handler = endpoint();
    try {
      const got = await handler(new Request(PRM_URL, { headers: { host: 'localhost', origin: 'https://elsewhere.example' } }));
      expect(got.status).toBe(200);
      expect(got.headers.get('access-control-allow-origin')).toBe('*');
      const mcp = await post(handler, callTool('1', 'whoami'), { authorization: 'Bearer reader', origin: 'https://elsewhere.example' });
      expect(mcp.status).toBe(403);
    } finally {
      await handler.close();
    }
  });
});
