import { createApp, RequireScopes, Tool, type AuthInfo, type RequestContext } from '@mcpkit/core';
import pino from 'pino';
import { createFetchHandler, InvalidTokenError, type FetchHandler } from '../src';

// auth.md §1, the requirements of a resource server that had no test of their own, each named.
// Elsewhere: A1, A2, A3, A4, A5, A8, A9, A10 in resource-server.int.spec.ts; A5, A6 in
// jwt-verifier.int.spec.ts; A14 (binding) in session-binding.int.spec.ts; A10, A11, A17, A18 in
// packages/testing/test/guards.int.spec.ts; A15, A16 in request-state-principal.int.spec.ts;
// A19 in packages/core/src/dispatcher/trace-context.spec.ts and packages/otel/src/otel.spec.ts;
// end to end with the official clients in apps/notes/test/notes.auth.e2e.spec.ts.
// What does not apply to a resource server as such: A13 is a client's MUST (the server's part,
// refusing a token anywhere but the header, is tested here); A18's "caches MUST NOT be shared"
// binds caches, the server's part is the one cacheScope on every page (guards.int.spec.ts); and
// A7's ban on passing the token to upstream APIs binds the app's own outbound calls, which
// mcpkit does not make: its part is never handing a handler the token (tested here).
const RESOURCE = 'http://localhost/mcp';
const PRM_URL = 'http://localhost/.well-known/oauth-protected-resource/mcp';
const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
// Long enough to find anywhere it leaks to.
const TOKEN = 'ann-3q2p8v7c9x1z5m4n6b0l';
const TOKENS: Record<string, AuthInfo> = { [TOKEN]: { subject: 'ann', clientId: 'cli', scopes: ['notes:read'] } };

class Notes {
  @Tool({ input: null })
  everything(_input: unknown, ctx: RequestContext) {
    // All a handler could pass on: what the context holds about the request and its caller.
    return JSON.stringify({ auth: ctx.auth, transport: ctx.transport, session: ctx.session, meta: ctx.meta });
  }

  @Tool({ input: null })
  @RequireScopes('notes:write', 'offline_access')
  write() {
    return 'written';
  }
}

function endpoint(sessions: boolean): FetchHandler {
  return createFetchHandler(createApp({ name: 'notes', version: '1', providers: [Notes], logger: pino({ level: 'silent' }) }), {
    sessions,
    auth: {
      resource: RESOURCE,
      authorizationServers: ['https://as.example'],
      scopesSupported: ['notes:read', 'notes:write', 'offline_access'],
      verifier: {
        verify(token) {
          const auth = TOKENS[token];
          if (!auth) throw new InvalidTokenError('unknown token');
          return auth;
        },
      },
    },
  });
}

const BASE = { host: 'localhost', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const modernCall = (name: string, headers: Record<string, string> = {}, url = RESOURCE) =>
  new Request(url, {
    method: 'POST',
    headers: { ...BASE, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name, authorization: `Bearer ${TOKEN}`, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: {}, _meta: META } }),
  });

describe('the resource-server requirements of auth.md', () => {
  const handlers: FetchHandler[] = [];
  const make = (sessions = false) => {
    const handler = endpoint(sessions);
    handlers.push(handler);
    return handler;
  };

  afterAll(() => Promise.all(handlers.map((handler) => handler.close())));

  it('A7: a handler gets ctx.auth, never the token: the Authorization header stops at the resource server, on either era', async () => {
    const stateless = make();
    const modern = (await (await stateless(modernCall('everything'))).json()) as { result: { content: Array<{ text: string }> } };
    const seen = modern.result.content[0].text;
    expect(JSON.parse(seen)).toMatchObject({ auth: { subject: 'ann', clientId: 'cli' }, transport: { kind: 'http' } });
    expect(seen).not.toContain(TOKEN);
    expect(seen).not.toMatch(/authorization/i);

    // The handshake era: the session is made from the initialize request's headers.
    const withSessions = make(true);
    const post = (body: unknown, session?: string) =>
      withSessions(
        new Request(RESOURCE, {
          method: 'POST',
          headers: { ...BASE, authorization: `Bearer ${TOKEN}`, ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}) },
          body: JSON.stringify(body),
        }),
      );
    const opened = await post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const session = opened.headers.get('mcp-session-id')!;
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    const answer = await (await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'everything', arguments: {} } }, session)).text();
    expect(answer).toContain('ann');
    expect(answer).not.toContain(TOKEN);
  });

  it('A12: no challenge names offline_access, neither the bare 401 nor a step-up 403', async () => {
    const handler = make();
    const bare = await handler(modernCall('everything', { authorization: '' }));
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${PRM_URL}", scope="notes:read notes:write"`);
    const stepUp = await handler(modernCall('write'));
    expect(stepUp.status).toBe(403);
    expect(stepUp.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", resource_metadata="[^"]+", scope="notes:write",/);
  });

  it('A13: a token in the URI or in a form body is refused 400, never used', async () => {
    const handler = make();
    const query = await handler(modernCall('everything', { authorization: '' }, `${RESOURCE}?access_token=${TOKEN}`));
    expect(query.status).toBe(400);
    const form = await handler(
      new Request(RESOURCE, {
        method: 'POST',
        headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json, text/event-stream' },
        body: `access_token=${TOKEN}`,
      }),
    );
    expect(form.status).toBe(400);
    for (const refused of [query, form]) {
      expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_request"');
      expect(await refused.text()).not.toContain(TOKEN);
    }
  });

  it('A15: every request is verified, a session id is never a credential: GET, DELETE and POST on a live session without a token are 401', async () => {
    const handler = make(true);
    const opened = await handler(
      new Request(RESOURCE, {
        method: 'POST',
        headers: { ...BASE, authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }),
      }),
    );
    const session = opened.headers.get('mcp-session-id')!;
    expect(session).toEqual(expect.any(String));
    const bySession = { host: 'localhost', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const attempts = [
      new Request(RESOURCE, { headers: { ...bySession, accept: 'text/event-stream' } }),
      new Request(RESOURCE, { method: 'DELETE', headers: bySession }),
      new Request(RESOURCE, {
        method: 'POST',
        headers: { ...BASE, ...bySession },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'everything', arguments: {} } }),
      }),
    ];
    for (const attempt of attempts) {
      const response = await handler(attempt);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata=/);
    }
    // The session outlived the attempts: DELETE without a token ended nothing.
    const still = await handler(
      new Request(RESOURCE, {
        method: 'POST',
        headers: { ...BASE, ...bySession, authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
      }),
    );
    expect(still.status).toBe(200);
  });

  it('A9: a 2025-03-26 batch carries each denial in band (-31001), as one HTTP status cannot answer several requests', async () => {
    const handler = make(true);
    const post = (body: unknown, session?: string) =>
      handler(
        new Request(RESOURCE, {
          method: 'POST',
          headers: { ...BASE, authorization: `Bearer ${TOKEN}`, ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-03-26' } : {}) },
          body: JSON.stringify(body),
        }),
      );
    const opened = await post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    expect(opened.status).toBe(200);
    const session = opened.headers.get('mcp-session-id')!;
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    const batch = await post(
      [
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'write', arguments: {} } },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'everything', arguments: {} } },
      ],
      session,
    );
    expect(batch.status).toBe(200);
    expect(batch.headers.get('www-authenticate')).toBeNull();
    const answers = (await batch.json()) as Array<{ id: number; error?: { code: number; data?: unknown }; result?: unknown }>;
    expect(answers.find((answer) => answer.id === 1)).toMatchObject({
      error: { code: -31001, data: { error: 'insufficient_scope', scopes: ['notes:write', 'offline_access'] } },
    });
    expect(answers.find((answer) => answer.id === 2)).toHaveProperty('result');
    // The same call alone is the 403 challenge.
    const single = await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'write', arguments: {} } }, session);
    expect(single.status).toBe(403);
  });

  it('A14: session ids are unpredictable: 192 random bits each, never repeated', async () => {
    const handler = make(true);
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const opened = await handler(
        new Request(RESOURCE, {
          method: 'POST',
          headers: { ...BASE, authorization: `Bearer ${TOKEN}` },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 0,
            method: 'initialize',
            params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
          }),
        }),
      );
      const id = opened.headers.get('mcp-session-id')!;
      expect(id).toMatch(/^[A-Za-z0-9_-]{32}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(20);
  });
});
